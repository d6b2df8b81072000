// What a table view says, as pure functions of it: whose turn, the caller's seat, where each
// seat sits around the table, the rack in its order, a tile's name. No DOM, no network: the
// state, the screens and the effects all read the table through these.
import * as D from "./draft.js";
import * as Settings from "./settings.js";
import { t } from "./texts.js";

/** Where the seats sit around the table as the caller sees it (the caller at the bottom). */
export const POSITIONS = { 1: ["bottom"], 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };

export function mySeat(v) { return v && v.seat != null ? v.seat : null; }
export function isManager(v, playerId) { return !!(v && playerId && v.manager === playerId); }

/** The seat whose turn it is is the caller's, during a hand. */
export function myTurn(v) {
  return !!(v && v.status === "playing" && v.turn && mySeat(v) != null && v.turn.seat === mySeat(v));
}

/** The caller may build a draft: seated at a table being played. */
export function editable(v) { return !!(v && v.status === "playing" && mySeat(v) != null); }

/** A table whose result changes no rating: unrated, or with a computer player (RULES: practice). */
export function practice(v) { return v.rated === false || v.seats.some((s) => s && s.bot); }

/** The game's rule constants the view carries (draft.js's `rules`). */
export function limits(v) { return D.rules(v); }

/** Where seat `seat` sits around the table as the caller sees it. */
export function seatPosition(v, seat) {
  const n = v.seats.length;
  const pos = POSITIONS[n] || POSITIONS[4];
  return pos[(seat - (mySeat(v) ?? 0) + n) % n] || "top";
}

/** The rack order of a game from the player's settings ("letter"/"value", "series"/"pairs"). */
export function rackMode(settings, game) {
  const mode = Settings.sortFor(settings, game);
  if (game === "kastet") return mode === "pairs" ? "pairs" : "series";
  return mode === "value" ? "value" : "letter";
}

/** The caller's tiles not in the draft, in the rack's order. */
export function rackTiles(table) {
  const used = D.usedIds(table.draft);
  const byId = new Map((table.view.hand || []).map((x) => [x.id, x]));
  return table.rack.filter((id) => !used.has(id) && byId.has(id)).map((id) => byId.get(id));
}

/** A tile named as players see it ("K", "mavi 7", "joker"): for refusals and the log. */
export function tileName(v, id) {
  const all = v ? [...v.series.flat(), ...v.pairs.flat(), ...(v.hand || [])] : [];
  const tile = all.find((x) => x.id === id);
  if (!tile) return `#${id}`;
  if (tile.joker) return t("tile.joker");
  return tile.letter != null ? tile.letter : `${t(`color.${tile.color}`)} ${tile.number}`;
}

/** Tiles other seats laid since the caller's last turn (marked until it ends), and the last lay. */
export function lastTiles(table) {
  const last = table.view && table.view.last;
  return new Set([...table.othersLaid, ...(last && last.type === "lay" ? last.tiles || [] : [])]);
}

/** The draft's series that are not on the table as they are (new or changed this turn). */
export function changedMelds(v, draft) {
  const original = new Set(v.series.map((m) => m.map((x) => x.id).join(",")));
  return draft.series.map((m, i) => (m.length && !original.has(m.map((e) => e.id).join(",")) ? i : -1)).filter((i) => i >= 0);
}

/** The view with the draft's series area in place of the table's (tiles as the view shows them). */
export function draftAsView(v, d) {
  const tile = (e) => (e.tile.joker ? { ...e.tile, as: e.as } : e.tile);
  return { ...v, series: d.series.filter((m) => m.length).map((m) => m.map(tile)) };
}

/**
 * Each draft meld's tint known without asking the server: by the rule limits where they settle
 * it (Kastet melds, too short a word), by the server's earlier verdict on the same word
 * (`verdicts`, "series:KALEM" → "valid"), the pair area closed. `unknown`: what only a dry run can tell.
 */
export function tint(v, draft, verdicts = new Map()) {
  const lim = limits(v);
  const validity = {};
  const unknown = { series: [], pairs: [] };
  const melds = [...changedMelds(v, draft).map((mi) => ["series", mi]), ...draft.pairs.map((m, mi) => ["pairs", mi])];
  const series = draft.series.filter((m) => m.length).length;
  for (const [area, mi] of melds) {
    const meld = draft[area][mi];
    if (!meld.length) continue;
    let verdict = D.localVerdict(v.game, area, meld, lim) ?? verdicts.get(D.verdictKey(v.game, area, meld)) ?? null;
    if (area === "pairs" && series < lim.pairsOpenAt) verdict = "invalid";
    if (verdict) validity[`${area}:${mi}`] = verdict;
    else unknown[area].push(mi);
  }
  return { validity, unknown };
}
