// The effects that need no browser: the player's hands on the draft (drafting.js) over a real
// store, how an action meets failure (attempts.js), what this browser keeps (session.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createAttempts } from "../../clients/web/attempts.js";
import { createDrafting } from "../../clients/web/drafting.js";
import * as Session from "../../clients/web/session.js";
import { createStore, initialState } from "../../clients/web/state.js";
import { install } from "../../clients/web/texts.js";
import { catalogue } from "./catalogue.mjs";
import { kastetView } from "./fixtures.mjs";

install(catalogue("tr"));
const SETTINGS = { sound: false, volume: 60, motion: true, tileSize: "normal", sort: "series" };

function tableStore(v = kastetView()) {
  const effects = [];
  const store = createStore(initialState({ settings: SETTINGS, me: { token: "t", playerId: "p0" } }), (e) => effects.push(e.fx));
  store.dispatch({ type: "tableOpened", view: v });
  return { store, effects };
}

test("a new series and three rack taps build a meld; a tap on the selected tile lets it go", () => {
  const { store, effects } = tableStore();
  const drafting = createDrafting({ store, askFace: async () => null, changeSettings: () => {} });
  drafting.newMeld("series");
  for (const id of [1, 2, 3]) drafting.tapTile(id, {}, false);
  const d = store.get().table.draft;
  assert.deepEqual(d.series[0].map((e) => e.id), [1, 2, 3]);
  assert.ok(effects.includes("dryRun"));
  drafting.activate("series", 0); // the meld stops taking rack taps
  drafting.tapTile(4, {}, false);
  assert.equal(store.get().table.sel, 4);
  drafting.tapTile(4, {}, false);
  assert.equal(store.get().table.sel, null);
});

test("a tile moved onto a meld's left half goes before that tile; back to the rack it goes last", () => {
  const { store } = tableStore();
  const drafting = createDrafting({ store, askFace: async () => null, changeSettings: () => {} });
  drafting.newMeld("series");
  for (const id of [1, 2]) drafting.tapTile(id, {}, false);
  drafting.activate("series", 0);
  drafting.tapTile(3, {}, false); // selected in the rack
  drafting.tapTile(1, { area: "series", mi: 0, ti: 0 }, true);
  assert.deepEqual(store.get().table.draft.series[0].map((e) => e.id), [3, 1, 2]);
  drafting.dropOnRack(3, null, false);
  assert.deepEqual(store.get().table.draft.series[0].map((e) => e.id), [1, 2]);
  assert.equal(store.get().table.rack.at(-1), 3);
  drafting.reset();
  assert.equal(store.get().table.draft.dirty, false);
});

test("a change the rules refuse at once is said in the catalogue's words and changes nothing", () => {
  const { store } = tableStore(kastetView({ limits: { ...kastetView().limits, maxSeries: 1 } }));
  const drafting = createDrafting({ store, askFace: async () => null, changeSettings: () => {} });
  drafting.newMeld("series");
  const before = store.get().table.draft;
  drafting.newMeld("series");
  assert.equal(store.get().table.draft, before);
  assert.equal(store.get().notice.text, "Seri alanında en çok 1 seri olur, bu açışta 2 var");
  assert.equal(store.get().notice.kind, "error");
});

test("an action's refusal becomes a notice that the next success takes away; a lost server, the banner", async () => {
  const store = createStore(initialState({ settings: SETTINGS }));
  let retried = 0;
  const tries = createAttempts({ store, retry: () => { retried += 1; } });
  await tries.attempt(async () => { throw Object.assign(new Error(), { status: 403, code: "not_your_turn" }); });
  assert.equal(store.get().notice.text, "Sıra sende değil");
  await tries.attempt(async () => {});
  assert.equal(store.get().notice, null);
  await tries.attempt(async () => { throw Object.assign(new Error(), { status: 0, code: "network" }); });
  assert.equal(store.get().offline, true);
  assert.equal(store.get().notice, null); // the banner says it, not a notice
  tries.setOffline(false);
  assert.equal(store.get().offline, false);
  assert.equal(retried, 0);
});

test("one move at a time: the buttons are busy while a move is on its way", async () => {
  const store = createStore(initialState({ settings: SETTINGS }));
  const tries = createAttempts({ store });
  let release;
  const first = tries.guarded(() => new Promise((resolve) => { release = resolve; }));
  assert.equal(store.get().busy, true);
  let second = false;
  await tries.guarded(async () => { second = true; });
  assert.equal(second, false);
  release();
  await first;
  assert.equal(store.get().busy, false);
});

function memory(init = {}) {
  const data = { ...init };
  return { getItem: (k) => (k in data ? data[k] : null), setItem: (k, v) => { data[k] = String(v); }, removeItem: (k) => { delete data[k]; }, data };
}

test("this browser keeps the session, the table, the language and the deal proofs seen", () => {
  const storage = memory();
  assert.equal(Session.loadSession(storage), null);
  Session.saveSession(storage, { token: "t", playerId: "p", name: "Ayşe", rating: 1000, extra: 1 });
  Session.saveTable(storage, "t1");
  assert.deepEqual(Session.loadSession(storage), { token: "t", playerId: "p", name: "Ayşe", rating: 1000 });
  Session.forgetSession(storage);
  assert.equal(Session.savedTable(storage), null);
  assert.equal(Session.savedLang(storage), "tr");
  Session.saveLang(storage, "en");
  assert.equal(Session.savedLang(storage), "en");
  Session.rememberProof(storage, { tableId: "t1", handNumber: 1, dealProof: "ab" });
  Session.rememberProof(storage, { tableId: "t1", handNumber: 0, dealProof: "cd" }); // no hand yet
  assert.deepEqual(Session.seenProofs(storage, "t1"), { 1: "ab" });
  assert.deepEqual(Session.seenProofs(memory({ "harftet.proofs.t2": "{oops" }), "t2"), {});
});
