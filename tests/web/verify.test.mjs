// The deal check page (verify.html + verify.js): a finished game's deals recomputed from its
// replay, each hand's line and the verdict in the catalogue's words, the proofs this browser saw
// during play compared, a refusal and a missing table said, and the language switch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { shuffled } from "../../clients/web/deal.js";
import { page, read, serve, textsRoute, until } from "./dom.mjs";

const CASES = JSON.parse(readFileSync(new URL("./deals.json", import.meta.url), "utf8"));
const SALT = "ab".repeat(16);
const sha = (s) => createHash("sha256").update(s).digest("hex");

/** A replay's hand as the server sends it: the deal of `seats` seats and the pile, from `ids`. */
function hand(n, ids, seats = 2) {
  const committed = `harftet-deal-v1|${SALT}|7:${n}`;
  const deal = Object.fromEntries(Array.from({ length: seats }, (_, s) => [String(s), ids.slice(s * 14, (s + 1) * 14)]));
  return { hand: n, deal, pile: ids.slice(seats * 14).reverse(), committed, dealProof: sha(committed) };
}
const HAND2 = hand(2, CASES.find((c) => c.input === "7:2").ids); // dealt as Python deals it

let loads = 0;
async function open(hash, routes, storage = {}) {
  page("verify.html", { url: `http://127.0.0.1:3000/play/verify.html${hash}` });
  for (const [k, v] of Object.entries(storage)) localStorage.setItem(k, v);
  const requests = serve({ ...(await textsRoute("tr")), ...(await textsRoute("en")), ...routes });
  loads += 1;
  await import(`../../clients/web/verify.js?open=${loads}`);
  const verdict = document.querySelector("#verdict");
  await until(() => verdict.className !== "verdict" || read(verdict) === "Doğrulanacak masa yok: bitmiş bir oyunun bağlantısıyla gel.", "the verdict");
  return { requests, verdict, $: (sel) => document.querySelector(sel) };
}
const SESSION = { "harftet.session": JSON.stringify({ token: "tok", playerId: "p0", name: "Ayşe" }) };

test("a replay whose deals follow from its seed, as seen in play, is verified hand by hand", async () => {
  const proofs = { "harftet.proofs.t1": JSON.stringify({ 2: HAND2.dealProof }) };
  const { verdict, requests, $ } = await open("#t=t1", { "GET /tables/t1/replay": { seed: 7, salt: SALT, hands: [HAND2] } }, { ...SESSION, ...proofs });
  assert.equal(read(verdict), "doğrulandı");
  assert.equal(verdict.className, "verdict ok");
  assert.equal(document.body.dataset.verified, "yes");
  const [line] = document.querySelectorAll("#hands li");
  assert.equal(read(line), `✓ 2. el: dağıtım ve yığın tohumdan çıkıyor; oyunda gördüğün özetle aynı ${HAND2.dealProof}`);
  assert.equal(line.className, "ok");
  assert.equal($("#back").getAttribute("href"), "./#t=t1");
  const asked = requests.find((r) => r.url === "/tables/t1/replay");
  assert.deepEqual([asked.headers.Authorization, asked.headers["Accept-Language"]], ["Bearer tok", "tr"]);
  assert.equal(document.title, "Dağıtımı doğrula · Harftet");
});

test("a hand whose pile does not follow, or whose proof differs from the one seen, fails the check", async () => {
  const ids = await shuffled("7:3");
  const bad = hand(3, ids);
  [bad.pile[0], bad.pile[1]] = [bad.pile[1], bad.pile[0]];
  const proofs = { "harftet.proofs.t1": JSON.stringify({ 2: "0".repeat(64) }) };
  const { verdict } = await open("#t=t1", { "GET /tables/t1/replay": { seed: 7, salt: SALT, hands: [HAND2, bad] } }, proofs);
  assert.equal(read(verdict), "doğrulanamadı");
  assert.equal(verdict.className, "verdict bad");
  assert.equal(document.body.dataset.verified, "no");
  assert.deepEqual([...document.querySelectorAll("#hands li")].map((li) => read(li).replace(/ [0-9a-f]{64}$/, "")), [
    "✗ 2. el: dağıtım ve yığın tohumdan çıkıyor; oyunda gösterilen özet farklı",
    "✗ 3. el: dağıtım ya da yığın tohumdan çıkmıyor; bu tarayıcı oyunda bu eli görmedi",
  ]);
});

test("with no table named the page says where to come from; a refused replay says its code", async () => {
  const none = await open("", {});
  assert.equal(read(none.verdict), "Doğrulanacak masa yok: bitmiş bir oyunun bağlantısıyla gel.");
  assert.ok(!none.requests.some((r) => r.url.includes("/replay")));
  const refused = await open("?t=t2", { "GET /tables/t2/replay": Response.json({ error: { code: "wrong_status" } }, { status: 409 }) });
  assert.equal(read(refused.verdict), "Tekrar alınamadı (wrong_status).");
  assert.equal(refused.verdict.className, "verdict bad");
});

test("the language switch reads the whole page, verdict too, in English and keeps the choice", async () => {
  const { verdict, $ } = await open("#t=t1", { "GET /tables/t1/replay": { seed: 7, salt: SALT, hands: [HAND2] } });
  assert.equal(read($("#verify-h")), "Dağıtımı doğrula");
  $("#lang").click();
  await until(() => read(document.querySelector("#hands li")).startsWith("✓ Hand 2"), "the English lines");
  assert.equal(read(verdict), "verified");
  assert.equal(read($("#verify-h")), "Verify the deal");
  assert.equal(read($("#lang")), "Türkçe");
  assert.equal(document.documentElement.lang, "en");
  assert.match(read(document.querySelector("#hands li")), /^✓ Hand 2: the deal and pile follow from the seed; this browser did not see this hand in play /);
  assert.equal(localStorage.getItem("harftet.lang"), "en");
});
