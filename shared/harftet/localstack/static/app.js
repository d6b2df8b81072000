// The Harftet / Kastet web client for the local stack: plain ES module, no build step.
// REST at "/", WebSocket at "/ws" on the same host (see API.md).

const TR_ALPHABET = "ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ";
const COLORS = ["red", "yellow", "blue", "black"];
const MARKS = { red: "●", yellow: "▲", blue: "■", black: "◆" }; // colour is never the only cue
const MAX_SERIES = 26;
const HAND_LIMIT = 22;

const $ = (sel) => document.querySelector(sel);
const store = window.sessionStorage; // per tab: two tabs can be two players

const S = {
  token: null, playerId: null, name: null, rating: null,
  tableId: null, view: null,
  work: null,      // the lay editor's working copy: {series, pairs, key, dirty}
  sel: null,       // the selected tile id
  drag: null,      // the dragged tile id
  fresh: new Set(), // tile ids that just arrived in the hand
  errMeld: null,   // series index the server named in its last illegal_move
  busy: false,
  ws: null, wsTries: 0, wsTimer: 0, pingTimer: 0,
  lobbyTimer: 0,
};

// ---------------------------------------------------------------- small helpers

function h(tag, props = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v == null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid != null && kid !== false) el.append(kid);
  return el;
}

function newMoveId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16)); // insecure contexts lack randomUUID
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

let noticeTimer = 0;
function notify(message, kind = "error") {
  clearTimeout(noticeTimer);
  $("#notice").className = `notice ${kind}`;
  $("#notice-text").textContent = message;
  $("#notice").hidden = false;
  if (kind !== "error") noticeTimer = setTimeout(clearNotice, 4000);
}
function clearNotice() { $("#notice").hidden = true; }

function show(screen) {
  for (const id of ["login", "lobby", "table"]) $(`#${id}`).hidden = id !== screen;
  clearInterval(S.lobbyTimer);
  if (screen === "lobby") S.lobbyTimer = setInterval(() => !document.hidden && loadLobby(), 8000);
}

// ---------------------------------------------------------------- REST

class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.message || `HTTP ${status}`);
    this.status = status;
    this.code = e.code || `http_${status}`;
    this.meld = e.meld;
    this.view = body && body.view;
  }
}

async function api(method, path, body) {
  const headers = {};
  if (S.token) headers.Authorization = `Bearer ${S.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, { error: { code: "network", message: "The server cannot be reached." } });
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
  if (!res.ok) {
    const err = new ApiError(res.status, data);
    if (res.status === 401 && S.token) signOut("Your session is no longer valid — please sign in again.");
    throw err;
  }
  return data;
}

function describe(err) {
  const e = err.error || err;
  const where = e.meld != null && !/meld/i.test(e.message || "") ? ` (meld ${e.meld + 1})` : "";
  return `${e.message || "Something went wrong"}${where} [${e.code || "error"}]`;
}

/** Run a user action, showing its error; the server is the judge, so nothing is retried. */
async function attempt(fn) {
  try { await fn(); } catch (e) { if (e.status !== 401) notify(describe(e)); }
}

/** A move: one at a time, with the move buttons disabled while it is in flight. */
async function guarded(fn) {
  if (S.busy) return;
  S.busy = true;
  renderActions();
  try { await attempt(fn); } finally {
    S.busy = false;
    renderActions();
  }
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
  const p = await api("POST", "/players", { name });
  Object.assign(S, { token: p.token, playerId: p.playerId, name: p.name, rating: p.rating });
  saveSession();
  renderMe();
  if (S.tableId) await openTable(S.tableId); else await openLobby();
}

function signOut(message) {
  closeWs();
  store.removeItem("harftet.session");
  store.removeItem("harftet.table");
  Object.assign(S, { token: null, playerId: null, name: null, rating: null, tableId: null, view: null, work: null });
  renderMe();
  show("login");
  if (message) notify(message);
}

async function refreshMe() {
  try {
    const p = await api("GET", `/players/${encodeURIComponent(S.playerId)}`);
    S.rating = p.rating;
    S.name = p.name;
    saveSession();
    renderMe();
  } catch (e) { if (e.status === 404) signOut("Your guest player is gone — please sign in again."); }
}

// ---------------------------------------------------------------- lobby

async function openLobby() {
  closeWs();
  S.tableId = null;
  S.view = null;
  store.removeItem("harftet.table");
  history.replaceState(null, "", location.pathname);
  show("lobby");
  refreshMe();
  await loadLobby();
}

async function loadLobby() {
  let data;
  try { data = await api("GET", "/tables?status=waiting"); } catch (e) { if (e.status !== 401) notify(describe(e)); return; }
  const list = $("#lobby-list");
  const tables = (data && data.tables) || [];
  list.replaceChildren(...tables.map(lobbyItem));
  $("#lobby-empty").hidden = tables.length > 0;
}

function lobbyItem(t) {
  const players = t.players || [];
  const seats = players.map((name, i) => name
    ? h("li", { class: "taken" }, name)
    : h("li", {}, h("button", { type: "button", onclick: () => attempt(() => sit(t.tableId, i)) }, `Sit in seat ${i + 1}`)));
  const facts = [`${t.taken}/${t.seats} seated`, `${t.hands} hand${t.hands === 1 ? "" : "s"}`, `${t.turnSeconds} s turns`];
  if (t.partners) facts.push("partners");
  return h("li", { class: "lobby-item" },
    h("div", { class: "row spread" },
      h("strong", { class: `game-${t.game}` }, t.game === "kastet" ? "Kastet" : "Harftet"),
      h("button", { type: "button", class: "link", onclick: () => attempt(() => openTable(t.tableId)) }, "Open")),
    h("div", { class: "muted" }, facts.join(" · ")),
    h("ul", { class: "lobby-seats" }, seats));
}

async function sit(tableId, seat, bot = false) {
  const view = await api("POST", `/tables/${tableId}/seats/${seat}`, bot ? { bot: true } : undefined);
  if (bot) setView(view); else enterTable(view);
}

async function createTable(form) {
  const f = new FormData(form);
  const body = {
    game: f.get("game"), seats: Number(f.get("seats")), hands: Number(f.get("hands")),
    partners: f.get("partners") === "on", turnSeconds: Number(f.get("turnSeconds")),
  };
  if (body.partners && body.seats !== 4) throw new ApiError(400, { error: { code: "bad_request", message: "A partner game needs 4 seats." } });
  enterTable(await api("POST", "/tables", body));
}

// ---------------------------------------------------------------- table & live updates

async function openTable(id) {
  try { enterTable(await api("GET", `/tables/${encodeURIComponent(id)}`)); } catch (e) {
    if (e.status === 401) return;
    notify(e.status === 404 ? "That table no longer exists." : describe(e));
    await openLobby();
  }
}

function enterTable(view) {
  S.tableId = view.tableId;
  S.view = null;
  S.work = null;
  S.sel = null;
  store.setItem("harftet.table", view.tableId);
  history.replaceState(null, "", `#t=${view.tableId}`);
  show("table");
  setView(view);
  connectWs();
}

function wsUrl() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  return `${proto}://${location.host}/ws?token=${encodeURIComponent(S.token)}&tableId=${encodeURIComponent(S.tableId)}`;
}

function connectWs() {
  closeWs();
  let ws;
  try { ws = new WebSocket(wsUrl()); } catch { scheduleReconnect(); return; }
  S.ws = ws;
  setWsState("connecting");
  ws.onopen = () => {
    S.wsTries = 0;
    setWsState("live");
    refreshView(); // anything missed while we were away
    S.pingTimer = setInterval(() => ws.readyState === 1 && ws.send(JSON.stringify({ action: "ping" })), 60000);
  };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === "table" && msg.view && msg.view.tableId === S.tableId) setView(msg.view);
    else if (msg.type === "error") notify(describe(msg.error || msg));
  };
  ws.onclose = () => {
    if (S.ws !== ws) return; // closed on purpose
    clearInterval(S.pingTimer);
    S.ws = null;
    setWsState("offline");
    scheduleReconnect();
  };
}

function scheduleReconnect() {
  clearTimeout(S.wsTimer);
  if (!S.tableId || !S.token) return;
  const delay = Math.min(15000, 500 * 2 ** S.wsTries++) * (0.8 + Math.random() * 0.4);
  S.wsTimer = setTimeout(connectWs, delay);
}

function closeWs() {
  clearTimeout(S.wsTimer);
  clearInterval(S.pingTimer);
  const ws = S.ws;
  S.ws = null;
  if (ws) ws.close();
  S.wsTries = 0;
}

function setWsState(state) {
  const el = $("#ws-state");
  el.className = `ws-state ${state}`;
  el.textContent = { live: "● live", connecting: "◌ connecting…", offline: "○ offline — reconnecting" }[state];
}

async function refreshView() {
  if (!S.tableId) return;
  try { setView(await api("GET", `/tables/${encodeURIComponent(S.tableId)}`)); } catch (e) { if (e.status !== 401) notify(describe(e)); }
}

function tableKey(v) {
  return [...v.series.flat(), ...v.pairs.flat()].map((t) => t.id).sort((a, b) => a - b).join(",");
}

function freshWork(v) {
  const entry = (t) => ({ id: t.id, tile: t, fromHand: false, as: t.joker ? t.as : undefined });
  return { series: v.series.map((m) => m.map(entry)), pairs: [], key: tableKey(v), dirty: false };
}

function workFits(work, v) {
  if (work.key !== tableKey(v) || v.status !== "playing") return false;
  const hand = new Set((v.hand || []).map((t) => t.id));
  return [...work.series.flat(), ...work.pairs.flat()].every((e) => !e.fromHand || hand.has(e.id));
}

/**
 * Replace the view (ignoring pushes older than the one we hold). A draft that still applies
 * (same table tiles, its hand tiles still in hand) is kept; returns whether one was.
 */
function setView(v, force = false) {
  const old = S.view;
  if (!force && old && old.tableId === v.tableId && v.version < old.version) return false;
  S.view = v;
  const sameHand = old && old.tableId === v.tableId && old.handNumber === v.handNumber;
  const oldHand = new Set(((sameHand && old.hand) || []).map((t) => t.id));
  const hand = (v.hand || []).map((t) => t.id);
  if (hand.length !== oldHand.size || hand.some((id) => !oldHand.has(id))) {
    S.fresh = new Set(oldHand.size ? hand.filter((id) => !oldHand.has(id)) : []); // a deal is not "fresh"
  }
  const keptDraft = !!(S.work && S.work.dirty && workFits(S.work, v));
  if (!keptDraft) {
    if (S.work && S.work.dirty) notify("The table changed, so your draft was reset.", "info");
    S.work = freshWork(v);
    S.errMeld = null;
    if (S.sel != null && !locate(S.sel)) S.sel = null;
  }
  if (old && old.status !== "finished" && v.status === "finished") refreshMe();
  render();
  return keptDraft;
}

// ---------------------------------------------------------------- derived state

function mySeat() { return S.view && S.view.seat != null ? S.view.seat : null; }
function isManager() { return S.view && S.view.manager === S.playerId; }
function myTurn() {
  const v = S.view;
  return !!(v && v.status === "playing" && v.turn && mySeat() != null && v.turn.seat === mySeat());
}
function editable() { return !!(S.view && S.view.status === "playing" && mySeat() != null); }

function inWork() {
  const ids = new Set();
  for (const m of [...S.work.series, ...S.work.pairs]) for (const e of m) ids.add(e.id);
  return ids;
}
function handLeft() {
  const used = inWork();
  return sortTiles((S.view.hand || []).filter((t) => !used.has(t.id)), S.view.game);
}
function addsFromHand() { return [...S.work.series.flat(), ...S.work.pairs.flat()].some((e) => e.fromHand); }

function trKey(s) { return [...s].map((c) => String.fromCharCode(65 + Math.max(0, TR_ALPHABET.indexOf(c)))).join(""); }
function sortTiles(tiles, game) {
  const key = game === "kastet"
    ? (t) => (t.joker ? "~" : `${COLORS.indexOf(t.color)}${String(t.number).padStart(2, "0")}`)
    : (t) => (t.joker ? "~" : trKey(t.letter));
  return [...tiles].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id));
}

function locate(id) {
  if (!S.work) return null;
  for (const area of ["series", "pairs"]) {
    for (const [mi, meld] of S.work[area].entries()) {
      const ti = meld.findIndex((e) => e.id === id);
      if (ti >= 0) return { area, mi, meld, ti, entry: meld[ti] };
    }
  }
  const tile = ((S.view && S.view.hand) || []).find((t) => t.id === id);
  return tile ? { area: "hand", tile } : null;
}

// ---------------------------------------------------------------- the lay editor

function prune() {
  S.work.series = S.work.series.filter((m) => m.length);
  S.work.pairs = S.work.pairs.filter((m) => m.length);
  S.work.dirty = true;
  S.errMeld = null;
}

/** Move tile `id` to a target: {meld, before?} (an existing meld), {newIn: "series"|"pairs"}, or {hand: true}. */
async function place(id, target) {
  S.sel = null;
  const src = locate(id);
  if (!src || !editable()) return render();
  if (target.hand) return backToHand(id);
  if (target.before && target.before.id === id) return render();
  if (target.newIn === "series" && S.work.series.length >= MAX_SERIES && !(src.meld && src.meld.length === 1 && src.area === "series")) {
    notify(`The series area holds at most ${MAX_SERIES} melds.`);
    return render();
  }
  if (target.meld && S.work.pairs.includes(target.meld) && target.meld.length >= 2 && !target.meld.includes(src.entry)) {
    notify("A pair has exactly two tiles.");
    return render();
  }
  const entry = src.area === "hand" ? { id, tile: src.tile, fromHand: true, as: src.tile.joker ? null : undefined } : src.meld.splice(src.ti, 1)[0];
  let meld = target.meld;
  if (target.newIn) S.work[target.newIn].push((meld = []));
  const at = target.before ? meld.indexOf(target.before) : -1;
  meld.splice(at < 0 ? meld.length : at, 0, entry);
  prune();
  render();
  if (entry.tile.joker && entry.as == null) {
    const face = await askFace(null);
    if (face == null) return backToHand(id);
    entry.as = face;
    render();
  }
}

function backToHand(id) {
  const src = locate(id);
  if (src && src.entry && src.entry.fromHand) {
    src.meld.splice(src.ti, 1);
    prune();
  } else if (src && src.entry) {
    notify("Tiles on the table belong to everyone: they never go back to a hand.");
  }
  S.sel = null;
  render();
}

function shiftSelected(delta) {
  const src = locate(S.sel);
  if (!src || !src.meld) return;
  const to = src.ti + delta;
  if (to < 0 || to >= src.meld.length) return;
  [src.meld[src.ti], src.meld[to]] = [src.meld[to], src.meld[src.ti]];
  prune();
  render();
  const again = document.querySelector(`.tile[data-id="${S.sel}"]`);
  if (again) again.focus();
}

async function changeFace() {
  const src = locate(S.sel);
  if (!src || !src.entry || !src.entry.tile.joker) return;
  const face = await askFace(src.entry.as);
  if (face != null) { src.entry.as = face; prune(); render(); }
}

function clickTile(id, where) {
  if (!editable()) return;
  if (S.sel === id) { S.sel = null; return render(); }
  if (S.sel != null && where.entry) return place(S.sel, { meld: where.meld, before: where.entry });
  if (S.sel != null && where.hand) {
    const sel = locate(S.sel);
    if (sel && sel.entry && sel.entry.fromHand) return backToHand(S.sel);
  }
  S.sel = id;
  render();
}

function askFace(current) {
  const dialog = $("#face-dialog");
  const form = $("#face-form");
  const kastet = S.view.game === "kastet";
  $("#face-letter").hidden = kastet;
  $("#face-kastet").hidden = !kastet;
  if (kastet) {
    form.color.value = (current && current.color) || "red";
    form.number.value = (current && current.number) || 1;
  } else {
    form.letter.value = typeof current === "string" ? current : "A";
  }
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      if (dialog.returnValue !== "ok") return resolve(null);
      const n = Number(form.number.value);
      if (kastet && !(n >= 1 && n <= 13)) { notify("A joker's number is 1 to 13."); return resolve(null); }
      resolve(kastet ? { color: form.color.value, number: n } : form.letter.value);
    }, { once: true });
  });
}

// ---------------------------------------------------------------- moves

async function sendMove(type, extra = {}) {
  const v = S.view;
  const body = { version: v.version, moveId: newMoveId(), type, ...extra };
  try {
    const view = await api("POST", `/tables/${v.tableId}/moves`, body);
    S.work = null; // start the next arrangement from the table as it now stands
    S.sel = null;
    setView(view, true);
    clearNotice();
  } catch (e) {
    if (e.code === "stale_version" && e.view) {
      const kept = setView(e.view, true);
      const draft = kept ? " and your draft is kept" : "";
      notify(`The table moved on before your ${type} arrived; it is up to date now${draft}. Check it and try again.`, "info");
    } else if (e.code === "illegal_move") {
      S.errMeld = e.meld ?? null;
      render();
      notify(`Not a legal lay: ${describe(e)}`);
    } else throw e;
  }
}

function lay() {
  const ref = (e) => (e.tile.joker ? { id: e.id, as: e.as } : { id: e.id });
  const all = [...S.work.series.flat(), ...S.work.pairs.flat()];
  if (all.some((e) => e.tile.joker && e.as == null)) {
    const message = "Declare every joker's face first (select it, then “Joker face…”).";
    throw new ApiError(400, { error: { code: "joker_face", message } });
  }
  return sendMove("lay", { series: S.work.series.map((m) => m.map(ref)), pairs: S.work.pairs.map((m) => m.map(ref)) });
}

// ---------------------------------------------------------------- rendering

function tileLabel(t, face) {
  if (t.joker) {
    if (face == null) return "joker, face not declared";
    return `joker as ${typeof face === "string" ? face : `${face.color} ${face.number}`}`;
  }
  return t.letter != null ? `${t.letter}, ${t.value} point${t.value === 1 ? "" : "s"}` : `${t.color} ${t.number}`;
}

function tileFace(t, face) {
  if (t.joker) {
    const shown = face == null ? null : typeof face === "string"
      ? h("span", { class: "jface" }, face)
      : h("span", { class: `jface c-${face.color}` }, String(face.number));
    return [h("span", { class: "star", "aria-hidden": "true" }, "★"), shown];
  }
  if (t.letter != null) return [h("span", { class: "letter" }, t.letter), h("span", { class: "value" }, String(t.value))];
  return [h("span", { class: "num" }, String(t.number)), h("span", { class: "mark", "aria-hidden": "true" }, MARKS[t.color] || "")];
}

function tileEl(t, { face, where = null, placed = false } = {}) {
  const label = tileLabel(t, face);
  const fresh = S.fresh.has(t.id) && where && where.hand;
  const cls = ["tile", t.joker ? "joker" : `c-${t.color}`, placed && "placed", S.sel === t.id && "selected", fresh && "fresh"]
    .filter(Boolean).join(" ");
  if (!where || !editable()) return h("span", { class: cls, role: "img", "aria-label": label, title: label }, tileFace(t, face));
  const b = h("button", {
    type: "button", class: cls, "aria-label": label, title: label, "aria-pressed": String(S.sel === t.id),
    draggable: "true", dataset: { id: t.id },
    onclick: () => clickTile(t.id, where),
    ondragstart: (ev) => { S.drag = t.id; ev.dataTransfer.setData("text/plain", String(t.id)); ev.dataTransfer.effectAllowed = "move"; },
    ondragend: () => { S.drag = null; document.querySelectorAll(".over").forEach((el) => el.classList.remove("over")); },
  }, tileFace(t, face));
  if (where.entry) dropTarget(b, () => ({ meld: where.meld, before: where.entry }));
  return b;
}

function dropTarget(el, target) {
  el.addEventListener("dragover", (ev) => { if (S.drag != null) { ev.preventDefault(); ev.stopPropagation(); el.classList.add("over"); } });
  el.addEventListener("dragleave", () => el.classList.remove("over"));
  el.addEventListener("drop", (ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    el.classList.remove("over");
    const id = S.drag;
    S.drag = null;
    if (id != null) place(id, target());
  });
  return el;
}

function meldEl(area, mi, meld, canEdit) {
  const bad = area === "series" && S.errMeld === mi;
  const li = h("li", { class: `meld${bad ? " bad" : ""}`, "aria-label": `${area === "series" ? "Meld" : "Pair"} ${mi + 1}${bad ? ", rejected" : ""}` },
    h("span", { class: "idx", "aria-hidden": "true" }, String(mi + 1)),
    meld.map((e) => tileEl(e.tile, { face: e.as, placed: e.fromHand, where: canEdit ? { meld, entry: e } : null })));
  if (canEdit) {
    if (S.sel != null) li.append(h("button", {
      type: "button", class: "slot",
      "aria-label": `Put the selected tile at the end of ${area === "series" ? "meld" : "pair"} ${mi + 1}`,
      onclick: () => place(S.sel, { meld }),
    }, "+"));
    dropTarget(li, () => ({ meld }));
  }
  return li;
}

function newSlot(area, label, disabled) {
  const b = h("button", { type: "button", class: "slot new", disabled: S.sel == null || disabled, onclick: () => place(S.sel, { newIn: area }) }, label);
  const li = h("li", { class: "meld new-meld" }, b);
  if (!disabled) dropTarget(li, () => ({ newIn: area }));
  return li;
}

function seatEl(v, s, i, pos) {
  const me = mySeat();
  const started = v.handNumber > 0;
  const turn = v.turn && v.turn.seat === i && v.status === "playing";
  const isMgr = s && s.playerId && s.playerId === v.manager;
  const offline = s && !s.vacant && !s.bot && !s.connected && started;
  const cls = ["seat", `pos-${pos}`, turn && "turn", me === i && "me", offline && "offline"].filter(Boolean).join(" ");
  const button = (label, fn, cls = null) => h("button", { type: "button", class: cls, onclick: () => attempt(fn) }, label);
  const kids = [h("div", { class: "seat-no" }, `Seat ${i + 1}${v.partners ? (i % 2 ? " · team B" : " · team A") : ""}`)];
  if (!s || s.vacant) {
    kids.push(h("div", { class: "seat-name muted" }, s ? "Vacant" : "Empty"));
    if (me == null && (v.status === "waiting" || s)) kids.push(button(s ? "Sit in (substitute)" : "Sit here", () => sit(v.tableId, i)));
    if (!s && isManager() && v.status === "waiting") kids.push(button("Add computer", () => sit(v.tableId, i, true), "add-bot"));
  } else {
    kids.push(h("div", { class: "seat-name" },
      h("span", { class: "name" }, s.name || "?"),
      me === i ? h("span", { class: "badge you" }, "you") : null,
      isMgr ? h("span", { class: "badge mgr", title: "Table manager" }, "manager") : null,
      s.bot ? h("span", { class: "badge bot", title: "Computer player" }, "bot") : null));
    if (started) {
      kids.push(h("div", { class: "seat-meta" },
        h("span", {}, h("span", { class: "tiles" }, String(s.tiles ?? "–")), " tiles"),
        h("span", {}, "penalty ", h("span", { class: "penalty" }, String(s.penalty ?? 0)))));
    }
    if (!s.bot) kids.push(h("div", { class: `conn ${s.connected ? "on" : "off"}` }, s.connected ? "● connected" : "○ not connected"));
    const remove = async () => setView(await api("DELETE", `/tables/${v.tableId}/seats/${i}`));
    if (s.bot && isManager() && v.status === "waiting") kids.push(button("Remove", remove));
  }
  if (turn) kids.push(h("div", { class: "timer", dataset: { deadline: v.turn.deadline ?? "" }, "aria-label": "Time left in this turn" }));
  return h("div", { class: cls, dataset: { seat: i } }, kids);
}

const POSITIONS = { 1: ["bottom"], 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };

function statusText(v) {
  const seats = v.seats.length;
  const taken = v.seats.filter((s) => s && !s.vacant).length;
  const next = isManager() ? "Start when every seat is taken." : "The manager starts the game.";
  if (v.status === "waiting") return `Waiting for players: ${taken}/${seats} seated. ${next}`;
  if (v.status === "finished") return "The game is over.";
  const hand = `Hand ${v.handNumber} of ${v.hands} · ${v.pile} tiles in the pile`;
  if (v.status === "paused") return `${hand} · Paused: a seat is vacant. A substitute may sit; then the manager presses Continue.`;
  const who = v.turn ? v.seats[v.turn.seat] : null;
  if (myTurn()) return `${hand} · Your turn: ${v.turn.laid ? "lay more, or pass" : "draw, or lay and then pass"}.`;
  return `${hand} · ${who ? `${who.name || "Seat " + (v.turn.seat + 1)} is playing` : ""}`;
}

function render() {
  renderMe();
  const v = S.view;
  if (!v || $("#table").hidden) return;
  $("#table-h").textContent = `${v.game === "kastet" ? "Kastet" : "Harftet"} table`;
  $("#table-status").textContent = statusText(v);
  $("#btn-start").hidden = !(isManager() && v.status === "waiting");
  $("#btn-start").disabled = v.seats.some((s) => !s);
  $("#btn-continue").hidden = !(isManager() && v.status === "paused");
  $("#btn-leave").textContent = mySeat() == null || v.status === "finished" ? "Back to lobby" : "Leave";

  const me = mySeat() ?? 0;
  const n = v.seats.length;
  const pos = POSITIONS[n] || POSITIONS[4];
  $("#seats").replaceChildren(...v.seats.map((s, i) => seatEl(v, s, i, pos[(i - me + n) % n] || "top")));

  const started = v.handNumber > 0;
  const canEdit = editable();
  $("#felt").classList.toggle("waiting", !started);
  $("#felt").classList.toggle("no-sides", n <= 2);
  const series = S.work.series;
  const seriesList = series.map((m, i) => meldEl("series", i, m, canEdit));
  if (canEdit) seriesList.push(newSlot("series", "+ New meld", series.length >= MAX_SERIES));
  $("#series").replaceChildren(...seriesList);
  const empty = started ? "No melds on the table yet." : "The table is empty until the game starts.";
  if (!seriesList.length) $("#series").append(h("li", { class: "hint" }, empty));
  $("#series-count").textContent = `${series.length}/${MAX_SERIES}`;
  $("#draft-flag").hidden = !S.work.dirty;
  $("#series").classList.toggle("draft", S.work.dirty);
  $("#editor-hint").textContent = canEdit
    ? "Select a tile, then click a tile to put it before, + to add at the end, or New meld. Drag and drop works too."
    : "";

  const pairsOpen = series.length >= MAX_SERIES;
  const frozen = v.pairs.map((m, i) => h("li", { class: "meld frozen", "aria-label": `Pair ${i + 1}` },
    h("span", { class: "idx", "aria-hidden": "true" }, String(i + 1)), m.map((t) => tileEl(t, { face: t.as }))));
  const newPairs = S.work.pairs.map((m, i) => meldEl("pairs", v.pairs.length + i, m, canEdit));
  if (canEdit && pairsOpen) newPairs.push(newSlot("pairs", "+ New pair", false));
  $("#pairs").replaceChildren(...frozen, ...newPairs);
  $("#pairs-section").hidden = !frozen.length && !newPairs.length && !pairsOpen;
  $("#pairs-count").textContent = pairsOpen ? "(open: 26 series melds stand)" : "";

  const seated = mySeat() != null && started;
  $("#mine").hidden = !seated;
  if (seated) {
    const left = handLeft();
    const hand = $("#hand");
    hand.replaceChildren(...left.map((t) => tileEl(t, { where: { hand: true } })));
    if (!left.length) hand.append(h("span", { class: "hint" }, (v.hand || []).length ? "All your tiles are in the editor." : "No tiles in hand."));
    $("#hand-count").textContent = `${left.length}${left.length !== (v.hand || []).length ? ` of ${v.hand.length}` : ""} tiles`;
  }
  $("#actions").hidden = v.status !== "playing";
  renderSelectionTools();
  renderActions();
  renderResults(v);
  tick();
}

function renderSelectionTools() {
  const src = S.sel != null ? locate(S.sel) : null;
  $("#selection-tools").hidden = !src;
  if (!src) return;
  const inMeld = !!src.meld;
  $("#sel-left").disabled = !inMeld || src.ti === 0;
  $("#sel-right").disabled = !inMeld || src.ti === src.meld.length - 1;
  const tableTile = inMeld && !src.entry.fromHand;
  $("#sel-hand").disabled = !inMeld || tableTile;
  $("#sel-hand").title = tableTile ? "Tiles on the table never return to a hand" : "";
  $("#sel-face").hidden = !(inMeld && src.entry.tile.joker);
}

function renderActions() {
  const v = S.view;
  if (!v || !S.work) return;
  const turn = myTurn();
  const handSize = (v.hand || []).length;
  $("#btn-draw").disabled = S.busy || !turn || v.turn.laid || handSize >= HAND_LIMIT || v.pile === 0;
  $("#btn-pass").disabled = S.busy || !turn || !(v.turn.laid || handSize >= HAND_LIMIT || v.pile === 0);
  $("#btn-lay").disabled = S.busy || !turn || !addsFromHand();
  $("#btn-reset").disabled = S.busy || !S.work.dirty;
}

function renderResults(v) {
  const rows = v.handResults || [];
  $("#results").hidden = !rows.length && !v.result;
  if ($("#results").hidden) return;
  const names = v.seats.map((s, i) => (s && s.name) || `Seat ${i + 1}`);
  const head = h("tr", {}, h("th", { scope: "col" }, "Hand"), names.map((n) => h("th", { scope: "col" }, n)));
  const body = rows.map((r) => h("tr", {}, h("th", { scope: "row" }, String(r.hand)),
    r.penalties.map((p, i) => h("td", { class: r.finisher === i ? "finisher" : "" }, String(p), r.finisher === i ? " ✓" : ""))));
  const res = v.result;
  if (res && res.penalties) body.push(h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"), res.penalties.map((p) => h("td", {}, String(p)))));
  const signed = (p) => (p > 0 ? `+${p}` : String(p));
  if (res && res.points) body.push(h("tr", { class: "total" }, h("th", { scope: "row" }, "Points"), res.points.map((p) => h("td", {}, signed(p)))));
  const mine = res && res.ratings && res.ratings[S.playerId];
  $("#results-body").replaceChildren(
    h("table", {}, h("thead", {}, head), h("tbody", {}, body)),
    mine != null ? h("p", {}, `Your rating changes by ${mine > 0 ? "+" : ""}${mine}.`) : "");
}

function tick() {
  for (const el of document.querySelectorAll(".timer")) {
    const deadline = Number(el.dataset.deadline);
    if (!deadline) { el.textContent = "⏸"; continue; }
    const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
    el.textContent = `${left} s left`;
    el.classList.toggle("low", left <= 10);
  }
}

// ---------------------------------------------------------------- wiring

function wire() {
  $("#notice-close").onclick = clearNotice;
  $("#logout").onclick = () => signOut();
  $("#login-form").onsubmit = (ev) => {
    ev.preventDefault();
    const name = $("#login-name").value.trim();
    if (name) attempt(() => signIn(name));
  };
  $("#lobby-refresh").onclick = () => loadLobby();
  $("#create-form").onsubmit = (ev) => { ev.preventDefault(); attempt(() => createTable(ev.target)); };
  $("#btn-start").onclick = () => attempt(async () => setView(await api("POST", `/tables/${S.tableId}/start`)));
  $("#btn-continue").onclick = () => attempt(async () => setView(await api("POST", `/tables/${S.tableId}/continue`)));
  $("#btn-leave").onclick = () => attempt(async () => {
    const v = S.view;
    const seat = mySeat();
    if (seat != null && v.status !== "finished") {
      if ((v.status === "playing" || v.status === "paused")
        && !confirm(`Leaving a running game costs you ${2 * v.hands} points and counts as abandoned. Leave?`)) return;
      await api("DELETE", `/tables/${v.tableId}/seats/${seat}`);
    }
    await openLobby();
  });
  $("#btn-draw").onclick = () => guarded(() => sendMove("draw"));
  $("#btn-pass").onclick = () => guarded(() => sendMove("pass"));
  $("#btn-lay").onclick = () => guarded(lay);
  $("#btn-reset").onclick = () => { S.work = freshWork(S.view); S.sel = null; S.errMeld = null; render(); };
  $("#sel-left").onclick = () => shiftSelected(-1);
  $("#sel-right").onclick = () => shiftSelected(1);
  $("#sel-hand").onclick = () => backToHand(S.sel);
  $("#sel-face").onclick = () => changeFace();
  const hand = $("#hand");
  hand.addEventListener("click", (ev) => { if (ev.target === hand && S.sel != null) backToHand(S.sel); });
  dropTarget(hand, () => ({ hand: true }));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && S.sel != null && !$("#face-dialog").open) { S.sel = null; render(); }
  });
  const letters = $("#face-form").letter;
  letters.replaceChildren(...[...TR_ALPHABET].map((c) => h("option", { value: c }, c)));
  setInterval(tick, 250);
  document.addEventListener("visibilitychange", () => { if (!document.hidden && S.tableId && !S.ws) connectWs(); });
}

async function boot() {
  wire();
  loadSession();
  renderMe();
  if (!S.token) return show("login");
  refreshMe();
  if (S.tableId) await openTable(S.tableId); else await openLobby();
}

boot();
