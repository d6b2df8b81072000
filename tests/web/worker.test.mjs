// The service worker (sw.js, with sw-push.js loaded into it as the page's worker does): what it
// keeps for an offline start, which requests it leaves to the network, what a push shows and
// where a tapped notification leads. Each file runs as a classic script in a worker's scope.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const source = (f) => readFileSync(new URL(`../../clients/web/${f}`, import.meta.url), "utf8");
const SCOPE = "https://harftet.test/play/";

/** Cache Storage in memory: {name: Map(url → Response)}. */
function cacheStorage() {
  const stores = {};
  const keyOf = (req) => (typeof req === "string" ? new URL(req, SCOPE).href : req.url);
  const open = async (name) => {
    const m = (stores[name] ||= new Map());
    return {
      addAll: async (urls) => { for (const u of urls) m.set(keyOf(u), new Response(`shell ${keyOf(u)}`)); },
      put: async (req, res) => { m.set(keyOf(req), res); },
      match: async (req, { ignoreSearch } = {}) => {
        const bare = (u) => { const url = new URL(u); if (ignoreSearch) url.search = ""; return url.href; };
        const found = [...m.keys()].find((k) => bare(k) === bare(keyOf(req)));
        return found ? m.get(found).clone() : null; // each match reads a copy, as a browser's cache gives
      },
    };
  };
  return { stores, open, keys: async () => Object.keys(stores), delete: async (name) => delete stores[name] };
}

/** A worker's scope running `files`: its listeners, the notifications shown, the windows open. */
function worker({ files = ["sw.js"], network = async () => basic("fresh"), windows = [] } = {}) {
  const listeners = {};
  const shown = [];
  const opened = [];
  const log = [];
  const caches = cacheStorage();
  const self = {
    addEventListener: (type, fn) => { listeners[type] = fn; },
    registration: { scope: SCOPE, showNotification: async (title, options) => { shown.push({ title, options }); } },
    skipWaiting: async () => log.push("skipWaiting"),
    clients: {
      claim: async () => log.push("claim"),
      matchAll: async () => windows,
      openWindow: async (url) => { opened.push(url); },
    },
  };
  const scope = { self, caches, fetch: network, Request, Response, URL, console, clients: self.clients };
  scope.importScripts = (...names) => { for (const n of names) vm.runInContext(source(n), scope, { filename: n }); };
  vm.createContext(scope);
  for (const f of files) vm.runInContext(source(f), scope, { filename: f });
  /** Fires an event of `type`; resolves once what it waits for is done, with what it answered
   * (`response`, or the `error` the page would get) if it answered. */
  async function fire(type, init = {}) {
    const waits = [];
    let answer;
    const event = { ...init, waitUntil: (p) => waits.push(p), respondWith: (p) => { answer = p; } };
    listeners[type](event);
    const got = answer === undefined ? {} : await answer.then((response) => ({ response }), (error) => ({ error }));
    await Promise.all(waits);
    return { answered: answer !== undefined, ...got };
  }
  return { fire, caches, shown, opened, log, listeners };
}

/** A same-origin answer, as the browser's fetch types it ("basic": the worker may keep it). */
function basic(body, init) {
  const res = new Response(body, init);
  Object.defineProperty(res, "type", { value: "basic" });
  return res;
}

const get = (path, init) => ({ request: new Request(new URL(path, "https://harftet.test").href, init) });
/** The browser going to a page (a link, the address bar): a request no script may make. */
function navigate(path) {
  const event = get(path);
  Object.defineProperty(event.request, "mode", { value: "navigate" });
  return event;
}

test("installing keeps the client's shell (the page, its scripts and styles) and takes over at once", async () => {
  const w = worker();
  await w.fire("install");
  const [name] = Object.keys(w.caches.stores);
  assert.match(name, /^harftet-shell-v\d+$/);
  const kept = [...w.caches.stores[name].keys()].map((u) => u.slice(SCOPE.length));
  for (const f of ["", "index.html", "boot.js", "texts.tr.json", "texts.en.json", "app.js", "updates.js", "state.js", "style.css", "sw-push.js", "rules.html", "config.json"]) assert.ok(kept.includes(f), f);
  assert.ok(!kept.includes("verify.html")); // a finished game's check needs the network anyway
  assert.deepEqual(w.log, ["skipWaiting"]);
});

test("a new version drops the shells kept by older ones, and nothing else this origin keeps", async () => {
  const w = worker();
  await w.fire("install");
  const [current] = Object.keys(w.caches.stores);
  await w.caches.open("harftet-shell-v1");
  await w.caches.open("someone-elses");
  await w.fire("activate");
  assert.deepEqual(Object.keys(w.caches.stores).sort(), [current, "someone-elses"].sort());
  assert.ok(w.log.includes("claim"));
});

test("the APIs, other origins, writes and the rules' documents go to the network untouched", async () => {
  const w = worker();
  for (const req of [
    get("/tables/t1"), get("/texts?lang=tr"), get("/play/app.js", { method: "POST", body: "x" }),
    { request: new Request("https://elsewhere.test/play/app.js") }, get("/play/docs/KURALLAR.tr.md"),
  ]) {
    assert.equal((await w.fire("fetch", req)).answered, false, req.request.url);
  }
});

test("the shell comes from the cache once kept: a return visit makes no round trip, and opens offline", async () => {
  let online = true;
  const asked = [];
  const w = worker({ network: async (req) => { asked.push(new URL(req.url).pathname); if (!online) throw new TypeError("offline"); return basic(`fresh ${new URL(req.url).pathname}`); } });
  const first = await w.fire("fetch", get("/play/app.js?v=2"));
  assert.equal(await first.response.text(), "fresh /play/app.js"); // not kept yet: the network, then kept
  const again = await w.fire("fetch", get("/play/app.js?v=3"));
  assert.equal(await again.response.text(), "fresh /play/app.js"); // the copy kept, whatever the query
  assert.deepEqual(asked, ["/play/app.js"]); // no second round trip
  online = false;
  const page = await w.fire("fetch", navigate("/play/"));
  assert.equal(page.answered, true);
  assert.ok(page.error instanceof TypeError); // no page kept yet: the browser's own offline page
  online = true;
  await w.fire("fetch", navigate("/play/"));
  online = false;
  const offline = await w.fire("fetch", navigate("/play/?table=t9"));
  assert.equal(await offline.response.text(), "fresh /play/"); // any link to the app opens offline
  const named = await w.fire("fetch", get("/play/index.html"));
  assert.equal(await named.response.text(), "fresh /play/"); // the page is kept as index.html
});

test("an installed shell is served from the cache; config.json (this deploy's APIs) from the network first", async () => {
  let online = true;
  const asked = [];
  const w = worker({ network: async (req) => { asked.push(new URL(req.url).pathname); if (!online) throw new TypeError("offline"); return basic(`net ${asked.length}`); } });
  await w.fire("install");
  assert.equal(await (await w.fire("fetch", get("/play/boot.js"))).response.text(), "shell https://harftet.test/play/boot.js");
  assert.equal(await (await w.fire("fetch", get("/play/texts.tr.json"))).response.text(), "shell https://harftet.test/play/texts.tr.json");
  assert.deepEqual(asked, []);
  assert.equal(await (await w.fire("fetch", get("/play/config.json"))).response.text(), "net 1");
  online = false;
  assert.equal(await (await w.fire("fetch", get("/play/config.json"))).response.text(), "net 1"); // offline: the last one
});

test("installing fetches the new shell past the HTTP cache: a new version never keeps an old file", async () => {
  const w = worker();
  const modes = [];
  const open = w.caches.open;
  w.caches.open = async (name) => { const c = await open(name); const addAll = c.addAll; c.addAll = (reqs) => { modes.push(...reqs.map((r) => r.cache)); return addAll(reqs); }; return c; };
  await w.fire("install");
  assert.ok(modes.length > 40 && modes.every((m) => m === "reload"), modes.join());
});

test("a refused shell file (a 404) is passed on and never kept: the good copy is kept once it comes", async () => {
  let status = 404;
  const w = worker({ network: async () => { if (status === 0) throw new TypeError("offline"); return basic(`r${status}`, { status }); } });
  assert.equal((await w.fire("fetch", get("/play/style.css"))).response.status, 404);
  status = 200;
  assert.equal(await (await w.fire("fetch", get("/play/style.css"))).response.text(), "r200"); // not the 404 from the cache
  status = 0;
  assert.equal(await (await w.fire("fetch", get("/play/style.css"))).response.text(), "r200");
});

test("an answer the page may not read (another origin's, opaque) is never kept", async () => {
  let online = true;
  const w = worker({ network: async () => { if (!online) throw new TypeError("offline"); return new Response("cors"); } });
  await w.fire("fetch", get("/play/config.json"));
  online = false;
  assert.ok((await w.fire("fetch", get("/play/config.json"))).error instanceof TypeError);
});

const pushed = (payload) => ({ data: payload == null ? null : { json: () => JSON.parse(payload), text: () => payload } });

test("a push shows the server's title and body in the player's language, one notice per table", async () => {
  const w = worker(); // sw.js loads sw-push.js, as the app's worker does
  await w.fire("push", pushed(JSON.stringify({ title: "Sıra sende", body: "Ayşe'nin masası", tableId: "t7", lang: "tr", kind: "turn", url: "/play/?table=t7" })));
  assert.deepEqual(JSON.parse(JSON.stringify(w.shown)), [{ title: "Sıra sende", options: {
    body: "Ayşe'nin masası", tag: "t7", renotify: false, lang: "tr", data: { url: "/play/?table=t7", tableId: "t7", kind: "turn" } } }]);
  await w.fire("push", pushed(JSON.stringify({ title: "x", tag: "friends" })));
  assert.equal(w.shown[1].options.tag, "friends");
  assert.equal(w.shown[1].options.renotify, true); // a tagged notice replaces the last and rings again
});

test("a push with no data, or not JSON, still shows something to tap, opening the app", async () => {
  const w = worker({ files: ["sw-push.js"] }); // sw-push.js is a complete worker on its own too
  await w.fire("push", pushed(null));
  await w.fire("push", pushed("plain words"));
  assert.deepEqual(w.shown.map((n) => [n.title, n.options.body, n.options.tag, n.options.data.url]), [
    ["Harftet", "", "harftet", "/play/"], ["Harftet", "plain words", "harftet", "/play/"]]);
});

test("a tapped notification brings an open app tab to its table, or opens the app there", async () => {
  const posted = [];
  const focused = [];
  const tab = { url: "https://harftet.test/play/#t=t1", postMessage: (m) => posted.push(m), focus: async () => focused.push(1) };
  const other = { url: "https://harftet.test/docs/", postMessage: () => assert.fail("not the app"), focus: async () => assert.fail("not the app") };
  const closed = [];
  const click = (data) => ({ notification: { data, close: () => closed.push(1) } });
  const w = worker({ windows: [other, tab] });
  await w.fire("notificationclick", click({ url: "/play/?table=t7", tableId: "t7" }));
  assert.deepEqual(JSON.parse(JSON.stringify(posted)), [{ type: "open-table", tableId: "t7" }]);
  assert.equal(focused.length, 1);
  const none = worker({ windows: [other] });
  await none.fire("notificationclick", click({ url: "/play/?table=t7", tableId: "t7" }));
  await none.fire("notificationclick", click(null));
  assert.deepEqual(none.opened, ["/play/?table=t7", "/play/"]);
  assert.equal(closed.length, 3);
});
