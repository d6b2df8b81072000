// Profiles and leaderboards (API.md v3): a "Sıralama" button in the lobby opens a dialog with
// the week's or all-time board of a game and the caller's rank; a name opens its profile card.
// Everything shown is what the API gives anyone: names, scores, records, replay links.
import { badgesEl } from "./badges.js";
import { dialogFrame } from "./chrome.js";
import { deletedRow, h } from "./render.js";
import { t } from "./texts.js";

const w = (key, params) => t(key === "harftet" || key === "kastet" ? `game.${key}` : `people.${key}`, params);

/** Adds the button to `host` (the lobby); `api.request` is the session's REST client; `store`
 * (its language switch redraws the open dialog); `openReplay(tableId)`: the app's replay screen.
 * Returns {profile(playerId)}: the dialog opened on a player's profile (a tournament's standings). */
export function initPeople(api, host, { store = null, openReplay = () => {} } = {}) {
  if (!host || host.querySelector(".people-open")) return { profile: () => {} };
  const dialog = h("dialog", { class: "people card", "aria-labelledby": "people-h" });
  document.body.append(dialog);
  const state = { game: "harftet", period: "week" };
  const open = h("button", { type: "button", class: "people-open", dataset: { t: "people.open" }, onclick: () => { dialog.showModal(); board(); } }, w("open"));
  host.prepend(open);

  let redraw = () => {}; // draws the answer shown again: a language switch asks the server nothing
  let lang = store && store.get().texts;
  if (store) store.subscribe((st) => { if (st.texts !== lang) { lang = st.texts; if (dialog.open) redraw(); } });

  const heading = h("h2", { id: "people-h" });
  const body = dialogFrame(dialog, heading); // the head (and its language switch) stays while the body is drawn again
  function frame(...kids) {
    heading.textContent = w("title");
    body.replaceChildren( // (a part that is not there is null: replaceChildren would print "null")
      ...kids.filter((k) => k != null),
      h("button", { type: "button", onclick: () => dialog.close() }, t("btn.close")),
    );
  }

  function choice(key, values) {
    return h("div", { role: "group" }, ...values.map((v) =>
      h("button", { type: "button", "aria-pressed": String(state[key] === v), onclick: () => { state[key] = v; board(); } }, w(v))));
  }

  function row(e, mine) {
    const gone = deletedRow(e); // no profile to open: the name alone, in the reader's language
    const name = gone ? t("player.deleted") : e.name;
    const label = mine ? w("you", { name }) : name;
    return h("li", { class: mine ? "me" : null },
      h("span", {}, e.rank == null ? "…" : t("end.place", { n: e.rank })), " ",
      gone ? h("span", { class: "deleted" }, label) : h("button", { type: "button", class: "link", onclick: () => profile(e.playerId) }, label),
      " ", h("span", {}, t(`people.score.${state.period}`, { n: e.score })));
  }

  /** Draws `draw` now and on every language switch while it is shown. */
  function showing(draw) {
    redraw = draw;
    draw();
  }

  async function board() {
    let data;
    try {
      data = await api.request("GET", `/leaderboards/${state.game}?period=${state.period}&limit=100`);
    } catch {
      return showing(() => frame(h("p", {}, w("failed"))));
    }
    showing(() => drawBoard(data));
  }

  function drawBoard(data) {
    const mine = data.me && data.me.playerId;
    const list = data.entries.length
      ? h("ol", { class: "people-board" }, ...data.entries.map((e) => row(e, e.playerId === mine)))
      : h("p", {}, w("empty"));
    const me = data.me && !data.entries.some((e) => e.playerId === mine)
      ? h("ol", { class: "people-me" }, ...data.me.above.map((e) => row(e, false)), row(data.me, true), ...data.me.below.map((e) => row(e, false)))
      : null;
    frame(choice("game", ["harftet", "kastet"]), choice("period", ["week", "all"]), list, me);
  }

  /** Skill and league per game, as tiers (never a number): "Altın (12 dereceli oyun)". */
  function tiers(p) {
    const rows = ["harftet", "kastet"].map((g) => {
      const skill = (p.skill || {})[g];
      const league = (p.league || {})[g];
      const tierName = (tier) => t(`tier.${tier}`);
      return h("tr", { class: "tiers", dataset: { game: g } },
        h("th", { scope: "row" }, w(g)),
        h("td", { class: "skill" }, skill ? w("skillOf", { tier: tierName(skill.tier), n: skill.games }) : "–"),
        h("td", { class: "league" }, !league ? "–" : league.rank
          ? w("leagueOf", { tier: tierName(league.tier), rank: league.rank }) : w("leagueTier", { tier: tierName(league.tier) })));
    });
    return h("table", { class: "people-tiers" }, h("tr", {}, h("td", {}, ""), h("th", { scope: "col" }, w("skill")), h("th", { scope: "col" }, w("league"))), ...rows);
  }

  function show(playerId) {
    if (!dialog.open) dialog.showModal();
    return profile(playerId);
  }

  async function profile(playerId) {
    let p;
    try {
      p = await api.request("GET", `/players/${encodeURIComponent(playerId)}/profile`);
    } catch {
      return showing(() => frame(h("p", {}, w("failed"))));
    }
    showing(() => drawProfile(p));
  }

  function drawProfile(p) {
    const records = ["harftet", "kastet"].map((g) => h("tr", {},
      h("th", { scope: "row" }, w(g)),
      ...["played", "won", "abandoned"].map((k) => h("td", {}, String(p.games[g][k])))));
    frame(
      h("h3", {}, p.name),
      h("p", {}, w("rating", { n: p.rating })),
      h("table", {}, h("tr", {}, h("td", {}, ""), ...["played", "won", "abandoned"].map((k) => h("th", { scope: "col" }, w(k)))), ...records),
      tiers(p),
      badgesEl(p.badges) || "", // podium places of finished tournaments (badges.js)
      h("h4", {}, w("recent")),
      p.recentGames.length ? null : h("p", { class: "hint" }, t("people.recent.none")),
      h("ul", {}, ...p.recentGames.map((g) => h("li", {},
        `${w(g.game)} · ${w("points", { n: g.points })} `,
        h("button", { type: "button", class: "link", onclick: () => { dialog.close(); openReplay(replayTable(g)); } }, w("replay"))))),
      h("button", { type: "button", onclick: board }, w("back")),
    );
  }
  return { profile: show };
}

/** The table a recent game's replay is of (its "replay" is the API's path, never a page to open). */
export const replayTable = (g) => g.tableId || decodeURIComponent((/\/tables\/([^/]+)\/replay/.exec(g.replay || "") || [])[1] || "");
