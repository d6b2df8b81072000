// The weekly league (leagues.js) on the real lobby: one button, the player's division this week
// with the time left, who goes up and down, their own row marked; before a rated game of the
// week, what the catalogue says; the game switch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initLeagues, timeLeft } from "../../clients/web/leagues.js";
import { install } from "../../clients/web/texts.js";
import { catalogue } from "./catalogue.mjs";
import { page, read, settled } from "./dom.mjs";

install(catalogue("tr"));
const NOW = 1_800_000_000;
const row = (rank, playerId, name, points, move) => ({ rank, playerId, name, points, games: 2, move });
const DIVISION = {
  week: "2027-W02", tier: "gumus", division: "gumus-12", endsAt: NOW + 2 * 86400 + 5 * 3600, promote: 5, relegate: 5, rolled: false,
  standings: [row(1, "p1", "Ece", 30, "up"), row(2, "p0", "Ayşe", 12, "up"), row(3, "p2", "Can", -8, "down")],
};

function mounted(answer = () => DIVISION, store = null) {
  page("index.html");
  const asked = [];
  const api = { request: async (method, path) => { asked.push(`${method} ${path}`); const a = answer(path); if (a instanceof Error) throw a; return a; } };
  initLeagues(api, document.querySelector("#lobby"), () => "p0", { now: () => NOW, store });
  const dialog = document.querySelector("dialog.league");
  const open = async () => { document.querySelector(".league-open").click(); await settled(); };
  return { api, asked, dialog, open };
}

test("the lobby's league button opens my division: tier, time left, who goes up and down", async () => {
  const { api, asked, dialog, open } = mounted();
  initLeagues(api, document.querySelector("#lobby"), () => "p0"); // mounted again: still one button
  assert.deepEqual([...document.querySelectorAll(".league-open")].map(read), ["Lig"]);
  await open();
  assert.deepEqual(asked, ["GET /leagues/harftet/me"]);
  assert.equal(read(dialog.querySelector("h2")), "Haftalık lig");
  assert.equal(read(dialog.querySelector(".league-division")), "Gümüş · 12. grup");
  assert.equal(read(dialog.querySelector(".league-left")), "Haftanın bitmesine 2 gün 5 saat");
  assert.equal(read(dialog.querySelector(".league-rules")), "İlk 5 bir üst lige çıkar, son 5 bir alt lige düşer.");
  const items = [...dialog.querySelectorAll(".league-standings li")];
  assert.deepEqual(items.map((li) => read(li.querySelector(".name"))), ["Ece", "Ayşe (Sen)", "Can"]);
  assert.deepEqual(items.map((li) => read(li.querySelector(".move"))), ["Yükseliyor", "Yükseliyor", "Düşüyor"]);
  assert.ok(items[1].classList.contains("me") && items[2].classList.contains("down"));
});

test("before a rated game this week the catalogue says how to enter; the game switch asks again", async () => {
  const missing = Object.assign(new Error("no"), { status: 404, code: "not_found" });
  const { asked, dialog, open } = mounted(() => missing);
  await open();
  assert.match(read(dialog.querySelector(".league-none")), /^Bu hafta henüz dereceli oyun oynamadın/);
  [...dialog.querySelectorAll("[aria-pressed]")].find((b) => read(b) === "Kastet").click();
  await settled();
  assert.deepEqual(asked, ["GET /leagues/harftet/me", "GET /leagues/kastet/me"]);
});

test("the last day is told in hours and minutes", () => {
  assert.equal(timeLeft(NOW + 3 * 3600 + 120, NOW), "Haftanın bitmesine 3 saat 2 dakika");
});

test("English never says '1 hours' or '1 days': the units are short, as in the inbox", () => {
  install(catalogue("en"));
  assert.equal(timeLeft(NOW + 3600 + 55 * 60, NOW), "The week ends in 1 h 55 min");
  assert.equal(timeLeft(NOW + 86400 + 3600, NOW), "The week ends in 1 d 1 h");
  install(catalogue("tr"));
});

test("a deleted player's row in my division is named by the catalogue, in the reader's language", async () => {
  const division = { ...DIVISION, standings: [row(1, "deleted-ab", "Silinmiş oyuncu", 30, "up"), row(2, "p0", "Ayşe", 12, "up"),
    { ...row(3, "c0.gone", "Silinmiş oyuncu", -8, "down"), deleted: true }] };
  const { dialog, open } = mounted(() => division);
  await open();
  const names = () => [...dialog.querySelectorAll(".league-standings .name")].map(read);
  assert.deepEqual(names(), ["Silinmiş oyuncu", "Ayşe (Sen)", "Silinmiş oyuncu"]);
  assert.equal(dialog.querySelectorAll(".league-standings button").length, 0);
  install(catalogue("en"));
  await open();
  assert.deepEqual(names(), ["Deleted player", "Ayşe (you)", "Deleted player"]);
  install(catalogue("tr"));
});
