// The tournaments' list (API.md v4, RULES §8): a "Turnuvalar" button in the lobby opens it;
// three tabs (registration open, running, finished), a page at a time; each tournament's
// name, game, tables, hands, rounds, start time and entries, opening its page (tournament.js).
// Also the call a round's push brings ("Turnuva: 2. tur masan hazır") with a button to the table,
// wherever the player is. tourneys.js loads; the state is state.js's `tournaments` and `call`.
import { h } from "./render.js";
import { getLang, t } from "./texts.js";

const $ = (sel) => document.querySelector(sel);
export const STATUSES = ["registering", "running", "finished"];

/** A moment (epoch seconds or milliseconds, or an ISO text) as the player's language writes it,
 * in Istanbul's time: "15 Ocak 2027 11:00". */
export function when(at, lang = getLang()) {
  const ms = typeof at === "number" ? (at < 1e12 ? at * 1000 : at) : Date.parse(at);
  if (!Number.isFinite(ms)) return "–";
  return new Intl.DateTimeFormat(lang === "en" ? "en-GB" : "tr-TR", { dateStyle: "long", timeStyle: "short", timeZone: "Europe/Istanbul" }).format(new Date(ms));
}

/** One line of facts: "4 kişilik masalar · 2 el · 3 tur". */
export function facts(x) {
  return t("tournaments.facts", { seats: x.seats, hands: x.hands, rounds: x.rounds });
}

/** `act`: { openList(), tab(status), page(step), open(id), lobby(), go(), dismiss() } */
export function mountTournaments({ store, act }) {
  const lobby = $("#lobby");
  const entry = h("button", { type: "button", class: "tournaments-open", dataset: { t: "tournaments.open" }, onclick: () => act.openList() }, t("tournaments.open"));
  if (lobby && !lobby.querySelector(".tournaments-open")) lobby.prepend(entry);
  const section = $("#tournaments");
  const call = h("div", { id: "tourney-call", class: "tourney-call", role: "status", hidden: true });
  $("main").prepend(call);

  function item(x) {
    return h("li", { class: "lobby-item tourney-item" },
      h("div", { class: "row spread" },
        h("h3", { class: "tourney-name" }, x.name),
        h("button", { type: "button", onclick: () => act.open(x.tournamentId), "aria-label": t("tournaments.show.named", { name: x.name }) }, t("tournaments.show"))),
      h("p", { class: "muted" }, `${t(`game.${x.game}`)} · ${facts(x)}`),
      h("p", { class: "muted" }, t("tournaments.starts", { when: when(x.startsAt) }), " · ",
        h("span", { class: "tourney-entries" }, t("tournaments.entries", { entries: x.entries ?? 0, capacity: x.capacity }))));
  }

  function drawList(s) {
    const { status, list, at, next, failed } = s.tournaments;
    const tabs = h("div", { role: "tablist", class: "tabs", "aria-label": t("tournaments.title") }, ...STATUSES.map((x) =>
      h("button", { type: "button", role: "tab", "aria-selected": String(x === status), onclick: () => act.tab(x) }, t(`tournaments.status.${x}`))));
    const body = failed ? h("p", { class: "hint" }, t("tournaments.failed"))
      : list == null ? h("p", { class: "hint" }, t("tournaments.loading"))
        : list.length ? h("ul", { class: "lobby-list tourney-list" }, ...list.map(item))
          : h("p", { class: "hint tourney-empty" }, t(`tournaments.empty.${status}`));
    section.replaceChildren(
      h("div", { class: "row spread" }, h("h2", { id: "tournaments-h" }, t("tournaments.title")),
        h("button", { type: "button", onclick: () => act.lobby() }, t("btn.lobby"))),
      tabs,
      h("div", { role: "tabpanel", "aria-label": t(`tournaments.status.${status}`) }, body),
      h("div", { class: "row pager" },
        at > 0 ? h("button", { type: "button", onclick: () => act.page(-1) }, t("tournaments.prev")) : null,
        next ? h("button", { type: "button", onclick: () => act.page(1) }, t("tournaments.next")) : null));
  }

  function drawCall(s) {
    const c = s.call;
    const there = c && s.screen === "table" && s.table && s.table.id === c.tableId;
    call.hidden = !c || there;
    if (call.hidden) return;
    call.replaceChildren(
      h("span", { class: "tourney-call-text" }, t("tournaments.call", { n: c.round })),
      h("span", { class: "row" },
        h("button", { type: "button", class: "primary", onclick: () => act.go() }, t("tournaments.call.go")),
        h("button", { type: "button", class: "link", "aria-label": t("btn.close"), onclick: () => act.dismiss() }, "✕")));
  }

  let shown = {};
  function render(s) {
    section.hidden = !(s.ready && s.screen === "tournaments");
    if (s.ready && s.texts !== shown.texts) entry.textContent = t("tournaments.open");
    if (s.ready && (s.call !== shown.call || s.screen !== shown.screen || s.texts !== shown.texts || s.table !== shown.table)) drawCall(s);
    if (!section.hidden && (s.tournaments !== shown.list || s.texts !== shown.texts)) drawList(s);
    shown = { texts: s.texts, call: s.call, screen: s.screen, table: s.table, list: s.tournaments };
  }
  store.subscribe(render);
  render(store.get());
}
