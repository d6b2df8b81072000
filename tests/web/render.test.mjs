// The table's pieces as render.js builds them (tiles, melds, seats, the log, the end of a hand
// and of the game): what a player reads and which callback a tap reaches, in a DOM (dom.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as R from "../../clients/web/render.js";
import { install, t } from "../../clients/web/texts.js";
import { catalogue } from "./catalogue.mjs";
import { page, read } from "./dom.mjs";
import { K, L, kastetView } from "./fixtures.mjs";

const tr = () => install(catalogue("tr"));
tr();
page();

test("a tile is named for screen readers as players say it: letter and points, colour and number, a joker's face", () => {
  assert.equal(R.tileLabel(L(1, "K", 3)), "K, 3 puan");
  assert.equal(R.tileLabel(K(2, "blue", 9)), "mavi 9");
  assert.equal(R.tileLabel({ id: 3, joker: true }), "joker, yüzü belirsiz");
  assert.equal(R.tileLabel({ id: 3, joker: true }, { color: "red", number: 4 }), "joker, kırmızı 4 yerine");
  assert.equal(R.tileLabel({ id: 3, joker: true }, "Ş"), "joker, Ş yerine");
  install(catalogue("en"));
  assert.equal(R.tileLabel(K(2, "blue", 9)), "blue 9");
  tr();
});

test("a tile shows its letter and points, or its number with a shape beside the colour", () => {
  const letter = R.tileEl(L(1, "Ç", 4));
  assert.equal(letter.querySelector(".letter").textContent, "Ç");
  assert.equal(letter.querySelector(".value").textContent, "4");
  assert.equal(letter.getAttribute("role"), "img");
  const number = R.tileEl(K(2, "yellow", 7), { last: true });
  assert.equal(read(number), `7${R.COLOR_MARKS.yellow}`);
  assert.equal(number.getAttribute("aria-label"), "sarı 7 (son hamle)");
  assert.ok(number.classList.contains("last"));
});

test("a tappable tile is a button that says where it is and which half was tapped", () => {
  const taps = [];
  const tile = R.tileEl(K(5, "red", 1), { tap: (...a) => taps.push(a), where: { area: "series", mi: 0, ti: 2 }, selected: true });
  assert.equal(tile.tagName, "BUTTON");
  assert.equal(tile.getAttribute("aria-pressed"), "true");
  tile.getBoundingClientRect = () => ({ left: 100, width: 40, top: 0, height: 50 });
  tile.dispatchEvent(new window.MouseEvent("click", { clientX: 130, detail: 1, bubbles: true }));
  tile.dispatchEvent(new window.MouseEvent("click", { clientX: 105, detail: 1, bubbles: true }));
  tile.dispatchEvent(new window.MouseEvent("click", { detail: 0, bubbles: true })); // a key press
  assert.deepEqual(taps, [
    [5, { area: "series", mi: 0, ti: 2 }, false],
    [5, { area: "series", mi: 0, ti: 2 }, true],
    [5, { area: "series", mi: 0, ti: 2 }, true],
  ]);
});

test("a Harftet meld reads as its word with its verdict; a word already on the table offers its card", () => {
  const meld = [L(1, "E"), L(2, "L"), L(3, "M"), L(4, "A")].map((tile) => ({ id: tile.id, tile }));
  const opts = { game: "harftet", editable: false, active: false, validity: "valid", sel: null, last: new Set() };
  const li = R.meldEl("series", 1, meld, opts);
  assert.equal(li.getAttribute("aria-label"), "Seri alanı 2: ELMA · geçerli");
  assert.ok(li.classList.contains("valid"));
  assert.equal(li.querySelector(".verdict").textContent, "✓");
  assert.equal(li.querySelector("button.word-info").dataset.word, "ELMA");
  const mine = R.meldEl("series", 0, meld.map((e, i) => ({ ...e, fromHand: i === 0 })), { ...opts, validity: "invalid" });
  assert.equal(mine.querySelector("button.word-info"), null); // this turn's word: not yet the table's
  assert.equal(mine.querySelector(".verdict").textContent, "✗");
  assert.ok(mine.classList.contains("changed"));
});

test("a tap beside a meld's tiles moves the selected tile there, or makes the meld the one being built", () => {
  const meld = [K(1, "red", 5), K(2, "red", 6), K(3, "red", 7)].map((tile) => ({ id: tile.id, tile }));
  const calls = [];
  const on = { onTap: () => calls.push("tap"), onMeld: (...a) => calls.push(["meld", ...a]), onActivate: (...a) => calls.push(["activate", ...a]) };
  const base = { game: "kastet", editable: true, active: false, validity: null, last: new Set(), ...on };
  R.meldEl("series", 3, meld, { ...base, sel: 9 }).click();
  R.meldEl("series", 3, meld, { ...base, sel: null }).click();
  const frozen = R.meldEl("series", 3, meld, { ...base, editable: false, sel: null });
  frozen.click();
  assert.equal(frozen.querySelector("button"), null);
  assert.deepEqual(calls, [["meld", "series", 3], ["activate", "series", 3]]);
});

test("a computer player is named in the reader's language, whatever name the server stored", () => {
  const v = kastetView();
  v.seats[1] = { ...v.seats[1], playerId: "bot:1", name: "Bilgisayar 2" }; // the server's own (Turkish) name
  assert.deepEqual(R.seatNames(v), ["Ayşe", "Bilgisayar 2"]);
  install(catalogue("en"));
  assert.deepEqual(R.seatNames(v), ["Ayşe", "Computer 2"]);
  tr();
});

test("a seat shows its player, the caller's badge, tiles and penalty once the game runs", () => {
  const v = kastetView();
  const names = R.seatNames(v);
  assert.deepEqual(names, ["Ayşe", "Bilgisayar 2"]);
  const me = R.seatEl(v, v.seats[0], 0, { me: 0, pos: "bottom", isManager: true, names });
  assert.ok(me.classList.contains("turn") && me.classList.contains("me"));
  const parts = (el) => [...el.children].map(read);
  assert.deepEqual(parts(me.querySelector(".seat-name")), ["Ayşe", "sen", "Masa yöneticisi"]);
  assert.equal(me.querySelector(".tiles").textContent, "4");
  assert.equal(read(me.querySelector(".conn")), "● bağlı");
  assert.equal(me.querySelector(".avatar").textContent, "AY");
  const bot = R.seatEl(v, v.seats[1], 1, { me: 0, pos: "top", isManager: true, names });
  assert.deepEqual(parts(bot.querySelector(".seat-name")), ["Bilgisayar 2", "Orta"]);
  assert.equal(bot.querySelector(".conn"), null);
  assert.equal(bot.querySelector(".timer"), null);
});

test("an empty seat at a waiting table offers a place; the manager may add a computer there", () => {
  const v = kastetView({ status: "waiting", handNumber: 0, seats: [{ seat: 0, playerId: "p0", name: "Ayşe", connected: true }, null] });
  const asked = [];
  const cb = { names: R.seatNames(v), onSit: (i) => asked.push(["sit", i]), onBot: (i) => asked.push(["bot", i]), onRemove: () => {} };
  const watcher = R.seatEl(v, null, 1, { ...cb, me: null, pos: "top", isManager: false });
  assert.equal(read(watcher.querySelector(".seat-name")), "Boş");
  assert.deepEqual([...watcher.querySelectorAll("button")].map(read), ["Otur"]);
  watcher.querySelector("button").click();
  const manager = R.seatEl(v, null, 1, { ...cb, me: 0, pos: "top", isManager: true });
  assert.deepEqual([...manager.querySelectorAll("button")].map(read), ["Bilgisayar ekle"]);
  manager.querySelector("button").click();
  assert.deepEqual(asked, [["sit", 1], ["bot", 1]]);
});

test("a vacated seat is offered to substitutes while the game goes on, never once it is over", () => {
  const vacated = { seat: 1, playerId: null, name: null, connected: false, bot: false, vacant: true, tiles: 14, penalty: 0 };
  const cb = { names: ["Ayşe", "2. koltuk"], onSit: () => {}, onBot: () => {}, onRemove: () => {} };
  const paused = R.seatEl(kastetView({ status: "paused" }), vacated, 1, { ...cb, me: null, pos: "top", isManager: false });
  assert.deepEqual([...paused.querySelectorAll("button")].map(read), ["Yedek olarak otur"]);
  const over = kastetView({ status: "finished", closed: "abandoned" });
  const ended = R.seatEl(over, vacated, 1, { ...cb, me: null, pos: "top", isManager: false });
  assert.deepEqual([...ended.querySelectorAll("button")].map(read), []);
});

test("the move log says who did what in the game's words", () => {
  const names = ["Ayşe", "Bilgisayar 2"];
  const melds = [[L(1, "E"), L(2, "V")], [L(3, "A"), L(4, "T")]];
  assert.equal(R.logLine({ type: "lay", seat: 1, tiles: [1] }, names, { melds }, "harftet"), "Bilgisayar 2: EV açtı");
  assert.equal(R.logLine({ type: "lay", seat: 0, words: ["ELMA", "AT"] }, names, {}, "harftet"), "Ayşe: ELMA, AT açtı");
  const named = { name: (id) => `#${id}` };
  assert.equal(R.logLine({ type: "lay", seat: 0, tiles: [7, 8, 9] }, names, named, "kastet"), "Ayşe, 3 taş işledi: #7, #8, #9");
  assert.equal(R.logLine({ type: "draw", seat: 1 }, names, {}, "kastet"), "Bilgisayar 2 taş çekti");
  assert.equal(R.logLine({ type: "start" }, names, {}, "kastet"), "Oyun başladı");
  assert.equal(R.logLine({ type: "handEnd", hand: 2 }, names, {}, "kastet"), "2. el bitti");
  assert.equal(R.logLine({ type: "sit", seat: 3 }, names, {}, "kastet"), "4. koltuk oturdu");
});

test("the end of a hand says who finished, the tiles left and the running scores", () => {
  const v = kastetView({ handResults: [{ hand: 1, finisher: 0, penalties: [-50, 32] }, { hand: 2, finisher: 1, penalties: [12, -50] }] });
  const names = ["Ayşe", "Bilgisayar 2"];
  const [finisher, , list, scores] = R.handEndEl(v, { finisher: 1, penalties: [12, -50], left: { 0: [K(9, "black", 12)], 1: [] } }, names);
  assert.equal(read(finisher), "Bilgisayar 2 bitirdi (−50)");
  const rows = [...list.querySelectorAll(".left-row")];
  assert.equal(rows[0].querySelector(".tile").getAttribute("aria-label"), "siyah 12");
  assert.equal(read(rows[1].querySelector(".left-tiles")), "taş kalmadı");
  assert.ok(rows[1].classList.contains("won"));
  const body = [...scores.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map(read));
  assert.deepEqual(body, [["Ayşe", "-50 ✓", "12", "-38"], ["Bilgisayar 2", "32", "-50 ✓", "-18"]]);
  assert.deepEqual([...scores.querySelectorAll("thead th")].map(read), ["Oyuncu", "1. el", "2. el", "Toplam"]);
  const [blocked] = R.handEndEl(v, { finisher: null, penalties: [3, 4] }, names);
  assert.equal(read(blocked), "Kimse bitiremedi: el kilitlendi.");
});

test("the end of the game ranks the seats by penalty and says the caller's rating change", () => {
  const v = kastetView({ status: "finished", seats: [...kastetView().seats, { seat: 2, playerId: "p2", name: "Ece" }],
    result: { penalties: [40, -20, 40], points: [-1, 2, -1], ratings: { p0: -7 } } });
  const [places, note, scores] = R.gameEndEl(v, ["Ayşe", "Bilgisayar 2", "Ece"], "p0");
  assert.equal(read(scores.querySelector("thead th:last-child")), "Oyun puanı");
  assert.deepEqual([...scores.querySelectorAll("tbody td:last-child")].map(read), ["-1", "+2", "-1"]);
  assert.deepEqual([...places.children].map((li) => [...li.children].map(read)), [
    ["1.", "Bilgisayar 2", "Ceza -20", "+2"], ["2.", "Ayşe", "Ceza 40", "-1"], ["2.", "Ece", "Ceza 40", "-1"]]);
  assert.equal(read(note), "Derecen -7 değişti.");
  const [, practice] = R.gameEndEl({ ...v, result: { penalties: [1, 2, 3] } }, ["a", "b", "c"], "p0");
  assert.equal(read(practice), "Bilgisayarlı alıştırma oyunu: derecen değişmez.");
});

test("the computer levels are offered in the catalogue's words, the chosen one selected", () => {
  const options = R.levelOptions(["easy", "medium", "hard"], "hard");
  assert.deepEqual(options.map((o) => [o.value, read(o), o.selected]), [["easy", "Kolay", false], ["medium", "Orta", false], ["hard", "Zor", true]]);
  assert.equal(R.levelOptions(["easy", "medium"], "expert")[0].selected, true);
  assert.equal(t("level.hard"), "Zor");
});

test("a game that ended with nobody left says so at its end, in the log, and changes no rating", () => {
  const v = kastetView({ status: "finished", closed: "abandoned", result: { penalties: [12, 30], ratings: {}, closed: "abandoned" } });
  const [places, note, scores] = R.gameEndEl(v, ["Ayşe", "Barış"], "p0");
  assert.equal(read(note), "Masada oynayan kimse kalmadığı için oyun bitirildi: kimsenin derecesi ve sicili değişmedi.");
  assert.deepEqual([...places.children].map((li) => li.children.length), [3, 3]); // no points: none were given
  assert.equal(read(scores.querySelector("thead th:last-child")), "Toplam");
  const end = { seq: 9, at: 1, hand: 1, seat: null, type: "gameEnd", closed: "abandoned", penalties: [12, 30] };
  assert.equal(R.logLine(end, ["Ayşe", "Barış"], {}, "kastet"), "Oyun bitti: masada kimse kalmadı");
  assert.equal(R.logLine({ ...end, closed: "operator" }, [], {}, "kastet"), "Oyun bitti: masayı yöneticiler kapattı");
  assert.equal(R.logLine({ ...end, closed: undefined }, [], {}, "kastet"), "Oyun bitti");
  install(catalogue("en"));
  assert.equal(R.logLine(end, [], {}, "kastet"), "Game over: nobody was left at the table");
  tr();
});
