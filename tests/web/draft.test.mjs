// The pure draft model of the web client: `node --test tests/web/` (pytest runs it too).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as D from "../../clients/web/draft.js";

// The rule limits exactly as the server sends them in a view (test_view_limits.py keeps it so).
const LIMITS = JSON.parse(readFileSync(new URL("./limits.json", import.meta.url), "utf8"));
const KL = LIMITS.kastet;
const HL = LIMITS.harftet;

let nextId = 0;
const L = (letter, value = 1) => ({ id: nextId++, letter, value, color: "red" });
const K = (color, number) => ({ id: nextId++, color, number });
const J = () => ({ id: nextId++, joker: true });
const view = (series, hand) => ({ status: "playing", series, pairs: [], hand });
const word = (d, mi = 0) => D.meldWord(d.series[mi]);

test("a tile dropped on the right half of a table tile goes after it, on the left half before it", () => {
  const table = [..."DOYUNAK"].map((c) => L(c));
  const m = L("M");
  const v = view([table], [m]);
  let d = D.fromView(v);
  // DOYUN|AK: M lands on the right half of N (index 4) → after it.
  d = D.place(d, m.id, { area: "series", mi: 0, at: D.insertIndex(4, false) }, v.hand);
  assert.equal(word(d), "DOYUNMAK");
  d = D.place(D.fromView(v), m.id, { area: "series", mi: 0, at: D.insertIndex(5, true) }, v.hand);
  assert.equal(word(d), "DOYUNMAK");
});

test("a tile moved further along its own word lands where it was shown, not one place later", () => {
  const table = [..."ODYUNMAK"].map((c) => L(c));
  const v = view([table], []);
  // Move O (index 0) to just after D (right half of index 1).
  const d = D.place(D.fromView(v), table[0].id, { area: "series", mi: 0, at: D.insertIndex(1, false) }, []);
  assert.equal(word(d), "DOYUNMAK");
  const back = D.place(d, table[0].id, { area: "series", mi: 0, at: 0 }, []);
  assert.equal(word(back), "ODYUNMAK");
});

test("an eight-letter word is built with one tap per letter after one tap on New word", () => {
  const hand = [..."NARENCİY"].map((c) => L(c));
  const v = view([], hand);
  let d = D.newMeld(D.fromView(v), "series");
  for (const t of hand) d = D.addToActive(d, t.id, hand);
  assert.equal(word(d), "NARENCİY");
  assert.deepEqual(D.layBody(d), { series: [hand.map((t) => ({ id: t.id }))], pairs: [] });
  assert.ok(D.addsFromHand(d) && d.dirty);
  assert.deepEqual([...D.usedIds(d)].sort(), hand.map((t) => t.id).sort());
});

test("an empty active meld is kept while building and left out of the move body", () => {
  const hand = [L("A")];
  const d = D.newMeld(D.fromView(view([], hand)), "series");
  assert.equal(d.series.length, 1);
  assert.deepEqual(D.layBody(d), { series: [], pairs: [] });
  const moved = D.setActive(d, null);
  assert.equal(moved.series.length, 0);
});

test("table tiles never go back to the hand, hand tiles do", () => {
  const t = L("K");
  const h = L("E");
  const v = view([[t]], [h]);
  let d = D.place(D.fromView(v), h.id, { area: "series", mi: 0 }, v.hand);
  assert.throws(() => D.backToHand(d, t.id), (e) => e.code === "table_tile");
  d = D.backToHand(d, h.id);
  assert.equal(word(d), "K");
  assert.equal(D.addsFromHand(d), false);
});

test("the series area refuses a 27th meld", () => {
  const series = Array.from({ length: 26 }, () => [L("A"), L("B"), L("C")]);
  const h = L("Z");
  const d = D.fromView(view(series, [h]));
  assert.throws(() => D.place(d, h.id, { newIn: "series" }, [h], HL), (e) => e.code === "too_many_series");
  assert.throws(() => D.newMeld(d, "series", HL), (e) => e.code === "too_many_series");
});

test("a Kastet joker's face follows from a run or a set, and stays open when ambiguous", () => {
  const j = J();
  const run = [K("blue", 4), K("blue", 5), j].map((t) => ({ id: t.id, tile: t }));
  assert.deepEqual(D.inferKastetFace(run, 2, KL), { color: "blue", number: 6 });
  const gap = [K("red", 7), { ...J() }, K("red", 9)].map((t) => ({ id: t.id, tile: t }));
  assert.deepEqual(D.inferKastetFace(gap, 1, KL), { color: "red", number: 8 });
  const set = [K("red", 9), K("blue", 9), K("black", 9), j].map((t) => ({ id: t.id, tile: t }));
  assert.deepEqual(D.inferKastetFace(set, 3, KL), { color: "yellow", number: 9 });
  const alone = [K("red", 9), j].map((t) => ({ id: t.id, tile: t }));
  assert.equal(D.inferKastetFace(alone, 1, KL), null);
  const past13 = [K("red", 12), K("red", 13), j].map((t) => ({ id: t.id, tile: t }));
  assert.equal(D.inferKastetFace(past13, 2, KL), null);
});

test("inferred faces follow the meld as it changes; a face the player typed stays", () => {
  const a = K("black", 2);
  const b = K("black", 3);
  const j = J();
  const hand = [a, b, j];
  let d = D.newMeld(D.fromView(view([], hand)), "series");
  d = D.addToActive(d, a.id, hand);
  d = D.addToActive(d, j.id, hand);
  d = D.inferFaces(d, "kastet", KL);
  assert.deepEqual(D.undeclared(d), [j.id]);
  assert.throws(() => D.layBody(d), (e) => e.code === "joker_face");
  d = D.inferFaces(D.addToActive(d, b.id, hand), "kastet", KL); // 2 ★ 3: no run → open
  assert.equal(D.locate(d, j.id).entry.as, null);
  d = D.inferFaces(D.place(d, b.id, { area: "series", mi: 0, at: 1 }, hand), "kastet", KL); // 2 3 ★
  assert.deepEqual(D.locate(d, j.id).entry.as, { color: "black", number: 4 });
  d = D.setFace(d, j.id, { color: "black", number: 1 });
  d = D.inferFaces(D.place(d, j.id, { area: "series", mi: 0, at: 0 }, hand), "kastet", KL);
  assert.deepEqual(D.layBody(d).series[0][0], { id: j.id, as: { color: "black", number: 1 } });
});

test("a Harftet joker has no face until the player types one", () => {
  const j = J();
  const hand = [L("E"), j, L("V")];
  let d = D.newMeld(D.fromView(view([], hand)), "series");
  for (const t of hand) d = D.addToActive(d, t.id, hand);
  assert.equal(word(d), "E?V");
  d = D.inferFaces(d, "harftet");
  assert.deepEqual(D.undeclared(d), [j.id]);
  d = D.setFace(d, j.id, "Ş");
  assert.equal(word(d), "EŞV");
});

test("a draft survives a view with the same table tiles and its hand tiles still in hand", () => {
  const t = L("A");
  const h = L("B");
  const v = view([[t]], [h]);
  const d = D.place(D.fromView(v), h.id, { area: "series", mi: 0 }, v.hand);
  assert.ok(D.fits(d, { ...v, hand: [h, L("C")] }));
  assert.ok(!D.fits(d, { ...v, hand: [] }));
  assert.ok(!D.fits(d, { ...v, series: [[t], [L("D")]] }));
});

test("a pair holds two tiles at most", () => {
  const series = Array.from({ length: 26 }, () => [L("A")]);
  const hand = [L("O"), L("L"), L("M")];
  let d = D.fromView(view(series, hand));
  d = D.place(d, hand[0].id, { newIn: "pairs" }, hand);
  d = D.place(d, hand[1].id, { area: "pairs", mi: 0 }, hand);
  assert.throws(() => D.place(d, hand[2].id, { area: "pairs", mi: 0 }, hand, HL), (e) => e.code === "pair_full");
});

test("the rack sorts Kastet by series or by pairs and Harftet by letter or by value, jokers last", () => {
  const tiles = [K("blue", 3), J(), K("red", 3), K("red", 1), K("blue", 1)];
  const ids = (order) => order.map((id) => tiles.find((t) => t.id === id)).map((t) => (t.joker ? "J" : `${t.color[0]}${t.number}`));
  assert.deepEqual(ids(D.sortRack(tiles, "series", KL)), ["r1", "r3", "b1", "b3", "J"]);
  assert.deepEqual(ids(D.sortRack(tiles, "pairs", KL)), ["r1", "b1", "r3", "b3", "J"]);
  const letters = [L("Ü", 3), L("C", 4), L("Ç", 4), L("I", 2), L("İ", 1), J()];
  const text = (order) => order.map((id) => letters.find((t) => t.id === id)).map((t) => t.letter ?? "★").join("");
  assert.equal(text(D.sortRack(letters, "letter", HL)), "CÇIİÜ★");
  assert.equal(text(D.sortRack(letters, "value", HL)), "CÇÜIİ★");
});

test("the player's rack order is kept across views; a drawn tile joins at the end", () => {
  const [a, b, c] = [L("A"), L("B"), L("C")];
  let order = D.moveInRack([a.id, b.id, c.id], c.id, 0);
  assert.deepEqual(order, [c.id, a.id, b.id]);
  order = D.moveInRack(order, c.id, 3);
  assert.deepEqual(order, [a.id, b.id, c.id]);
  const d = L("D");
  assert.deepEqual(D.syncRack([c.id, a.id, b.id], [a, b, d, c]), [c.id, a.id, b.id, d.id]);
  assert.deepEqual(D.syncRack([c.id, a.id], [a]), [a.id]);
});

test("a hint's lay becomes a draft with the hand tiles marked as new", () => {
  const t = L("A");
  const h = L("L");
  const j = J();
  const v = view([[t]], [h, j]);
  const d = D.fromLay(v, { series: [[{ id: h.id }, { id: t.id }, { id: j.id, as: "İ" }]], pairs: [] });
  assert.equal(word(d), "LAİ");
  assert.deepEqual(d.series[0].map((e) => e.fromHand), [true, false, true]);
  assert.ok(D.fits(d, v) && d.dirty);
  assert.throws(() => D.fromLay(v, { series: [[{ id: 999 }]] }), (e) => e.code === "unknown_tile");
});

test("rule constants come from the view, and the client has none of its own", () => {
  assert.deepEqual(D.rules(null), {});
  assert.deepEqual(D.rules({ limits: KL }), KL);
  // A server with other limits is followed: a 3-meld series area refuses a 4th meld.
  const series = Array.from({ length: 3 }, () => [L("A"), L("B"), L("C")]);
  const h = L("Z");
  const d = D.fromView(view(series, [h]));
  assert.throws(() => D.newMeld(d, "series", { ...HL, maxSeries: 3 }), (e) => e.code === "too_many_series");
  assert.equal(D.newMeld(d, "series", HL).series.length, 4);
});

test("a word built from the hand survives a lay by someone else; a rearranged table word cannot", () => {
  const table = [L("E"), L("V")];
  const hand = [L("K"), L("İ"), L("M"), L("A")];
  const v = view([table], hand);
  let d = D.newMeld(D.fromView(v), "series");
  for (const t of hand.slice(0, 3)) d = D.addToActive(d, t.id, hand);
  const other = [L("O"), L("L"), L("T")];
  const next = { ...v, series: [table, other] };
  const { draft, lost } = D.rebase(d, next);
  assert.equal(lost, false);
  assert.deepEqual(draft.series.map((m) => D.meldWord(m)), ["EV", "OLT", "KİM"]);
  assert.ok(draft.dirty && D.fits(draft, next));

  const moved = D.place(D.fromView(v), hand[3].id, { area: "series", mi: 0, at: 0 }, hand);
  const after = D.rebase(moved, next);
  assert.equal(after.lost, true);
  assert.deepEqual(after.draft.series.map((m) => D.meldWord(m)), ["EV", "OLT"]);
  assert.equal(after.draft.dirty, false);
});

const entries = (tiles) => tiles.map((t) => ({ id: t.id, tile: t, fromHand: true, as: t.joker ? t.as ?? null : undefined }));

test("a Kastet meld is tinted by the rule limits alone: runs, sets, too short, mixed", () => {
  const v = (tiles, area = "series") => D.localVerdict("kastet", area, entries(tiles), KL);
  assert.equal(v([K("red", 4), K("red", 5), K("red", 6)]), "valid");
  assert.equal(v([K("red", 11), K("red", 12), K("red", 13)]), "valid");
  assert.equal(v([K("red", 12), K("red", 13), K("red", 1)]), "invalid"); // 1 is low only
  assert.equal(v([K("red", 4), K("red", 5)]), "invalid"); // too short
  assert.equal(v([K("red", 4), K("blue", 4), K("black", 4), K("yellow", 4)]), "valid");
  assert.equal(v([K("red", 4), K("blue", 4), K("red", 4)]), "invalid"); // a colour twice
  assert.equal(v([K("red", 4), K("blue", 5), K("black", 6)]), "invalid");
  assert.equal(v([K("red", 4), K("red", 5), { ...J(), as: { color: "red", number: 6 } }]), "valid");
  assert.equal(v([K("red", 4), K("red", 5), J()]), null); // a joker without a face: not yet
  assert.equal(v([K("red", 4), K("red", 4)], "pairs"), "valid");
  assert.equal(v([K("red", 4), K("blue", 4)], "pairs"), "invalid");
  assert.equal(v([K("red", 4)], "pairs"), "invalid");
});

test("a Harftet meld too short is tinted at once; a word is left to the server", () => {
  const v = (tiles, area = "series") => D.localVerdict("harftet", area, entries(tiles), HL);
  assert.equal(v([L("E"), L("V")]), "invalid");
  assert.equal(v([L("AR"), L("I")]), null); // three letters on two tiles: the dictionary decides
  assert.equal(v([L("K"), L("A"), L("L")]), null);
  assert.equal(v([L("E"), L("L")], "pairs"), null);
  assert.equal(v([L("E"), L("L"), L("A")], "pairs"), "invalid");
  assert.equal(D.verdictKey("harftet", "series", entries([L("K"), L("A"), L("L")])), "series:KAL");
  assert.equal(D.verdictKey("harftet", "series", entries([L("K"), J()])), null);
  assert.equal(D.verdictKey("kastet", "series", entries([K("red", 1)])), null);
});

test("a dry run asks about the open melds first, and each answer settles the melds it reached", () => {
  const table = [L("E"), L("V")];
  const hand = [..."KALSDÜMO"].map((c) => L(c));
  const v = view([table], hand);
  let d = D.fromView(v);
  for (const word of [hand.slice(0, 3), hand.slice(3, 6), hand.slice(6, 8)]) {
    d = D.newMeld(d, "series", HL);
    for (const t of word) d = D.addToActive(d, t.id, hand, HL);
  }
  // EV (table), KAL, SDÜ, MO: ask about 1 and 2; 3 is known to be too short.
  const asked = { series: [2, 1], pairs: [] };
  const plan = D.probeBody(d, asked);
  assert.deepEqual(plan.series, [2, 1, 0, 3]);
  assert.deepEqual(plan.body.series[0].map((r) => r.id), hand.slice(3, 6).map((t) => t.id));
  // The server names the second meld sent (KAL, draft meld 1): SDÜ before it passed.
  let got = D.readProbe(plan, asked, { legal: false, reason: "not_a_word", meld: 1 });
  assert.deepEqual([...got], [["series:2", "valid"], ["series:1", "invalid"]]);
  got = D.readProbe(plan, asked, { legal: false, reason: "not_a_word", meld: 0 });
  assert.deepEqual([...got], [["series:2", "invalid"]]);
  got = D.readProbe(plan, asked, { legal: true });
  assert.deepEqual([...got], [["series:2", "valid"], ["series:1", "valid"]]);
  got = D.readProbe(plan, asked, { legal: false, reason: "not_in_hand", meld: 0 });
  assert.equal(got.size, 0); // not about a meld's word: nothing learned
});

test("a dry run that reaches the pairs has passed every series meld", () => {
  const plan = { series: [0, 1], pairs: [1, 0] };
  const asked = { series: [1], pairs: [1, 0] };
  const got = D.readProbe(plan, asked, { legal: false, reason: "not_a_word", pair: 1 });
  assert.deepEqual([...got], [["series:1", "valid"], ["pairs:1", "valid"], ["pairs:0", "invalid"]]);
  const closed = D.readProbe(plan, asked, { legal: false, reason: "pairs_closed" });
  assert.deepEqual([...closed], [["pairs:1", "invalid"], ["pairs:0", "invalid"]]);
});

test("a revealed hint meld is laid out over the table as it stands", () => {
  const a = K("red", 1), b = K("red", 2), c = K("red", 3), d = K("red", 4), x = K("blue", 7), y = K("blue", 8), z = K("blue", 9);
  const view = { series: [[a, b, c], [x, y, z]], pairs: [], hand: [d] };
  const meld = [a, b, c].map((t) => ({ id: t.id, from: "table" })).concat([{ id: d.id, from: "hand" }]);
  assert.deepEqual(D.layOfMeld(view, meld), {
    series: [[a, b, c, d].map((t) => ({ id: t.id })), [x, y, z].map((t) => ({ id: t.id }))], pairs: [],
  });
  const fresh = [{ id: d.id, from: "hand" }, { id: 900, as: "A", from: "hand" }];
  assert.deepEqual(D.layOfMeld(view, fresh).series.at(-1), [{ id: d.id }, { id: 900, as: "A" }]);
  assert.deepEqual(D.layOfMeld(view, fresh, "pairs").pairs, [[{ id: d.id }, { id: 900, as: "A" }]]);
});
