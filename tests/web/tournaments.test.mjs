// Tournaments on the real page (tournaments.js, tournament.js, tourneys.js, badges.js): the
// lobby's "Turnuvalar" opens the list (three tabs, a page at a time by the server's cursor);
// a tournament's page with its facts in Turkish (the start in Istanbul's time), register and
// withdraw, the 409s said as the catalogue says them, "Masama git", the live standings, every
// round's tables to watch or replay, the deal check of every finished table, the podium; the
// round's push as a notice with a button to the table (on the tournament's page: straight
// there); podium badges on a profile. Every word from the catalogue, English on the switch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { badgeEl, badgesEl } from "../../clients/web/badges.js";
import { initPeople } from "../../clients/web/people.js";
import { install } from "../../clients/web/texts.js";
import { mountTournament, num, rounds } from "../../clients/web/tournament.js";
import { mountTournaments, when } from "../../clients/web/tournaments.js";
import { createTourneys, entered, myTableOf, tournamentFromHash, tournamentOf } from "../../clients/web/tourneys.js";
import { mountEndDialog } from "../../clients/web/dialogs.js";
import { mountReplay } from "../../clients/web/replay.js";
import { createReplays } from "../../clients/web/replays.js";
import { kastetView } from "./fixtures.mjs";
import { catalogue } from "./catalogue.mjs";
import { page, read, settled, storeWith, until } from "./dom.mjs";

const ME = "p0";
const START = 1_800_000_000; // 15 January 2027, 11:00 in Istanbul
const item = (n, extra = {}) => ({ tournamentId: `tr${n}`, name: `Kupa ${n}`, game: "harftet", seats: 4, hands: 2, rounds: 3, status: "registering", startsAt: START, entries: n, capacity: 16, ...extra });
const standing = (rank, playerId, name, points, penalty, tables) => ({ rank, playerId, name, points, penalty, tables });
const RUNNING = {
  ...item(1), status: "running", round: 2, entries: 6,
  standings: [standing(1, "p1", "Ece", 3, 40, 1), standing(2, ME, "Ayşe", 2, 55, 1), standing(3, "p2", "Can", 1, 80, 1), standing(4, "p3", "Deniz", 0, 120, 1)],
  tables: [{ round: 1, tableId: "t1", status: "finished" }, { round: 1, tableId: "t2", status: "finished" }, { round: 2, tableId: "t3", status: "playing" }, { round: 2, tableId: "t4", status: "playing" }],
};
const FINISHED = { ...RUNNING, status: "finished", round: 3, tables: RUNNING.tables.map((x) => ({ ...x, status: "finished" })) };
const conflict = (code) => Object.assign(new Error(code), { status: 409, code });

/** The page with the tournaments' screens and their effects; `routes` answer "METHOD path". */
async function mounted(routes, { lang = "tr" } = {}) {
  page("index.html");
  const store = await storeWith({ lang, me: { token: "tok", playerId: ME, name: "Ayşe" } });
  const asked = [];
  const api = {
    request: async (method, path) => {
      asked.push(`${method} ${path}`);
      let a = routes[`${method} ${path}`];
      if (typeof a === "function") a = a();
      if (a instanceof Error) throw a;
      if (a === undefined) throw Object.assign(new Error("404"), { status: 404, code: "not_found" });
      return a;
    },
  };
  const opened = { tables: [], replays: [], profiles: [], lobby: 0 };
  const tourneys = createTourneys({
    store, api, storage: localStorage, refusal: (e) => `refused ${e.code}`,
    openTable: async (id) => { opened.tables.push(id); store.dispatch({ type: "screen", screen: "table" }); },
    openReplay: async (id) => { opened.replays.push(id); },
  });
  mountTournaments({ store, act: { ...tourneys, page: tourneys.loadList, lobby: () => { opened.lobby++; store.dispatch({ type: "screen", screen: "lobby" }); } } });
  mountTournament({ store, act: { ...tourneys, list: () => tourneys.openList(), profile: (pid) => opened.profiles.push(pid) } });
  store.dispatch({ type: "screen", screen: "lobby" });
  const done = () => store.dispatch({ type: "screen", screen: "lobby" }); // the page's poll stops
  return { store, asked, tourneys, opened, done, $: (sel) => document.querySelector(sel), $$: (sel) => [...document.querySelectorAll(sel)] };
}

const button = (root, name) => [...root.querySelectorAll("button")].find((b) => read(b) === name);

test("the start time reads as a Turkish date in Istanbul's time, English on the switch", () => {
  assert.equal(when(START, "tr"), "15 Ocak 2027 11:00");
  assert.equal(when(START * 1000, "en"), "15 January 2027 at 11:00");
  assert.equal(when("2027-01-15T08:00:00Z", "tr"), "15 Ocak 2027 11:00");
});

test("the lobby's Turnuvalar opens the list: three tabs, a page at a time by the server's cursor", async () => {
  const first = Array.from({ length: 10 }, (_, i) => item(i + 1));
  const { asked, $, $$, opened } = await mounted({
    "GET /tournaments?status=registering": { tournaments: first, cursor: "c2" },
    "GET /tournaments?status=registering&cursor=c2": { tournaments: [item(11)], cursor: null },
    "GET /tournaments?status=running": { tournaments: [], cursor: null },
  });
  const open = $("#lobby .tournaments-open");
  assert.equal(read(open), "Turnuvalar");
  open.click();
  await settled();
  assert.equal($("#tournaments").hidden, false);
  assert.equal(read($("#tournaments-h")), "Turnuvalar");
  assert.deepEqual($$("#tournaments [role=tab]").map(read), ["Kayıt açık", "Sürüyor", "Bitti"]);
  assert.equal($("#tournaments [role=tab][aria-selected=true]").textContent, "Kayıt açık");
  const items = $$(".tourney-item");
  assert.equal(items.length, 10);
  assert.equal(read(items[0].querySelector(".tourney-name")), "Kupa 1");
  assert.match(read(items[0]), /Harftet · 4 kişilik masalar · 2 el · 3 tur/);
  assert.match(read(items[0]), /Başlangıç: 15 Ocak 2027 11:00 · 1\/16 oyuncu/);
  button($("#tournaments"), "Sonraki sayfa").click();
  await settled();
  assert.deepEqual($$(".tourney-name").map(read), ["Kupa 11"]);
  assert.ok(button($("#tournaments"), "Önceki sayfa") && !button($("#tournaments"), "Sonraki sayfa"));
  $$("#tournaments [role=tab]")[1].click();
  await settled();
  assert.equal(read($(".tourney-empty")), "Şu an süren turnuva yok.");
  assert.deepEqual(asked, ["GET /tournaments?status=registering", "GET /tournaments?status=registering&cursor=c2", "GET /tournaments?status=running"]);
  button($("#tournaments"), "Salona dön").click();
  assert.equal(opened.lobby, 1);
  assert.equal($("#tournaments").hidden, true);
});

test("registering, then withdrawing before the start; a full tournament and a closed registration said in the catalogue's words", async () => {
  let doc = { ...item(1), round: 0, standings: [], tables: [] };
  let answer = null;
  const { $, asked, tourneys, done } = await mounted({
    "GET /tournaments/tr1": () => doc,
    "POST /tournaments/tr1/entries": () => answer || (doc = { ...doc, entries: 2, me: { registered: true, tableId: null }, standings: [standing(1, ME, "Ayşe", 0, 0, 0)] }, { tournamentId: "tr1" }),
    "DELETE /tournaments/tr1/entries/me": () => (doc = { ...doc, entries: 1, me: { registered: false, tableId: null }, standings: [] }, null),
  });
  localStorage.setItem("harftet.table", "t0"); // the last seat: not where a reload of this page goes
  await tourneys.open("tr1");
  const section = $("#tournament");
  assert.equal(section.hidden, false);
  assert.equal(location.hash, "#tn=tr1"); // a reload comes back here
  assert.equal(tournamentFromHash(location.hash), "tr1");
  assert.equal(localStorage.getItem("harftet.table"), null);
  assert.equal(read($("#tournament-h")), "Kupa 1");
  assert.equal(read(section.querySelector(".tourney-when")), "15 Ocak 2027 11:00");
  assert.equal(read(section.querySelector(".tourney-entries")), "1/16 oyuncu");
  assert.equal(read(section.querySelector(".tourney-status")), "Kayıt açık");
  assert.equal(read(section.querySelector(".tourney-entrants + p, #standings-h + p")), "Henüz kayıtlı oyuncu yok.");
  assert.match(read(section), /Turnuva masalarında ipucu yok ve oyunlar derecelidir\./);
  button(section, "Kaydol").click();
  await until(() => section.querySelector(".tourney-said"));
  assert.equal(read(section.querySelector(".tourney-said")), "Kaydın alındı.");
  assert.equal(read(section.querySelector(".tourney-entries")), "2/16 oyuncu");
  assert.match(read(section), /Kayıtlısın\. Turnuva başlayınca masana çağrılırsın\./);
  assert.equal(read(section.querySelector("#standings-h")), "Kayıtlı oyuncular"); // before the start: who entered, no ranks
  assert.deepEqual([...section.querySelectorAll(".tourney-entrants li")].map(read), ["Ayşe (Sen)"]);
  assert.equal(section.querySelector(".tourney-standings"), null);
  assert.ok(!button(section, "Kaydol"));
  button(section, "Kaydımı sil").click();
  await until(() => read(section.querySelector(".tourney-said")) === "Kaydın silindi.");
  assert.equal(read(section.querySelector(".tourney-entries")), "1/16 oyuncu");
  answer = conflict("tournament_full");
  button(section, "Kaydol").click();
  await until(() => read(section.querySelector(".tourney-said")) === "Bu turnuva doldu: yer kalmadı.");
  assert.ok(section.querySelector(".tourney-said.error"));
  answer = conflict("registration_closed");
  button(section, "Kaydol").click();
  await until(() => read(section.querySelector(".tourney-said")) === "Bu turnuvanın kaydı kapandı.");
  answer = Object.assign(new Error("x"), { status: 403, code: "forbidden" });
  button(section, "Kaydol").click();
  await until(() => read(section.querySelector(".tourney-said")) === "refused forbidden"); // any other refusal: the app's sentence for it
  assert.deepEqual(asked.filter((x) => !x.startsWith("GET")), ["POST /tournaments/tr1/entries", "DELETE /tournaments/tr1/entries/me",
    "POST /tournaments/tr1/entries", "POST /tournaments/tr1/entries", "POST /tournaments/tr1/entries"]);
  done();
});

test("a running tournament: my table now, the standings with my row, every round's tables to watch or replay", async () => {
  const { $, $$, opened, tourneys, done } = await mounted({
    "GET /tournaments/tr1": RUNNING,
    "GET /players/me/tables": { tables: [{ tableId: "old" }, { tableId: "t4", status: "playing" }] },
  });
  await tourneys.open("tr1");
  const section = $("#tournament");
  assert.equal(read(section.querySelector(".tourney-status")), "Tur 2/3");
  assert.equal(read(section.querySelector(".tourney-mine")), "2. turda masan hazır.");
  button(section, "Masama git").click();
  assert.deepEqual(opened.tables, ["t4"]); // found among my own tables: the round's, not finished
  await tourneys.open("tr1"); // back on the page
  assert.deepEqual($$(".tourney-standings thead th").map(read), ["Sıra", "Oyuncu", "Puan", "Ceza", "Masa"]);
  const body = $$(".tourney-standings tbody tr");
  assert.deepEqual(body.map((tr) => [...tr.children].map(read)), [
    ["1.", "Ece", "3", "40", "1"], ["2.", "Ayşe (Sen)", "2", "55", "1"], ["3.", "Can", "1", "80", "1"], ["4.", "Deniz", "0", "120", "1"]]);
  assert.ok(body[1].classList.contains("mine"));
  body[0].querySelector("button").click();
  assert.deepEqual(opened.profiles, ["p1"]); // a name opens its profile
  assert.deepEqual($$(".tourney-round h4").map(read), ["1. tur", "2. tur"]);
  const lines = $$(".tourney-tables li");
  assert.deepEqual(lines.map((li) => read(li)), ["1. masa · bitti Tekrar izle", "2. masa · bitti Tekrar izle", "1. masa · oynanıyor İzle", "2. masa · oynanıyor İzle"]);
  assert.ok(lines[3].classList.contains("mine"));
  button(lines[0], "Tekrar izle").click();
  button(lines[2], "İzle").click();
  assert.deepEqual(opened.replays, ["t1"]);
  assert.deepEqual(opened.tables, ["t4", "t3"]);
  assert.equal(section.querySelector(".tourney-podium"), null); // not over yet
  done();
});

test("a round with a time of its own: the page says when it starts, in Istanbul's time, English on the switch", async () => {
  const NEXT = START + 30 * 60; // 15 January 2027, 11:30 in Istanbul
  const { $, tourneys, done } = await mounted({ "GET /tournaments/tr1": { ...RUNNING, roundMinutes: 30, nextRoundAt: NEXT }, "GET /players/me/tables": { tables: [] } });
  await tourneys.open("tr1");
  const section = $("#tournament");
  const facts = [...section.querySelectorAll(".tourney-facts dt")].map(read);
  assert.equal(facts.at(-1), "Sonraki tur");
  assert.equal(read(section.querySelector(".tourney-next")), "15 Ocak 2027 11:30");
  assert.equal(read(section.querySelector(".tourney-next-about")), "Bir tur, saati gelince ve önceki turun bütün masaları bitince başlar.");
  done();
  install(catalogue("en"));
  const en = await mounted({ "GET /tournaments/tr1": { ...RUNNING, nextRoundAt: NEXT }, "GET /players/me/tables": { tables: [] } }, { lang: "en" });
  await en.tourneys.open("tr1");
  assert.equal(read(en.$(".tourney-next")), "15 January 2027 at 11:30");
  assert.ok([...en.$$(".tourney-facts dt")].map(read).includes("Next round"));
  assert.equal(read(en.$(".tourney-next-about")), "A round starts at its time once every table of the round before has ended.");
  en.done();
  install(catalogue("tr"));
  // no time of its own (or its time passed: the server says null): nothing said
  const plain = await mounted({ "GET /tournaments/tr1": { ...RUNNING, nextRoundAt: null }, "GET /players/me/tables": { tables: [] } });
  await plain.tourneys.open("tr1");
  assert.equal(plain.$(".tourney-next"), null);
  assert.equal(plain.$(".tourney-next-about"), null);
  plain.done();
});

test("a deleted player's row reads as the catalogue's deleted player, opens no profile; everyone tied for third is on the podium", async () => {
  const gone = standing(1, "deleted-0123456789abcdef", "Silinmiş oyuncu", 3, 40, 1);
  const doc = { ...FINISHED, standings: [gone, standing(2, ME, "Ayşe", 2, 55, 1), standing(3, "p2", "Can", 0.5, 80, 1), standing(3, "p3", "Deniz", 0.5, 80, 1)] };
  install(catalogue("en"));
  const { $, $$, opened, tourneys, done } = await mounted({ "GET /tournaments/tr1": doc }, { lang: "en" });
  await tourneys.open("tr1");
  const first = $(".tourney-standings tbody tr");
  assert.deepEqual([...first.children].map(read), ["1.", "Deleted player", "3", "40", "1"]); // the reader's language, not the stored Turkish
  assert.equal(first.querySelector("button"), null); // nobody's profile to open
  const podium = $$(".podium li");
  assert.deepEqual(podium.map(read), ["First Deleted player 3 points", "Second Ayşe (You) 2 points", "Third Can 0.5 points", "Third Deniz 0.5 points"]);
  assert.deepEqual(podium.map((li) => li.querySelector(".medal").className), ["medal p1", "medal p2", "medal p3", "medal p3"]);
  podium[3].querySelector("button").click();
  assert.deepEqual(opened.profiles, ["p3"]);
  done();
  install(catalogue("tr"));
});

test("the standings follow the tournament while it runs: read again every few seconds, not once the page is left", async (t) => {
  t.mock.timers.enable({ apis: ["setInterval"] });
  let doc = RUNNING;
  const { $, asked, store, tourneys, done } = await mounted({ "GET /tournaments/tr1": () => doc, "GET /players/me/tables": { tables: [] } });
  await tourneys.open("tr1");
  const reads = () => asked.filter((x) => x === "GET /tournaments/tr1").length;
  assert.equal(reads(), 1);
  doc = { ...RUNNING, standings: [standing(1, ME, "Ayşe", 5, 60, 2), ...RUNNING.standings.filter((x) => x.playerId !== ME).map((x, i) => ({ ...x, rank: i + 2 }))] };
  t.mock.timers.tick(5000);
  await until(() => reads() === 2);
  const first = () => [...$(".tourney-standings tbody tr").children].map(read);
  await until(() => first().join("|") === "1.|Ayşe (Sen)|5|60|2", "the standings read again");
  done();
  t.mock.timers.tick(20000);
  await settled();
  assert.equal(reads(), 2); // the page gone: no more reading
  assert.equal(store.get().screen, "lobby");
});

test("the round's push: a notice with a button to the table anywhere; on the tournament's page, straight to the table", async () => {
  const { $, opened, store, tourneys, done } = await mounted({ "GET /tournaments/tr1": RUNNING, "GET /players/me/tables": { tables: [] } });
  tourneys.pushed({ type: "tournament", tournamentId: "tr1", round: 2, tableId: "t3" });
  const call = $("#tourney-call");
  assert.equal(call.hidden, false);
  assert.equal(read(call.querySelector(".tourney-call-text")), "Turnuva: 2. tur masan hazır.");
  assert.equal(call.getAttribute("role"), "status");
  button(call, "Masaya git").click();
  await settled();
  assert.deepEqual(opened.tables, ["t3"]);
  assert.equal(call.hidden, true);
  assert.equal(store.get().call, null);
  // on the tournament's page: no question asked
  await tourneys.open("tr1");
  tourneys.pushed({ type: "tournament", tournamentId: "tr1", round: 3, tableId: "t9" });
  await settled();
  assert.deepEqual(opened.tables, ["t3", "t9"]);
  // dismissed: gone, nothing opened
  store.dispatch({ type: "screen", screen: "lobby" });
  tourneys.pushed({ type: "tournament", tournamentId: "tr2", round: 1, tableId: "t7" });
  assert.equal(call.hidden, false);
  call.querySelector("button.link").click();
  assert.equal(call.hidden, true);
  assert.deepEqual(opened.tables, ["t3", "t9"]);
  done();
});

test("a finished tournament: the podium, and the deal proof of every finished table checked in the browser", async () => {
  const replay = JSON.parse(finishedGame());
  const bad = { ...replay, salt: "cd".repeat(16) };
  const committed = replay.hands[0].dealProof;
  const other = "0".repeat(64); // a commitment the replay does not keep
  const listed = { t1: committed, t2: committed, t3: other, t4: committed };
  const doc = { ...FINISHED, tables: FINISHED.tables.map((x) => ({ ...x, dealProof: listed[x.tableId] })) };
  const { $, $$, tourneys, done } = await mounted({
    "GET /tournaments/tr1": doc, "GET /tables/t1/replay": replay, "GET /tables/t2/replay": bad,
    "GET /tables/t3/replay": replay, "GET /tables/t4/replay": Object.assign(new Error("gone"), { status: 404, code: "not_found" }),
  });
  await tourneys.open("tr1");
  const podium = $$(".podium li");
  assert.deepEqual(podium.map(read), ["Birinci Ece 3 puan", "İkinci Ayşe (Sen) 2 puan", "Üçüncü Can 1 puan"]);
  assert.deepEqual(podium.map((li) => li.querySelector(".medal").className), ["medal p1", "medal p2", "medal p3"]);
  assert.equal(podium[0].querySelector(".medal").getAttribute("aria-hidden"), "true");
  assert.equal(read($("#proofs-h")), "Dağıtım kanıtları");
  assert.ok(!/null|undefined/.test(read($("#tournament")))); // nothing missing is written out
  const proofs = $$(".tourney-proof");
  assert.deepEqual(proofs.map((li) => read(li.querySelector("span"))), ["1. tur, 1. masa:", "1. tur, 2. masa:", "2. tur, 1. masa:", "2. tur, 2. masa:"]);
  assert.equal(proofs[0].querySelector("a").getAttribute("href"), "verify.html#t=t1");
  assert.equal(read(proofs[0].querySelector(".proof-listed")), `İlk dağıtımın kanıtı: ${committed}`); // listed before any check
  button($("#tournament"), "Hepsini doğrula").click();
  await until(() => $$(".tourney-proof .verdict").length === 4 && !$$(".tourney-proof .verdict").some((v) => read(v) === "Doğrulanıyor…"), "the check");
  // right; a wrong salt; a replay that does not keep the commitment the page listed; no replay
  assert.deepEqual($$(".tourney-proof .verdict").map(read), ["Doğrulandı", "Uyuşmuyor", "Uyuşmuyor", "Yüklenemedi"]);
  assert.equal(read($(".tourney-proof .proof-hands li")), `21. el: ${replay.hands[0].dealProof}`);
  done();
});

test("English on the switch: the list, the page and the call", async () => {
  install(catalogue("en"));
  const { $, store, tourneys, done } = await mounted({ "GET /tournaments/tr1": FINISHED, "GET /players/me/tables": { tables: [] } }, { lang: "en" });
  await tourneys.open("tr1");
  assert.equal(read($(".tourney-when")), "15 January 2027 at 11:00");
  assert.equal(read($(".tourney-status")), "Finished");
  assert.deepEqual([...document.querySelectorAll(".podium-place")].map(read), ["First", "Second", "Third"]);
  assert.deepEqual([...document.querySelectorAll(".podium li .muted")].map(read), ["3 points", "2 points", "1 point"]);
  tourneys.pushed({ type: "tournament", tournamentId: "tr2", round: 1, tableId: "t7" });
  assert.equal(read($(".tourney-call-text")), "Tournament: your round 1 table is ready.");
  assert.equal(store.get().call.tableId, "t7");
  done();
  install(catalogue("tr"));
});

test("podium badges: a medal per place drawn by CSS (no emoji), the tournament's name and the place in words", async () => {
  page("index.html");
  install(catalogue("tr"));
  const badges = badgesEl([{ tournamentId: "tr1", name: "Gece Kupası", place: 1 }, { tournamentId: "tr2", name: "Hafta Kupası", place: 3 }, { tournamentId: "x", name: "?", place: 7 }]);
  assert.equal(read(badges.querySelector("h4")), "Turnuva kürsüleri");
  const items = [...badges.querySelectorAll("li")];
  assert.deepEqual(items.map(read), ["Gece Kupası · Birinci", "Hafta Kupası · Üçüncü"]);
  assert.deepEqual(items.map((li) => li.querySelector(".medal").className), ["medal p1", "medal p3"]);
  assert.ok(items.every((li) => !/\p{Extended_Pictographic}/u.test(li.textContent)));
  assert.equal(badgesEl([]), null);
  assert.equal(read(badgeEl({ tournamentId: "a", name: "Kupa", place: 2 })), "Kupa · İkinci");
  const css = readFileSync(new URL("../../clients/web/style.css", import.meta.url), "utf8");
  assert.match(css, /\.medal \{[^}]*mask: var\(--medal-icon\)/);
});

test("a profile shows its podium badges; a tournament's name opens that profile", async () => {
  page("index.html");
  install(catalogue("tr"));
  const profile = {
    playerId: ME, name: "Ayşe", rating: 1500, games: { harftet: { played: 3, won: 1, abandoned: 0 }, kastet: { played: 0, won: 0, abandoned: 0 } },
    recentGames: [], badges: [{ tournamentId: "tr1", name: "Kupa 1", place: 2 }],
  };
  const api = { request: async (method, path) => (path === `/players/${ME}/profile` ? profile : { entries: [] }) };
  const people = initPeople(api, document.querySelector("#lobby"));
  await people.profile(ME);
  const dialog = document.querySelector("dialog.people");
  assert.equal(dialog.open, true);
  assert.deepEqual([...dialog.querySelectorAll(".podium-badges li")].map(read), ["Kupa 1 · İkinci"]);
});

test("what the page says of me: entered, and my table now", () => {
  assert.equal(entered({ me: { registered: true, tableId: null }, standings: [] }, ME), true);
  assert.equal(entered({ me: { registered: false, tableId: null }, standings: [standing(1, ME, "Ayşe", 0, 0, 0)] }, ME), false);
  assert.deepEqual(myTableOf({ status: "running", round: 2, me: { registered: true, tableId: "t8" } }, ME), { round: 2, tableId: "t8" });
  assert.equal(myTableOf({ status: "running", round: 2, me: { registered: true, tableId: null } }, ME), null);
  assert.equal(entered({ standings: [standing(1, ME, "Ayşe", 0, 0, 0)] }, ME), true);
  assert.equal(entered({ standings: [] }, ME), false);
  assert.deepEqual(myTableOf({ status: "running", round: 2, myTable: { round: 2, tableId: "t9" } }, ME), { round: 2, tableId: "t9" });
  assert.deepEqual(myTableOf({ status: "running", round: 2, tables: [{ round: 2, tableId: "t5", players: [{ playerId: ME }] }] }, ME), { round: 2, tableId: "t5" });
  assert.equal(myTableOf({ ...RUNNING, status: "finished" }, ME), null);
  assert.equal(num(1.5), "1,5"); // a shared place: half points, in Turkish with a comma
  assert.deepEqual(rounds(RUNNING).map(([r, list]) => [r, list.length]), [[1, 2], [2, 2]]);
});

test("a tournament table's end leads back to its tournament (no rematch); the next round's call at that finished table opens it at once", async () => {
  const { $, opened, store, tourneys, done } = await mounted({ "GET /tournaments/abcdef012345": FINISHED });
  const wanted = [];
  mountEndDialog({ store, act: {
    rematch: () => wanted.push("rematch"), lobby: () => wanted.push("lobby"), ready: () => {}, closeEnd: () => {},
    tournamentOf: (id) => tournamentOf(store.get(), id), tournament: (id) => wanted.push(id),
  } });
  const tableId = "c0.tnabcdef012345r1t0";
  const view = kastetView({ tableId, status: "finished", result: { penalties: [0, 30], points: [2, -2] } });
  store.dispatch({ type: "tableOpened", view });
  const dialog = $("#end-dialog");
  assert.equal(dialog.open, true);
  const buttons = [...dialog.querySelectorAll("#end-actions button")].map(read);
  assert.deepEqual(buttons, ["Turnuvaya dön", "Yeni masa"]);
  button(dialog, "Turnuvaya dön").click();
  assert.deepEqual(wanted, ["abcdef012345"]);
  tourneys.pushed({ type: "tournament", tournamentId: "abcdef012345", round: 2, tableId: "c0.tnabcdef012345r2t0" });
  await settled();
  assert.deepEqual(opened.tables, ["c0.tnabcdef012345r2t0"]); // no notice to tap behind the dialog: straight there
  // an ordinary table: the rematch as before
  store.dispatch({ type: "tableOpened", view: kastetView({ tableId: "t5", status: "finished", result: { penalties: [0, 30], points: [2, -2] } }) });
  assert.deepEqual([...dialog.querySelectorAll("#end-actions button")].map(read)[0], "Rövanş");
  assert.equal(tournamentOf(store.get(), "t5"), null);
  done();
});

test("a past round's table replayed from the tournament's page leads back to the tournament", async () => {
  const { $, store, done } = await mounted({});
  const replays = createReplays({ store, api: { request: async () => JSON.parse(finishedGame()) }, storage: localStorage });
  const back = [];
  mountReplay({ store, act: { step: replays.step, lobby: () => back.push("lobby"), tournament: (id) => back.push(id) } });
  await replays.open("t1", "tr1");
  await until(() => $("#replay-check") && read($("#replay-check")).includes("doğrulandı"), "the replay's check");
  button($("#replay"), "Turnuvaya dön").click();
  await replays.open("t1"); // from a profile: back to the lobby as before
  button($("#replay"), "Salona dön").click();
  assert.deepEqual(back, ["tr1", "lobby"]);
  done();
});

/** A finished one-hand game whose deal follows from its seed (the fixture's hand 21). */
function finishedGame() {
  const CASES = JSON.parse(readFileSync(new URL("./deals.json", import.meta.url), "utf8"));
  const SEED = "9223372036854775807";
  const SALT = "ab".repeat(16);
  const ids = CASES.find((c) => c.input === `${SEED}:21`).ids;
  const committed = `harftet-deal-v1|${SALT}|${SEED}:21`;
  const deal = { 0: ids.slice(0, 14), 1: ids.slice(14, 28) };
  const pile = ids.slice(28).reverse();
  return JSON.stringify({
    seed: SEED, salt: SALT, table: { tableId: "t1", game: "harftet", seats: 2 }, before: [], result: { points: [2, -2] },
    tiles: Array.from({ length: 106 }, (_, id) => ({ id, letter: "ABCÇDE"[id % 6], value: 1 + (id % 5), color: ["red", "yellow", "blue", "black"][id % 4] })),
    hands: [{ hand: 21, deal, pile, committed, dealProof: createHash("sha256").update(committed).digest("hex"), moves: [] }],
  });
}
