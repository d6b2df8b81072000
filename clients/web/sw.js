// The service worker: keeps the client's shell (HTML, scripts, styles, icons, the catalogue's
// shell copies) so a return visit starts from this device, with no round trip, and the game opens
// without a network (the page saying "bağlantı yok"); the APIs are never cached (a table view
// must be fresh).
//
// Versions: the shell is kept under VERSION and served cache-first; config.json (where the APIs
// are) comes from the network first. The servers stamp VERSION with a hash of the shell's files
// (harftet.localstack.client_files.worker_script; `make web-deploy` uploads the same), so any
// change to a shell file is a new worker: it fetches the new shell whole (past the HTTP cache),
// takes over at once, drops the older shells, and the page moves to the new version at its next
// safe moment (updates.js: not in the middle of a hand). A file the shell does not list is kept
// the first time it is fetched, under the same version.
//
// Extension hook: features that need the worker (Web Push: `push` and `notificationclick`)
// live in their own files, listed in EXTENSIONS below and loaded with importScripts, e.g.
//   const EXTENSIONS = ["sw-push.js"];
// Each such file only adds its own event listeners.

const VERSION = "harftet-shell-v9";
const EXTENSIONS = ["sw-push.js"]; // Web Push: shows notifications, opens their table
const SHELL = [
  "./", "index.html", "style.css", "boot.js", "texts.tr.json", "texts.en.json", "app.js", "updates.js", "api.js", "attempts.js", "refusals.js", "texts.js", "game.js",
  "draft.js", "settings.js", "catalogue.js", "config.js", "contacts.js", "drafting.js", "dryrun.js",
  "identity.js", "session.js", "live.js", "delta.js", "passkeys.js", "play.js", "push.js", "search.js", "sound.js",
  "state.js", "tables.js", "account.js", "render.js", "avatar.js", "wordcard.js", "chrome.js", "dialogs.js",
  "drag.js", "friends.js", "inbox.js", "lobby.js", "login.js", "leagues.js", "people.js", "phrases.js", "table.js",
  "motion.js", "markdown.js", "replay.js", "replays.js", "deal.js",
  "tourneys.js", "tournaments.js", "tournament.js", "badges.js", "rules.html", "rules.js", "sw-push.js", "manifest.webmanifest", "config.json",
  "icons/icon.svg", "icons/icon-192.png", "icons/icon-512.png",
];

if (EXTENSIONS.length) importScripts(...EXTENSIONS);

self.addEventListener("install", (event) => {
  const fresh = (path) => new Request(new URL(path, self.registration.scope), { cache: "reload" }); // the new shell, not the HTTP cache's copy
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(SHELL.map(fresh))).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("harftet-shell-") && k !== VERSION).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

/** The network's answer, kept when it is a good same-origin one; the error when there is none. */
async function fetchAndKeep(event, cache, key) {
  const res = await fetch(event.request);
  if (res.ok && res.type === "basic") event.waitUntil(cache.put(key, res.clone()));
  return res;
}

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  const scope = new URL(self.registration.scope);
  // Only the shell, under the worker's scope, same origin, GET: the APIs go to the network untouched.
  if (req.method !== "GET" || url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  if (url.pathname.startsWith(`${scope.pathname}docs/`)) return;
  const key = req.mode === "navigate" && url.pathname.endsWith("/") ? new Request(new URL("index.html", scope)) : req;
  const networkFirst = url.pathname === `${scope.pathname}config.json`; // where the APIs are: this deploy's
  event.respondWith((async () => {
    const cache = await caches.open(VERSION);
    const cached = () => cache.match(key, { ignoreSearch: true });
    if (!networkFirst) return (await cached()) || fetchAndKeep(event, cache, key);
    try {
      return await fetchAndKeep(event, cache, key);
    } catch (offline) {
      const kept = await cached();
      if (kept) return kept;
      throw offline;
    }
  })());
});
