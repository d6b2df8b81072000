// The table's dialogs: the end of a hand (every rack turned over, the scores, the break before
// the next hand) or of the game (places, rematch, the deal's verification), and the joker's face.
import { endKind } from "./state.js";
import { limits, mySeat } from "./game.js";
import { gameEndEl, h, handEndEl, seatNames } from "./render.js";
import { t } from "./texts.js";

const $ = (sel) => document.querySelector(sel);
const BREAK_TICK_MS = 500;

/** The break's line: seconds until the next hand, and whether the caller said ready. */
export function breakText(v, now = Date.now()) {
  if (!v || !v.break) return "";
  const left = Math.max(0, Math.ceil(v.break.until - now / 1000));
  const ready = mySeat(v) != null && v.break.ready.includes(mySeat(v));
  return ready ? `${t("break.ready")} · ${t("break.wait", { s: left })}` : t("break.wait", { s: left });
}

/** `act`: { rematch(), lobby(), ready(), closeEnd(), tournamentOf(tableId), tournament(id) }: a
 * tournament table's end leads back to its tournament (no rematch there). */
export function mountEndDialog({ store, act }) {
  const dialog = $("#end-dialog");
  let shown = {};
  let timer = 0;
  dialog.addEventListener("close", () => { if (store.get().table && store.get().table.end) act.closeEnd(); });

  const renderBreak = () => {
    const el = $("#end-break");
    const tb = store.get().table;
    if (el) el.textContent = breakText(tb && tb.view);
  };

  /** The dialog drawn for `end`; `fresh`: a new end (not the same one in the other language). */
  function fill(end, v, playerId, fresh) {
    const names = seatNames(v);
    const game = end.kind === "game";
    $("#end-h").textContent = game ? t("end.game.h") : t("end.hand.h", { n: end.result.hand });
    const parts = game ? gameEndEl(v, names, playerId) : handEndEl(v, end.result, names);
    if (game && v.handResults && v.handResults.length) {
      // Places first, then how the last hand ended (its leftover tiles), then the score table.
      parts.splice(parts.length - 1, 0, ...handEndEl(v, v.handResults[v.handResults.length - 1], names).slice(0, 3));
    }
    $("#end-body").replaceChildren(...parts);
    const over = endKind(end, v) === "game";
    const cup = over && act.tournamentOf ? act.tournamentOf(v.tableId) : null;
    $("#end-actions").replaceChildren(...(over
      ? [cup ? h("button", { type: "button", class: "primary", onclick: () => act.tournament(cup) }, t("tournaments.back"))
        : h("button", { type: "button", class: "primary", onclick: act.rematch }, t("btn.rematch")),
        h("button", { type: "button", onclick: act.lobby }, t("btn.newTable")),
        h("a", { id: "verify-link", href: `verify.html#t=${v.tableId}`, target: "_blank", rel: "noopener" }, t("verify.link"))]
      : [h("p", { id: "end-break", class: "hint", "aria-live": "polite" }),
        h("button", { type: "button", id: "btn-next", class: "primary", onclick: act.ready }, t("end.next"))]));
    clearInterval(timer);
    if (!over) { renderBreak(); timer = setInterval(renderBreak, BREAK_TICK_MS); }
    if (!dialog.open) dialog.showModal();
    if (!fresh) return; // redrawn in the other language: the reader's place and focus stay
    dialog.scrollTop = 0;
    $("#end-h").focus();
  }

  function render(s) {
    const end = s.table && s.table.end;
    if (!end || s.screen !== "table") {
      clearInterval(timer);
      shown = {};
      if (dialog.open) dialog.close();
      return;
    }
    if (end !== shown.end || s.texts !== shown.texts) fill(end, s.table.view, s.me && s.me.playerId, end !== shown.end);
    shown = { end, texts: s.texts };
  }
  store.subscribe(render);
}

/** The joker's face dialog: a letter keyboard (Harftet) or a colour-and-number one (Kastet). */
export function mountFaceDialog({ store }) {
  const dialog = $("#face-dialog");
  const heading = (v) => (v && v.game === "kastet" ? t("face.kastet.h") : t("face.h"));
  $("#face-cancel").onclick = () => dialog.close();
  store.subscribe((s) => { if (dialog.open) $("#face-h").textContent = heading(s.table && s.table.view); });

  /** The face chosen for a joker (`current`: its face now), or null when the player cancels. */
  return function askFace(current, v) {
    const kastet = v.game === "kastet";
    const lim = limits(v);
    $("#face-h").textContent = heading(v);
    $("#face-letters").hidden = kastet;
    $("#face-kastet").hidden = !kastet;
    let chosen = null;
    return new Promise((resolve) => {
      const done = (face) => { chosen = face; dialog.close(); };
      if (kastet) {
        const color = current && current.color;
        const [low, high] = lim.numbers;
        $("#face-kastet").replaceChildren(...lim.colors.map((c) => h("div", { class: "face-row" },
          h("span", { class: `face-color c-${c}` }, t(`color.${c}`)),
          ...Array.from({ length: high - low + 1 }, (_, i) => low + i).map((n) => h("button", {
            type: "button", class: `key c-${c}${color === c && current.number === n ? " selected" : ""}`,
            "aria-label": `${t(`color.${c}`)} ${n}`, onclick: () => done({ color: c, number: n }),
          }, String(n))))));
      } else {
        $("#face-letters").replaceChildren(...[...lim.alphabet].map((c) => h("button", {
          type: "button", class: `key${current === c ? " selected" : ""}`, onclick: () => done(c),
        }, c)));
      }
      dialog.addEventListener("close", () => resolve(chosen), { once: true });
      dialog.showModal();
    });
  };
}
