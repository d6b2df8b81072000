// Recomputing a game's deals from its replay (RULES §5a, docs/DEALS.md), in the browser.
//
// The engine shuffles the 106 tile ids with Python's random.Random seeded with the text
// "<seed>:<hand>" (version-2 string seeding: the UTF-8 bytes followed by their SHA-512, read as
// one big-endian integer) and Random.shuffle. That is the Mersenne Twister MT19937 with
// CPython's init_by_array, getrandbits and _randbelow: ported below, nothing else. The hashes
// (SHA-512 for the seeding, SHA-256 for the proofs) come from WebCrypto, never written here.

export const PREFIX = "harftet-deal-v1";
export const TILE_COUNT = 106;
export const DEAL_SIZE = 14;

const N = 624;
const M = 397;

/** MT19937 as CPython's _randommodule.c seeds it from an array of 32-bit words. */
export class MersenneTwister {
  constructor(key) {
    const mt = new Uint32Array(N);
    mt[0] = 19650218;
    for (let i = 1; i < N; i++) {
      const x = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, x) + i) >>> 0;
    }
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const x = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(x, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const x = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(x, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
    }
    mt[0] = 0x80000000;
    this.mt = mt;
    this.index = N;
  }

  /** The next 32-bit output (genrand_uint32). */
  next() {
    const mt = this.mt;
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff);
        mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** Python's getrandbits(k) for 0 < k <= 32. */
  bits(k) {
    return this.next() >>> (32 - k);
  }

  /** Python's _randbelow(n): rejection sampling over bit_length(n) bits. */
  below(n) {
    const k = 32 - Math.clz32(n);
    let r = this.bits(k);
    while (r >= n) r = this.bits(k);
    return r;
  }
}

async function digest(algorithm, bytes) {
  return new Uint8Array(await globalThis.crypto.subtle.digest(algorithm, bytes));
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** SHA-256 of a text (UTF-8), lower-case hex: what a deal proof is. */
export async function sha256Hex(text) {
  return hex(await digest("SHA-256", new TextEncoder().encode(text)));
}

/** The key CPython's random.seed(text) gives init_by_array: the integer of the text's bytes and
 * their SHA-512 (big-endian), as little-endian 32-bit words without high zero words. */
export async function seedKey(text) {
  const bytes = new TextEncoder().encode(text);
  const whole = new Uint8Array(bytes.length + 64);
  whole.set(bytes);
  whole.set(await digest("SHA-512", bytes), bytes.length);
  const little = whole.reverse();
  let length = little.length;
  while (length > 0 && little[length - 1] === 0) length--;
  const key = new Uint32Array(Math.max(1, Math.ceil(length / 4)));
  for (let b = 0; b < length; b++) key[b >> 2] |= little[b] << (8 * (b & 3));
  return key;
}

/** The 106 tile ids in the order a hand with shuffle input `text` ("<seed>:<hand>") deals them. */
export async function shuffled(text) {
  const rng = new MersenneTwister(await seedKey(text));
  const ids = Array.from({ length: TILE_COUNT }, (_, i) => i);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  return ids;
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Check every hand of a replay (GET /tables/{id}/replay): its committed text names the seed
 * and salt, hashes to its dealProof (and to the proof seen during play, where `seen` holds it:
 * {hand: proof}), and the deal and pile follow from the shuffle. One line per hand. */
export async function verifyReplay(replay, seen = {}) {
  const hands = [];
  for (const h of replay.hands || []) {
    const input = `${replay.seed}:${h.hand}`;
    const committed = `${PREFIX}|${replay.salt}|${input}`;
    const proof = await sha256Hex(committed);
    const ids = await shuffled(input);
    const seats = Object.keys(h.deal).length;
    const dealOk = Object.entries(h.deal).every(([s, tiles]) => same(tiles, ids.slice(Number(s) * DEAL_SIZE, (Number(s) + 1) * DEAL_SIZE)));
    const pileOk = same(h.pile, ids.slice(seats * DEAL_SIZE).reverse());
    const seenProof = seen[h.hand];
    const check = {
      hand: h.hand,
      committed: h.committed === committed,
      proof: proof === h.dealProof,
      seen: seenProof == null ? null : seenProof === proof,
      deal: dealOk,
      pile: pileOk,
    };
    check.ok = check.committed && check.proof && check.seen !== false && check.deal && check.pile;
    hands.push(check);
  }
  return { ok: hands.length > 0 && hands.every((h) => h.ok), hands };
}
