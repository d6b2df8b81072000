// The draft: the player's working copy of the table while they build a lay. Pure data and pure
// functions (no DOM, no network), so `node --test tests/web/` covers it. Every function returns
// a new draft and leaves its argument alone; the server stays the judge of what is legal.

/**
 * The game's rule constants as the server sends them in every view (`view.limits`: maxSeries,
 * handLimit, minSeries, pairTiles, pairsOpenAt, colors; Kastet numbers and maxSet; Harftet the
 * alphabet). The client copies none of them; without a view there are none, and nothing is capped.
 */
export function rules(view) {
  return (view && view.limits) || {};
}

export class DraftError extends Error {
  constructor(code, params = {}) {
    super(code);
    this.code = code;
    this.params = params;
  }
}

/** The ids of every tile on the table, sorted: a draft belongs to one table state. */
export function tableKey(view) {
  return [...view.series.flat(), ...view.pairs.flat()].map((t) => t.id).sort((a, b) => a - b).join(",");
}

const entryOf = (t) => ({ id: t.id, tile: t, fromHand: false, as: t.joker ? t.as ?? null : undefined });

/** A fresh draft: the table's series as they stand, no new pairs, no active meld. */
export function fromView(view) {
  return { series: view.series.map((m) => m.map(entryOf)), pairs: [], key: tableKey(view), dirty: false, active: null };
}

function clone(d) {
  return { ...d, series: d.series.map((m) => m.slice()), pairs: d.pairs.map((m) => m.slice()), active: d.active && { ...d.active } };
}

/** Where tile `id` is in the draft: {area, mi, ti, entry}, or null (in the rack or unknown). */
export function locate(d, id) {
  for (const area of ["series", "pairs"]) {
    for (const [mi, meld] of d[area].entries()) {
      const ti = meld.findIndex((e) => e.id === id);
      if (ti >= 0) return { area, mi, ti, entry: meld[ti] };
    }
  }
  return null;
}

export function usedIds(d) {
  return new Set([...d.series.flat(), ...d.pairs.flat()].map((e) => e.id));
}

export function addsFromHand(d) {
  return [...d.series.flat(), ...d.pairs.flat()].some((e) => e.fromHand);
}

/** The index to insert at when a tile lands on the tile at `index`: its left half → before it. */
export function insertIndex(index, leftHalf) {
  return leftHalf ? index : index + 1;
}

/** Drop empty melds (the active one stays, even empty) and keep `active` pointing at it. */
function prune(d) {
  for (const area of ["series", "pairs"]) {
    const kept = [];
    d[area].forEach((m, mi) => {
      const isActive = d.active && d.active.area === area && d.active.mi === mi;
      if (m.length || isActive) {
        if (isActive) d.active = { area, mi: kept.length };
        kept.push(m);
      }
    });
    d[area] = kept;
  }
  return d;
}

function take(d, id, hand) {
  const at = locate(d, id);
  if (at) return { entry: d[at.area][at.mi].splice(at.ti, 1)[0], from: at };
  const tile = (hand || []).find((t) => t.id === id);
  if (!tile) throw new DraftError("unknown_tile", { tile: id });
  return { entry: { id, tile, fromHand: true, as: tile.joker ? null : undefined }, from: null };
}

/**
 * Move tile `id` (from the rack `hand` or from the draft) to `target`:
 *   {area, mi, at}  – meld `mi` of `area`, before position `at` as the meld is shown now;
 *   {area, mi}      – the end of that meld;
 *   {newIn: area}   – a new meld of its own.
 * A tile moved later within its own meld lands where it was shown, not one place further.
 */
export function place(d, id, target, hand, limits = {}) {
  const n = clone(d);
  const from = locate(d, id);
  if (target.newIn === "series" && d.series.length >= limits.maxSeries && !(from && from.area === "series" && d.series[from.mi].length === 1)) {
    throw new DraftError("too_many_series", { max: limits.maxSeries, count: d.series.length + 1 });
  }
  const area = target.newIn || target.area;
  if (area === "pairs" && target.mi != null) {
    const meld = d.pairs[target.mi];
    if (meld && meld.length >= (limits.pairTiles ?? Infinity) && !(from && from.area === "pairs" && from.mi === target.mi)) throw new DraftError("pair_full");
  }
  const { entry } = take(n, id, hand);
  let mi = target.mi;
  if (target.newIn) {
    n[area].push([]);
    mi = n[area].length - 1;
  }
  const meld = n[area][mi];
  if (!meld) throw new DraftError("unknown_meld");
  let at = target.at ?? meld.length;
  if (from && from.area === area && from.mi === mi && from.ti < at) at -= 1;
  meld.splice(Math.max(0, Math.min(at, meld.length)), 0, entry);
  n.dirty = true;
  return prune(n);
}

/** Start a new, empty meld and make it the active one: rack taps then append to it. */
export function newMeld(d, area = "series", limits = {}) {
  if (area === "series" && d.series.length >= limits.maxSeries) {
    throw new DraftError("too_many_series", { max: limits.maxSeries, count: d.series.length + 1 });
  }
  const n = clone(d);
  n[area].push([]);
  n.active = { area, mi: n[area].length - 1 };
  return prune(n);
}

/** Make meld `mi` of `area` the active one (null: none). */
export function setActive(d, area, mi) {
  const n = clone(d);
  n.active = area == null ? null : { area, mi };
  return prune(n);
}

/** Append tile `id` to the active meld (one tap per letter while building a word). */
export function addToActive(d, id, hand, limits = {}) {
  if (!d.active) throw new DraftError("no_active_meld");
  return place(d, id, { area: d.active.area, mi: d.active.mi }, hand, limits);
}

/** Put a tile from the hand back in the rack. Table tiles never return to a hand. */
export function backToHand(d, id) {
  const at = locate(d, id);
  if (!at) return d;
  if (!at.entry.fromHand) throw new DraftError("table_tile");
  const n = clone(d);
  n[at.area][at.mi].splice(at.ti, 1);
  n.dirty = true;
  return prune(n);
}

/** Declare a joker's face (a letter, or {color, number}); `auto` marks one the client inferred. */
export function setFace(d, id, face, auto = false) {
  const at = locate(d, id);
  if (!at || !at.entry.tile.joker) return d;
  const n = clone(d);
  n[at.area][at.mi][at.ti] = { ...at.entry, as: face, auto };
  n.dirty = true;
  return n;
}

/** A Kastet joker's face where its neighbours settle it (a run or a set), else null. */
export function inferKastetFace(meld, ti, limits) {
  const colors = limits.colors || [];
  const [low, high] = limits.numbers || [];
  const known = meld.map((e, i) => ({ i, t: e.tile, as: e.tile.joker ? (e.auto ? null : e.as) : null }))
    .filter((x) => x.i !== ti && (!x.t.joker || x.as));
  const faces = known.map((x) => ({ i: x.i, color: x.as ? x.as.color : x.t.color, number: x.as ? x.as.number : x.t.number }));
  if (faces.length < 2) return null;
  const seen = new Set(faces.map((f) => f.color));
  const numbers = new Set(faces.map((f) => f.number));
  if (seen.size === 1 && numbers.size === faces.length) {
    const start = faces[0].number - faces[0].i;
    if (faces.every((f) => f.number - f.i === start)) {
      const number = start + ti;
      if (number >= low && number <= high) return { color: faces[0].color, number };
    }
    return null;
  }
  if (numbers.size === 1 && seen.size === faces.length && meld.length <= (limits.maxSet ?? colors.length)) {
    const missing = colors.find((c) => !seen.has(c));
    return missing ? { color: missing, number: faces[0].number } : null;
  }
  return null;
}

/** Re-infer every Kastet joker the player has not declared by hand. */
export function inferFaces(d, game, limits = {}) {
  if (game !== "kastet") return d;
  let n = d;
  for (const area of ["series", "pairs"]) {
    d[area].forEach((meld, mi) => meld.forEach((e, ti) => {
      if (!e.tile.joker || !e.fromHand || (e.as && !e.auto)) return;
      const face = area === "series" ? inferKastetFace(meld, ti, limits) : null;
      const same = face && e.as && face.color === e.as.color && face.number === e.as.number;
      if (!same && (face || e.as)) n = setFace(n, e.id, face, true);
    }));
  }
  if (n !== d) n.dirty = d.dirty;
  return n;
}

/** The jokers from the hand still without a face. */
export function undeclared(d) {
  return [...d.series.flat(), ...d.pairs.flat()].filter((e) => e.tile.joker && e.as == null).map((e) => e.id);
}

/** The move body's `series` and `pairs` (empty melds left out). */
export function layBody(d) {
  if (undeclared(d).length) throw new DraftError("joker_face");
  const ref = (e) => (e.tile.joker ? { id: e.id, as: e.as } : { id: e.id });
  const melds = (area) => d[area].filter((m) => m.length).map((m) => m.map(ref));
  return { series: melds("series"), pairs: melds("pairs") };
}

/** Whether a draft still applies to a new view: same table tiles, its hand tiles still in hand. */
export function fits(d, view) {
  if (d.key !== tableKey(view) || view.status !== "playing") return false;
  const hand = new Set((view.hand || []).map((t) => t.id));
  return [...d.series.flat(), ...d.pairs.flat()].every((e) => !e.fromHand || hand.has(e.id));
}

/**
 * Carry a draft over to a new view of the table (someone else laid meanwhile): the melds built
 * only from the player's hand tiles that are still in hand move over; rearrangements of table
 * melds cannot (the table they were made on is gone). Returns {draft, lost}.
 */
export function rebase(d, view) {
  if (fits(d, view)) return { draft: d, lost: false };
  const n = fromView(view);
  const hand = new Set((view.hand || []).map((t) => t.id));
  const onTable = new Set([...view.series.flat(), ...view.pairs.flat()].map((t) => t.id));
  let lost = false;
  for (const area of ["series", "pairs"]) {
    for (const meld of d[area]) {
      const own = meld.length && meld.every((e) => e.fromHand);
      if (own && meld.every((e) => hand.has(e.id) && !onTable.has(e.id))) n[area].push(meld.slice());
      else if (meld.some((e) => e.fromHand) || (!own && area === "series" && changedFrom(meld, view))) lost = true;
    }
  }
  n.dirty = n.series.length > view.series.length || n.pairs.length > 0;
  return { draft: n, lost };
}

function changedFrom(meld, view) {
  const key = meld.map((e) => e.id).join(",");
  return !view.series.some((m) => m.map((t) => t.id).join(",") === key);
}

/** A Harftet meld as the word it spells ("?" for a joker without a face). */
export function meldWord(meld) {
  return meld.map((e) => (e.tile.joker ? (typeof e.as === "string" ? e.as : "?") : e.tile.letter ?? "")).join("");
}

// ---------------------------------------------------------------- the rack

function trKey(s, alphabet) {
  return [...(s || "")].map((c) => String.fromCharCode(65 + Math.max(0, alphabet.indexOf(c)))).join("");
}

const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The hand's tile ids in a sort order. Kastet: "series" (colour, then number: runs side by side)
 * or "pairs" (number, then colour: sets and twins side by side). Harftet: "letter" (Turkish
 * alphabet) or "value" (most valuable first). Jokers go last.
 */
export function sortRack(tiles, mode, limits = {}) {
  const colors = limits.colors || [];
  const alphabet = limits.alphabet || "";
  const key = {
    series: (t) => [colors.indexOf(t.color), t.number],
    pairs: (t) => [t.number, colors.indexOf(t.color)],
    letter: (t) => [trKey(t.letter, alphabet)],
    value: (t) => [-t.value, trKey(t.letter, alphabet)],
  }[mode] || ((t) => [t.id]);
  const full = (t) => [t.joker ? 1 : 0, ...(t.joker ? [] : key(t)), t.id];
  return [...tiles].sort((a, b) => {
    const ka = full(a);
    const kb = full(b);
    for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
      const c = cmp(ka[i], kb[i]);
      if (c) return c;
    }
    return 0;
  }).map((t) => t.id);
}

/** Keep the player's own rack order for tiles still in hand; new tiles go at the end. */
export function syncRack(order, hand) {
  const ids = new Set(hand.map((t) => t.id));
  const kept = (order || []).filter((id) => ids.has(id));
  const seen = new Set(kept);
  return [...kept, ...hand.map((t) => t.id).filter((id) => !seen.has(id))];
}

/** Move tile `id` in the rack to position `to` (as the rack is shown now). */
export function moveInRack(order, id, to) {
  const from = order.indexOf(id);
  if (from < 0) return order.slice();
  const out = order.slice();
  out.splice(from, 1);
  const at = from < to ? to - 1 : to;
  out.splice(Math.max(0, Math.min(at, out.length)), 0, id);
  return out;
}

/** A draft built from a hint's lay (the move body's shape) for the player to accept or change. */
export function fromLay(view, lay) {
  const byId = new Map();
  for (const t of [...view.series.flat(), ...view.pairs.flat()]) byId.set(t.id, { tile: t, fromHand: false });
  for (const t of view.hand || []) byId.set(t.id, { tile: t, fromHand: true });
  const entry = (r) => {
    const known = byId.get(r.id);
    if (!known) throw new DraftError("unknown_tile", { tile: r.id });
    return { id: r.id, tile: known.tile, fromHand: known.fromHand, as: known.tile.joker ? r.as ?? known.tile.as ?? null : undefined };
  };
  return {
    series: (lay.series || []).map((m) => m.map(entry)),
    pairs: (lay.pairs || []).map((m) => m.map(entry)),
    key: tableKey(view), dirty: true, active: null,
  };
}

// ---------------------------------------------------------------- tinting a draft meld

function kastetFace(e) {
  if (!e.tile.joker) return { color: e.tile.color, number: e.tile.number };
  return e.as && typeof e.as === "object" ? e.as : null;
}

function kastetSeries(meld, limits) {
  if (meld.length < limits.minSeries) return "invalid";
  const faces = meld.map(kastetFace);
  if (faces.some((f) => f == null)) return null;
  const [low, high] = limits.numbers || [];
  const colors = new Set(faces.map((f) => f.color));
  if (colors.size === 1) {
    const run = faces.every((f, i) => f.number >= low && f.number <= high && (i === 0 || f.number === faces[i - 1].number + 1));
    return run ? "valid" : "invalid";
  }
  const sameNumber = faces.every((f) => f.number === faces[0].number);
  return sameNumber && colors.size === faces.length && faces.length <= limits.maxSet ? "valid" : "invalid";
}

function kastetPair(meld, limits) {
  if (meld.length !== limits.pairTiles) return "invalid";
  const faces = meld.map(kastetFace);
  if (faces.some((f) => f == null)) return null;
  return faces.every((f) => f.color === faces[0].color && f.number === faces[0].number) ? "valid" : "invalid";
}

/**
 * What the server's rule limits alone say of a draft meld: "valid", "invalid", or null when only
 * the server can tell (whether a Harftet word is in the dictionary, a joker still without a face).
 * Only a tint while the player builds: the server judges the lay.
 */
export function localVerdict(game, area, meld, limits) {
  if (!meld.length || limits.minSeries == null) return null;
  if (game === "kastet") return area === "pairs" ? kastetPair(meld, limits) : kastetSeries(meld, limits);
  if (area === "pairs") return meld.length === limits.pairTiles ? null : "invalid";
  const letters = meld.reduce((n, e) => n + (e.tile.joker ? 1 : [...(e.tile.letter || "")].length), 0);
  return letters < limits.minSeries ? "invalid" : null;
}

/** The key under which the server's verdict on a Harftet meld is remembered (its word), else null. */
export function verdictKey(game, area, meld) {
  if (game !== "harftet" || !meld.length || meld.some((e) => e.tile.joker && typeof e.as !== "string")) return null;
  return `${area}:${meldWord(meld)}`;
}

/**
 * A dry-run body that puts the melds asked about (draft indexes) first. The server checks the
 * series melds in order and names the first bad one, so every meld sent before it is valid.
 * Returns {body, series, pairs}: the body, and the draft index of each meld in it.
 */
export function probeBody(d, asked = { series: [], pairs: [] }, withPairs = true) {
  if (undeclared(d).length) throw new DraftError("joker_face");
  const ref = (e) => (e.tile.joker ? { id: e.id, as: e.as } : { id: e.id });
  const order = (area, first) => {
    const filled = d[area].map((m, i) => i).filter((i) => d[area][i].length);
    return [...first.filter((i) => filled.includes(i)), ...filled.filter((i) => !first.includes(i))];
  };
  const series = order("series", asked.series || []);
  const pairs = withPairs ? order("pairs", asked.pairs || []) : [];
  return { body: { series: series.map((i) => d.series[i].map(ref)), pairs: pairs.map((i) => d.pairs[i].map(ref)) }, series, pairs };
}

/** Refusals that are about one meld's own tiles (not the lay as a whole). */
const MELD_REASONS = new Set(["meld_too_short", "not_a_word", "bad_meld", "bad_pair"]);

/**
 * What one dry run of `plan` says: a Map "area:mi" → "valid" | "invalid". `answer` is {legal: true}
 * or a refusal {reason, meld, pair}; `asked` the draft indexes whose verdict was unknown.
 */
export function readProbe(plan, asked, answer) {
  const out = new Map();
  const valid = (area, upTo) => {
    for (const mi of plan[area].slice(0, upTo)) if ((asked[area] || []).includes(mi)) out.set(`${area}:${mi}`, "valid");
  };
  if (answer.legal) {
    valid("series", Infinity);
    valid("pairs", Infinity);
  } else if (answer.reason === "pairs_closed") {
    for (const mi of plan.pairs) out.set(`pairs:${mi}`, "invalid");
  } else if (MELD_REASONS.has(answer.reason) && answer.pair != null && plan.pairs[answer.pair] != null) {
    valid("series", Infinity); // the pairs are checked once every series meld has passed
    valid("pairs", answer.pair);
    out.set(`pairs:${plan.pairs[answer.pair]}`, "invalid");
  } else if (MELD_REASONS.has(answer.reason) && answer.meld != null && plan.series[answer.meld] != null) {
    valid("series", answer.meld);
    out.set(`series:${plan.series[answer.meld]}`, "invalid");
  }
  return out;
}

/**
 * The lay body that lays one revealed hint meld (GET /hint's `meld`, `area`) out over the table
 * as it stands: its table tiles leave their melds (a meld left empty goes), and the meld takes the
 * place of the first table meld it took from — or comes last. The rest of the lay is the player's
 * to find; `fromLay` turns the body into a draft.
 */
export function layOfMeld(view, meld, area = "series") {
  const ref = (t) => (t.joker ? { id: t.id, as: t.as ?? null } : { id: t.id });
  const tiles = meld.map((e) => ("as" in e && e.as != null ? { id: e.id, as: e.as } : { id: e.id }));
  if (area === "pairs") return { series: view.series.map((m) => m.map(ref)), pairs: [tiles] };
  const taken = new Set(meld.filter((e) => e.from === "table").map((e) => e.id));
  const series = [];
  let placed = false;
  for (const m of view.series) {
    const rest = m.filter((t) => !taken.has(t.id)).map(ref);
    if (!placed && rest.length < m.length) { series.push(tiles); placed = true; }
    if (rest.length) series.push(rest);
  }
  if (!placed) series.push(tiles);
  return { series, pairs: [] };
}
