// The rules page (rules.html + rules.js): the rules document in the language asked for, drawn
// from Markdown, labelled from the catalogue, and a failure said in the catalogue's words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { page, read, serve, textsRoute, until } from "./dom.mjs";

const DOC = "# Kurallar\n\nHer oyuncuya **14** taş dağıtılır.\n\n- Seri\n- Çift\n\nAyrıca [English](RULES.en.md).";
let loads = 0;

/** rules.html at `query`, its script run afresh over a server answering `routes`. */
async function open(query, routes, storage = {}) {
  page("rules.html", { url: `http://127.0.0.1:3000/play/rules.html${query}` });
  for (const [k, v] of Object.entries(storage)) localStorage.setItem(k, v);
  const requests = serve(routes);
  loads += 1;
  await import(`../../clients/web/rules.js?open=${loads}`);
  const el = document.querySelector("#rules");
  await until(() => "done" in el.dataset && document.title !== "Harftet", "the rules");
  return { requests, el };
}

test("the Turkish rules are drawn from their Markdown, labelled in Turkish", async () => {
  const { el, requests } = await open("", { ...(await textsRoute("tr")), "GET docs/KURALLAR.tr.md": DOC });
  assert.equal(read(el.querySelector("h1")), "Kurallar");
  assert.equal(read(el.querySelector("p strong")), "14");
  assert.deepEqual([...el.querySelectorAll("li")].map(read), ["Seri", "Çift"]);
  assert.equal(el.querySelector("a").getAttribute("href"), "rules.html?doc=RULES.en.md"); // another rules file opens here
  assert.equal(document.title, "Kurallar · Harftet ve Kastet");
  assert.equal(read(document.querySelector("#back")), "Masaya dön");
  assert.equal(document.documentElement.lang, "tr");
  assert.deepEqual(requests.map((r) => r.url).sort(), ["/texts?lang=tr", "config.json", "docs/KURALLAR.tr.md"]);
});

test("?lang=en and ?doc=RULES.en.md both open the English rules, labelled in English", async () => {
  for (const query of ["?lang=en", "?doc=RULES.en.md"]) {
    const { el, requests } = await open(query, { ...(await textsRoute("en")), "GET docs/RULES.en.md": "# Rules" });
    assert.equal(read(el), "Rules");
    assert.equal(document.title, "Rules · Harftet and Kastet");
    assert.equal(document.documentElement.lang, "en");
    assert.ok(requests.some((r) => r.url === "/texts?lang=en"), query);
  }
});

test("with no query the language chosen in the game is used; an unknown document is not fetched", async () => {
  const { requests } = await open("?doc=../../secret.md", { ...(await textsRoute("en")), "GET docs/RULES.en.md": "# Rules" }, { "harftet.lang": "en" });
  assert.ok(requests.some((r) => r.url === "docs/RULES.en.md"));
  assert.ok(!requests.some((r) => r.url.includes("secret")));
});

test("rules that cannot be had say so in the catalogue's words, from the kept catalogue when offline", async () => {
  const kept = JSON.stringify((await import("./catalogue.mjs")).catalogue("tr"));
  const { el } = await open("", { "GET /texts?lang=tr": new TypeError("offline"), "GET docs/KURALLAR.tr.md": new TypeError("offline") }, { "harftet.texts.tr": kept });
  assert.equal(read(el), "Kurallar şu an yüklenemedi.");
  assert.equal(document.title, "Kurallar · Harftet ve Kastet");
  const missing = await open("", { ...(await textsRoute("tr")) }); // the document answers 404
  assert.equal(read(missing.el), "Kurallar şu an yüklenemedi.");
});
