// Phrases at the table (phrases.js) on the real page: the menu in the catalogue's words, what a
// tap sends, a refusal's notice, muting a seat (kept in this browser), a phrase arriving on its
// seat for a few seconds, and an invitation's question.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mountPhrases } from "../../clients/web/phrases.js";
import { install } from "../../clients/web/texts.js";
import { catalogue } from "./catalogue.mjs";
import { page, read, settled, storeWith } from "./dom.mjs";
import { kastetView } from "./fixtures.mjs";

const PHRASES = [{ id: "selam", tr: "Selam", en: "Hello" }, { id: "yeni-bir-soz", tr: "Yeni söz", en: "New words" }];

async function mounted({ view = kastetView(), answer = {} } = {}) {
  const store = await storeWith({ me: { token: "t", playerId: "p0" } });
  store.dispatch({ type: "tableOpened", view });
  page("index.html");
  document.querySelector("#seats").innerHTML = view.seats.map((_, i) => `<div class="seat" data-seat="${i}"></div>`).join("");
  const sent = [];
  const opened = [];
  const api = { request: async (method, path, body) => {
    sent.push(body === undefined ? `${method} ${path}` : [`${method} ${path}`, body]);
    if (path === "/phrases") return { phrases: PHRASES };
    if (answer instanceof Error) throw answer;
    return answer;
  } };
  const phrases = mountPhrases({ store, api, openTable: (id) => opened.push(id), refusal: (e) => `refused: ${e.code}` });
  const $ = (sel) => document.querySelector(sel);
  const toggle = async () => { $("#phrase-open").click(); await settled(); };
  return { store, sent, opened, phrases, $, toggle };
}

test("the phrase button opens a menu in the catalogue's words, loaded once", async () => {
  const { $, sent, toggle } = await mounted();
  assert.equal(read($("#phrase-open")), "Söyle");
  assert.equal($("#phrase-menu").hidden, true);
  await toggle();
  assert.equal($("#phrase-menu").hidden, false);
  const said = [...document.querySelectorAll("#phrase-menu [data-phrase]")].map((b) => [b.dataset.phrase, read(b), b.disabled]);
  assert.deepEqual(said, [["selam", "Selam", false], ["yeni-bir-soz", "Yeni söz", false]]); // a phrase newer than the catalogue: the server's words
  await toggle();
  assert.equal($("#phrase-menu").hidden, true);
  await toggle();
  assert.deepEqual(sent, ["GET /phrases"]);
  install(catalogue("en"));
  await toggle();
  await toggle();
  assert.deepEqual([...document.querySelectorAll("#phrase-menu [data-phrase]")].map(read), ["Hello", "New words"]);
  install(catalogue("tr"));
});

test("a phrase tapped is sent to the table; a refusal is said in a notice", async () => {
  const ok = await mounted();
  await ok.toggle();
  document.querySelector('[data-phrase="selam"]').click();
  await settled();
  assert.deepEqual(ok.sent.at(-1), ["POST /tables/t1/phrases", { phrase: "selam" }]);
  assert.equal(ok.$("#phrase-menu").hidden, true);
  const no = await mounted({ answer: Object.assign(new Error("slow down"), { code: "rate_limited" }) });
  await no.toggle();
  document.querySelector('[data-phrase="selam"]').click();
  await settled();
  assert.equal(no.store.get().notice.text, "refused: rate_limited");
});

test("a watcher reads the phrases but cannot send one, and may mute every seat", async () => {
  const { toggle } = await mounted({ view: kastetView({ seat: null }) });
  await toggle();
  assert.ok([...document.querySelectorAll("[data-phrase]")].every((b) => b.disabled));
  assert.deepEqual([...document.querySelectorAll("[data-mute]")].map(read), ["Koltuk 1: Sustur", "Koltuk 2: Sustur"]);
});

test("a seat muted stays muted in this browser and says how to hear it again", async () => {
  const { toggle } = await mounted();
  await toggle();
  assert.deepEqual([...document.querySelectorAll("[data-mute]")].map((b) => b.dataset.mute), ["1"]); // not the player's own seat
  document.querySelector('[data-mute="1"]').click();
  assert.equal(localStorage.getItem("harftet.mutedSeats.t1"), "[1]");
  assert.equal(read(document.querySelector('[data-mute="1"]')), "Koltuk 2: Sesini aç");
  document.querySelector('[data-mute="1"]').click();
  assert.equal(localStorage.getItem("harftet.mutedSeats.t1"), "[]");
});

test("a phrase arriving shows on its seat for four seconds; a muted seat's shows nothing", async (ctx) => {
  const { phrases } = await mounted();
  ctx.mock.timers.enable({ apis: ["setTimeout"] });
  await phrases.onMessage({ type: "phrase", seat: 1, phrase: "selam" });
  const bubble = document.querySelector('.seat[data-seat="1"] .phrase-bubble');
  assert.equal(read(bubble), "Selam");
  assert.equal(bubble.getAttribute("role"), "status");
  ctx.mock.timers.tick(3999);
  assert.ok(bubble.isConnected);
  ctx.mock.timers.tick(1);
  assert.equal(bubble.isConnected, false);
  localStorage.setItem("harftet.mutedSeats.t1", "[1]");
  await phrases.onMessage({ type: "phrase", seat: 1, phrase: "selam" });
  assert.equal(document.querySelector(".phrase-bubble"), null);
  localStorage.setItem("harftet.mutedSeats.t1", "[]");
  await phrases.onMessage({ type: "phrase", seat: 1, phrase: "not-in-the-set" }); // nothing to say it with
  assert.equal(document.querySelector(".phrase-bubble"), null);
});

test("an invitation at the table asks first, and goes to that table only on a yes", async () => {
  const { phrases, opened } = await mounted();
  const questions = [];
  window.confirm = (q) => { questions.push(q); return questions.length > 1; };
  await phrases.onMessage({ type: "invitation", tableId: "tA" });
  await phrases.onMessage({ type: "invitation", tableId: "tB" });
  assert.deepEqual(questions, ["Bir arkadaşın seni bir masaya çağırıyor. Gidelim mi?", "Bir arkadaşın seni bir masaya çağırıyor. Gidelim mi?"]);
  assert.deepEqual(opened, ["tB"]);
});
