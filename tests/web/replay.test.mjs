// The replay screen (replay.js) on the real page: a finished game's hands and moves stepped
// through as a player taps, the deal check's verdict from there, and every word from the catalogue.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mountReplay, replayAt } from "../../clients/web/replay.js";
import { createReplays } from "../../clients/web/replays.js";
import { install } from "../../clients/web/texts.js";
import { catalogue } from "./catalogue.mjs";
import { page, read, storeWith, until } from "./dom.mjs";

const CASES = JSON.parse(readFileSync(new URL("./deals.json", import.meta.url), "utf8"));
const SEED = "9223372036854775807"; // past 2^53: a string, as the API sends it
const SALT = "ab".repeat(16);
const TILES = Array.from({ length: 106 }, (_, id) => ({ id, letter: "ABCÇDE"[id % 6], value: 1 + (id % 5), color: ["red", "yellow", "blue", "black"][id % 4] }));

/** A finished two-seat game of one hand (hand 21 of the fixture's seed): a draw, a lay, a pass. */
function game() {
  const ids = CASES.find((c) => c.input === `${SEED}:21`).ids;
  const committed = `harftet-deal-v1|${SALT}|${SEED}:21`;
  const deal = { 0: ids.slice(0, 14), 1: ids.slice(14, 28) };
  const pile = ids.slice(28).reverse();
  const laid = [deal[0][0], deal[0][1], pile[0]];
  const moves = [
    { seq: 3, hand: 21, seat: null, type: "start", first: 0 },
    { seq: 4, hand: 21, seat: 0, type: "draw" },
    { seq: 5, hand: 21, seat: 0, type: "lay", tiles: laid, series: [laid.map((id) => ({ id }))], pairs: [] },
    { seq: 6, hand: 21, seat: 1, type: "pass" },
  ];
  const before = [
    { seq: 1, hand: 0, seat: 0, type: "sit", playerId: "p0", name: "Ayşe" },
    { seq: 2, hand: 0, seat: 1, type: "sit", playerId: "deleted-0a1b", name: "Silinmiş oyuncu" },
  ];
  return JSON.stringify({
    seed: SEED, salt: SALT, table: { tableId: "t1", game: "harftet", seats: 2 }, before, result: { points: [2, -2] }, tiles: TILES,
    hands: [{ hand: 21, deal, pile, committed, dealProof: createHash("sha256").update(committed).digest("hex"), moves }],
  });
}

test("a moment of a replay: each seat's tiles after the draws and lays, the table, the pile", () => {
  const doc = JSON.parse(game());
  const start = replayAt(doc, 0, 0);
  assert.deepEqual([start.racks[0].length, start.racks[1].length, start.pile, start.move], [14, 14, 78, null]);
  const drawn = replayAt(doc, 0, 2);
  assert.deepEqual([drawn.racks[0].length, drawn.pile], [15, 77]);
  assert.ok(drawn.racks[0].includes(doc.hands[0].pile[0])); // the pile's next tile, in drawing order
  const laid = replayAt(doc, 0, 3);
  assert.equal(laid.racks[0].length, 12);
  assert.deepEqual(laid.table.series.map((m) => m.length), [3]);
  assert.equal(replayAt(doc, 0, 99).step, 4); // past the end: the last move
});

async function screen(lang, answer = () => JSON.parse(game())) {
  page("index.html");
  const store = await storeWith({ lang, me: { token: "tok", playerId: "p0", name: "Ayşe" } });
  const api = { request: async () => { const a = answer(); if (a instanceof Error) throw a; return a; } };
  const lobby = [];
  const replays = createReplays({ store, api, storage: localStorage, refusal: (e) => `refused ${e.code}` });
  mountReplay({ store, act: { step: replays.step, lobby: () => lobby.push(1) } });
  return { store, replays, lobby, section: document.querySelector("#replay") };
}
const press = (section, label) => [...section.querySelectorAll("button")].find((b) => read(b) === label).click();

test("'Tekrar izle' opens a screen of the app: the deal verified, the hands and moves stepped through in Turkish", async () => {
  const { replays, lobby, section } = await screen("tr");
  await replays.open("t1");
  assert.equal(section.hidden, false);
  assert.equal(document.querySelector("#lobby").hidden, true);
  await until(() => read(section.querySelector("#replay-check")) !== "Dağıtım kontrolü: Tekrar yükleniyor…", "the deal check");
  assert.equal(read(section.querySelector("#replay-check")), "Dağıtım kontrolü: doğrulandı");
  assert.equal(read(section.querySelector("h2")), "Tekrar: Harftet");
  assert.equal(read(section.querySelector("#replay-hand")), "21. el / 1");
  assert.equal(read(section.querySelector("#replay-line")), "Dağıtım: her oyuncunun 14 taşı");
  const racks = () => [...section.querySelectorAll(".replay-racks strong")].map(read);
  assert.deepEqual(racks(), ["Ayşe · 14 taş", "Silinmiş oyuncu · 14 taş"]);
  press(section, "İleri ▶");
  assert.equal(read(section.querySelector("#replay-line")), "Oyun başladı");
  press(section, "İleri ▶");
  assert.equal(read(section.querySelector("#replay-line")), "Ayşe taş çekti");
  press(section, "İleri ▶");
  assert.match(read(section.querySelector("#replay-line")), /^Ayşe: \S+ açtı$/);
  assert.equal(section.querySelectorAll(".board .meld .tile").length, 3);
  assert.deepEqual(racks(), ["Ayşe · 12 taş", "Silinmiş oyuncu · 14 taş"]);
  assert.equal(read(section.querySelector("#replay-move")), "Hamle 3 / 4");
  press(section, "◀ Geri");
  assert.equal(read(section.querySelector("#replay-move")), "Hamle 2 / 4");
  press(section, "Salona dön");
  assert.deepEqual(lobby, [1]);
});

test("in English every word of the replay is the English catalogue's, a deleted player's name too", async () => {
  const { replays, section } = await screen("en");
  await replays.open("t1");
  await until(() => /verified/.test(read(section.querySelector("#replay-check"))), "the deal check");
  assert.equal(read(section.querySelector("#replay-check")), "Deal check: verified");
  assert.deepEqual([...section.querySelectorAll(".replay-racks strong")].map(read), ["Ayşe · 14 tiles", "Deleted player · 14 tiles"]);
  install(catalogue("tr"));
});

test("a replay that cannot be had says why on the screen, and the way back is there", async () => {
  const refused = Object.assign(new Error("no"), { code: "wrong_status" });
  const { replays, section, lobby } = await screen("tr", () => refused);
  await replays.open("t1");
  assert.equal(read(section.querySelector("[role=status]")), "refused wrong_status");
  press(section, "Salona dön");
  assert.deepEqual(lobby, [1]);
});
