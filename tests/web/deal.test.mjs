// The browser's recomputation of deals (clients/web/deal.js) against Python's own shuffle: the
// fixture deals.json is written by Python (tests/unit/test_deal_proofs.py keeps it current).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as Deal from "../../clients/web/deal.js";

const CASES = JSON.parse(readFileSync(new URL("./deals.json", import.meta.url), "utf8"));

test("the JavaScript shuffle deals exactly what Python's random.Random shuffle deals", async () => {
  assert.ok(CASES.length >= 5);
  for (const { input, ids } of CASES) assert.deepEqual(await Deal.shuffled(input), ids, input);
});

test("a different input deals differently", async () => {
  assert.notDeepEqual(await Deal.shuffled("7:2"), await Deal.shuffled("7:3"));
});

function replayOf(seed, salt, hands, seats) {
  return {
    seed, salt,
    hands: hands.map(({ hand, ids }) => {
      const committed = `harftet-deal-v1|${salt}|${seed}:${hand}`;
      const deal = {};
      for (let s = 0; s < seats; s++) deal[String(s)] = ids.slice(s * 14, (s + 1) * 14);
      return {
        hand, deal, pile: ids.slice(seats * 14).reverse(), committed,
        dealProof: createHash("sha256").update(committed).digest("hex"),
      };
    }),
  };
}

test("a replay whose deals follow from its seed is verified, and proofs seen in play count", async () => {
  const doc = replayOf(7, "ab".repeat(16), [{ hand: 2, ids: CASES.find((c) => c.input === "7:2").ids }], 4);
  const ok = await Deal.verifyReplay(doc);
  assert.equal(ok.ok, true, JSON.stringify(ok));
  const seen = { 2: doc.hands[0].dealProof };
  assert.equal((await Deal.verifyReplay(doc, seen)).ok, true);
  assert.equal((await Deal.verifyReplay(doc, { 2: "0".repeat(64) })).ok, false);
});

test("a tampered replay is not verified", async () => {
  const ids = CASES.find((c) => c.input === "7:2").ids;
  const base = () => replayOf(7, "ab".repeat(16), [{ hand: 2, ids }], 3);
  const pile = base(); [pile.hands[0].pile[0], pile.hands[0].pile[1]] = [pile.hands[0].pile[1], pile.hands[0].pile[0]];
  const seed = base(); seed.seed = 8;
  const salt = base(); salt.salt = "cd".repeat(16);
  for (const doc of [pile, seed, salt]) assert.equal((await Deal.verifyReplay(doc)).ok, false);
  assert.equal((await Deal.verifyReplay({ seed: 1, salt: "", hands: [] })).ok, false);
});

test("SHA-256 is WebCrypto's", async () => {
  assert.equal(await Deal.sha256Hex("abc"), createHash("sha256").update("abc").digest("hex"));
});

test("a real game's 63-bit seed, sent as a string (API.md v4), verifies; as a JSON number it was rounded and could not", async () => {
  const ids = CASES.find((c) => c.input === "9223372036854775807:21").ids;
  const doc = replayOf("9223372036854775807", "ab".repeat(16), [{ hand: 21, ids }], 2);
  const text = JSON.stringify(doc); // what GET /tables/{id}/replay sends
  assert.equal((await Deal.verifyReplay(JSON.parse(text))).ok, true);
  const asNumber = JSON.parse(text.replace('"seed":"9223372036854775807"', '"seed":9223372036854775807'));
  assert.notEqual(String(asNumber.seed), "9223372036854775807"); // JSON.parse rounds it…
  assert.equal((await Deal.verifyReplay(asNumber)).ok, false); // …and the check fails: why seeds are strings
});
