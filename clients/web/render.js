// DOM builders: tiles, melds, seats, the rack, the log, the end of a hand. Each is a function
// of the data it is handed and the callbacks in `on`; the screens (table.js, dialogs.js) call them.
import { t } from "./texts.js";
import { meldWord } from "./draft.js";
import { avatar } from "./avatar.js";
import { wordButton } from "./wordcard.js";

export const COLOR_MARKS = { red: "●", yellow: "▲", blue: "■", black: "◆" }; // colour is never the only cue

export function h(tag, props = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v == null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style") Object.assign(el.style, v); // through the CSSOM: allowed by the CSP
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid != null && kid !== false) el.append(kid);
  return el;
}

export function faceText(face) {
  if (face == null) return "";
  return typeof face === "string" ? face : `${t(`color.${face.color}`)} ${face.number}`;
}

export function tileLabel(tile, face) {
  if (tile.joker) return face == null ? t("tile.joker.open") : t("tile.joker.as", { face: faceText(face) });
  if (tile.letter != null) return t("tile.points", { letter: tile.letter, n: tile.value });
  return `${t(`color.${tile.color}`)} ${tile.number}`;
}

function tileFace(tile, face) {
  if (tile.joker) {
    const shown = face == null ? h("span", { class: "jface open" }, "?") : typeof face === "string"
      ? h("span", { class: "jface" }, face)
      : h("span", { class: `jface c-${face.color}` }, String(face.number));
    return [h("span", { class: "star", "aria-hidden": "true" }, "★"), shown];
  }
  if (tile.letter != null) {
    return [h("span", { class: "letter" }, tile.letter), h("span", { class: "value" }, String(tile.value)),
      h("span", { class: "corner", "aria-hidden": "true" }, COLOR_MARKS[tile.color] || "")];
  }
  return [h("span", { class: "num" }, String(tile.number)), h("span", { class: "mark", "aria-hidden": "true" }, COLOR_MARKS[tile.color] || "")];
}

/** A tile: a button when `tap` is given (with its place in `where`), else a picture. */
export function tileEl(tile, { face, placed = false, selected = false, last = false, fresh = false, tap = null, where = {} } = {}) {
  const label = tileLabel(tile, face) + (last ? ` (${t("tile.last")})` : "");
  const cls = ["tile", tile.joker ? "joker" : `c-${tile.color}`, placed && "placed", selected && "selected", last && "last", fresh && "fresh"]
    .filter(Boolean).join(" ");
  const data = { id: tile.id, ...where };
  if (!tap) return h("span", { class: cls, role: "img", "aria-label": label, title: label, dataset: data }, tileFace(tile, face));
  return h("button", {
    type: "button", class: cls, "aria-label": label, title: label, "aria-pressed": String(selected), dataset: data,
    onclick: (ev) => {
      const r = ev.currentTarget.getBoundingClientRect();
      const left = ev.detail === 0 || ev.clientX < r.left + r.width / 2; // a key press counts as "before"
      tap(tile.id, where, left);
    },
  }, tileFace(tile, face));
}

/** One meld of the draft (or a frozen pair); `state` says how it is tinted. */
export function meldEl(area, mi, meld, { game, editable, active, validity, sel, last, onTap, onMeld, onActivate }) {
  const name = area === "series" ? t("area.series") : t("area.pairs");
  const tint = validity === "valid" ? " valid" : validity === "invalid" ? " invalid" : "";
  const word = game === "harftet" && meld.length ? meldWord(meld) : "";
  const status = validity ? ` · ${t(validity === "valid" ? "draft.valid" : "draft.invalid")}` : "";
  const li = h("li", {
    class: `meld${tint}${active ? " active" : ""}${meld.some((e) => e.fromHand) ? " changed" : ""}`,
    "aria-label": `${name} ${mi + 1}${word ? `: ${word}` : ""}${status}`,
    dataset: { area, mi },
  },
  h("span", { class: "idx", "aria-hidden": "true" }, String(mi + 1)),
  meld.map((e, ti) => tileEl(e.tile, {
    face: e.as, placed: e.fromHand, selected: sel === e.id, last: last.has(e.id),
    tap: editable ? onTap : null, where: { area, mi, ti },
  })),
  validity ? h("span", { class: `verdict ${validity}`, "aria-hidden": "true" }, validity === "valid" ? "✓" : "✗") : null,
  // a word already on the table (nothing of this turn in it) opens the word card (wordcard.js)
  word && !word.includes("?") && !meld.some((e) => e.fromHand) ? wordButton(word) : null);
  if (editable) {
    li.addEventListener("click", (ev) => {
      if (ev.target.closest(".tile")) return;
      if (sel != null) onMeld(area, mi); else onActivate(area, mi);
    });
  }
  return li;
}

export function seatEl(v, s, i, { me, pos, isManager, names, onSit, onBot, onRemove }) {
  const started = v.handNumber > 0;
  const turn = v.turn && v.turn.seat === i && v.status === "playing";
  const isMgr = s && s.playerId && s.playerId === v.manager;
  const offline = s && !s.vacant && !s.bot && !s.connected && started;
  const bot = s && !s.vacant && s.bot;
  const cls = ["seat", `pos-${pos}`, turn && "turn", me === i && "me", offline && "offline", bot && "bot"].filter(Boolean).join(" ");
  const team = v.partners ? ` · ${t(i % 2 ? "team.b" : "team.a")}` : "";
  const seated = s && !s.vacant;
  const look = seated ? avatar(names[i], s.playerId || `bot${i}`) : null;
  const kids = [
    h("div", { class: "avatar", "aria-hidden": "true", style: look ? { background: look.background } : null }, look ? look.text : "·"),
    h("div", { class: "seat-no" }, t("seat", { n: i + 1 }) + team)];
  if (!s || s.vacant) {
    kids.push(h("div", { class: "seat-name muted" }, s ? t("seat.vacant") : t("seat.empty")));
    // a vacated seat is offered to substitutes while the game goes on, never once it is over
    if (me == null && (v.status === "waiting" || (s && v.status !== "finished"))) kids.push(h("button", { type: "button", onclick: () => onSit(i) }, s ? t("seat.substitute") : t("seat.sit")));
    if (isManager && (v.status === "waiting" ? !s : s && v.status === "paused")) {
      kids.push(h("button", { type: "button", class: "add-bot", onclick: () => onBot(i) }, t("seat.addBot")));
    }
  } else {
    kids.push(h("div", { class: "seat-name" },
      h("span", { class: "name" }, names[i]),
      me === i ? h("span", { class: "badge you" }, t("seat.you")) : null,
      isMgr ? h("span", { class: "badge mgr", title: t("seat.manager") }, t("seat.manager")) : null,
      s.bot && (s.level || s.name) ? h("span", { class: "badge bot" }, s.level ? t(`level.${s.level}`) : t("seat.bot")) : null));
    if (started) {
      kids.push(h("div", { class: "seat-meta" },
        h("span", { class: "count" }, h("span", { class: "tiles" }, String(s.tiles ?? "–")), ` ${t("rack.count", { n: "" }).trim()}`),
        h("span", { class: "penalty-box" }, `${t("end.penalty")} `, h("span", { class: "penalty" }, String(s.penalty ?? 0)))));
    }
    if (!s.bot) kids.push(h("div", { class: `conn ${s.connected ? "on" : "off"}` }, s.connected ? `● ${t("seat.on")}` : `○ ${t("seat.off")}`));
    if (s.bot && isManager && v.status === "waiting") kids.push(h("button", { type: "button", onclick: () => onRemove(i) }, t("seat.remove")));
  }
  if (turn) kids.push(h("div", { class: "timer seat-timer", dataset: { deadline: v.turn.deadline ?? "" }, "aria-label": t("timer.label") }));
  return h("div", { class: cls, dataset: { seat: i } }, kids);
}

/** A seat's name as players say it: the player's name, or "Bilgisayar 3" for a computer (in the
 * reader's language: the server stores a computer's name in Turkish). */
export function seatNames(v) {
  return v.seats.map((s, i) => (s && s.playerId && DELETED.test(s.playerId) ? t("player.deleted") : null)
    || (s && s.bot ? t("bot.name", { n: i + 1 }) : null) || (s && s.name) || t("seat", { n: i + 1 }));
}
const DELETED = /^deleted-/; // a deleted player's anonymous seat (its stored name is the server's Turkish one)

/** A board's row (leaderboard, league, tournament) of a deleted player: the server's `deleted`
 * (an older answer: the anonymous id, or no name kept). Named by the catalogue, never a link. */
export const deletedRow = (e) => !!e.deleted || DELETED.test(e.playerId || "") || !e.name;
// A computer player's name as the server stores it (engine/seats.py), where only the name travels
// (the inbox): said in the reader's language.
const STORED_BOT = /^Bilgisayar (\d+)$/;

/** A name as the server listed it, a computer's in the reader's language. */
export function listedName(name) {
  const bot = name && STORED_BOT.exec(name);
  return bot ? t("bot.name", { n: Number(bot[1]) }) : name;
}

/** One line of the move log, in the game's words ("Bilgisayar 3: NARENCİYE açtı"). */
export function logLine(ev, names, tilesById, game) {
  const who = ev.seat != null ? names[ev.seat] ?? t("seat", { n: ev.seat + 1 }) : t("log.table");
  if (ev.type === "lay") {
    const words = ev.words || (game === "harftet" ? layWords(ev, tilesById) : null);
    if (words && words.length) return t("log.lay", { who, words: words.join(", ") });
    const ids = ev.tiles || [];
    const named = tilesById.name ? ids.map((id) => tilesById.name(id)).join(", ") : "";
    return t("log.lay.n", { who, n: ids.length, tiles: named }).replace(/:\s*$/, "");
  }
  if (ev.type === "handEnd") return t("log.handEnd", { n: ev.hand });
  if (ev.type === "gameEnd" && ev.closed) return t(`log.gameEnd.${ev.closed}`) || t("log.gameEnd"); // ended early: why
  return t(`log.${ev.type}`, { who }) || ev.type;
}

// The words on the table that hold tiles this lay brought (what everyone sees after it).
function layWords(ev, tilesById) {
  const laid = new Set(ev.tiles || []);
  return (tilesById.melds || []).filter((m) => m.some((tile) => laid.has(tile.id)))
    .map((m) => m.map((tile) => (tile.joker ? (typeof tile.as === "string" ? tile.as : "?") : tile.letter)).join(""));
}

/** The end of a hand: who finished, every seat's leftover tiles, penalties and the running table. */
export function handEndEl(v, r, names) {
  const finisher = r.finisher != null ? h("p", { class: "finisher-line" }, t("end.finisher", { who: names[r.finisher] })) : h("p", {}, t("end.blocked"));
  const left = r.left || null;
  const rows = v.seats.map((s, i) => {
    const tiles = left ? left[i] ?? left[String(i)] ?? [] : null;
    return h("li", { class: `left-row${r.finisher === i ? " won" : ""}` },
      h("div", { class: "row spread" }, h("strong", {}, names[i]), h("span", { class: "pen" }, `${t("end.penalty")} ${r.penalties[i]}`)),
      tiles == null ? null : h("div", { class: "left-tiles" }, tiles.length ? tiles.map((tile) => tileEl(tile, { face: tile.as })) : h("span", { class: "muted" }, t("end.none"))));
  });
  return [finisher, h("h3", {}, t("end.left")), h("ul", { class: "left-list" }, rows), scoreTable(v, names)];
}

/**
 * The running score table: a row per seat (so four names fit a phone), a column per hand, then
 * the total and, at the end of the game, the game points. Many hands scroll sideways inside
 * the panel, the names staying in view.
 */
export function scoreTable(v, names) {
  const rows = v.handResults || [];
  const points = v.result && v.result.points;
  const signed = (p) => (p > 0 ? `+${p}` : String(p));
  const head = h("tr", {}, h("th", { scope: "col" }, t("end.player")),
    rows.map((r) => h("th", { scope: "col" }, t("end.handNo", { n: r.hand }))),
    h("th", { scope: "col" }, t("end.total")), points ? h("th", { scope: "col", class: "wrap" }, t("end.points")) : null);
  const body = v.seats.map((_, i) => h("tr", {},
    h("th", { scope: "row" }, names[i]),
    rows.map((r) => h("td", { class: r.finisher === i ? "finisher" : "" }, String(r.penalties[i] ?? 0), r.finisher === i ? " ✓" : "")),
    h("td", { class: "total" }, String(rows.reduce((sum, r) => sum + (r.penalties[i] || 0), 0))),
    points ? h("td", { class: "total" }, signed(points[i])) : null));
  return h("div", { class: "scroll-x scores-box", tabindex: "0", role: "region", "aria-label": t("end.scores") },
    h("table", { class: "scores" }, h("thead", {}, head), h("tbody", {}, body)));
}

/** The end of the game: places by total penalty, points, the caller's rating change. */
export function gameEndEl(v, names, playerId) {
  const res = v.result || {};
  const pen = res.penalties || v.seats.map((s) => (s && s.penalty) || 0);
  const order = pen.map((p, i) => i).sort((a, b) => pen[a] - pen[b]);
  const places = order.map((i) => {
    const place = 1 + pen.filter((p) => p < pen[i]).length;
    const pts = res.points ? res.points[i] : null;
    return h("li", { class: `place p${place}` }, h("span", { class: "place-no" }, t("end.place", { n: place })),
      h("strong", {}, names[i]), h("span", { class: "muted" }, `${t("end.penalty")} ${pen[i]}`),
      pts != null ? h("span", { class: "pts" }, pts > 0 ? `+${pts}` : String(pts)) : null);
  });
  const mine = res.ratings && playerId in res.ratings ? res.ratings[playerId] : null;
  const note = v.closed ? t(`end.closed.${v.closed}`) // ended early (nobody left, an operator): nothing changed
    : mine != null ? t("end.rating", { d: mine > 0 ? `+${mine}` : String(mine) })
    : v.seats.some((s) => s && s.bot) ? t("end.practice") : null;
  return [h("ol", { class: "places" }, places), note ? h("p", { class: "rating-note" }, note) : null, scoreTable(v, names)];
}

/** The computer players' levels as options of a select (`chosen` selected, else the first). */
export function levelOptions(levels = [], chosen) {
  const pick = levels.includes(chosen) ? chosen : levels[0];
  return levels.map((level) => h("option", { value: level, selected: level === pick, dataset: { t: `level.${level}` } }, t(`level.${level}`)));
}

/** A time left (or a turn's length) as a player reads it: "45 sn", "12 dk", "5 sa 20 dk", "2 gün 3 sa". */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const d = Math.floor(s / 86400), hrs = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (d) return hrs ? t("clock.dh", { d, h: hrs }) : t("clock.d", { d });
  if (hrs) return m ? t("clock.hm", { h: hrs, m }) : t("clock.h", { h: hrs });
  if (s >= 600) return t("clock.m", { m });
  return t("timer", { s });
}
