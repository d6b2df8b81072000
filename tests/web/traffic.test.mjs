// The effects that talk to the server, over a fake API and socket and the real store: what a
// player would notice if they went wrong — a stale move that loses the draft, a refused lay not
// tinted, a dry run outliving its draft, a lobby page lost.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../../clients/web/api.js";
import { createAttempts } from "../../clients/web/attempts.js";
import { loadConfig } from "../../clients/web/config.js";
import * as D from "../../clients/web/draft.js";
import { createDryRuns } from "../../clients/web/dryrun.js";
import { createPlay } from "../../clients/web/play.js";
import { tableFromUrl } from "../../clients/web/push.js";
import { createStore, initialState } from "../../clients/web/state.js";
import { createTables, LOBBY_PAGE } from "../../clients/web/tables.js";
import { install } from "../../clients/web/texts.js";
import { catalogue } from "./catalogue.mjs";
import { K, kastetView, L, LIMITS } from "./fixtures.mjs";

install(catalogue("tr"));
globalThis.history = { replaceState() {} };
globalThis.location = { origin: "http://127.0.0.1:3000", pathname: "/play/", hash: "" };
const SETTINGS = { sound: false, volume: 60, motion: true, tileSize: "normal", sort: "series" };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const refusal = (status, error, view) => new ApiError(status, { error, view });

function memory() {
  const data = {};
  return { getItem: (k) => data[k] ?? null, setItem: (k, v) => { data[k] = String(v); }, removeItem: (k) => { delete data[k]; } };
}

/** A store at the table of `v`, a fake socket that never answers, and play.js over `api`. */
function playing(v, api) {
  const effects = [];
  const store = createStore(initialState({ settings: SETTINGS, me: { token: "t", playerId: "p0" } }), (e) => effects.push(e));
  const live = { want: null, connect() {}, adopt() {}, close() {}, move: async () => null };
  const tries = createAttempts({ store });
  const dryRuns = { schedule() {}, cancel() {} };
  const play = createPlay({ store, api, live, storage: memory(), tries, dryRuns, askFace: async () => null,
    confirm: () => true, openLobby: async () => {}, beforeTable() {} });
  play.enterTable(v);
  return { store, play, effects };
}

const logless = { log: async () => ({ events: [] }) };

test("a move refused as stale brings the table as it is, keeping a draft that still fits", async () => {
  const v = kastetView();
  const now = kastetView({ version: 7, seats: [v.seats[0], { ...v.seats[1], tiles: 13 }] });
  const { store, play } = playing(v, { ...logless, move: async () => { throw refusal(409, { code: "stale_version" }, now); } });
  let d = D.newMeld(store.get().table.draft, "series", v.limits);
  d = D.addToActive(d, 1, v.hand, v.limits);
  store.dispatch({ type: "draft", draft: d });
  await play.pass();
  assert.equal(store.get().table.view.version, 7);
  assert.equal(store.get().table.draft, d);
  assert.equal(store.get().notice.key, "notice.stale.kept");
});

test("a refused lay tints the meld the server names and says why in its words", async () => {
  const v = kastetView();
  const api = { ...logless, move: async () => { throw refusal(422, { code: "illegal_move", reason: "meld_too_short", meld: 0 }); } };
  const { store, play } = playing(v, api);
  let d = D.newMeld(store.get().table.draft, "series", v.limits);
  d = D.addToActive(d, 4, v.hand, v.limits);
  store.dispatch({ type: "draft", draft: d });
  await play.lay();
  assert.equal(store.get().table.validity["series:0"], "invalid");
  assert.equal(store.get().notice.text, "1. seri: Seride en az 3 taş olmalı");
});

test("a move answered starts the next arrangement from the table; the notice goes", async () => {
  const v = kastetView();
  const drawn = kastetView({ version: 6, hand: [...v.hand, K(9, "black", 1)] });
  const { store, play } = playing(v, { ...logless, move: async (_, body) => (assert.equal(body.type, "draw"), drawn) });
  store.dispatch({ type: "notice", text: "eski" });
  await play.draw();
  assert.equal(store.get().table.view.version, 6);
  assert.deepEqual(store.get().table.fresh, [9]);
  assert.equal(store.get().notice, null);
});

test("a hint lays one meld out as a draft and says what it sheds; none left says so", async () => {
  const v = kastetView();
  const hint = { version: 5, meld: [{ id: 1, from: "hand" }, { id: 2, from: "hand" }, { id: 3, from: "hand" }], shed: 18, lay: null };
  const { store, play } = playing(v, { ...logless, hint: async () => hint });
  await play.hint();
  assert.deepEqual(store.get().table.draft.series[0].map((e) => e.id), [1, 2, 3]);
  assert.equal(store.get().table.hinted, store.get().table.draft);
  assert.deepEqual([store.get().notice.key, store.get().notice.params], ["notice.hintMeld", { shed: 18 }]);
  const spent = playing(v, { ...logless, table: async () => v, hint: async () => { throw refusal(409, { code: "no_hints_left" }); } });
  await spent.play.hint();
  assert.equal(spent.store.get().notice.key, "notice.noHintsLeft");
});

test("ready between hands is retried once on a version that moved on", async () => {
  const v = kastetView({ turn: null, break: { until: 2e9, ready: [] } });
  let asked = 0;
  const api = { ...logless, move: async () => {
    asked += 1;
    if (asked === 1) throw refusal(409, { code: "stale_version" }, { ...v, version: 6 });
    return { ...v, version: 7, break: { until: 2e9, ready: [0] } };
  } };
  const { store, play } = playing(v, api);
  await play.ready();
  assert.equal(asked, 2);
  assert.deepEqual(store.get().table.view.break.ready, [0]);
});

/** A store at `view`'s table and a draft of one new series of the rack tiles `ids`. */
function drafted(view, ids = [1, 2, 3]) {
  const store = createStore(initialState({ settings: SETTINGS, me: { token: "t", playerId: "p0" } }));
  store.dispatch({ type: "tableOpened", view });
  let d = D.newMeld(store.get().table.draft, "series", view.limits);
  for (const id of ids) d = D.addToActive(d, id, view.hand, view.limits);
  return { store, d };
}

const harftet = () => kastetView({ game: "harftet", limits: LIMITS.harftet, hand: [L(1, "K"), L(2, "A"), L(3, "L"), L(4, "E")] });

test("a dry run waits for more taps, asks the server once and tints the word; a refused word is remembered", async () => {
  const { store, d } = drafted(harftet());
  const asked = [];
  const answer = { legal: true };
  const dry = createDryRuns({ store, api: { move: async (_, body) => {
    asked.push(body);
    if (answer.legal) return { legal: true };
    throw refusal(422, { code: "illegal_move", reason: "not_a_word", meld: 0, word: "KAL" });
  } } });
  store.dispatch({ type: "draft", draft: d, quiet: true });
  dry.schedule();
  assert.equal(asked.length, 0); // the debounce
  await sleep(350);
  assert.equal(asked.length, 1);
  assert.equal(asked[0].dryRun, true);
  assert.equal(store.get().table.validity["series:0"], "valid");
  const other = drafted(harftet(), [4, 2, 3]); // "EAL": the server says no word
  answer.legal = false;
  const dryOther = createDryRuns({ store: other.store, api: { move: async (_, body) => { asked.push(body); throw refusal(422, { code: "illegal_move", reason: "not_a_word", meld: 0, word: "EAL" }); } } });
  other.store.dispatch({ type: "draft", draft: other.d, quiet: true });
  dryOther.schedule();
  await sleep(350);
  assert.equal(asked.length, 2);
  assert.equal(other.store.get().table.validity["series:0"], "invalid");
  other.store.dispatch({ type: "draftReset" });
  other.store.dispatch({ type: "draft", draft: other.d, quiet: true });
  dryOther.schedule(); // the same letters again: refused before, so not asked again
  assert.equal(other.store.get().table.validity["series:0"], "invalid");
  await sleep(350);
  assert.equal(asked.length, 2);
});

test("a dry run never outlives its draft, and a server over its budget is left alone a while", async () => {
  const { store, d } = drafted(harftet());
  let asked = 0;
  const dry = createDryRuns({ store, api: { move: async () => { asked += 1; throw refusal(429, { code: "rate_limited" }); } } });
  store.dispatch({ type: "draft", draft: d, quiet: true });
  dry.schedule();
  dry.cancel(); // put back within the wait
  await sleep(350);
  assert.equal(asked, 0);
  dry.schedule();
  await sleep(350);
  assert.equal(asked, 1);
  assert.ok(store.get().table.dryPausedUntil > Date.now());
  dry.schedule();
  await sleep(350);
  assert.equal(asked, 1);
});

test("the lobby is read a page at a time, forward and back, each tab on its own", async () => {
  const pages = { "": { tables: [{ tableId: "a" }], cursor: "c2" }, c2: { tables: [{ tableId: "b" }], cursor: null } };
  const asked = [];
  const api = { lobby: async (tab, cursor, limit) => { asked.push([tab, cursor, limit]); return tab === "waiting" ? pages[cursor ?? ""] : { tables: [], cursor: null }; } };
  const store = createStore(initialState({ settings: SETTINGS }));
  const tables = createTables({ store, api, live: {}, storage: memory(), play: {}, contacts: {}, inbox: {}, identity: {}, tries: createAttempts({ store }) });
  await tables.loadLobby();
  assert.deepEqual(store.get().lobby.tables, [{ tableId: "a" }]);
  await tables.loadLobby(1);
  assert.deepEqual([store.get().lobby.at, store.get().lobby.tables[0].tableId, store.get().lobby.next], [1, "b", null]);
  await tables.loadLobby(-1);
  assert.equal(store.get().lobby.tables[0].tableId, "a");
  await tables.setTab("playing");
  assert.deepEqual(store.get().lobby, { tab: "playing", tables: [], at: 0, cursors: [null], next: null });
  assert.deepEqual(asked.map((a) => a[2]), [LOBBY_PAGE, LOBBY_PAGE, LOBBY_PAGE, LOBBY_PAGE]);
});

test("a notification's link names its table; where the APIs are comes from config.json", async () => {
  assert.equal(tableFromUrl("https://x.example/play/?table=abc-1"), "abc-1");
  assert.equal(tableFromUrl("https://x.example/play/?table=../x"), null);
  const config = await loadConfig(async () => ({ ok: true, json: async () => ({ rest: "https://api.example/Prod/", ws: "wss://ws" }) }));
  assert.deepEqual(config, { rest: "https://api.example/Prod", ws: "wss://ws" });
  assert.deepEqual(await loadConfig(async () => { throw new TypeError("offline"); }), { rest: "", ws: "" });
});

test("Pas with tiles of the hand in the draft ends the turn with the lay as ONE move (\"pass\": true); without, a plain pass", async () => {
  const v = kastetView();
  const sent = [];
  const api = { ...logless, move: async (_id, body) => { sent.push(body); return kastetView({ version: v.version + 1, turn: { seat: 1, laid: false } }); } };
  const { store, play } = playing(v, api);
  let d = D.newMeld(store.get().table.draft, "series", v.limits);
  for (const id of [1, 2, 3]) d = D.addToActive(d, id, v.hand, v.limits);
  store.dispatch({ type: "draft", draft: d });
  await play.pass();
  assert.equal(sent.length, 1);
  assert.equal(sent[0].type, "lay");
  assert.equal(sent[0].pass, true);
  assert.deepEqual(sent[0].series.flat().map((x) => x.id), [1, 2, 3]);
  const { play: again } = playing(kastetView({ turn: { seat: 0, laid: true, deadline: 1 } }), api);
  await again.pass();
  assert.equal(sent.length, 2);
  assert.equal(sent[1].type, "pass");
  assert.equal("pass" in sent[1], false);
});
