// Profiles and leaderboards (people.js) on the real lobby: the board a player reads, their own
// place, the game and period switches, a profile card, and what a failure says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initPeople } from "../../clients/web/people.js";
import { install } from "../../clients/web/texts.js";
import { catalogue } from "./catalogue.mjs";
import { page, read, settled } from "./dom.mjs";

install(catalogue("tr"));
const entry = (rank, playerId, name, score) => ({ rank, playerId, name, score });
const BOARD = { entries: [entry(1, "p1", "Ece", 310), entry(2, "p0", "Ayşe", 250)], me: { ...entry(2, "p0", "Ayşe", 250), above: [], below: [] } };

function mounted(answer = () => BOARD, options = {}) {
  page("index.html");
  const asked = [];
  const api = { request: async (method, path) => { asked.push(`${method} ${path}`); const a = answer(path); if (a instanceof Error) throw a; return a; } };
  initPeople(api, document.querySelector("#lobby"), options);
  const dialog = document.querySelector("dialog.people");
  const open = async () => { document.querySelector(".people-open").click(); await settled(); };
  return { api, asked, dialog, open };
}
const rows = (el) => [...el.querySelectorAll("li")].map((li) => [...li.children].map(read));

test("the lobby gets one leaderboard button; it opens this week's Harftet board, the player marked", async () => {
  const { api, asked, dialog, open } = mounted();
  initPeople(api, document.querySelector("#lobby")); // mounted again: still one button
  assert.deepEqual([...document.querySelectorAll(".people-open")].map(read), ["Sıralama"]);
  await open();
  assert.equal(dialog.open, true);
  assert.deepEqual(asked, ["GET /leaderboards/harftet?period=week&limit=100"]);
  assert.equal(read(dialog.querySelector("h2")), "Sıralama");
  assert.deepEqual(rows(dialog.querySelector(".people-board")), [["1.", "Ece", "310 puan"], ["2.", "Ayşe (Sen)", "250 puan"]]);
  assert.ok(dialog.querySelectorAll(".people-board li")[1].classList.contains("me"));
  assert.equal(dialog.querySelector(".people-me"), null); // already on the board
  assert.ok(!dialog.textContent.includes("null"), dialog.textContent); // no part left out printed as "null"
  const pressed = [...dialog.querySelectorAll("[aria-pressed]")].map((b) => [read(b), b.getAttribute("aria-pressed")]);
  assert.deepEqual(pressed, [["Harftet", "true"], ["Kastet", "false"], ["Bu hafta", "true"], ["Tüm zamanlar", "false"]]);
});

test("a player below the board sees their own place with the players around them", async () => {
  const far = { entries: [entry(1, "p1", "Ece", 310)], me: { ...entry(140, "p0", "Ayşe", 12), above: [entry(139, "p7", "Can", 13)], below: [entry(141, "p8", "Deniz", 11)] } };
  const { dialog, open } = mounted(() => far);
  await open();
  assert.deepEqual(rows(dialog.querySelector(".people-me")), [["139.", "Can", "13 puan"], ["140.", "Ayşe (Sen)", "12 puan"], ["141.", "Deniz", "11 puan"]]);
});

test("the game and period switches ask for that board; an empty one says nobody is there yet", async () => {
  const { asked, dialog, open } = mounted((path) => (path.includes("kastet") ? { entries: [], me: null } : BOARD));
  await open();
  [...dialog.querySelectorAll("button")].find((b) => read(b) === "Kastet").click();
  await settled();
  assert.equal(read(dialog.querySelector("p")), "Henüz kimse yok.");
  [...dialog.querySelectorAll("button")].find((b) => read(b) === "Tüm zamanlar").click();
  await settled();
  assert.deepEqual(asked.slice(1), ["GET /leaderboards/kastet?period=week&limit=100", "GET /leaderboards/kastet?period=all&limit=100"]);
});

test("a name opens its profile card: rating, records, tiers, recent games with their replays; back returns", async () => {
  const profile = { name: "Ece", rating: 1612, games: { harftet: { played: 12, won: 7, abandoned: 1 }, kastet: { played: 3, won: 0, abandoned: 0 } },
    recentGames: [{ game: "kastet", points: 2, tableId: "t9", replay: "/tables/t9/replay" }],
    skill: { harftet: { tier: "altin", games: 12 }, kastet: { tier: "bronz", games: 3 } },
    league: { harftet: { tier: "gumus", division: "gumus-4", rank: 2 } } };
  const replays = [];
  const { asked, dialog, open } = mounted((path) => (path.includes("/profile") ? profile : BOARD), { openReplay: (id) => replays.push(id) });
  await open();
  [...dialog.querySelectorAll(".people-board button")].find((b) => read(b) === "Ece").click();
  await settled();
  assert.equal(asked[1], "GET /players/p1/profile");
  assert.equal(read(dialog.querySelector("h3")), "Ece");
  assert.equal(read(dialog.querySelector("h3 + p")), "Derece: 1612"); // the rating is "derece" everywhere, points "puan"
  assert.deepEqual([...dialog.querySelectorAll("table:not(.people-tiers) tr")].map((tr) => [...tr.children].map(read)), [
    ["", "Oynanan", "Kazanılan", "Terk"], ["Harftet", "12", "7", "1"], ["Kastet", "3", "0", "0"]]);
  assert.deepEqual([...dialog.querySelectorAll(".people-tiers tr")].map((tr) => [...tr.children].map(read)), [
    ["", "Beceri", "Lig"], ["Harftet", "Altın (12 dereceli oyun)", "Gümüş, bu hafta 2."], ["Kastet", "Bronz (3 dereceli oyun)", "–"]]);
  const recent = dialog.querySelector("ul li");
  assert.equal(read(recent), "Kastet · 2 puan Tekrar izle");
  assert.equal(recent.querySelector("a"), null); // never a link to the API's JSON
  [...recent.querySelectorAll("button")].find((b) => read(b) === "Tekrar izle").click();
  assert.deepEqual(replays, ["t9"]); // the app's replay screen, the dialog closed
  assert.equal(dialog.open, false);
  await open();
  [...dialog.querySelectorAll(".people-board button")].find((b) => read(b) === "Ece").click();
  await settled();
  [...dialog.querySelectorAll("button")].find((b) => read(b) === "Sıralamaya dön").click();
  await settled();
  assert.ok(dialog.querySelector(".people-board"));
});

test("a board or profile that cannot be had says so, and the dialog still closes", async () => {
  const { dialog, open } = mounted(() => new Error("offline"));
  await open();
  assert.equal(read(dialog.querySelector("p")), "Yüklenemedi, sonra yeniden dene.");
  const close = [...dialog.querySelectorAll("button")].find((b) => read(b) === "Kapat");
  close.click();
  assert.equal(dialog.open, false);
});

test("the all-time board says ratings, a deleted player's name is the catalogue's, and the open dialog follows a language switch", async () => {
  const { createStore, initialState } = await import("../../clients/web/state.js");
  const store = createStore(initialState());
  const board = { entries: [entry(1, "deleted-ab", null, 1500), entry(2, "p0", "Ayşe", -2)], me: null };
  const { dialog, open } = mounted(() => board, { store });
  await open();
  [...dialog.querySelectorAll("button")].find((b) => read(b) === "Tüm zamanlar").click();
  await settled();
  assert.deepEqual(rows(dialog.querySelector(".people-board")), [["1.", "Silinmiş oyuncu", "derece 1500"], ["2.", "Ayşe", "derece -2"]]);
  install(catalogue("en"));
  store.dispatch({ type: "catalogue", lang: "en" });
  await settled();
  assert.equal(read(dialog.querySelector("h2")), "Leaderboard");
  assert.deepEqual(rows(dialog.querySelector(".people-board")), [["1.", "Deleted player", "rating 1500"], ["2.", "Ayşe", "rating -2"]]);
  install(catalogue("tr"));
});

test("a deleted player's row on the board is a name without a link (no profile to load), in the reader's language", async () => {
  const gone = { ...entry(1, "c0.gone", "Silinmiş oyuncu", 40), deleted: true }; // the server's mark and its Turkish name
  const old = entry(3, "deleted-cd", "Silinmiş oyuncu", 9); // an answer from before the mark: the anonymous id
  const board = { entries: [gone, { ...entry(2, "p1", "Ece", 30), deleted: false }, old], me: null };
  const { asked, dialog, open } = mounted(() => board);
  await open();
  const items = [...dialog.querySelectorAll(".people-board li")];
  assert.deepEqual(items.map((li) => read(li)), ["1. Silinmiş oyuncu 40 puan", "2. Ece 30 puan", "3. Silinmiş oyuncu 9 puan"]);
  assert.deepEqual(items.map((li) => li.querySelectorAll("button").length), [0, 1, 0]);
  assert.ok(items[0].querySelector(".deleted"));
  items[1].querySelector("button").click(); // a living player's name still opens the profile
  await settled();
  assert.equal(asked.filter((a) => a.includes("/profile")).length, 1);
  install(catalogue("en"));
  await open();
  assert.equal(read(dialog.querySelector(".people-board li .deleted")), "Deleted player");
  install(catalogue("tr"));
});
