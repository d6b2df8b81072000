// The weekly league (API.md v4, RULES §8): a "Lig" button in the lobby opens the player's
// division this week for a game: the tier and division, the time left in the week, who goes
// up and who goes down, every row's points and games, the player's own row marked.
import { dialogFrame } from "./chrome.js";
import { deletedRow, h } from "./render.js";
import { t } from "./texts.js";

const HOUR = 3600;
const DAY = 24 * HOUR;

/** What is left of the week, in the catalogue's words ("3 gün 4 saat"; the last day in hours). */
export function timeLeft(endsAt, now) {
  const left = Math.max(0, endsAt - now);
  const d = Math.floor(left / DAY);
  const hrs = Math.floor((left % DAY) / HOUR);
  if (d >= 1) return t("league.ends", { d, h: hrs });
  return t("league.endsSoon", { h: hrs, m: Math.floor((left % HOUR) / 60) });
}

/** The tier's name and the division's number: "Gümüş · 12. grup". */
export function divisionName(division) {
  const [tier, n] = division.split(/-(?=\d+$)/);
  return t("league.division", { tier: t(`tier.${tier}`), n });
}

/** Adds the button to `host` (the lobby); `me()` is the signed-in player's id; `store`: its
 * language switch draws the open dialog again (from the answer it holds: nothing is asked again). */
export function initLeagues(api, host, me, { now = () => Date.now() / 1000, store = null } = {}) {
  if (!host || host.querySelector(".league-open")) return;
  const dialog = h("dialog", { class: "league card", "aria-labelledby": "league-h" });
  document.body.append(dialog);
  const state = { game: "harftet" };
  const open = h("button", { type: "button", class: "league-open", dataset: { t: "league.open" }, onclick: () => { dialog.showModal(); show(); } }, t("league.open"));
  host.prepend(open);

  const heading = h("h2", { id: "league-h" });
  const body = dialogFrame(dialog, heading); // the head (and its language switch) stays while the body is drawn again
  function frame(...kids) {
    const games = h("div", { role: "group" }, ...["harftet", "kastet"].map((g) =>
      h("button", { type: "button", "aria-pressed": String(state.game === g), onclick: () => { state.game = g; show(); } }, t(`game.${g}`))));
    heading.textContent = t("league.title");
    body.replaceChildren(games, ...kids, h("button", { type: "button", onclick: () => dialog.close() }, t("btn.close")));
  }

  function row(s, mine) {
    return h("li", { class: [s.move, mine ? "me" : null].filter(Boolean).join(" ") },
      h("span", { class: "rank" }, t("end.place", { n: s.rank })), " ",
      h("span", { class: "name" }, mine ? t("league.you", { name: s.name }) : deletedRow(s) ? t("player.deleted") : s.name), " ",
      h("span", { class: "points" }, t("league.points", { n: s.points })), " ",
      h("span", { class: "games" }, t("league.games", { n: s.games })), " ",
      h("span", { class: "move" }, t(`league.${s.move}`)));
  }

  let answer = null; // what the open dialog shows: { data } or { error }
  let lang = store && store.get().texts;
  if (store) store.subscribe((st) => { if (st.texts !== lang) { lang = st.texts; if (dialog.open && answer) draw(); } });

  async function show() {
    const { game } = state;
    let got;
    try {
      got = { data: await api.request("GET", `/leagues/${game}/me`) };
    } catch (error) {
      got = { error };
    }
    if (game !== state.game) return; // the other game was asked for meanwhile: its answer shows
    answer = got;
    draw();
  }

  function draw() {
    const { data, error } = answer;
    if (!data) {
      const none = error && (error.status === 404 || error.code === "not_found");
      return frame(h("p", { class: "league-none" }, t(none ? "league.none" : "league.failed")));
    }
    const mine = me();
    frame(
      h("h3", { class: "league-division" }, divisionName(data.division)),
      h("p", { class: "league-left" }, data.rolled ? t("league.rolled") : timeLeft(data.endsAt, now())),
      h("p", { class: "league-rules" }, t("league.rules", { up: data.promote, down: data.relegate })),
      h("ol", { class: "league-standings" }, ...data.standings.map((s) => row(s, s.playerId === mine))),
    );
  }
}
