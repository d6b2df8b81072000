// The page's side of the service worker (updates.js): it registers sw.js, and a new version
// taking over reloads the page at once when that interrupts nothing, else as soon as the player
// leaves the table; a first visit's worker taking over reloads nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { registerWorker } from "../../clients/web/updates.js";
import { createStore, initialState } from "../../clients/web/state.js";

/** navigator.serviceWorker as a page sees it: `controller` set when a worker already ran the page. */
function container({ controlled }) {
  const listeners = {};
  return {
    controller: controlled ? {} : null,
    registered: [],
    register(url) { this.registered.push(url); return Promise.resolve({}); },
    addEventListener(type, fn) { listeners[type] = fn; },
    takeOver() { listeners.controllerchange(); },
  };
}

function page({ controlled = true, screen = "lobby" } = {}) {
  const store = createStore(initialState({}));
  store.dispatch({ type: "screen", screen });
  const sw = container({ controlled });
  const reloads = [];
  const busy = () => store.get().screen === "table";
  const on = registerWorker({ busy, subscribe: store.subscribe, reload: () => reloads.push(store.get().screen), container: sw, secure: true });
  return { store, sw, reloads, on };
}

test("the page registers its worker, where a worker can run", () => {
  const { sw, on } = page();
  assert.equal(on, true);
  assert.deepEqual(sw.registered, ["sw.js"]);
  assert.equal(registerWorker({ busy: () => false, subscribe: () => {}, container: undefined, secure: true }), false);
  assert.equal(registerWorker({ busy: () => false, subscribe: () => {}, container: container({}), secure: false }), false); // http:// elsewhere than localhost
});

test("a new version taking over reloads the lobby at once, once", () => {
  const { sw, reloads } = page({ screen: "lobby" });
  sw.takeOver();
  sw.takeOver();
  assert.deepEqual(reloads, ["lobby"]);
});

test("at a table, the new version waits until the player leaves it", () => {
  const { store, sw, reloads } = page({ screen: "table" });
  sw.takeOver();
  store.dispatch({ type: "busy", on: true });
  assert.deepEqual(reloads, []); // never in the middle of a hand
  store.dispatch({ type: "screen", screen: "lobby" });
  store.dispatch({ type: "busy", on: false });
  assert.deepEqual(reloads, ["lobby"]);
});

test("a first visit's worker taking over reloads nothing: the page already is that version", () => {
  const { sw, reloads } = page({ controlled: false });
  sw.takeOver();
  assert.deepEqual(reloads, []);
});
