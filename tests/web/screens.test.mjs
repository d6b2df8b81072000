// The pure parts of the screens and of the table's reading (game.js): what a player reads and
// which buttons they may press, worded from the server's catalogue.
import { test } from "node:test";
import assert from "node:assert/strict";
import { changedMelds, lastTiles, myTurn, rackMode, seatPosition, tileName, tint } from "../../clients/web/game.js";
import { actionsState, statusText, turnText, whyNot } from "../../clients/web/table.js";
import { lobbyFacts, pageLabel } from "../../clients/web/lobby.js";
import { createBody } from "../../clients/web/tables.js";
import { inboxLine, timeLeft } from "../../clients/web/inbox.js";
import { breakText } from "../../clients/web/dialogs.js";
import { presenceText } from "../../clients/web/friends.js";
import * as D from "../../clients/web/draft.js";
import { install } from "../../clients/web/texts.js";
import { catalogue } from "./catalogue.mjs";
import { K, kastetView, L, LIMITS } from "./fixtures.mjs";

const tr = () => install(catalogue("tr"));
const en = () => install(catalogue("en"));
tr();

test("seats sit around the table as the caller sees them, the caller at the bottom", () => {
  const four = kastetView({ seat: 2, seats: [0, 1, 2, 3].map((seat) => ({ seat, name: `P${seat}` })) });
  assert.deepEqual([0, 1, 2, 3].map((i) => seatPosition(four, i)), ["top", "left", "bottom", "right"]);
  assert.equal(seatPosition(kastetView(), 1), "top");
});

test("the rack's order follows the player's choice where it belongs to the game", () => {
  assert.equal(rackMode({ sort: "pairs" }, "kastet"), "pairs");
  assert.equal(rackMode({ sort: "pairs" }, "harftet"), "letter");
  assert.equal(rackMode({ sort: "value" }, "harftet"), "value");
});

test("a tile is named as players see it, in the language chosen", () => {
  const v = kastetView({ series: [[{ id: 50, joker: true, as: { color: "red", number: 3 } }]] });
  assert.equal(tileName(v, 4), "mavi 9");
  assert.equal(tileName(v, 50), "joker");
  assert.equal(tileName(v, 99), "#99");
  en();
  assert.equal(tileName(v, 4), "blue 9");
  tr();
  assert.equal(tileName({ ...v, hand: [L(7, "Ş", 3)] }, 7), "Ş");
});

test("a draft meld is tinted at once where the rules settle it, the pair area closed, the rest asked", () => {
  const v = kastetView();
  let d = D.newMeld(D.fromView(v), "series", v.limits);
  for (const id of [1, 2, 3]) d = D.addToActive(d, id, v.hand, v.limits);
  d = D.newMeld(d, "series", v.limits);
  d = D.addToActive(d, 4, v.hand, v.limits);
  assert.deepEqual(changedMelds(v, d), [0, 1]);
  assert.deepEqual(tint(v, d).validity, { "series:0": "valid", "series:1": "invalid" });
  const h = { ...kastetView({ game: "harftet", limits: LIMITS.harftet }), hand: [L(1, "K"), L(2, "A"), L(3, "L")] };
  let w = D.newMeld(D.fromView(h), "series", h.limits);
  for (const id of [1, 2, 3]) w = D.addToActive(w, id, h.hand, h.limits);
  assert.deepEqual(tint(h, w), { validity: {}, unknown: { series: [0], pairs: [] } }); // only the dictionary knows
  assert.deepEqual(tint(h, w, new Map([["series:KAL", "valid"]])).validity, { "series:0": "valid" });
});

test("the tiles marked as the last move: other seats' lays since the caller's turn, and the last lay", () => {
  const table = { othersLaid: [7], view: kastetView({ last: { type: "lay", tiles: [8, 9] } }) };
  assert.deepEqual([...lastTiles(table)], [7, 8, 9]);
});

test("the table's status says who is awaited and what the manager does next", () => {
  const waiting = kastetView({ status: "waiting", handNumber: 0, seats: [{ playerId: "p0", name: "Ayşe" }, null] });
  assert.equal(statusText(waiting, "p0"), "Oyuncu bekleniyor: 1/2. Herkes oturunca Başlat'a bas.");
  assert.equal(statusText(waiting, "p1"), "Oyuncu bekleniyor: 1/2. Oyunu masa yöneticisi başlatır.");
  assert.equal(statusText(kastetView(), "p0"), "El 1/2 · ortada 50 taş");
  assert.equal(turnText(kastetView(), "p0"), "Sıra sende: taş çek ya da yere aç, sonra pas");
  assert.equal(turnText(kastetView({ turn: { seat: 1, laid: false } }), "p0"), "Sıra: Bilgisayar 2");
});

test("the caller may draw or lay on their turn, pass once drawing is shut, and nothing while a move is on its way", () => {
  const v = kastetView();
  const fresh = D.fromView(v);
  assert.ok(myTurn(v));
  assert.deepEqual(actionsState(v, fresh, false, true), { draw: true, pass: false, lay: false, reset: false, hint: true, hintShown: true });
  const laid = kastetView({ turn: { seat: 0, laid: true, deadline: 1 } });
  assert.equal(actionsState(laid, fresh, false, true).pass, true);
  assert.equal(actionsState(laid, fresh, false, true).draw, false);
  assert.equal(actionsState(v, fresh, true, true).draw, false); // busy
  assert.equal(actionsState(kastetView({ hintsLeft: 0 }), fresh, false, true).hint, false);
  let drafted = D.newMeld(fresh, "series", v.limits); // tiles of the hand placed: "Aç ve pas" ends the turn with them
  drafted = D.addToActive(drafted, 1, v.hand, v.limits);
  assert.equal(actionsState(v, drafted, false, true).pass, true);
  assert.equal(actionsState(v, drafted, true, true).pass, false); // busy
});

test("the lobby's page and a table's facts read as the catalogue says them", () => {
  assert.equal(pageLabel(0, 10, 10, true), "1–10 / 10+");
  assert.equal(pageLabel(1, 3, 10, false), "11–13 / 13");
  assert.equal(pageLabel(0, 4, 10, false), ""); // one page holds it all
  assert.equal(lobbyFacts({ players: ["A", null, null, null], seats: 4, hands: 11, turnSeconds: 45, partners: true }),
    "1/4 oyuncu · 11 el · 45 sn · eşli");
});

test("the new-table form becomes the API's body; a partner game of other than 4 is refused before it is sent", () => {
  assert.deepEqual(createBody({ game: "kastet", seats: "4", hands: "11", turnSeconds: "45", botSeconds: "1", private: "on" }),
    { game: "kastet", seats: 4, hands: 11, partners: false, turnSeconds: 45, private: true, botSeconds: 1 });
  assert.throws(() => createBody({ game: "kastet", seats: "2", hands: "1", turnSeconds: "45", partners: "on" }),
    (e) => e.code === "bad_request" && e.params.field === "partners");
});

test("the inbox says whose turn, the game and its pace, and how long is left", () => {
  const now = 1_000_000;
  assert.equal(timeLeft(now + 2 * 86400 + 3 * 3600, now), "2 gün 3 saat kaldı");
  assert.equal(timeLeft(now + 90 * 60, now), "1 saat 30 dakika kaldı");
  const line = inboxLine({ tableId: "t", game: "kastet", pace: "correspondence", yourTurn: true, status: "playing", players: ["Ayşe", null], last: { type: "start" } });
  assert.deepEqual(line, { state: "Sıra sende", facts: "Kastet · Yazışmalı", names: "Ayşe", after: "Oyun başladı" });
  const bots = { tableId: "t", game: "harftet", pace: "live", yourTurn: false, status: "playing", players: ["Ayşe", "Bilgisayar 2"], last: { type: "draw", seat: 1 } };
  assert.deepEqual([inboxLine(bots).names, inboxLine(bots).after], ["Ayşe, Bilgisayar 2", "Bilgisayar 2 taş çekti"]);
  en(); // the server stores a computer's name in Turkish: the English reader reads "Computer 2"
  assert.deepEqual([inboxLine(bots).names, inboxLine(bots).after], ["Ayşe, Computer 2", "Computer 2 drew a tile"]);
  tr();
});

test("a deleted player's name in the inbox is the catalogue's, in the reader's language (the server stores it in Turkish)", () => {
  // what GET /players/me/tables gives once Barış deleted his account: his seat's stored name, and its mark
  const over = { tableId: "t", game: "harftet", pace: "live", yourTurn: false, status: "finished", players: ["Ayşe", "Silinmiş oyuncu"],
    deleted: [1], last: { type: "lay", seat: 1, words: ["ELMA"] } };
  assert.deepEqual([inboxLine(over, "p0").names, inboxLine(over, "p0").after], ["Ayşe, Silinmiş oyuncu", "Silinmiş oyuncu: ELMA açtı"]);
  en();
  assert.deepEqual([inboxLine(over, "p0").names, inboxLine(over, "p0").after], ["Ayşe, Deleted player", "Deleted player laid ELMA"]);
  // a player who chose that very name is not taken for a deleted one: only the mark counts
  assert.equal(inboxLine({ ...over, deleted: [] }, "p0").names, "Ayşe, Silinmiş oyuncu");
  tr();
});

test("a table I left reads as left in my inbox, never 'Sıra rakipte' with 'Koltuk 1 masadan kalktı'", async () => {
  // what GET /players/me/tables gives the leaver right after leaving a live table: paused, the seat empty
  const gone = { tableId: "t", game: "harftet", pace: "live", yourTurn: false, status: "paused", players: [null, "Barış"],
    last: { type: "leave", seat: 0, playerId: "p0", penalty: -22 }, left: true };
  assert.deepEqual(inboxLine(gone, "p0"), { state: "Masadan kalktın", facts: "Harftet · Canlı", names: "Barış", after: "" });
  // later events of the table go on being told; an older entry without `left` is told by its last event
  const later = { ...gone, status: "playing", players: ["Bilgisayar 1", "Barış"], last: { type: "draw", seat: 1 } };
  assert.equal(inboxLine(later, "p0").state, "Masadan kalktın");
  assert.equal(inboxLine(later, "p0").after, "Barış taş çekti");
  assert.equal(inboxLine({ ...gone, left: undefined }, "p0").state, "Masadan kalktın");
  // the one who stays reads the leave as before
  assert.deepEqual([inboxLine({ ...gone, left: false }, "p1").state, inboxLine({ ...gone, left: false }, "p1").after],
    ["Sıra rakipte", "1. koltuk masadan kalktı"]);
  en();
  assert.equal(inboxLine(later, "p0").state, "You left the table");
  tr();
  const { page, storeWith, read } = await import("./dom.mjs");
  const { mountInbox } = await import("../../clients/web/inbox.js");
  page();
  const screen = document.createElement("section");
  document.body.append(screen);
  const store = await storeWith({ me: { token: "t", playerId: "p0", name: "Ayşe", rating: 1500 } });
  mountInbox({ store, act: { openTable() {}, more() {}, enablePush() {} }, screen });
  store.dispatch({ type: "inbox", tables: [gone], cursor: null });
  const item = document.querySelector(".inbox-item");
  assert.equal(read(item.querySelector(".inbox-state")), "Masadan kalktın");
  assert.ok(item.classList.contains("over"), "drawn as a table that is over for me");
  assert.doesNotMatch(read(item), /Sıra|koltuk/);
});

test("the break says the seconds left and whether the caller said ready", () => {
  const v = kastetView({ break: { until: 100, ready: [0] } });
  assert.equal(breakText(v, 90_000), "Hazırsın: diğerleri bekleniyor · Sonraki el 10 sn sonra");
  assert.equal(breakText({ ...v, break: { until: 100, ready: [] } }, 90_000), "Sonraki el 10 sn sonra");
  assert.equal(breakText(kastetView(), 0), "");
});

test("a friend's presence in words, in both languages", () => {
  assert.equal(presenceText({ status: "table", game: "kastet" }), "Masada (Kastet)");
  assert.equal(presenceText({ status: "online" }), "Çevrimiçi");
  assert.equal(presenceText(null), "Uzakta");
  en();
  assert.equal(presenceText({ status: "online" }), "Online");
  tr();
});

test("a correspondence table is chosen in the form: its turn one of the server's, in days and hours, never seconds", async () => {
  assert.deepEqual(createBody({ game: "harftet", seats: "2", hands: "3", turnSeconds: "45", pace: "correspondence", corrTurn: "259200" }),
    { game: "harftet", seats: 2, hands: 3, partners: false, turnSeconds: 259200, pace: "correspondence" });
  const { clockText } = await import("../../clients/web/render.js");
  assert.deepEqual([45, 600, 3600, 43200, 86395, 86400, 259200 + 5 * 3600].map(clockText),
    ["45 sn", "10 dk", "1 sa", "12 sa", "23 sa 59 dk", "1 gün", "3 gün 5 sa"]);
  en();
  assert.deepEqual([45, 86395, 86400].map(clockText), ["45 s", "23 h 59 min", "1 d"]);
  tr();
  const { page, storeWith } = await import("./dom.mjs");
  const { mountLobby } = await import("../../clients/web/lobby.js");
  const win = page("index.html");
  globalThis.FormData = win.FormData; // the form is read as the browser reads it
  const store = await storeWith({ lang: "tr" });
  const made = [];
  mountLobby({ store, pageSize: 10, act: { createTable: (f) => made.push(f) } });
  const $ = (sel) => document.querySelector(sel);
  assert.equal($("#c-days-box").hidden, true);
  $("#c-mode").value = "correspondence";
  $("#c-mode").dispatchEvent(new window.Event("change"));
  assert.equal($("#c-days-box").hidden, false);
  assert.equal($("#c-turn-box").hidden, true);
  assert.deepEqual([...$("#c-days").options].map((o) => o.textContent), ["1 sa", "12 sa", "1 gün", "3 gün"]);
  assert.equal($("#c-days").value, "86400");
  $("#create-form").dispatchEvent(new window.Event("submit", { cancelable: true }));
  assert.equal(made[0].pace, "correspondence");
  assert.equal(made[0].corrTurn, "86400");
  assert.equal(made[0].turnSeconds, undefined); // the live field is off
});

test("a full rack never says 'taş çek', and every button that is off says why", () => {
  const hand = Array.from({ length: LIMITS.kastet.handLimit }, (_, i) => K(i + 1, "red", (i % 13) + 1));
  const full = kastetView({ hand });
  const draft = D.fromView(full);
  assert.equal(turnText(full, "p0"), `Elinde ${LIMITS.kastet.handLimit} taş var: taş çekemezsin, aç ya da pas geç`);
  const why = whyNot(full, draft, false, true);
  assert.equal(why.draw, turnText(full, "p0"));
  assert.equal(why.pass, null); // passing is what is left
  assert.equal(why.lay, "Önce elinden masaya taş koy");
  assert.equal(why.reset, "Değiştirilmiş bir şey yok");
  const theirs = kastetView({ turn: { seat: 1, laid: false, deadline: 2_000_000_000 } });
  assert.deepEqual(Object.values(whyNot(theirs, D.fromView(theirs), false, true)).filter((x) => x !== "Değiştirilmiş bir şey yok"),
    ["Sıra sende değil", "Sıra sende değil", "Sıra sende değil", "Sıra sende değil"]);
  const fresh = kastetView();
  assert.equal(whyNot(fresh, D.fromView(fresh), false, true).pass, "Önce taş çek ya da yere aç");
});

test("a table that ended with nobody left reads so in the inbox and at the table", () => {
  const over = { tableId: "t", game: "kastet", pace: "correspondence", yourTurn: false, status: "finished", players: [null, "Bilgisayar 2"],
    last: { type: "gameEnd", seat: null, closed: "abandoned", penalties: [0, 0] }, left: true, closed: "abandoned" };
  assert.deepEqual(inboxLine(over, "p0"), { state: "Kimse kalmadı, bitti", facts: "Kastet · Yazışmalı", names: "Bilgisayar 2", after: "Oyun bitti: masada kimse kalmadı" });
  assert.equal(inboxLine({ ...over, closed: null, last: { type: "gameEnd" }, left: false }, "p0").state, "Bitti");
  const v = kastetView({ status: "finished", closed: "abandoned" });
  assert.equal(statusText(v, "p0"), "Oyun bitti: masada kimse kalmadı. Kimsenin derecesi değişmedi.");
  assert.equal(statusText({ ...v, closed: null }, "p0"), "Oyun bitti.");
  en();
  assert.equal(inboxLine(over, "p0").state, "Nobody left, ended");
  tr();
});
