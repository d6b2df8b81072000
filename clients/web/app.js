// The Harftet / Kastet web client: state and events. REST and the WebSocket on the same host
// (API.md); api.js, live.js, draft.js, render.js and i18n.js hold the rest. No build step.
import { ApiError, createApi, newMoveId } from "./api.js";
import { Live } from "./live.js";
import * as D from "./draft.js";
import { t, errorText, getLang, setLang, NAME_MAX, nameLength } from "./i18n.js";
import { h, tileEl, meldEl, seatEl, seatNames, logLine, handEndEl, gameEndEl } from "./render.js";
import * as Settings from "./settings.js";
import * as Sound from "./sound.js";
import * as Motion from "./motion.js";
import { createInbox, onPushOpen, tableFromUrl } from "./inbox.js";
import { initAccount } from "./account.js";
import { initPhrases } from "./phrases.js";
import { initPeople, renderPeople } from "./people.js";
import { initFriends, closeFriends, renderFriends } from "./friends.js";
import { initWordCard } from "./wordcard.js";

const $ = (sel) => document.querySelector(sel);
const store = window.localStorage; // kept across tabs and restarts: a closed tab comes back to its seat
const POSITIONS = { 1: ["bottom"], 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };

const S = {
  token: null, playerId: null, name: null, rating: null,
  tableId: null, view: null,
  draft: null, sel: null, rack: [], rackMode: null, fresh: new Set(),
  validity: new Map(), errMeld: null, dryRun: true, dryTimer: 0, drySeq: 0, dryPausedUntil: 0,
  hints: true, log: [], logSeq: null, logOn: true,
  shownHands: null, busy: false, settings: Settings.load(store),
  flyIn: new Set(), settleIds: new Set(), slideIds: new Set(), othersLaid: new Set(), tickedFor: null,
  lobbyTab: "waiting", lobbyTimer: 0, titleTimer: 0, wsState: "offline",
  drag: null,
};

// config.json: where the APIs are when the client is served from elsewhere (CloudFront); "" = this host.
const CONFIG = { rest: "", ws: "" };
async function loadConfig() {
  try {
    const res = await fetch("config.json", { cache: "no-cache" });
    if (res.ok) Object.assign(CONFIG, await res.json());
  } catch { /* offline or absent: this host */ }
  CONFIG.rest = String(CONFIG.rest || "").replace(/\/$/, "");
}

const api = createApi({ token: () => S.token, lang: getLang, base: () => CONFIG.rest, onUnauthorized: () =>
  (account && account.hasSession() ? account.refresh() : signOut(t("notice.session"))) });
const live = new Live({
  base: () => CONFIG.ws,
  onView: (v) => setView(v),
  onState: (state) => { S.wsState = state; renderWs(); },
  resync: () => resync(),
  onMessage: (msg) => phrases && phrases.onMessage(msg),
});

// ---------------------------------------------------------------- notices and errors

// A notice sits in the page's flow (in the dock at the table, above the screen elsewhere), so it
// never covers a tile or a button; an error stays until the next action that succeeds.
let noticeTimer = 0;
let noticeSeq = 0;
function notify(message, kind = "error") {
  clearTimeout(noticeTimer);
  noticeSeq++;
  const el = $("#notice");
  el.className = `notice ${kind}`;
  $("#notice-text").textContent = message;
  el.hidden = false;
  placeNotice();
  if (kind !== "error") noticeTimer = setTimeout(clearNotice, 6000);
  if ($("#dock").hidden) el.scrollIntoView({ block: "nearest" });
  layoutDock();
}
function clearNotice() {
  $("#notice").hidden = true;
  layoutDock();
}
function placeNotice() {
  const el = $("#notice");
  const home = $("#dock").hidden ? $("main") : $("#dock");
  if (el.parentElement !== home) home.prepend(el);
}

async function attempt(fn) {
  const seq = noticeSeq;
  try {
    await fn();
    if (seq === noticeSeq && $("#notice").classList.contains("error")) clearNotice(); // it worked: the refusal is old news
  } catch (e) {
    if (e.status === 0 || e.code === "network") return setOffline(true);
    if (e.status !== 401) notify(errorText(e, tileName, limits()));
  }
}

/** The "bağlantı yok" state: a banner while the server cannot be reached (or the browser is offline). */
function setOffline(on) {
  S.offline = on;
  $("#offline").hidden = !on;
  clearTimeout(S.offlineTimer);
  if (on) S.offlineTimer = setTimeout(() => { if (S.offline) S.tableId ? resync() : !$("#lobby").hidden && loadLobby(); }, 5000);
}

async function guarded(fn) {
  if (S.busy) return;
  S.busy = true;
  renderActions();
  try { await attempt(fn); } finally {
    S.busy = false;
    renderActions();
  }
}

function show(screen) {
  for (const id of ["login", "lobby", "table"]) $(`#${id}`).hidden = id !== screen;
  $("#dock").hidden = screen !== "table" || !S.view || S.view.seat == null || S.view.handNumber === 0;
  placeNotice();
  $("#brand-sub").textContent = screen === "table" && S.view ? t(`app.sub.${S.view.game}`) : t("app.sub");
  clearInterval(S.lobbyTimer);
  if (screen === "lobby") S.lobbyTimer = setInterval(() => !document.hidden && loadLobby(), 8000);
  layoutDock();
}

// ---------------------------------------------------------------- identity

function loadSession() {
  try { Object.assign(S, JSON.parse(store.getItem("harftet.session") || "{}")); } catch { /* ignore */ }
  S.tableId = store.getItem("harftet.table");
  const m = /(?:^#|&)t=([\w-]+)/.exec(location.hash);
  if (m) S.tableId = m[1];
}

function saveSession() {
  store.setItem("harftet.session", JSON.stringify({ token: S.token, playerId: S.playerId, name: S.name, rating: S.rating }));
}

function renderMe() {
  $("#me").hidden = !S.token;
  $("#me-name").textContent = S.name || "";
  $("#me-rating").textContent = S.rating ?? "–";
}

async function signIn(name) {
  const n = nameLength(name);
  if (n > NAME_MAX) throw Object.assign(new Error(), { code: "bad_request", params: { field: "name", max: NAME_MAX, n } });
  await S.configReady;
  await adopt(await api.createPlayer(name));
}

async function adopt(p) { // a new guest, or a sign-in (account.js: passkey, transfer code)
  Object.assign(S, { token: p.token, playerId: p.playerId, name: p.name, rating: p.rating });
  saveSession();
  renderMe();
  if (S.tableId) await openTable(S.tableId); else await openLobby();
}

function signOut(message) {
  live.close();
  store.removeItem("harftet.session");
  store.removeItem("harftet.table");
  Object.assign(S, { token: null, playerId: null, name: null, rating: null, tableId: null, view: null, draft: null });
  renderMe();
  show("login");
  if (message) notify(message);
}

async function refreshMe() {
  try {
    const p = await api.player(S.playerId);
    Object.assign(S, { rating: p.rating, name: p.name });
    saveSession();
    renderMe();
  } catch (e) { if (e.status === 404) signOut(t("notice.session")); }
}

// ---------------------------------------------------------------- lobby

async function openLobby() {
  live.close();
  Object.assign(S, { tableId: null, view: null, draft: null, log: [], logSeq: null });
  store.removeItem("harftet.table");
  history.replaceState(null, "", location.pathname);
  show("lobby");
  initPeople(api, $("#lobby")); // profiles and leaderboards (people.js)
  initFriends({ api, host: $("#lobby"), token: () => S.token, wsBase: () => CONFIG.ws || "", openTable: (id) => attempt(() => openTable(id)) }); // friends.js
  refreshMe();
  inbox.load(); // the player's tables first, "Sıra sende" on top (inbox.js)
  await loadLobby();
}

const LOBBY_PAGE = 10; // a phone shows quick play and a short page, never a list of 40 tables

/** The lobby's current tab, a page at a time: `step` 0 reloads this page, 1 the next, -1 the previous. */
async function loadLobby(step = 0) {
  const tab = S.lobbyTab;
  const pages = S.lobbyPages && S.lobbyPages.tab === tab ? S.lobbyPages : { tab, cursors: [null], at: 0, next: null };
  const at = Math.max(0, pages.at + step);
  const cursor = step > 0 ? pages.next : pages.cursors[at] ?? null;
  let data;
  try { data = await api.lobby(tab, cursor, LOBBY_PAGE); } catch (e) {
    if (e.code === "bad_request" && tab !== "waiting") data = { tables: [], cursor: null }; // a server that lists waiting tables only
    else if (e.code === "network") return setOffline(true);
    else { if (e.status !== 401) notify(errorText(e, tileName, limits())); return; }
  }
  if (tab !== S.lobbyTab) return;
  if (S.offline) setOffline(false);
  const tables = ((data && data.tables) || []).slice(0, LOBBY_PAGE);
  pages.cursors[at] = cursor;
  pages.cursors.length = at + 1;
  Object.assign(pages, { at, next: (data && data.cursor) || null });
  S.lobbyPages = pages;
  $("#lobby-list").replaceChildren(...tables.map((x) => lobbyItem(x, tab)));
  $("#lobby-empty").hidden = tables.length > 0;
  $("#lobby-empty").textContent = t(`lobby.empty.${tab}`);
  $("#lobby-more").hidden = !pages.next;
  $("#lobby-prev").hidden = at === 0;
  const from = at * LOBBY_PAGE + 1;
  $("#lobby-page").textContent = tables.length && (pages.next || at) ? t("lobby.page", { from, to: from + tables.length - 1, of: pages.next ? `${from + tables.length - 1}+` : from + tables.length - 1 }) : "";
}

function lobbyItem(x, tab) {
  const players = x.players || [];
  const taken = x.taken ?? players.filter(Boolean).length;
  const vacant = new Set(x.vacant || []);
  const seats = players.map((name, i) => {
    if (tab === "waiting" && !name) return h("li", {}, h("button", { type: "button", onclick: () => attempt(() => sit(x.tableId, i)) }, t("lobby.sit", { n: i + 1 })));
    if (tab === "open" && (vacant.has(i) || !name)) return h("li", {}, h("button", { type: "button", onclick: () => attempt(() => sit(x.tableId, i)) }, t("lobby.substitute", { n: i + 1 })));
    return h("li", { class: "taken" }, name || t("seat.empty"));
  });
  const facts = [t("lobby.facts", { taken, seats: x.seats, hands: x.hands, turn: x.turnSeconds })];
  if (x.partners) facts.push(t("lobby.partners"));
  const open = h("button", { type: "button", class: tab === "playing" ? "" : "link", onclick: () => attempt(() => openTable(x.tableId)) },
    tab === "playing" ? t("lobby.watch") : t("lobby.open.table"));
  return h("li", { class: "lobby-item" },
    h("div", { class: "row spread" }, h("strong", { class: `game-${x.game}` }, t(`game.${x.game}`)), open),
    h("div", { class: "muted" }, facts.join(" · ")),
    h("ul", { class: "lobby-seats" }, seats));
}

async function sit(tableId, seat, bot = null) {
  const view = bot ? await sitBot(tableId, seat, bot) : await api.sit(tableId, seat);
  if (bot) setView(view); else enterTable(view);
}

function createBody(f) {
  const body = {
    game: f.get("game"), seats: Number(f.get("seats")), hands: Number(f.get("hands")),
    partners: f.get("partners") === "on", turnSeconds: Number(f.get("turnSeconds")),
  };
  if (f.get("private") === "on") body.private = true;
  if (f.get("botSeconds") != null) body.botSeconds = Number(f.get("botSeconds")); // their moves' pace
  return body;
}

async function createTable(form) {
  const f = new FormData(form);
  const body = createBody(f);
  if (body.partners && body.seats !== 4) throw Object.assign(new Error(), { code: "bad_request", params: { field: "partners" } });
  let view = await api.createTable(body);
  if (f.get("bots") === "on") view = await fillWithBots(view, f.get("level") || "medium");
  enterTable(view);
}

async function fillWithBots(view, level) {
  for (const [i, s] of view.seats.entries()) if (!s) view = await sitBot(view.tableId, i, level);
  return view;
}

/** Seat a computer player of a level (a server without levels gets a plain computer player). */
async function sitBot(tableId, seat, level) {
  if (!S.noLevels) {
    try { return await api.sit(tableId, seat, { bot: true, level }); } catch (e) {
      if (e.code !== "bad_request") throw e;
      S.noLevels = true;
    }
  }
  return api.sit(tableId, seat, { bot: true });
}

/** Quick play: a seat at a waiting table of that game, else a new one against computer players. */
async function quickPlay() {
  const game = $("#quick-game").value;
  const level = $("#quick-level").value;
  const data = await api.lobby("waiting");
  for (const x of (data && data.tables) || []) {
    const free = (x.players || []).findIndex((p) => !p);
    if (x.game === game && free >= 0) {
      try { return await sit(x.tableId, free); } catch { /* taken meanwhile: try the next */ }
    }
  }
  let view = await api.createTable({ game, seats: 4, hands: 1, turnSeconds: 45 });
  view = await fillWithBots(view, level);
  enterTable(await api.start(view.tableId));
}

// ---------------------------------------------------------------- table & live updates

async function openTable(id) {
  closeFriends(); // the table's own connection brings invitations there
  try { enterTable(await api.table(id)); } catch (e) {
    if (e.status === 401) return;
    if (e.code === "network") return setOffline(true);
    notify(e.status === 404 ? t("notice.gone") : errorText(e));
    await openLobby();
  }
}

function enterTable(view) {
  S.tableId = view.tableId;
  store.setItem("harftet.table", view.tableId);
  history.replaceState(null, "", `#t=${view.tableId}`);
  Object.assign(S, { view: null, draft: null, sel: null, rack: [], log: [], logSeq: null, shownHands: null, hints: view.hints !== false });
  setView(view, true);
  show("table");
  render();
  // Already watching this table (sitting down after opening an invitation): keep the connection,
  // or the log would show a needless "bağlantı koptu / geri döndü".
  const w = live.want;
  if (!(w && w.tableId === view.tableId && w.token === S.token)) live.connect(S.token, view.tableId);
  live.adopt(view);
  loadLog();
}

async function resync() {
  if (!S.tableId) return;
  try {
    setView(await api.table(S.tableId));
    if (S.offline) setOffline(false);
  } catch (e) { if (e.code === "network") setOffline(true); /* else the next push or action retries */ }
}

/** Replace the view (older versions ignored), keeping a draft that still applies. */
function setView(v, force = false) {
  const old = S.view;
  if (!force && old && old.tableId === v.tableId && v.version <= old.version) return old.version === v.version;
  if (old && old.tableId !== v.tableId) return false;
  S.view = v;
  live.adopt(v);
  const sameHand = old && old.handNumber === v.handNumber;
  const oldHand = new Set(((sameHand && old.hand) || []).map((x) => x.id));
  const hand = v.hand || [];
  if (hand.length !== oldHand.size || hand.some((x) => !oldHand.has(x.id))) {
    S.fresh = new Set(oldHand.size ? hand.filter((x) => !oldHand.has(x.id)).map((x) => x.id) : []);
    if (S.fresh.size) { S.flyIn = new Set(S.fresh); cue("draw"); } // drawn: it comes from the pile
  }
  noteLay(old, v);
  if (!sameHand) S.rack = D.sortRack(hand, rackMode(), D.rules(v));
  S.rack = D.syncRack(S.rack, hand);
  const kept = !!(S.draft && S.draft.dirty && D.fits(S.draft, v));
  if (!kept) {
    const moved = S.draft && S.draft.dirty && v.status === "playing" && sameHand ? D.rebase(S.draft, v) : null;
    if (moved && moved.lost && !S.busy) notify(t(moved.draft.dirty ? "notice.draftPart" : "notice.draftReset"), "info");
    S.draft = moved ? moved.draft : D.fromView(v);
    S.validity.clear();
    S.errMeld = null;
    if (S.sel != null && !D.locate(S.draft, S.sel) && !hand.some((x) => x.id === S.sel)) S.sel = null;
    if (moved && moved.draft.dirty) scheduleDryRun();
  }
  if (v.hints === false) S.hints = false;
  if (old && old.status !== "finished" && v.status === "finished") refreshMe();
  if (v.last && S.logOn && S.logSeq != null && v.last.seq > S.logSeq + 1) loadLog(); // fill the gap
  else if (v.last) addLog([v.last]);
  else if (old && v.version > old.version + 1) loadLog();
  rememberProof(v);
  turnCue(old, v);
  maybeShowEnd(old, v);
  if (S.endKind === "hand" && $("#end-dialog").open && !v.break && v.status === "playing") $("#end-dialog").close();
  if (!$("#table").hidden) show("table");
  render();
  return kept;
}

/** A lay that made this version: yours settles, another seat's slides in and stays marked. */
function noteLay(old, v) {
  const last = v.last;
  if (!old || !last || last.type !== "lay" || v.version <= old.version || old.handNumber !== v.handNumber) return;
  const ids = last.tiles || [];
  if (last.seat === v.seat) S.settleIds = new Set(ids);
  else {
    for (const id of ids) S.othersLaid.add(id);
    S.slideIds = new Set(ids);
    S.slideFrom = seatPos(last.seat);
  }
  cue("place");
}

/** Where a seat sits around the table as you see it (you at the bottom). */
function seatPos(seat) {
  const v = S.view;
  const n = v.seats.length;
  const pos = POSITIONS[n] || POSITIONS[4];
  return pos[(seat - (mySeat() ?? 0) + n) % n] || "top";
}

/** After a render: the motion the last change asked for. */
function animateChanges() {
  const on = moving();
  const pile = $("#pile").getBoundingClientRect();
  for (const id of S.flyIn) {
    const el = document.querySelector(`#rack .tile[data-id="${id}"]`);
    if (el) { el.dataset.from = "pile"; Motion.flyFrom(el, pile, on); }
  }
  [...S.settleIds].forEach((id, i) => Motion.settle(document.querySelector(`#series .tile[data-id="${id}"], #pairs .tile[data-id="${id}"]`), i, on));
  [...S.slideIds].forEach((id, i) => Motion.slideIn(document.querySelector(`#series .tile[data-id="${id}"], #pairs .tile[data-id="${id}"]`), S.slideFrom, i, on));
  S.flyIn = new Set();
  S.settleIds = new Set();
  S.slideIds = new Set();
}

function rackMode() {
  const game = S.view && S.view.game;
  if (S.rackMode == null && game) S.rackMode = Settings.sortFor(S.settings, game);
  if (game === "kastet") return S.rackMode === "pairs" ? "pairs" : "series";
  return S.rackMode === "value" ? "value" : "letter";
}

// ---------------------------------------------------------------- the log

async function loadLog() {
  if (!S.tableId || !S.logOn) return;
  try {
    const data = await api.log(S.tableId, S.logSeq);
    addLog((data && data.events) || []);
  } catch (e) {
    if (e.status === 404 || e.status === 405) S.logOn = false; // a server without the log
  }
}

function addLog(events) {
  let added = false;
  for (const ev of events) {
    if (ev == null || ev.seq == null) continue;
    if (S.logSeq != null && ev.seq <= S.logSeq && S.log.some((x) => x.seq === ev.seq)) continue;
    if (S.log.some((x) => x.seq === ev.seq)) continue;
    S.log.push(ev);
    added = true;
  }
  if (!added) return;
  S.log.sort((a, b) => a.seq - b.seq);
  S.logSeq = S.log[S.log.length - 1].seq;
  if (S.log.length > 200) S.log = S.log.slice(-200);
  renderLog();
}

// Comings and goings of connections before the deal are noise (joining by invitation makes some).
function beforeDeal(ev) {
  const start = S.log.find((x) => x.type === "start");
  return ["disconnect", "reconnect"].includes(ev.type) && (start ? ev.seq < start.seq : !(S.view && S.view.handNumber > 0));
}

function renderLog() {
  const v = S.view;
  if (!v) return;
  const names = seatNames(v);
  const melds = [...v.series, ...v.pairs];
  // A line is worded once, with the table as it was when the event arrived (later moves change the words).
  const shown = S.log.filter((ev) => !beforeDeal(ev));
  const items = shown.slice(-40).reverse().map((ev) => {
    if (!ev.text || ev.lang !== getLang()) Object.assign(ev, { text: logLine(ev, names, { melds, name: tileName }, v.game), lang: getLang() });
    return h("li", { class: `log-${ev.type}` }, ev.text);
  });
  $("#log").replaceChildren(...items);
  $("#log-box").hidden = !items.length;
}

// ---------------------------------------------------------------- your turn: sound and title

function turnCue(old, v) {
  const mine = (x) => !!(x && x.status === "playing" && x.turn && x.seat != null && x.turn.seat === x.seat);
  if (mine(v) && !mine(old) && old) {
    cue("turn");
    if (document.hidden) blinkTitle();
    if (S.draft && S.draft.dirty) setTimeout(scheduleDryRun); // a draft built meanwhile: ask now
  }
  if (!mine(v)) stopBlink();
  if (mine(old) && !mine(v)) S.othersLaid.clear(); // you had your turn to look at them
}

/** Plays one of sound.js's sounds, unless the player turned sound off. */
function cue(name) {
  if (S.settings.sound) Sound.play(name, S.settings.volume);
}
function moving() { return Settings.animate(S.settings, Motion.reducedMotion()); }

const BASE_TITLE = document.title;
function blinkTitle() {
  stopBlink();
  let on = false;
  S.titleTimer = setInterval(() => { on = !on; document.title = on ? t("title.turn") : BASE_TITLE; }, 900);
}
function stopBlink() {
  clearInterval(S.titleTimer);
  document.title = BASE_TITLE;
}

// ---------------------------------------------------------------- the end of a hand and a game

function maybeShowEnd(old, v) {
  const n = (v.handResults || []).length;
  if (S.shownHands == null) { S.shownHands = n; if (v.status !== "finished") return; }
  if (v.status === "finished" && (!old || old.status !== "finished" || S.shownHands < n) && !$("#end-dialog").open) {
    S.shownHands = n;
    return openEnd("game");
  }
  if (n > S.shownHands) {
    S.shownHands = n;
    const r = v.handResults[n - 1];
    if (v.seat != null) cue(r.finisher === v.seat ? "won" : "lost");
    openEnd("hand", r);
  }
}

function openEnd(kind, result) {
  const v = S.view;
  S.endShown = { kind, result };
  const names = seatNames(v);
  const dlg = $("#end-dialog");
  const finished = v.status === "finished";
  $("#end-h").textContent = kind === "game" ? t("end.game.h") : t("end.hand.h", { n: result.hand });
  const parts = kind === "game" ? gameEndEl(v, names, S.playerId) : handEndEl(v, result, names);
  if (kind === "game" && v.handResults && v.handResults.length) {
    // Places first, then how the last hand ended (its leftover tiles), then the score table.
    parts.splice(parts.length - 1, 0, ...handEndEl(v, v.handResults[v.handResults.length - 1], names).slice(0, 3));
  }
  $("#end-body").replaceChildren(...parts);
  const buttons = kind === "game" || finished
    ? [h("button", { type: "button", class: "primary", onclick: () => attempt(rematch) }, t("btn.rematch")),
      h("button", { type: "button", onclick: () => { dlg.close(); openLobby(); } }, t("btn.newTable")),
      h("a", { id: "verify-link", href: `verify.html#t=${v.tableId}`, target: "_blank", rel: "noopener" }, t("verify.link"))]
    : [h("p", { id: "end-break", class: "hint", "aria-live": "polite" }),
      h("button", { type: "button", id: "btn-next", class: "primary", onclick: () => attempt(sayReady) }, t("end.next"))];
  $("#end-actions").replaceChildren(...buttons);
  S.endKind = kind === "game" || finished ? "game" : "hand";
  clearInterval(S.breakTimer);
  if (S.endKind === "hand") { renderBreak(); S.breakTimer = setInterval(renderBreak, 500); }
  if (!dlg.open) dlg.showModal();
  dlg.scrollTop = 0;
  $("#end-h").focus();
}

/** Rematch: a new table like this one, the computer players seated again at their levels. */
async function rematch() {
  const v = S.view;
  let view = await api.createTable({
    game: v.game, seats: v.seats.length, hands: v.hands, partners: v.partners, turnSeconds: v.turnSeconds,
    ...(v.private ? { private: true } : {}),
    ...(v.hints != null ? { hints: v.hints } : {}), ...(v.rated === false ? { rated: false } : {}),
    ...(v.breakSeconds != null ? { breakSeconds: v.breakSeconds } : {}), ...(v.pace ? { pace: v.pace } : {}),
  });
  for (const [i, s] of v.seats.entries()) if (i > 0 && s && s.bot) view = await sitBot(view.tableId, i, s.level || "medium");
  $("#end-dialog").close();
  enterTable(view);
}

// ---------------------------------------------------------------- derived state

/** A table whose result changes no rating: unrated, or with a computer player (RULES: practice). */
function practice(v) { return v.rated === false || v.seats.some((s) => s && s.bot); }
function mySeat() { return S.view && S.view.seat != null ? S.view.seat : null; }
function isManager() { return !!(S.view && S.view.manager === S.playerId); }
function myTurn() {
  const v = S.view;
  return !!(v && v.status === "playing" && v.turn && mySeat() != null && v.turn.seat === mySeat());
}
function editable() { return !!(S.view && S.view.status === "playing" && mySeat() != null); }
function limits() { return D.rules(S.view); }
function rackTiles() {
  const used = D.usedIds(S.draft);
  const byId = new Map((S.view.hand || []).map((x) => [x.id, x]));
  return S.rack.filter((id) => !used.has(id) && byId.has(id)).map((id) => byId.get(id));
}
/** A tile named as players see it ("K", "mavi 7"), for error messages. */
function tileName(id) {
  const v = S.view;
  const all = v ? [...v.series.flat(), ...v.pairs.flat(), ...(v.hand || [])] : [];
  const tile = all.find((x) => x.id === id);
  if (!tile) return `#${id}`;
  if (tile.joker) return t("tile.joker");
  return tile.letter != null ? tile.letter : `${t(`color.${tile.color}`)} ${tile.number}`;
}

/** Tiles other seats laid since your last turn (marked until your turn ends), and the last lay. */
function lastTiles() {
  const last = S.view && S.view.last;
  return new Set([...S.othersLaid, ...(last && last.type === "lay" ? last.tiles || [] : [])]);
}

// ---------------------------------------------------------------- the draft

function change(fn) {
  try {
    const next = fn(S.draft);
    S.draft = D.inferFaces(next, S.view.game, limits());
    S.errMeld = null;
    cue("place");
    if ($("#notice").classList.contains("error")) clearNotice(); // the refusal was about the old draft
  } catch (e) {
    if (e instanceof D.DraftError) notify(errorText({ code: e.code, params: e.params }, tileName, limits()));
    else throw e;
  }
  render();
  scheduleDryRun();
}

async function askJokerFace(id) {
  const entry = D.locate(S.draft, id);
  if (!entry || !entry.entry.tile.joker) return;
  const face = await askFace(entry.entry.as);
  if (face != null) change((d) => D.setFace(d, id, face));
}

function afterPlace(id) {
  const at = D.locate(S.draft, id);
  if (at && at.entry.tile.joker && at.entry.as == null && S.view.game === "harftet") askJokerFace(id);
}

function tapTile(id, where, leftHalf) {
  if (!editable()) return;
  const inMeld = where.area != null;
  if (S.sel === id) { S.sel = null; return render(); }
  if (inMeld) {
    if (S.sel != null) {
      const sel = S.sel;
      S.sel = null;
      change((d) => D.place(d, sel, { area: where.area, mi: Number(where.mi), at: D.insertIndex(Number(where.ti), leftHalf) }, S.view.hand, limits()));
      return afterPlace(sel);
    }
    S.sel = id;
    return render();
  }
  // a rack tile
  if (S.sel != null && D.locate(S.draft, S.sel)) {
    const sel = S.sel;
    S.sel = null;
    return change((d) => D.backToHand(d, sel));
  }
  if (S.draft.active) {
    change((d) => D.addToActive(d, id, S.view.hand, limits()));
    return afterPlace(id);
  }
  S.sel = id;
  render();
}

function tapMeld(area, mi) {
  const sel = S.sel;
  S.sel = null;
  change((d) => D.place(d, sel, { area, mi }, S.view.hand, limits()));
  afterPlace(sel);
}

function activate(area, mi) {
  const a = S.draft.active;
  const same = a && a.area === area && a.mi === mi;
  change((d) => D.setActive(d, same ? null : area, same ? null : mi));
}

function newMeld(area) {
  if (S.sel != null) {
    const sel = S.sel;
    S.sel = null;
    change((d) => {
      const n = D.place(d, sel, { newIn: area }, S.view.hand, limits());
      return D.setActive(n, area, n[area].length - 1);
    });
    return afterPlace(sel);
  }
  change((d) => D.newMeld(d, area, limits()));
}

function resetDraft() {
  cancelDryRun();
  clearNotice();
  S.draft = D.fromView(S.view);
  S.sel = null;
  S.errMeld = null;
  S.validity.clear();
  render();
}

function sortRack(mode) {
  S.rackMode = mode;
  if (S.settings.sort !== mode) S.settings = Settings.save(store, { ...S.settings, sort: mode });
  S.rack = D.sortRack(S.view.hand || [], mode, limits());
  render();
}

// Dragging with pointer events (mouse and touch alike): rack order, or a tile onto a meld.
const DRAG_SLOP = 8; // px: a pointer moved less than this taps; a drag's own click lands within it

function onPointerDown(ev) {
  const tile = ev.target.closest(".tile[data-id]");
  if (!tile || !editable() || ev.button > 0 || !tile.closest("#rack, #series, #pairs")) return;
  S.drag = { id: Number(tile.dataset.id), x: ev.clientX, y: ev.clientY, el: tile, moving: false, ghost: null };
}

function onPointerMove(ev) {
  const d = S.drag;
  if (!d) return;
  if (!d.moving && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < DRAG_SLOP) return;
  if (!d.moving) {
    d.moving = true;
    d.ghost = d.el.cloneNode(true);
    d.ghost.classList.add("ghost");
    d.ghost.setAttribute("aria-hidden", "true");
    document.body.append(d.ghost);
    d.el.classList.add("dragging");
  }
  d.ghost.style.left = `${ev.clientX - 22}px`;
  d.ghost.style.top = `${ev.clientY - 28}px`;
  ev.preventDefault();
}

function onPointerUp(ev) {
  const d = S.drag;
  S.drag = null;
  if (!d || !d.moving) return;
  d.ghost.remove();
  d.el.classList.remove("dragging");
  const under = document.elementFromPoint(ev.clientX, ev.clientY);
  suppressClick(ev.clientX, ev.clientY);
  if (under) dropAt(d.id, under, ev.clientX);
}

/** A mouse drag ends in a click where it was dropped; that click is the drag's, not a tap. A
 * finger drag ends in none, so only a click at the drop point is eaten: a tap elsewhere soon
 * after (or before a slow machine's timer fires) reaches its button. */
function suppressClick(x, y) {
  const stop = (e) => {
    if (Math.hypot(e.clientX - x, e.clientY - y) > DRAG_SLOP) return;
    e.stopPropagation();
    e.preventDefault();
    document.removeEventListener("click", stop, { capture: true });
  };
  document.addEventListener("click", stop, { capture: true });
  setTimeout(() => document.removeEventListener("click", stop, { capture: true }), 50);
}

function dropAt(id, under, x) {
  const tile = under.closest(".tile[data-id]");
  const left = tile ? x < tile.getBoundingClientRect().left + tile.getBoundingClientRect().width / 2 : false;
  const meld = under.closest("li.meld[data-area]");
  if (under.closest("#rack")) {
    if (D.locate(S.draft, id)) change((dr) => D.backToHand(dr, id));
    const ids = rackTiles().map((x) => x.id);
    let to = ids.length;
    if (tile && tile.closest("#rack")) to = D.insertIndex(ids.indexOf(Number(tile.dataset.id)), left);
    const target = to < ids.length ? ids[to] : null;
    const order = S.rack.filter((x) => x !== id);
    const at = target == null ? order.length : order.indexOf(target);
    order.splice(at < 0 ? order.length : at, 0, id);
    S.rack = order;
    return render();
  }
  if (under.closest(".new-meld")) {
    const area = under.closest(".new-meld").dataset.area;
    change((dr) => D.place(dr, id, { newIn: area }, S.view.hand, limits()));
    return afterPlace(id);
  }
  if (meld) {
    const area = meld.dataset.area;
    const mi = Number(meld.dataset.mi);
    const at = tile && tile.dataset.ti != null ? D.insertIndex(Number(tile.dataset.ti), left) : undefined;
    change((dr) => D.place(dr, id, { area, mi, at }, S.view.hand, limits()));
    afterPlace(id);
  }
}

// ---------------------------------------------------------------- dry runs and hints

// Every draft meld is tinted as it is built: by the server's rule limits where they settle it
// (Kastet melds, too short a word), by the server's earlier verdict on the same word, and else by
// dry runs, debounced and ordered so that each one settles at least one meld (D.probeBody).
const VERDICTS = new Map(); // "series:KALEM" → "valid": the server's verdicts on Harftet words
const DRY_ROUNDS = 3; // dry runs at most per change of the draft (the server budgets them per player)

/** Tint what is known now; returns the draft melds only the server can judge. */
function tint() {
  const v = S.view;
  const lim = limits();
  const unknown = { series: [], pairs: [] };
  S.validity.clear();
  const melds = [...changedMelds().map((mi) => ["series", mi]), ...S.draft.pairs.map((m, mi) => ["pairs", mi])];
  const series = S.draft.series.filter((m) => m.length).length;
  for (const [area, mi] of melds) {
    const meld = S.draft[area][mi];
    if (!meld.length) continue;
    let verdict = D.localVerdict(v.game, area, meld, lim) ?? VERDICTS.get(D.verdictKey(v.game, area, meld)) ?? null;
    if (area === "pairs" && series < lim.pairsOpenAt) verdict = "invalid"; // the pair area is closed
    if (verdict) S.validity.set(`${area}:${mi}`, verdict);
    else unknown[area].push(mi);
  }
  return unknown;
}

function remember(key, verdict) {
  if (!key) return;
  if (VERDICTS.size > 500) VERDICTS.delete(VERDICTS.keys().next().value);
  VERDICTS.set(key, verdict);
}

/** A dry run waiting for its debounce is dropped, an answer on its way ignored. */
function cancelDryRun() {
  clearTimeout(S.dryTimer);
  S.drySeq++; // an answer to an older draft is not this draft's
}

function scheduleDryRun() {
  cancelDryRun();
  if (!S.draft || !S.view) return;
  const unknown = tint();
  renderBoard();
  if (!S.dryRun || !myTurn() || !D.addsFromHand(S.draft) || D.undeclared(S.draft).length) return;
  if (Date.now() < S.dryPausedUntil) return;
  const open = unknown.series.length + unknown.pairs.length;
  const refused = [...S.validity.values()].includes("invalid");
  if (!open && refused) return; // a lay already known to be refused: nothing to ask
  S.dryTimer = setTimeout(() => dryRun(unknown), 300);
}

async function dryRun(unknown) {
  const seq = S.drySeq;
  const { draft, view: v } = S;
  const outdated = () => seq !== S.drySeq || S.draft !== draft; // the draft changed or was put back
  let asked = unknown;
  let withPairs = draft.series.filter((m) => m.length).length >= limits().pairsOpenAt; // else tinted closed
  for (let round = 0; round < DRY_ROUNDS; round++) {
    // also when the table moved on or the turn ended: the server would only refuse it (403)
    if (outdated() || S.view.version !== v.version || !myTurn()) return;
    let plan;
    try { plan = D.probeBody(draft, asked, withPairs); } catch { return; }
    let answer;
    try {
      const res = await api.move(v.tableId, { version: v.version, type: "lay", dryRun: true, ...plan.body });
      if (!res || res.legal !== true) { S.dryRun = false; return; } // a server without dry runs answered a real move?
      answer = { legal: true };
    } catch (e) {
      if (e.code === "bad_request") { S.dryRun = false; return; } // a server without dry runs
      if (e.status === 429) { S.dryPausedUntil = Date.now() + 15_000; return; } // over the dry-run budget
      if (e.code !== "illegal_move") return;
      answer = { legal: false, reason: e.reason, meld: e.meld ?? e.params.meld, pair: e.params.pair };
    }
    if (outdated()) return;
    const learned = D.readProbe(plan, asked, answer);
    for (const [key, verdict] of learned) {
      S.validity.set(key, verdict);
      const [area, mi] = key.split(":");
      remember(D.verdictKey(v.game, area, draft[area][Number(mi)]), verdict);
    }
    renderBoard();
    if (answer.reason === "pairs_closed") withPairs = false;
    asked = {
      series: asked.series.filter((mi) => !learned.has(`series:${mi}`)),
      pairs: withPairs ? asked.pairs.filter((mi) => !learned.has(`pairs:${mi}`)) : [],
    };
    if (!asked.series.length && !asked.pairs.length) return;
    if (!learned.size && answer.reason !== "pairs_closed") return; // nothing more to learn this way
  }
}

function changedMelds() {
  const original = new Map();
  S.view.series.forEach((m) => original.set(m.map((x) => x.id).join(","), true));
  return S.draft.series.map((m, i) => (m.length && !original.has(m.map((e) => e.id).join(",")) ? i : -1)).filter((i) => i >= 0);
}

async function hint() {
  const v = S.view;
  let res;
  try { res = await api.hint(v.tableId); } catch (e) {
    if (e.status === 404 || e.status === 405 || e.code === "hints_off") {
      S.hints = false;
      renderActions();
      if (e.code === "hints_off") notify(errorText(e, tileName, limits()), "info");
      return;
    }
    if (e.code === "no_hints_left") { await resync(); return notify(t("notice.noHintsLeft"), "info"); }
    throw e;
  }
  if (!res || (!res.lay && !res.meld)) return notify(t("notice.noHint"), "info");
  if (res.version !== S.view.version) await resync();
  S.sel = null;
  // Unlimited hints give the whole lay; a budgeted hint one meld (RULES §4a), laid out over the
  // table — or over the melds the hints before it laid out, while the player has not changed them.
  const over = S.hinted && S.draft === S.hinted && res.revealed > 1 ? draftAsView(S.view, S.draft) : S.view;
  const body = res.lay || D.layOfMeld(over, res.meld, res.area || "series");
  S.draft = D.inferFaces(D.fromLay(S.view, body), S.view.game, limits());
  S.hinted = S.draft;
  if (res.lay) notify(t("notice.hint", { lay: $("#btn-lay").textContent }), "info");  // Yere aç or İşle
  else notify(t("notice.hintMeld", { shed: res.shed }), "info");
  render();
  scheduleDryRun();
  const first = document.querySelector("#series li.meld.changed");
  if (first) first.scrollIntoView({ block: "center", behavior: "smooth" });
}

/** The view with the draft's series area in place of the table's (tiles as the view shows them). */
function draftAsView(v, d) {
  const tile = (e) => (e.tile.joker ? { ...e.tile, as: e.as } : e.tile);
  return { ...v, series: d.series.filter((m) => m.length).map((m) => m.map(tile)) };
}

/** "Sonraki el": ready for the next hand (RULES §2a); a version that moved on is retried once. */
async function sayReady() {
  for (let attempt = 0; attempt < 2; attempt++) {
    const v = S.view;
    if (!v || !v.break) return;
    try {
      setView(await api.move(v.tableId, { version: v.version, moveId: newMoveId(), type: "ready" }));
      return;
    } catch (e) {
      if (e.code === "stale_version" && e.view) { setView(e.view); continue; }
      if (e.code === "wrong_status") return resync(); // the break is already over
      throw e;
    }
  }
}

/** The deal proofs this browser saw, per table and hand: the verify page compares with them. */
function rememberProof(v) {
  if (!v.dealProof || !v.handNumber) return;
  const key = `harftet.proofs.${v.tableId}`;
  let seen = {};
  try { seen = JSON.parse(store.getItem(key) || "{}"); } catch { /* start again */ }
  if (seen[v.handNumber] === v.dealProof) return;
  seen[v.handNumber] = v.dealProof;
  try { store.setItem(key, JSON.stringify(seen)); } catch { /* storage full: the check says "not seen" */ }
}

function renderBreak() {
  const el = $("#end-break");
  const v = S.view;
  if (!el) return;
  if (!v || !v.break) { el.textContent = ""; return; }
  const left = Math.max(0, Math.ceil(v.break.until - Date.now() / 1000));
  const mine = mySeat() != null && v.break.ready.includes(mySeat());
  el.textContent = mine ? `${t("break.ready")} · ${t("break.wait", { s: left })}` : t("break.wait", { s: left });
}

// ---------------------------------------------------------------- moves

const SOCKET_TROUBLE = new Set(["unauthorized", "not_found", "bad_request", "busy", "internal"]);

async function sendMove(type, extra = {}) {
  cancelDryRun(); // the move lays the draft or ends the turn: a verdict on it is no use now
  const v = S.view;
  const body = { version: v.version, moveId: newMoveId(), type, ...extra };
  try {
    // on the table's socket when it is open (answered there at once); else, or when no answer
    // comes, over REST: the same moveId is never applied twice
    const answered = await live.move(body, getLang()).catch((refused) => {
      // the socket's own trouble (its registration, a busy moment): REST gives the answer
      if (SOCKET_TROUBLE.has(refused.error?.code)) return null;
      throw new ApiError(refused.status || 400, refused);
    });
    const view = answered ?? (await api.move(v.tableId, body));
    S.sel = null;
    if (view.version > S.view.version) {
      S.draft = null; // start the next arrangement from the table as it now stands
      setView(view, true);
    } else {
      resetDraft(); // a push already brought this view or a newer one; the move used the draft up
    }
    clearNotice();
  } catch (e) {
    if (e.code === "stale_version" && e.view) {
      const kept = setView(e.view, true);
      notify(t(kept ? "notice.stale.kept" : "notice.stale"), "info");
    } else if (e.code === "illegal_move") {
      S.errMeld = e.meld ?? e.params.meld ?? null;
      if (S.errMeld != null) S.validity.set(`series:${S.errMeld}`, "invalid");
      render();
      notify(errorText(e, tileName, limits()));
    } else throw e;
  }
}

async function lay() {
  const missing = D.undeclared(S.draft);
  for (const id of missing) {
    const face = await askFace(null);
    if (face == null) return;
    S.draft = D.setFace(S.draft, id, face);
  }
  return sendMove("lay", D.layBody(S.draft));
}

function draw() {
  if (S.draft && D.addsFromHand(S.draft) && !confirm(t("confirm.draw"))) return;
  return sendMove("draw");
}

// ---------------------------------------------------------------- the joker face dialog

function askFace(current) {
  const dialog = $("#face-dialog");
  const kastet = S.view.game === "kastet";
  $("#face-h").textContent = kastet ? t("face.kastet.h") : t("face.h");
  $("#face-letters").hidden = kastet;
  $("#face-kastet").hidden = !kastet;
  let chosen = null;
  return new Promise((resolve) => {
    const done = (face) => { chosen = face; dialog.close(); };
    if (kastet) {
      const color = current && current.color;
      const [low, high] = limits().numbers;
      $("#face-kastet").replaceChildren(...limits().colors.map((c) => h("div", { class: "face-row" },
        h("span", { class: `face-color c-${c}` }, t(`color.${c}`)),
        ...Array.from({ length: high - low + 1 }, (_, i) => low + i).map((n) => h("button", {
          type: "button", class: `key c-${c}${color === c && current.number === n ? " selected" : ""}`,
          "aria-label": `${t(`color.${c}`)} ${n}`, onclick: () => done({ color: c, number: n }),
        }, String(n))))));
    } else {
      $("#face-letters").replaceChildren(...[...limits().alphabet].map((c) => h("button", {
        type: "button", class: `key${current === c ? " selected" : ""}`, onclick: () => done(c),
      }, c)));
    }
    dialog.addEventListener("close", () => resolve(chosen), { once: true });
    dialog.showModal();
  });
}

// ---------------------------------------------------------------- rendering

function renderWs() {
  const el = $("#ws-state");
  el.textContent = t(`ws.${S.wsState}`);
  el.className = `ws-state ${S.wsState}`;
}

function statusText(v) {
  const taken = v.seats.filter((s) => s && !s.vacant).length;
  const full = taken === v.seats.length;
  const mgr = isManager();
  if (v.status === "waiting" && full) return t("status.waiting.full") + t(mgr ? "status.waiting.full.mgr" : "status.waiting.full.other");
  if (v.status === "waiting") return t("status.waiting", { taken, seats: v.seats.length }) + t(mgr ? "status.waiting.mgr" : "status.waiting.other");
  if (v.status === "finished") return t("status.finished");
  const hand = t("status.hand", { n: v.handNumber, of: v.hands, pile: v.pile });
  if (v.status === "paused") return `${hand} · ${t(full ? (mgr ? "status.paused.ready.mgr" : "status.paused.ready") : "status.paused")}`;
  return hand;
}

function turnText(v) {
  if (v.status !== "playing" || !v.turn) return statusText(v);
  if (myTurn()) return t(v.turn.laid ? "turn.mine.laid" : "turn.mine.fresh");
  return t("turn.other", { name: seatNames(v)[v.turn.seat] });
}

function render() {
  renderMe();
  const v = S.view;
  if (!v || $("#table").hidden) return;
  $("#table").dataset.version = v.version;
  $("#table").classList.toggle("dealt", v.handNumber > 0 && mySeat() != null && v.status !== "finished");
  $("#table-h").textContent = t("table.title", { game: t(`game.${v.game}`) });
  $("#table-status").textContent = statusText(v);
  $("#brand-sub").textContent = t(`app.sub.${v.game}`);
  $("#pile").hidden = !(v.handNumber > 0 && v.status !== "finished");
  $("#pile-n").textContent = String(v.pile ?? "");
  $("#pile").setAttribute("aria-label", t("pile.label", { n: v.pile }));
  $("#btn-start").hidden = !(isManager() && v.status === "waiting");
  $("#btn-start").disabled = v.seats.some((s) => !s);
  $("#btn-continue").hidden = !(isManager() && v.status === "paused");
  $("#btn-leave").textContent = mySeat() == null || v.status === "finished" ? t("btn.lobby") : t("btn.leave");
  $("#invite").hidden = !(v.private && v.status === "waiting");
  $("#mute").textContent = S.settings.sound ? t("btn.mute") : t("btn.unmute");

  const me = mySeat() ?? 0;
  const n = v.seats.length;
  const pos = POSITIONS[n] || POSITIONS[4];
  const names = seatNames(v);
  $("#seats").replaceChildren(...v.seats.map((s, i) => seatEl(v, s, i, {
    me: mySeat(), pos: pos[(i - me + n) % n] || "top", isManager: isManager(), names,
    onSit: (seat) => attempt(() => sit(v.tableId, seat)),
    onBot: (seat) => attempt(() => sit(v.tableId, seat, $("#bot-level").value || "medium")),
    onRemove: (seat) => attempt(async () => setView(await api.stand(v.tableId, seat))),
  })));
  $("#bot-level-box").hidden = !(isManager() && (v.status === "waiting" || v.status === "paused"));
  renderBoard();
  renderRack();
  renderActions();
  renderLog();
  tick();
  layoutDock();
  animateChanges();
}

function renderBoard() {
  const v = S.view;
  if (!v || !S.draft) return;
  const started = v.handNumber > 0;
  const canEdit = editable();
  const last = lastTiles();
  const lim = limits();
  const active = S.draft.active;
  const common = (area, mi) => ({
    game: v.game, editable: canEdit, sel: S.sel, last,
    active: !!(active && active.area === area && active.mi === mi),
    validity: S.validity.get(`${area}:${mi}`) ?? (area === "series" && S.errMeld === mi ? "invalid" : null),
    onTap: tapTile, onMeld: tapMeld, onActivate: activate,
  });
  const series = S.draft.series.map((m, i) => meldEl("series", i, m, common("series", i)));
  if (canEdit) series.push(newSlot("series", t("btn.newSeries"), S.draft.series.length >= lim.maxSeries));
  if (!S.draft.series.length) series.unshift(h("li", { class: "hint" }, started ? t("area.empty") : t("area.waiting")));
  $("#series").replaceChildren(...series);
  $("#series-count").textContent = `${S.draft.series.filter((m) => m.length).length}/${lim.maxSeries}`;
  $("#draft-flag").hidden = !S.draft.dirty;
  $("#series").classList.toggle("draft", S.draft.dirty);
  $("#editor-hint").textContent = canEdit ? (active ? t("draft.active") : t("help.edit")) : "";

  const pairsOpen = S.draft.series.length >= lim.pairsOpenAt;
  const frozen = v.pairs.map((m, i) => h("li", { class: "meld frozen", "aria-label": `${t("area.pairs")} ${i + 1}` },
    h("span", { class: "idx", "aria-hidden": "true" }, String(i + 1)), m.map((x) => tileEl(x, { face: x.as, last: last.has(x.id) }))));
  const mine = S.draft.pairs.map((m, i) => meldEl("pairs", i, m, common("pairs", i)));
  if (canEdit && pairsOpen) mine.push(newSlot("pairs", t("btn.newPair"), false));
  $("#pairs").replaceChildren(...frozen, ...mine);
  $("#pairs-section").hidden = !frozen.length && !mine.length && !pairsOpen;
  $("#pairs-count").textContent = pairsOpen ? `(${t("area.pairs.open", { n: lim.pairsOpenAt })})` : "";
  renderSelectionTools();
}

function newSlot(area, label, disabled) {
  return h("li", { class: "meld new-meld", dataset: { area } },
    h("button", { type: "button", class: "slot new", disabled, onclick: () => newMeld(area) }, label));
}

function renderRack() {
  const v = S.view;
  const seated = mySeat() != null && v.handNumber > 0 && !!S.draft;
  if (!seated) return;
  const tiles = rackTiles();
  const canEdit = editable();
  $("#rack").replaceChildren(...tiles.map((x) => tileEl(x, {
    selected: S.sel === x.id, fresh: S.fresh.has(x.id), tap: canEdit ? tapTile : null, where: {},
  })));
  const all = (v.hand || []).length;
  // A phone fits the rack in two rows: the fewer the tiles, the bigger each one (style.css).
  $("#rack").style.setProperty("--per-row", String(Math.max(7, Math.ceil(tiles.length / 2))));
  $("#rack-count").textContent = tiles.length === all ? t("rack.count", { n: all }) : t("rack.countOf", { n: tiles.length, of: all });
  const kastet = v.game === "kastet";
  $("#sort-a").textContent = t(kastet ? "sort.series" : "sort.letter");
  $("#sort-b").textContent = t(kastet ? "sort.pairs" : "sort.value");
}

function renderSelectionTools() {
  const at = S.sel != null ? D.locate(S.draft, S.sel) : null;
  $("#selection-tools").hidden = !at;
  if (!at) return;
  const meld = S.draft[at.area][at.mi];
  $("#sel-left").disabled = at.ti === 0;
  $("#sel-right").disabled = at.ti === meld.length - 1;
  $("#sel-hand").disabled = !at.entry.fromHand;
  $("#sel-face").hidden = !(at.entry.tile.joker && at.entry.fromHand);
}

function renderActions() {
  const v = S.view;
  if (!v || !S.draft) return;
  const turn = myTurn();
  const handSize = (v.hand || []).length;
  const lim = limits();
  const playing = v.status === "playing";
  $("#actions").hidden = !playing;
  $("#btn-draw").disabled = S.busy || !turn || v.turn.laid || handSize >= lim.handLimit || v.pile === 0;
  $("#btn-pass").disabled = S.busy || !turn || !(v.turn.laid || handSize >= lim.handLimit || v.pile === 0);
  $("#btn-lay").disabled = S.busy || !turn || !D.addsFromHand(S.draft);
  $("#btn-lay").textContent = v.series.length ? t("btn.lay.more") : t("btn.lay");
  $("#btn-reset").disabled = S.busy || !S.draft.dirty;
  $("#btn-hint").hidden = !S.hints;
  $("#btn-hint").disabled = S.busy || !turn || v.hintsLeft === 0;
  $("#btn-hint").textContent = v.hintsLeft != null ? t("hints.left", { n: v.hintsLeft }) : t("btn.hint");
  $("#turn-line").textContent = turnText(v);
  $("#turn-line").classList.toggle("mine", turn);
  const timer = $("#timer");
  timer.dataset.deadline = (playing && v.turn && v.turn.deadline) || "";
  timer.hidden = !playing;
}

function tick() {
  for (const el of document.querySelectorAll(".timer")) {
    const deadline = Number(el.dataset.deadline);
    if (!deadline) { el.textContent = "⏸"; continue; }
    const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
    el.textContent = t("timer", { s: left });
    el.classList.toggle("low", left <= 10);
    if (left <= 10 && left > 0 && el.id === "timer" && myTurn() && S.tickedFor !== deadline) {
      S.tickedFor = deadline; // ten seconds left: once a turn
      cue("tick");
    }
  }
}

function layoutDock() {
  const dock = $("#dock");
  const hgt = dock.hidden ? 0 : dock.getBoundingClientRect().height;
  document.documentElement.style.setProperty("--dock-h", `${Math.ceil(hgt)}px`);
}

function applyLang() {
  document.documentElement.lang = getLang();
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", t(el.dataset.tLabel));
  $("#rules-link").href = t("rules.href");
  renderWs();
  render();
  if (!$("#lobby").hidden) loadLobby();
  renderFriends(); // friends.js writes its own words
  renderPeople(); // and people.js its own
  // An open dialog is written again in the new language.
  if ($("#end-dialog").open && S.endShown) openEnd(S.endShown.kind, S.endShown.result);
  if ($("#face-dialog").open) $("#face-h").textContent = S.view && S.view.game === "kastet" ? t("face.kastet.h") : t("face.h");
  if ($("#settings-dialog").open) renderSettings();
  if (S.view) renderLog();
}

// ---------------------------------------------------------------- settings

function readSettings() {
  return {
    sound: $("#set-sound").checked, volume: Number($("#set-volume").value), motion: $("#set-motion").checked,
    tileSize: $("#set-size").value, sort: $("#set-sort").value,
  };
}

function switchLang(lang) {
  if (lang === getLang()) return;
  setLang(lang);
  applyLang();
}

function renderSettings() {
  const x = S.settings;
  $("#set-lang").value = getLang();
  $("#set-sound").checked = x.sound;
  $("#set-volume").value = String(x.volume);
  $("#set-volume").disabled = !x.sound;
  $("#set-motion").checked = x.motion;
  $("#set-size").value = x.tileSize;
  $("#set-sort").value = x.sort;
}

function applySettings() {
  document.documentElement.dataset.tiles = S.settings.tileSize;
  document.documentElement.classList.toggle("still", !S.settings.motion);
}

function changeSettings(patch) {
  const before = S.settings;
  S.settings = Settings.save(store, { ...before, ...patch });
  applySettings();
  renderSettings();
  if (S.view && S.settings.sort !== before.sort) return sortRack(Settings.sortFor(S.settings, S.view.game));
  render();
}

// ---------------------------------------------------------------- wiring

function wire() {
  $("#notice-close").onclick = clearNotice;
  $("#logout").onclick = () => account.signOut().then(() => signOut());
  $("#lang").onclick = () => switchLang(getLang() === "tr" ? "en" : "tr");
  // An invitation link pasted into an open tab changes only the hash: open that table.
  window.addEventListener("hashchange", () => {
    const m = /(?:^#|&)t=([\w-]+)/.exec(location.hash);
    if (m && m[1] !== S.tableId && S.token) attempt(() => openTable(m[1]));
  });
  window.addEventListener("online", () => { setOffline(false); if (S.tableId) resync(); });
  window.addEventListener("offline", () => setOffline(true));
  $("#login-form").onsubmit = (ev) => {
    ev.preventDefault();
    const name = $("#login-name").value.trim();
    if (name) attempt(() => signIn(name));
  };
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.onclick = () => {
      S.lobbyTab = tab.dataset.tab;
      S.lobbyPages = null;
      for (const x of document.querySelectorAll("[role=tab]")) x.setAttribute("aria-selected", String(x === tab));
      loadLobby();
    };
  }
  $("#lobby-refresh").onclick = () => loadLobby();
  $("#lobby-more").onclick = () => loadLobby(1);
  $("#lobby-prev").onclick = () => loadLobby(-1);
  $("#quick-go").onclick = () => attempt(quickPlay);
  // one sentence about the level chosen (all four would push "Hemen oyna" off a phone's screen)
  const aboutLevel = () => {
    for (const li of document.querySelectorAll(".level-about li")) li.hidden = li.dataset.level !== $("#quick-level").value;
  };
  $("#quick-level").addEventListener("change", aboutLevel);
  aboutLevel();
  $("#create-form").onsubmit = (ev) => { ev.preventDefault(); attempt(() => createTable(ev.target)); };
  $("#btn-start").onclick = () => attempt(async () => setView(await api.start(S.tableId)));
  $("#btn-continue").onclick = () => attempt(async () => setView(await api.resume(S.tableId)));
  $("#invite").onclick = () => attempt(async () => {
    const link = `${location.origin}${location.pathname}#t=${S.tableId}`;
    try { await navigator.clipboard.writeText(link); } catch { /* no clipboard: the link is shown */ }
    notify(`${t("table.copied")} ${link}`, "info");
  });
  $("#mute").onclick = () => changeSettings({ sound: !S.settings.sound });
  $("#settings").onclick = () => { renderSettings(); $("#settings-dialog").showModal(); };
  $("#settings-form").oninput = (ev) => {
    if (ev.target.id === "set-lang") return switchLang(ev.target.value);
    changeSettings(readSettings());
  };
  // The language switched in another tab: this one follows.
  window.addEventListener("storage", (ev) => { if (ev.key === "harftet.lang" && ev.newValue) switchLang(ev.newValue); });
  $("#btn-leave").onclick = () => attempt(async () => {
    const v = S.view;
    const seat = mySeat();
    if (seat != null && v.status !== "finished") {
      const question = practice(v) ? t("confirm.leave.practice") : t("confirm.leave", { n: 2 * v.hands });
      if ((v.status === "playing" || v.status === "paused") && !confirm(question)) return;
      await api.stand(v.tableId, seat);
    }
    await openLobby();
  });
  $("#btn-draw").onclick = () => guarded(draw);
  $("#btn-pass").onclick = () => guarded(() => sendMove("pass"));
  $("#btn-lay").onclick = () => guarded(lay);
  $("#btn-hint").onclick = () => guarded(hint);
  $("#btn-reset").onclick = resetDraft;
  $("#sort-a").onclick = () => sortRack(S.view.game === "kastet" ? "series" : "letter");
  $("#sort-b").onclick = () => sortRack(S.view.game === "kastet" ? "pairs" : "value");
  const shift = (delta) => {
    const at = D.locate(S.draft, S.sel);
    if (!at) return;
    const to = at.ti + delta;
    if (to < 0 || to >= S.draft[at.area][at.mi].length) return;
    const sel = S.sel;
    change((d) => D.place(d, sel, { area: at.area, mi: at.mi, at: delta > 0 ? to + 1 : to }, S.view.hand, limits()));
    const again = document.querySelector(`.tile[data-id="${sel}"]`);
    if (again) again.focus();
  };
  $("#sel-left").onclick = () => shift(-1);
  $("#sel-right").onclick = () => shift(1);
  $("#sel-hand").onclick = () => { const sel = S.sel; S.sel = null; change((d) => D.backToHand(d, sel)); };
  $("#sel-face").onclick = () => askJokerFace(S.sel);
  $("#face-cancel").onclick = () => $("#face-dialog").close();
  document.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove, { passive: false });
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("pointercancel", () => { if (S.drag && S.drag.ghost) S.drag.ghost.remove(); S.drag = null; });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && S.sel != null && !$("#face-dialog").open) { S.sel = null; render(); }
  });
  setInterval(tick, 250);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) { stopBlink(); live.wake(); if (S.tableId) resync(); }
  });
  new ResizeObserver(layoutDock).observe($("#dock"));
}

let account;
let phrases;
// The service worker (sw.js) keeps the shell for offline starts; where none can run, nothing changes.
function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("sw.js").catch(() => { /* the page works without it */ });
}

const inbox = createInbox({ api, screen: $("#lobby"), onOpen: (id) => openTable(id) });
onPushOpen((id) => openTable(id)); // a notification clicked while the client is open

async function boot() {
  const asked = tableFromUrl(); // a notification's link: /play/?table=ID
  registerWorker();
  if (!navigator.onLine) setOffline(true);
  applySettings();
  wire();
  loadSession();
  if (asked) S.tableId = asked;
  applyLang();
  S.configReady = loadConfig();
  phrases = initPhrases({ api, notify, openTable, tableId: () => S.tableId, mySeat,
    seats: () => (S.view ? S.view.seats.length : 0) });
  initWordCard({ api }); // tap a word's "?" on the table: what the game knows of it
  account = initAccount({ api, notify, adopt, signOut,
    refreshed: (p) => { S.token = p.token; saveSession(); } });
  if (!S.token) return show("login"); // the first screen before any request
  await S.configReady;
  await account.refresh(); // a session's access token lives 15 minutes
  refreshMe();
  if (S.tableId) await openTable(S.tableId); else await openLobby();
}

boot();
