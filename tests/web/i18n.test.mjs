// The client's words: error texts from the API's reason codes, Turkish first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { errorText, setLang, t } from "../../clients/web/i18n.js";

test("a refused word reads as plain Turkish, naming the series", () => {
  setLang("tr");
  const e = { code: "illegal_move", reason: "not_a_word", params: { meld: 1, word: "SDÜ" }, message: "series meld 2 (index 1): ..." };
  assert.equal(errorText(e), "2. seri: SDÜ sözlükte yok");
});

test("the params beside the reason are read too, and tiles are named as players see them", () => {
  setLang("tr");
  const e = { code: "illegal_move", reason: "not_in_hand", tile: 17, params: {} };
  assert.equal(errorText(e, (id) => (id === 17 ? "mavi 7" : "?")), "mavi 7 elinde yok");
  assert.equal(errorText({ code: "illegal_move", reason: "bad_meld", kind: "run", meld: 0 }), "1. seri: Sıralı değil: sayılar birer artmalı, 1 yalnız başta olur");
});

test("an unknown reason falls back to the server's own message; a bare code to a plain sentence", () => {
  setLang("tr");
  assert.equal(errorText({ code: "illegal_move", reason: "brand_new", message: "Yeni bir kural" }), "Yeni bir kural");
  assert.equal(errorText({ code: "not_your_turn", message: "it is seat 2's turn" }), "Sıra sende değil");
  assert.equal(errorText({ code: "illegal_move", meld: 2 }), "3. seri: Bu hamle kurallara uymuyor");
});

test("English is one switch away", () => {
  setLang("en");
  assert.equal(errorText({ code: "illegal_move", reason: "not_a_word", params: { word: "SDÜ" } }), "SDÜ is not in the dictionary");
  assert.equal(t("btn.draw"), "Draw");
  setLang("tr");
  assert.equal(t("btn.draw"), "Taş çek");
});

test("the numbers a rule's sentence quotes are the view's rule limits", () => {
  setLang("tr");
  const limits = { minSeries: 3, handLimit: 22, maxSeries: 26 };
  assert.equal(errorText({ code: "illegal_move", reason: "meld_too_short", meld: 0 }, undefined, limits), "1. seri: Seride en az 3 taş olmalı");
  assert.equal(errorText({ code: "illegal_move", reason: "must_draw_or_lay" }, undefined, { ...limits, handLimit: 20 }),
    "Taş çek ya da yere aç: açmadan pas ancak 20 taşla ya da deste bitince olur");
  assert.equal(errorText({ code: "illegal_move", reason: "hand_full", params: { max: 22 } }, undefined, limits), "Elinde 22 taş var: taş çekemezsin, aç ya da pas geç");
  assert.equal(t("area.pairs.open", { n: limits.maxSeries }), "açık: 26 seri yerde");
});

test("English counts tables as English does; Turkish keeps one form after a number", () => {
  setLang("en");
  assert.equal(t("inbox.waiting", { n: 1 }), "Your turn at 1 table");
  assert.equal(t("inbox.waiting", { n: 3 }), "Your turn at 3 tables");
  setLang("tr");
  assert.equal(t("inbox.waiting", { n: 1 }), "1 masada sıra sende");
  assert.equal(t("inbox.waiting", { n: 3 }), "3 masada sıra sende");
});
