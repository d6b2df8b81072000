// The catalogue in the client: sentences filled from the server's catalogue (texts.js), refusals
// said as the server says them (refusals.js), the catalogue fetched and kept (catalogue.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { fill, getBounds, getLang, install, t } from "../../clients/web/texts.js";
import { errorText, whereText } from "../../clients/web/refusals.js";
import { kept, load } from "../../clients/web/catalogue.js";
import { DraftError } from "../../clients/web/draft.js";
import { BOUNDS, catalogue, TEXTS } from "./catalogue.mjs";

const tr = () => install(catalogue("tr"));
const en = () => install(catalogue("en"));

test("a key is said with its placeholders filled; a missing value reads as nothing", () => {
  tr();
  assert.equal(t("status.hand", { n: 1, of: 1, pile: 50 }), "El 1/1 · ortada 50 taş");
  assert.equal(fill("{a} ve {b}", { a: 1 }), "1 ve ");
  assert.equal(t("no.such.key"), "no.such.key");
  assert.equal(getLang(), "tr");
  assert.equal(getBounds().nameMax, 24);
});

test("English counts tables as English does; Turkish keeps one form after a number", () => {
  en();
  assert.equal(t("inbox.waiting", { n: 1 }), "Your turn at 1 table");
  assert.equal(t("inbox.waiting", { n: 3 }), "Your turn at 3 tables");
  tr();
  assert.equal(t("inbox.waiting", { n: 1 }), "1 masada sıra sende");
  assert.equal(t("inbox.waiting", { n: 3 }), "3 masada sıra sende");
});

test("the words players asked for: ortada for the pile, Derece for the rating", () => {
  tr();
  assert.equal(t("rating"), "Derece");
  assert.equal(t("log.lay.n", { who: "Bilgisayar 2", n: 3, tiles: "kırmızı 5, kırmızı 6, kırmızı 7" }),
    "Bilgisayar 2, 3 taş işledi: kırmızı 5, kırmızı 6, kırmızı 7");
  assert.match(t("confirm.leave.practice"), /derecen değişmez/);
});

test("a refused word reads as the server's sentence, naming the series", () => {
  tr();
  const e = { code: "illegal_move", reason: "not_a_word", params: { meld: 1, word: "SDÜ" }, message: "series meld 2 (index 1): ..." };
  assert.equal(errorText(e), "2. seri: SDÜ sözlükte yok");
  assert.equal(errorText({ code: "illegal_move", reason: "not_a_word", params: {} }), "Bu kelime sözlükte yok");
});

test("the params beside the reason are read too, and tiles are named as the client names them", () => {
  tr();
  const e = { code: "illegal_move", reason: "not_in_hand", tile: 17, params: {} };
  assert.equal(errorText(e, (id) => (id === 17 ? "mavi 7" : "?")), "mavi 7 elinde yok");
  assert.equal(errorText({ code: "illegal_move", reason: "bad_meld", kind: "run", meld: 0 }),
    "1. seri: Sıralı değil: sayılar birer artmalı, 1 yalnız başta olur");
  assert.equal(errorText({ code: "illegal_move", reason: "bad_pair", params: { pair: 0, kind: "size" } }), "1. çift: Çift tam iki taştır");
  assert.equal(whereText({ meld: 2, pair: 0 }), "3. seri: "); // the meld first, as the server says it
});

test("every refusal sentence is the catalogue's own, the same the server says", () => {
  tr();
  for (const [key, text] of Object.entries(TEXTS.tr)) {
    if (!key.startsWith("error.") || text.includes("{")) continue;
    assert.equal(errorText({ code: key.slice(6) }), text, key);
  }
  for (const [key, text] of Object.entries(TEXTS.tr)) {
    const [, reason, kind] = key.split(".");
    if (!key.startsWith("reason.") || text.includes("{")) continue;
    assert.equal(errorText({ code: "illegal_move", reason, params: kind ? { kind } : {} }), text, key);
  }
});

test("an unknown reason falls back to the server's own message; a bare code to its sentence", () => {
  tr();
  assert.equal(errorText({ code: "illegal_move", reason: "brand_new", message: "Yeni bir kural" }), "Yeni bir kural");
  assert.equal(errorText({ code: "not_your_turn", message: "it is seat 2's turn" }), "Sıra sende değil");
  assert.equal(errorText({ code: "illegal_move", meld: 2 }), "3. seri: Bu hamle kurallara uymuyor");
  assert.equal(errorText({ code: "network", status: 0 }), "Sunucuya ulaşılamıyor");
});

test("the numbers a sentence quotes come from the refusal, the view's limits or the bounds", () => {
  tr();
  const limits = { minSeries: 3, handLimit: 22, maxSeries: 26 };
  assert.equal(errorText({ code: "illegal_move", reason: "meld_too_short", meld: 0 }, undefined, limits), "1. seri: Seride en az 3 taş olmalı");
  assert.equal(errorText({ code: "illegal_move", reason: "must_draw_or_lay" }, undefined, { ...limits, handLimit: 20 }),
    "Taş çek ya da aç: açmadan pas ancak elde 20 taş varken ya da deste bitince olur");
  assert.equal(errorText({ code: "illegal_move", reason: "hand_full", params: { max: 22 } }, undefined, limits),
    "Elinde 22 taş var: taş çekemezsin, aç ya da pas geç");
  assert.equal(errorText({ code: "too_many_tables", params: { max: 3 } }), "Aynı anda en çok 3 bekleyen masa kurabilirsin");
  // A refusal that does not say its bound quotes the right one, never another rule's number.
  assert.equal(errorText({ code: "too_many_tables" }, undefined, limits), `Aynı anda en çok ${BOUNDS.waitingTablesMax} bekleyen masa kurabilirsin`);
  assert.match(errorText({ code: "too_many_tables", reason: "too_many_correspondence" }, undefined, limits),
    new RegExp(`en çok ${BOUNDS.correspondenceTablesMax} yazışmalı`));
  assert.equal(errorText({ code: "illegal_move", reason: "hand_full" }, undefined, limits), "Elinde 22 taş var: taş çekemezsin, aç ya da pas geç");
  assert.equal(errorText({ code: "rate_limited", params: { retryAfter: 12 } }), "Çok sık denedin: 12 saniye sonra yeniden dene");
  // a 429 that does not say how long (a gateway's, a limit without Retry-After): never "? saniye" nor " saniye"
  assert.equal(errorText({ code: "rate_limited", params: {} }), "Çok sık denedin: biraz bekleyip yeniden dene");
});

test("the draft's own refusals are the catalogue's draft sentences, or the server's for the same rule", () => {
  tr();
  const limits = { maxSeries: 26 };
  assert.equal(errorText(new DraftError("joker_face")), "Önce her jokerin yüzünü seç");
  assert.equal(errorText(new DraftError("table_tile")), "Yerdeki taşlar herkesindir: ele geri dönmez");
  assert.equal(errorText(new DraftError("too_many_series", { max: 26, count: 27 }), undefined, limits),
    "Seri alanında en çok 26 seri olur, bu açışta 27 var");
  assert.equal(errorText(new DraftError("unknown_tile", { tile: 4 }), () => "K"), "Bu taş artık masada değil: taslağı yenile");
  en();
  assert.equal(errorText(new DraftError("pair_full")), "A pair is exactly two tiles");
});

test("a refused form reads as the field and its range from the bounds, never a generic line", () => {
  tr();
  assert.equal(errorText({ code: "bad_request", message: "'seats': Input should be less than or equal to 4" }),
    "Oyuncu sayısı değeri kabul edilmedi: 2 ile 4 arasında olmalı.");
  assert.equal(errorText({ code: "bad_request", params: { field: "seats" }, message: "seats must be between 2 and 4" }),
    "Oyuncu sayısı değeri kabul edilmedi: 2 ile 4 arasında olmalı.");
  assert.equal(errorText({ code: "bad_request", message: "'body': Value error, a partner game needs exactly 4 seats" }),
    "Eşli oyun 4 oyuncuyla oynanır: oyuncu sayısını 4 yap ya da eşliyi kaldır.");
  assert.equal(errorText({ code: "bad_request", params: { field: "name", max: BOUNDS.nameMax, n: 28 } }),
    "Adın en çok 24 karakter olabilir; şu an 28 karakter.");
  assert.equal(errorText({ code: "bad_request", params: { field: "name" }, message: "'name': at most 24 characters" }),
    "Adın en çok 24 karakter olabilir.");
  assert.equal(errorText({ code: "bad_request", message: "'name': Value error, an invisible formatting character" }),
    "Bu ad olmaz: görünmeyen ya da özel karakter içeriyor.");
  assert.notEqual(errorText({ code: "bad_request", message: "malformed JSON" }), "İstek geçersiz");
  en();
  assert.equal(errorText({ code: "bad_request", message: "'hands': Input should be less than or equal to 21" }),
    "Hands was not accepted: it must be 1 to 21.");
  assert.equal(errorText({ code: "bad_request", message: "'turnSeconds': too long" }),
    "Turn time was not accepted: it must be 10 to 600 seconds.");
  tr();
});

function memory(init = {}) {
  const data = { ...init };
  return { getItem: (k) => (k in data ? data[k] : null), setItem: (k, v) => { data[k] = String(v); }, removeItem: (k) => { delete data[k]; }, data };
}

function server(answers) {
  const asked = [];
  const fetch = async (url, options) => {
    asked.push({ url, headers: { ...(options.headers || {}) }, cache: options.cache });
    const a = answers.shift();
    if (a === "offline") throw new TypeError("Failed to fetch");
    return {
      status: a.status, ok: a.status >= 200 && a.status < 300,
      headers: { get: (name) => (name.toLowerCase() === "etag" ? a.etag ?? null : null) },
      json: async () => a.body,
    };
  };
  return { fetch, asked };
}

const body = (lang, version = "v1") => ({ lang, version, texts: TEXTS[lang], bounds: BOUNDS });

test("the catalogue is fetched once, kept with its ETag and revalidated with If-None-Match", async () => {
  const storage = memory();
  const first = server([{ status: 200, etag: '"abc-tr"', body: body("tr") }]);
  const got = await load("tr", { storage, base: "https://api.example", fetch: first.fetch });
  assert.equal(first.asked[0].url, "https://api.example/texts?lang=tr");
  assert.deepEqual(first.asked[0].headers, {});
  assert.equal(got.texts["btn.draw"], "Taş çek");
  assert.equal(kept(storage, "tr").etag, '"abc-tr"');

  const again = server([{ status: 304, etag: '"abc-tr"' }]);
  const same = await load("tr", { storage, fetch: again.fetch });
  assert.deepEqual(again.asked[0].headers, { "If-None-Match": '"abc-tr"' });
  assert.equal(same.version, "v1");

  const changed = server([{ status: 200, etag: '"def-tr"', body: { ...body("tr", "v2") } }]);
  assert.equal((await load("tr", { storage, fetch: changed.fetch })).version, "v2");
  assert.equal(kept(storage, "tr").version, "v2");
});

test("offline, or with the server failing, the kept catalogue is used; without one there is none", async () => {
  const storage = memory();
  assert.equal(await load("en", { storage, fetch: server(["offline"]).fetch }), null);
  await load("en", { storage, fetch: server([{ status: 200, etag: null, body: body("en") }]).fetch });
  assert.equal((await load("en", { storage, fetch: server(["offline"]).fetch })).texts["btn.draw"], "Draw");
  assert.equal((await load("en", { storage, fetch: server([{ status: 503 }]).fetch })).lang, "en");
  // Another origin's ETag cannot be read: nothing to send, the browser's cache revalidates.
  const cross = server([{ status: 200, body: body("en") }]);
  await load("en", { storage, fetch: cross.fetch });
  assert.deepEqual(cross.asked[0].headers, {});
  assert.equal(cross.asked[0].cache, "no-cache");
  assert.equal(kept(memory({ "harftet.texts.tr": "{not json" }), "tr"), null);
  assert.equal(kept(storage, "tr"), null); // each language is kept on its own
});
