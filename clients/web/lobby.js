// The lobby: quick play, the tables in three tabs (waiting, wanting a substitute, playing) a page
// at a time, and the new-table form, whose choices and ranges are the server's bounds.
import { clockText, h, levelOptions } from "./render.js";
import { waited } from "./search.js";
import { getBounds, t } from "./texts.js";

const $ = (sel) => document.querySelector(sel);
const DEFAULT_SEATS = 4; // the API's default

/** "11–20 / 30+": where this page is in the list (empty when one page holds it all). */
export function pageLabel(at, count, pageSize, more) {
  if (!count || !(more || at)) return "";
  const from = at * pageSize + 1;
  const to = from + count - 1;
  return t("lobby.page", { from, to, of: more ? `${to}+` : to });
}

/** One line of facts about a listed table: "2/4 oyuncu · 11 el · 45 sn · eşli". */
export function lobbyFacts(x) {
  const taken = x.taken ?? (x.players || []).filter(Boolean).length;
  const facts = [t("lobby.facts", { taken, seats: x.seats, hands: x.hands, turn: x.turnSeconds })];
  if (x.partners) facts.push(t("lobby.partners"));
  return facts.join(" · ");
}

/** `act`: { tab(tab), page(step), quickPlay(game, level), search(game), createTable(fields), sit(tableId, seat),
 * openTable(id) } */
export function mountLobby({ store, act, pageSize }) {
  for (const tab of document.querySelectorAll("[role=tab]")) tab.onclick = () => act.tab(tab.dataset.tab);
  $("#lobby-refresh").onclick = () => act.page(0);
  $("#lobby-more").onclick = () => act.page(1);
  $("#lobby-prev").onclick = () => act.page(-1);
  // rated: opponents of the player's level (search.js); else at once against the computer
  $("#quick-go").onclick = () => ($("#quick-rated").checked
    ? act.search($("#quick-game").value) : act.quickPlay($("#quick-game").value, $("#quick-level").value));
  // one sentence about the level chosen (all four would push "Hemen oyna" off a phone's screen)
  const aboutLevel = () => {
    const rated = $("#quick-rated").checked; // the matcher picks the computers' level itself
    $("#quick-level-field").hidden = rated;
    const hint = $("#quick-hint");
    hint.dataset.t = rated ? "quick.hint.rated" : "quick.hint";
    hint.textContent = t(hint.dataset.t);
    for (const li of document.querySelectorAll(".level-about li")) li.hidden = rated || li.dataset.level !== $("#quick-level").value;
  };
  $("#quick-level").addEventListener("change", aboutLevel);
  $("#quick-rated").addEventListener("change", aboutLevel);
  // correspondence: the turn is one of the server's choices, in hours and days (never "86400 sn")
  const paced = () => {
    const corr = $("#c-mode").value === "correspondence";
    $("#c-turn-box").hidden = corr;
    $("#c-turn").disabled = corr;
    $("#c-days-box").hidden = !corr;
    $("#c-days").disabled = !corr;
  };
  $("#c-mode").addEventListener("change", paced);
  $("#create-form").onsubmit = (ev) => {
    ev.preventDefault();
    act.createTable(Object.fromEntries(new FormData(ev.target)));
  };

  function item(x, tab) {
    const vacant = new Set(x.vacant || []);
    const sit = (i, label) => h("li", {}, h("button", { type: "button", onclick: () => act.sit(x.tableId, i) }, label));
    const seats = (x.players || []).map((name, i) => {
      if (tab === "waiting" && !name) return sit(i, t("lobby.sit", { n: i + 1 }));
      if (tab === "open" && (vacant.has(i) || !name)) return sit(i, t("lobby.substitute", { n: i + 1 }));
      return h("li", { class: "taken" }, name || t("seat.empty"));
    });
    const open = h("button", { type: "button", class: tab === "playing" ? "" : "link", onclick: () => act.openTable(x.tableId) },
      tab === "playing" ? t("lobby.watch") : t("lobby.open.table"));
    return h("li", { class: "lobby-item" },
      h("div", { class: "row spread" }, h("strong", { class: `game-${x.game}` }, t(`game.${x.game}`)), open),
      h("div", { class: "muted" }, lobbyFacts(x)),
      h("ul", { class: "lobby-seats" }, seats));
  }

  /** The form's and quick play's choices from the server's bounds (the selection kept). */
  function bounds() {
    const b = getBounds();
    const [lowSeats, highSeats] = (b.options && b.options.seats) || [2, DEFAULT_SEATS];
    const seats = $("#c-seats");
    const chosen = Number(seats.value) || DEFAULT_SEATS;
    seats.replaceChildren(...Array.from({ length: highSeats - lowSeats + 1 }, (_, i) => lowSeats + i)
      .map((n) => h("option", { selected: n === Math.min(Math.max(chosen, lowSeats), highSeats) }, String(n))));
    for (const [id, name] of [["#c-hands", "hands"], ["#c-turn", "turnSeconds"]]) {
      const range = b.options && b.options[name];
      if (range) Object.assign($(id), { min: range[0], max: range[1] });
    }
    const days = $("#c-days");
    const turns = b.correspondenceTurns || [];
    const kept = Number(days.value) || (turns.includes(86400) ? 86400 : turns[0]);
    days.replaceChildren(...turns.map((n) => h("option", { value: n }, clockText(n))));
    if (kept) days.value = String(kept);
    $("#c-mode").hidden = !turns.length;
    paced();
    const pace = b.options && b.options.botSeconds;
    for (const option of $("#c-pace").options) option.hidden = !!pace && (Number(option.value) < pace[0] || Number(option.value) > pace[1]);
    for (const select of [$("#quick-level"), $("#c-level")]) {
      select.replaceChildren(...levelOptions(b.levels, select.value || b.defaultLevel));
    }
    $(".level-about").replaceChildren(...(b.levels || []).map((level) =>
      h("li", { dataset: { level, t: `level.${level}.about` } }, t(`level.${level}.about`))));
    aboutLevel();
  }

  let shown = {};
  let labelled = null;
  function render(s) {
    $("#lobby").hidden = !(s.ready && s.screen === "lobby");
    if (s.ready && s.texts !== labelled) {
      labelled = s.texts;
      bounds();
    }
    if (s.screen !== "lobby" || (s.lobby === shown.lobby && s.texts === shown.texts)) return;
    shown = { lobby: s.lobby, texts: s.texts };
    const { tab, tables, at, next } = s.lobby;
    for (const x of document.querySelectorAll("[role=tab]")) x.setAttribute("aria-selected", String(x.dataset.tab === tab));
    if (tables == null) return; // the first page is on its way
    $("#lobby-list").replaceChildren(...tables.map((x) => item(x, tab)));
    $("#lobby-empty").hidden = tables.length > 0;
    $("#lobby-empty").textContent = t(`lobby.empty.${tab}`);
    $("#lobby-more").hidden = !next;
    $("#lobby-prev").hidden = at === 0;
    $("#lobby-page").textContent = pageLabel(at, tables.length, pageSize, !!next);
  }
  store.subscribe(render);
  render(store.get());
}

/** The quick-play card while searching: the sentence, the time waited, the cancel. */
export function mountSearch({ store, act, now = () => Date.now() }) {
  $("#quick-cancel").onclick = () => act.cancel();
  let ticking = 0;
  const tick = () => {
    const s = store.get().search;
    if (s) $("#quick-waited").textContent = t("quick.waited", { time: waited(now() - s.since) });
  };
  function render(s) {
    const on = !!s.search;
    $("#quick-search").hidden = !on;
    $("#quick-go").hidden = on;
    $("#quick-choices").hidden = on;
    if (on && !ticking) ticking = setInterval(tick, 1000);
    if (!on && ticking) { clearInterval(ticking); ticking = 0; }
    tick();
  }
  store.subscribe(render);
  render(store.get());
}
