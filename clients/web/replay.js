// The replay screen (GET /tables/{id}/replay, a finished game whole): step through its hands and
// moves — each seat's tiles, the table and the move just made — and the deal check run from
// here (deal.js recomputes every deal from the seed and compares the proofs, docs/DEALS.md).
// `replayAt` is the pure reading of a moment; `mountReplay` draws; replays.js loads.
import { h, logLine, tileEl } from "./render.js";
import { t } from "./texts.js";

const $ = (sel) => document.querySelector(sel);
const DELETED = /^deleted-/; // a deleted player's anonymous id

/** The seats' names: who sat last on each seat up to `events` (a deleted player in the catalogue's words). */
export function replayNames(doc, events) {
  const names = [];
  for (const ev of events) {
    if (ev.seat == null || !["sit", "bot", "substitute"].includes(ev.type)) continue;
    names[ev.seat] = DELETED.test(ev.playerId || "") ? t("player.deleted") : ev.name || t("bot.name", { n: ev.seat + 1 });
  }
  const seats = (doc.table && doc.table.seats) || names.length;
  return Array.from({ length: seats }, (_, i) => names[i] || t("seat", { n: i + 1 }));
}

/** Hand `hand` (0-based) after its first `step` moves: each seat's tile ids, the table, the pile
 * left, the move at `step` (null at the deal) and the number of moves in that hand. */
export function replayAt(doc, hand, step) {
  const hd = doc.hands[hand];
  const moves = hd.moves || [];
  const at = Math.max(0, Math.min(step, moves.length));
  const racks = Object.fromEntries(Object.entries(hd.deal).map(([seat, ids]) => [seat, [...ids]]));
  let drawn = 0;
  let table = { series: [], pairs: [] };
  for (const ev of moves.slice(0, at)) {
    const rack = racks[String(ev.seat)];
    if (ev.type === "draw" && rack) rack.push(hd.pile[drawn++]);
    if (ev.type === "lay") {
      const laid = new Set(ev.tiles || []);
      if (rack) racks[String(ev.seat)] = rack.filter((id) => !laid.has(id));
      table = { series: ev.series || [], pairs: ev.pairs || [] };
    }
  }
  const before = [...(doc.before || []), ...doc.hands.slice(0, hand + 1).flatMap((x, i) => (i < hand ? x.moves : moves.slice(0, at)))];
  return { racks, table, pile: hd.pile.length - drawn, move: at ? moves[at - 1] : null, moves: moves.length, step: at, names: replayNames(doc, before) };
}

/** `act`: { step(hand, step), lobby(), tournament(id) } */
export function mountReplay({ store, act }) {
  const tile = (doc, entry) => {
    const id = typeof entry === "number" ? entry : entry.id;
    return tileEl(doc.tiles[id], { face: typeof entry === "object" ? entry.as : undefined });
  };
  const button = (label, disabled, onclick) => h("button", { type: "button", disabled: disabled || null, onclick }, label);

  function draw(s) {
    const section = $("#replay");
    section.hidden = !(s.ready && s.screen === "replay");
    if (section.hidden || !s.replay) return;
    const { doc, hand, step, check, failed, from } = s.replay;
    const head = [h("h2", { id: "replay-h" }, doc ? t("replay.h", { game: t(`game.${doc.table.game}`) }) : t("replay.title")),
      from ? button(t("tournaments.back"), false, () => act.tournament(from)) : button(t("btn.lobby"), false, act.lobby)];
    if (failed || !doc) {
      section.replaceChildren(h("div", { class: "row spread" }, ...head),
        h("p", { class: failed ? "verdict bad" : "muted", role: "status" }, failed || t("verify.loading")));
      return;
    }
    const now = replayAt(doc, hand, step);
    const names = now.names;
    const melds = now.table.series.map((m) => m.map((x) => ({ ...doc.tiles[x.id], as: x.as })));
    const line = now.move ? logLine(now.move, names, { name: (id) => doc.tiles[id] && (doc.tiles[id].letter || doc.tiles[id].number), melds }, doc.table.game)
      : t("replay.deal");
    const verdict = check == null ? t("verify.loading") : t(check ? "verify.ok" : "verify.bad");
    section.replaceChildren(
      h("div", { class: "row spread" }, ...head),
      h("p", { class: `verdict ${check == null ? "" : check ? "ok" : "bad"}`, role: "status", id: "replay-check" }, t("replay.check", { verdict })),
      h("div", { class: "row replay-steps" },
        button(t("replay.prevHand"), hand === 0, () => act.step(hand - 1, 0)),
        h("strong", { id: "replay-hand" }, t("replay.hand", { n: doc.hands[hand].hand, of: doc.hands.length })),
        button(t("replay.nextHand"), hand >= doc.hands.length - 1, () => act.step(hand + 1, 0))),
      h("div", { class: "row replay-steps" },
        button(t("replay.prev"), now.step === 0, () => act.step(hand, now.step - 1)),
        h("span", { id: "replay-move" }, t("replay.move", { n: now.step, of: now.moves })),
        button(t("replay.next"), now.step >= now.moves, () => act.step(hand, now.step + 1))),
      h("p", { id: "replay-line", class: "replay-line", "aria-live": "polite" }, line),
      h("section", { class: "board felt", "aria-label": t("area.series") },
        h("ol", { class: "melds" }, ...now.table.series.map((m) => h("li", { class: "meld" }, ...m.map((x) => tile(doc, x))))),
        now.table.pairs.length ? h("ol", { class: "melds pairs" }, ...now.table.pairs.map((m) => h("li", { class: "meld" }, ...m.map((x) => tile(doc, x))))) : null,
        h("p", { class: "muted" }, t("replay.pile", { n: now.pile }))),
      h("ul", { class: "replay-racks" }, ...Object.entries(now.racks).map(([seat, ids]) =>
        h("li", {}, h("strong", {}, `${names[Number(seat)]} · ${t("rack.count", { n: ids.length })}`), h("div", { class: "rack replay-rack" }, ...ids.map((id) => tile(doc, id)))))),
    );
  }
  store.subscribe(draw);
  draw(store.get());
}
