// The service worker: keeps the client's shell (HTML, scripts, styles, icons) so the game opens
// without a network, with the page saying "bağlantı yok"; the APIs are never cached (a table
// view must be fresh). Shell files come from the network first (the server's ETags make that a
// cheap 304) and from the cache only when the network fails, so a deploy is never half-seen.
//
// Extension hook: features that need the worker (Web Push: `push` and `notificationclick`)
// live in their own files, listed in EXTENSIONS below and loaded with importScripts, e.g.
//   const EXTENSIONS = ["sw-push.js"];
// Each such file only adds its own event listeners; bump VERSION when the shell list changes.

const VERSION = "harftet-shell-v9";
const EXTENSIONS = ["sw-push.js"]; // Web Push: shows notifications, opens their table
const SHELL = [
  "./", "index.html", "style.css", "app.js", "api.js", "attempts.js", "refusals.js", "texts.js", "game.js",
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
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("harftet-shell-") && k !== VERSION).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  const scope = new URL(self.registration.scope);
  // Only the shell, under the worker's scope, same origin, GET: the APIs go to the network untouched.
  if (req.method !== "GET" || url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  if (url.pathname.startsWith(`${scope.pathname}docs/`)) return;
  const key = req.mode === "navigate" && url.pathname.endsWith("/") ? new Request(new URL("index.html", scope)) : req;
  event.respondWith((async () => {
    const cache = await caches.open(VERSION);
    try {
      const res = await fetch(req);
      if (res.ok && res.type === "basic") event.waitUntil(cache.put(key, res.clone()));
      return res;
    } catch (offline) {
      const cached = await cache.match(key, { ignoreSearch: true });
      if (cached) return cached;
      throw offline;
    }
  })());
});
