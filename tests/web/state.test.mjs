// The client's state (clients/web/state.js): changed only by `update(state, message)`, a pure
// function; what a change asks of the world comes back as data in `effects`.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as D from "../../clients/web/draft.js";
import { addLog, createStore, initialState, update } from "../../clients/web/state.js";
import { install } from "../../clients/web/texts.js";
import { catalogue } from "./catalogue.mjs";
import { K, kastetView } from "./fixtures.mjs";

install(catalogue("tr"));
const SETTINGS = { sound: true, volume: 60, motion: true, tileSize: "normal", sort: "series" };
const me = { token: "tok", playerId: "p0", name: "Ayşe", rating: 1000 };
const start = () => initialState({ settings: SETTINGS, me });
const fx = (s) => s.effects.map((e) => (e.fx === "cue" ? `cue:${e.name}` : e.fx));
const atTable = (v = kastetView()) => ({ ...update(start(), { type: "tableOpened", view: v }), effects: [] });

test("update is pure: the state it was handed is never changed, an unknown message changes nothing", () => {
  const s = start();
  const frozen = JSON.stringify(s);
  const next = update(s, { type: "signedIn", player: { token: "t2", playerId: "p9", name: "Ece", rating: 1200 } });
  assert.equal(JSON.stringify(s), frozen);
  assert.equal(next.me.name, "Ece");
  assert.equal(update(s, { type: "noSuchMessage" }), s);
});

test("signing out forgets the player and the table and shows the login, keeping the catalogue", () => {
  const s = { ...atTable(), ready: true, texts: 3 };
  const out = update(s, { type: "signedOut" });
  assert.equal(out.me, null);
  assert.equal(out.table, null);
  assert.equal(out.screen, "login");
  assert.equal(out.ready, true);
  assert.equal(out.texts, 3);
});

test("a notice that is not a refusal asks for its timer; clearing an older one leaves the newer", () => {
  let s = update(start(), { type: "notice", key: "notice.hint", kind: "info" });
  assert.deepEqual(s.effects, [{ fx: "noticeTimer", seq: 1 }]);
  s = update({ ...s, effects: [] }, { type: "notice", text: "Sıra sende değil" });
  assert.equal(s.notice.kind, "error");
  assert.deepEqual(s.effects, []);
  assert.equal(update(s, { type: "noticeCleared", seq: 1 }).notice.seq, 2); // the old timer
  assert.equal(update(s, { type: "noticeCleared" }).notice, null);
});

test("opening a table shows it with a fresh draft and the rack sorted as the player sorts it", () => {
  const s = atTable();
  assert.equal(s.screen, "table");
  assert.equal(s.table.view.version, 5);
  assert.deepEqual(s.table.rack, [1, 2, 3, 4]);
  assert.equal(s.table.draft.dirty, false);
  assert.equal(s.table.shownHands, 0);
});

test("an older view is ignored; a newer one with a drawn tile flies it in from the pile with a sound", () => {
  const s = atTable();
  assert.equal(update(s, { type: "view", view: kastetView({ version: 4 }) }), s);
  const drawn = update(s, { type: "view", view: kastetView({ version: 6, hand: [...kastetView().hand, K(9, "black", 1)] }) });
  assert.deepEqual(drawn.table.fresh, [9]);
  assert.deepEqual(drawn.table.motion.flyIn, [9]);
  assert.ok(fx(drawn).includes("cue:draw"));
  assert.ok(drawn.table.rack.includes(9));
});

test("another seat's lay slides in from its side and stays marked until the caller's turn ends", () => {
  const s = atTable(kastetView({ turn: { seat: 1, laid: false, deadline: 1 } }));
  const laid = [K(20, "black", 2), K(21, "black", 3), K(22, "black", 4)];
  const v = kastetView({ version: 6, turn: { seat: 0, laid: false, deadline: 1 }, series: [laid], last: { seq: 3, type: "lay", seat: 1, tiles: [20, 21, 22] } });
  const next = update(s, { type: "view", view: v });
  assert.deepEqual(next.table.othersLaid, [20, 21, 22]);
  assert.deepEqual(next.table.motion.slide, [20, 21, 22]);
  assert.equal(next.table.motion.from, "top");
  assert.ok(fx(next).includes("cue:place"));
  assert.ok(fx(next).includes("cue:turn") && fx(next).includes("turnCame")); // and the turn came back
  const passed = update({ ...next, effects: [] }, { type: "view", view: { ...v, version: 7, turn: { seat: 1, laid: false, deadline: 1 }, last: { seq: 4, type: "pass", seat: 0 } } });
  assert.deepEqual(passed.table.othersLaid, []);
});

test("a draft that still fits the new table is kept; one that does not is rebased and the player told", () => {
  const s = atTable();
  const draft = D.place(D.newMeld(s.table.draft, "series", s.table.view.limits), 1, { area: "series", mi: 0 }, s.table.view.hand, s.table.view.limits);
  const drafted = update(s, { type: "draft", draft });
  assert.deepEqual(fx(drafted), ["cue:place", "dryRun"]);
  const other = update({ ...drafted, effects: [] }, { type: "view", view: kastetView({ version: 6, turn: { seat: 1, laid: false, deadline: 1 } }) });
  assert.equal(other.table.draft, draft); // nothing on the table changed: the draft stands
  const tableMeld = [K(30, "yellow", 1), K(31, "yellow", 2), K(32, "yellow", 3)];
  const moved = update({ ...drafted, effects: [] }, { type: "view", view: kastetView({ version: 6, series: [tableMeld] }) });
  assert.notEqual(moved.table.draft, draft);
  assert.equal(moved.table.draft.series.length, 2); // the table's meld and the player's own
  assert.ok(moved.table.draft.dirty);
});

test("the end of a hand opens its dialog with the caller's sound; the end of the game opens the game's", () => {
  const s = atTable();
  const result = { hand: 1, finisher: 0, penalties: [0, 40], left: { 0: [], 1: [] } };
  const ended = update(s, { type: "view", view: kastetView({ version: 9, handResults: [result], turn: null, break: { until: 2e9, ready: [] } }) });
  assert.deepEqual(ended.table.end, { kind: "hand", result });
  assert.ok(fx(ended).includes("cue:won"));
  const over = update({ ...atTable(), effects: [] }, { type: "view", view: kastetView({ version: 9, status: "finished", handResults: [result], turn: null }) });
  assert.equal(over.table.end.kind, "game");
  assert.ok(fx(over).includes("refreshMe"));
  assert.equal(update(over, { type: "endClosed" }).table.end, null);
});

test("a log event arrives with its view; a gap in the log asks for the log", () => {
  let s = update(atTable(), { type: "log", events: [{ seq: 1, type: "start" }] });
  s = update(s, { type: "view", view: kastetView({ version: 6, last: { seq: 2, type: "draw", seat: 0 } }) });
  assert.deepEqual(s.table.log.map((e) => e.seq), [1, 2]);
  const gap = update({ ...s, effects: [] }, { type: "view", view: kastetView({ version: 9, last: { seq: 5, type: "pass", seat: 1 } }) });
  assert.ok(fx(gap).includes("loadLog"));
});

test("the log keeps each event once, in order, the last 200", () => {
  const table = { log: [], logSeq: null };
  const many = addLog(table, Array.from({ length: 250 }, (_, i) => ({ seq: 250 - i, type: "draw" })));
  assert.equal(many.log.length, 200);
  assert.equal(many.log[0].seq, 51);
  assert.equal(many.logSeq, 250);
  assert.equal(addLog(many, [{ seq: 250, type: "draw" }, null]), many);
});

test("a move's answer starts the next arrangement from the table; an answer a push overtook resets the draft", () => {
  const s = atTable();
  const draft = D.newMeld(s.table.draft, "series", s.table.view.limits);
  const drafted = { ...update(s, { type: "draft", draft }), effects: [] };
  const answered = update(drafted, { type: "moveAnswered", view: kastetView({ version: 6, turn: { seat: 1, laid: false, deadline: 1 } }) });
  assert.equal(answered.table.draft.dirty, false);
  assert.equal(answered.table.view.version, 6);
  const overtaken = update(drafted, { type: "moveAnswered", view: kastetView({ version: 5 }) });
  assert.equal(overtaken.table.draft.dirty, false);
  assert.deepEqual(fx(overtaken), ["cancelDryRun"]);
});

test("a refused lay tints the meld it names", () => {
  const s = update(atTable(), { type: "refused", meld: 0 });
  assert.equal(s.table.errMeld, 0);
  assert.equal(s.table.validity["series:0"], "invalid");
});

test("the store tells its subscribers after each change, then runs the effects asked for", () => {
  const order = [];
  const store = createStore(start(), (effect) => order.push(`run:${effect.fx}`));
  store.subscribe((s, m) => order.push(`render:${m.type}`));
  store.dispatch({ type: "notice", key: "notice.hint", kind: "info" });
  store.dispatch({ type: "noSuchMessage" }); // nothing changed: nobody is told
  assert.deepEqual(order, ["render:notice", "run:noticeTimer"]);
  assert.deepEqual(store.get().effects, []); // asked once, run once
});
