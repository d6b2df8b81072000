// The table screen's clocks (table.js) on the real page: they tick only while a table with a
// running clock is on screen; the lobby, a paused table and a left table hold no timer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { clockRuns, mountTable } from "../../clients/web/table.js";
import { page, read, storeWith } from "./dom.mjs";
import { kastetView } from "./fixtures.mjs";

/** The page's intervals as they are set and cleared: how many are running now. */
function countIntervals(ctx) {
  const running = new Set();
  const set = globalThis.setInterval, clear = globalThis.clearInterval;
  ctx.mock.method(globalThis, "setInterval", (fn, ms, ...rest) => { const id = set(fn, ms, ...rest); running.add(id); return id; });
  ctx.mock.method(globalThis, "clearInterval", (id) => { running.delete(id); return clear(id); });
  return running;
}

const drafting = new Proxy({}, { get: () => () => null }); // no draft is touched here

test("the turn's clock ticks only while a table with a running clock is on screen, and stops on leaving", async (ctx) => {
  ctx.mock.timers.enable({ apis: ["setInterval", "Date"], now: 1_999_999_950_000 }); // 50 s before the fixture's deadline
  const running = countIntervals(ctx);
  page("index.html");
  const store = await storeWith({ me: { token: "t", playerId: "p0", name: "Ayşe", rating: 1500 } });
  store.dispatch({ type: "screen", screen: "lobby" });
  mountTable({ store, act: { cue: () => {} }, drafting });
  assert.equal(running.size, 0, "the lobby keeps no clock ticking");
  store.dispatch({ type: "tableOpened", view: kastetView() });
  assert.equal(clockRuns(store.get()), true);
  assert.equal(running.size, 1, "one interval for every clock of the table");
  const timer = document.querySelector("#timer");
  assert.equal(read(timer), "50 sn");
  ctx.mock.timers.tick(5000);
  assert.equal(read(timer), "45 sn"); // it ticks on its own
  store.dispatch({ type: "view", view: kastetView({ version: 6, status: "paused", turn: { seat: 0, laid: false, deadline: null } }), force: true });
  assert.equal(running.size, 0, "a paused clock does not tick");
  assert.ok(timer.classList.contains("paused") || timer.hidden);
  store.dispatch({ type: "view", view: kastetView({ version: 7 }), force: true });
  assert.equal(running.size, 1, "it starts again with the play");
  store.dispatch({ type: "tableLeft" });
  store.dispatch({ type: "screen", screen: "lobby" });
  assert.equal(running.size, 0, "leaving the table stops it");
  ctx.mock.timers.tick(10_000);
  store.dispatch({ type: "screen", screen: "tournaments" });
  assert.equal(running.size, 0);
});

test("no clock runs on a finished table, a waiting one or another screen", () => {
  const at = (screen, view) => clockRuns({ screen, table: view ? { view } : null });
  assert.equal(at("table", kastetView()), true);
  assert.equal(at("lobby", kastetView()), false);
  assert.equal(at("replay", kastetView()), false);
  assert.equal(at("table", kastetView({ status: "finished", turn: null })), false);
  assert.equal(at("table", kastetView({ status: "waiting", turn: null, handNumber: 0 })), false);
  assert.equal(at("table", null), false);
});

test("the language switches while the end of a hand is open: the dialog is drawn again in English, and back", async (ctx) => {
  ctx.mock.timers.enable({ apis: ["setInterval"] }); // the break's countdown and the clocks: on the test's clock
  const { mountChrome } = await import("../../clients/web/chrome.js");
  const { mountEndDialog } = await import("../../clients/web/dialogs.js");
  const { install } = await import("../../clients/web/texts.js");
  const { catalogue } = await import("./catalogue.mjs");
  page("index.html");
  const store = await storeWith({ me: { token: "t", playerId: "p0", name: "Ayşe", rating: 1500 } });
  const switchLang = (lang) => { install(catalogue(lang)); store.dispatch({ type: "catalogue", lang }); };
  mountChrome({ store, act: { switchLang, changeSettings() {}, openSettings() {}, signOut() {}, clearNotice() {} } });
  mountEndDialog({ store, act: { rematch() {}, lobby() {}, ready() {}, closeEnd() {} } });
  store.dispatch({ type: "tableOpened", view: kastetView() });
  const result = { hand: 1, finisher: 0, penalties: [-50, 32], left: { 0: [], 1: [] } };
  store.dispatch({ type: "view", force: true, view: kastetView({
    version: 6, status: "paused", turn: null, handResults: [result], break: { until: 2_000_000_000, ready: [] } }) });
  const dialog = document.querySelector("#end-dialog");
  const $ = (sel) => dialog.querySelector(sel);
  assert.equal(dialog.open, true);
  assert.equal(read($("#end-h")), "1. el bitti");
  const inDialog = $("#end-lang");
  assert.ok(inDialog, "a switch inside the modal dialog (the top bar's is inert behind it)");
  assert.equal(read(inDialog), "English");
  assert.equal(inDialog.getAttribute("lang"), "en");
  inDialog.focus();
  inDialog.click();
  assert.equal(store.get().lang, "en");
  assert.equal(dialog.open, true);
  assert.equal(read($("#end-h")), "Hand 1 is over");
  assert.equal(read($("#btn-next")), "Next hand");
  assert.match(read($("#end-body")), /Ayşe/);
  assert.doesNotMatch(read(dialog), /bitti|Sonraki/);
  assert.equal(read(inDialog), "Türkçe");
  assert.equal(inDialog.getAttribute("lang"), "tr");
  assert.equal(document.activeElement, inDialog, "the focus stays on the switch");
  inDialog.click();
  assert.equal(read($("#end-h")), "1. el bitti");
  assert.equal(read(document.querySelector("#lang")), "English"); // the top bar's follows
});
