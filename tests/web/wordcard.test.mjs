// The word card (wordcard.js): the "?" a word on the table carries, what the card says of a word
// in the list or not, the report a player sends, and what a failure reads.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../../clients/web/api.js";
import { initWordCard, wordButton } from "../../clients/web/wordcard.js";
import { install } from "../../clients/web/texts.js";
import { catalogue } from "./catalogue.mjs";
import { page, read, settled } from "./dom.mjs";

install(catalogue("tr"));
const KNOWN = { word: "ÇİĞ", known: true, kinds: ["sıfat"], sources: ["TDK", "Vikisözlük"] };
const UNKNOWN = { word: "ELMAK", known: false, reason: "not_in_list", message: "ELMAK is not in the game's dictionary", kinds: [], sources: [] };

/** The card on a page with one meld carrying `word`'s button, over a server answering `routes`. */
function mounted(routes, store = null) {
  page();
  const sent = [];
  const api = { request: async (method, path, body) => {
    sent.push(body === undefined ? `${method} ${path}` : [`${method} ${path}`, body]);
    const a = routes[`${method} ${path}`];
    if (a instanceof Error) throw a;
    return a;
  } };
  const card = initWordCard({ api, store });
  const meldClicks = [];
  const meld = document.createElement("li");
  meld.addEventListener("click", () => meldClicks.push(1));
  document.body.append(meld);
  const tap = async (word) => { meld.replaceChildren(wordButton(word)); meld.querySelector("button").click(); await settled(); };
  const $ = (sel) => document.querySelector(sel);
  return { card, sent, meldClicks, tap, $ };
}

/** What the card reads, part by part: its word, then its body's parts (its language switch beside the word is
 * chrome.js's, tried in chrome.test.mjs). */
const parts = () => [document.querySelector("#word-card .wc-word"), ...document.querySelector("#word-card .dialog-body").children].map(read);

test("a word on the table carries a \"?\" named for screen readers", () => {
  page();
  const b = wordButton("ELMA");
  assert.equal(b.textContent, "?");
  assert.equal(b.dataset.word, "ELMA");
  assert.equal(b.getAttribute("aria-label"), "Bu kelime hakkında: ELMA");
  assert.equal(b.title, "Bu kelime hakkında: ELMA");
});

test("the \"?\" opens the card (not the meld): a word in the list, its kinds and how many dictionaries hold it (no package names)", async () => {
  const { sent, meldClicks, tap, $ } = mounted({ "GET /words/%C3%87%C4%B0%C4%9E": KNOWN });
  await tap("ÇİĞ");
  assert.deepEqual(sent, ["GET /words/%C3%87%C4%B0%C4%9E"]);
  assert.deepEqual(meldClicks, []);
  assert.equal($("#word-card").hidden, false);
  assert.equal($("#word-card").getAttribute("aria-label"), "Kelime: ÇİĞ");
  assert.deepEqual(parts(), [
    "ÇİĞ", "✓ Sözlükte var", "Türü: sıfat", "Kaynak: 2 sözlükte var", "Yanlış kelime bildirKapat", ""]);
  assert.deepEqual([...$(".wc-actions").children].map(read), ["Yanlış kelime bildir", "Kapat"]);
});

test("a word not in the list says why in the catalogue's sentence (not the server's message), and may be reported as missing", async () => {
  const { sent, tap, $ } = mounted({ "GET /words/ELMAK": UNKNOWN, "POST /words/ELMAK/reports": {} });
  await tap("ELMAK");
  assert.equal(read($(".wc-status")), "✗ Sözlükte yok");
  assert.equal(read($(".wc-reason")), "ELMAK oyunun sözlüğünde yok");
  assert.equal($(".wc-row"), null);
  assert.equal(read($(".wc-report")), "Eksik kelime bildir");
  $(".wc-report").click();
  assert.equal($(".wc-report").disabled, true); // one report per tap
  await settled();
  assert.deepEqual(sent.at(-1), ["POST /words/ELMAK/reports", { kind: "missing" }]);
  assert.equal(read($(".wc-note")), "Bildirimin alındı, teşekkürler");
});

test("a word with no kinds listed says so; a refused report says why and may be sent again", async () => {
  const limited = new ApiError(429, { error: { code: "rate_limited", params: { retryAfter: 30 } } });
  const { tap, $ } = mounted({ "GET /words/EV": { ...KNOWN, word: "EV", kinds: [] }, "POST /words/EV/reports": limited });
  await tap("EV");
  assert.equal(read($(".wc-row")), "Türü: belirtilmemiş");
  $(".wc-report").click();
  await settled();
  assert.equal(read($(".wc-note")), "Çok sık denedin: 30 saniye sonra yeniden dene");
  assert.equal($(".wc-report").disabled, false);
});

test("a word that cannot be looked up reads the refusal; the card closes with its button or Escape", async () => {
  const { card, tap, $ } = mounted({ "GET /words/EV": new ApiError(0, { error: { code: "network" } }), "GET /words/AT": KNOWN });
  await tap("EV");
  assert.equal(read($(".wc-error")), "Sunucuya ulaşılamıyor");
  $(".wc-close").click();
  assert.equal($("#word-card").hidden, true);
  assert.equal($("#word-card .dialog-body").children.length, 0);
  await tap("AT");
  document.dispatchEvent(new window.KeyboardEvent("keydown", { key: "Escape" }));
  assert.equal($("#word-card").hidden, true);
  card.show("AT");
  assert.deepEqual(parts(), ["AT", "Bakılıyor…"]); // at once, before the answer
});

test("an open card, its report answered, is drawn again in the language switched to", async () => {
  let state = { texts: 1 };
  const subscribers = [];
  const store = { get: () => state, subscribe: (f) => subscribers.push(f) };
  const { tap, $ } = mounted({ "GET /words/%C3%87%C4%B0%C4%9E": KNOWN, "POST /words/%C3%87%C4%B0%C4%9E/reports": {} }, store);
  await tap("ÇİĞ");
  $(".wc-report").click();
  await settled();
  install(catalogue("en"));
  state = { texts: 2 };
  subscribers.forEach((f) => f(state));
  assert.deepEqual(parts(), [
    "ÇİĞ", "✓ In the dictionary", "Kind: adjective", "Source: in 2 dictionaries", "Report a wrong wordClose", "Thanks, your report is in"]);
  assert.equal($(".wc-report").disabled, true); // still sent once
  install(catalogue("tr"));
});
