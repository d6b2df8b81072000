// Tournaments (API.md v4, RULES §8): the list a page at a time, a tournament's page (read again on
// the `tournament` push and every POLL_MS while it shows and is not over), registering and
// withdrawing, the call to the table a round seats me at (the push: on the tournament's page
// the table opens at once, elsewhere a notice offers it) and the deal check of every finished
// table (deal.js, as the replay screen runs it). tournaments.js and tournament.js draw.
import { forgetTable, seenProofs } from "./session.js";

export const PAGE = 10;
export const POLL_MS = 5000;
const id = encodeURIComponent;

/** The tournament a page's address names ("#tn=<id>": a reload comes back to its page). */
export const tournamentFromHash = (hash) => (/(?:^#|&)tn=([\w-]+)/.exec(hash || "") || [])[1] || null;

/** Whether `me` is entered: the page's own flag where the server gives one, else the standings. */
export function entered(doc, me) {
  if (!doc || !me) return false;
  if (doc.me && typeof doc.me.registered === "boolean") return doc.me.registered; // the caller's part
  for (const k of ["registered", "entered"]) if (typeof doc[k] === "boolean") return doc[k];
  return (doc.standings || []).some((x) => x.playerId === me);
}

/** The table of the tournament's current round I sit at, from what the page says of it (null: none known). */
export function myTableOf(doc, me) {
  if (!doc || doc.status !== "running") return null;
  const own = doc.myTable || (doc.me && doc.me.tableId ? doc.me : null);
  if (own && own.tableId) return { round: own.round ?? doc.round, tableId: own.tableId };
  const seated = (doc.tables || []).find((x) => x.round === doc.round && (x.players || x.playerIds || []).some((p) => p === me || (p && p.playerId === me)));
  return seated ? { round: seated.round, tableId: seated.tableId } : null;
}

// A tournament table's id names its tournament (the backend's tournaments/ids.py: "<cell>.tn<id>r<round>t<index>").
const TABLE = /(?:^|\.)tn([0-9a-f]{12})r[1-9]t\d{1,4}$/;

/** The tournament a table belongs to (its page lists it, a call named it, or its id says it); null: none. */
export function tournamentOf(s, tableId) {
  const x = s.tournament;
  if (x && x.doc && (x.doc.tables || []).some((y) => y.tableId === tableId)) return x.id;
  if (s.call && s.call.tableId === tableId) return s.call.tournamentId;
  const m = TABLE.exec(tableId || "");
  return m ? m[1] : null;
}

/** `openTable(id)`, `openReplay(id)`: the app's screens; `leave()` closes a table's connection;
 * `listen()` opens the player's own (pushes); `refusal(e)`: a refusal's sentence. */
export function createTourneys({ store, api, storage, openTable, openReplay, leave = () => {}, listen = () => {}, refusal = (e) => e.code, hidden = () => false }) {
  const dispatch = (m) => store.dispatch(m);
  const me = () => store.get().me && store.get().me.playerId;
  let timer = 0;

  store.subscribe((s) => { // the page is read again while it shows and the tournament is not over
    const want = s.screen === "tournament" && !!s.tournament && !(s.tournament.doc && s.tournament.doc.status === "finished");
    if (want === !!timer) return;
    clearInterval(timer);
    timer = want ? setInterval(() => !hidden() && load(store.get().tournament.id), POLL_MS) : 0;
  });

  /** Away from any table: its connection closed, no seat to come back to on a reload. */
  function away(hash) {
    leave();
    forgetTable(storage);
    history.replaceState(null, "", hash ? `#${hash}` : location.pathname);
    listen();
  }

  async function openList(status = store.get().tournaments.status) {
    away(null);
    dispatch({ type: "tournamentsTab", status });
    await loadList(0);
  }

  /** The list's current tab: `step` 0 reloads this page, 1 the next, -1 the previous. */
  async function loadList(step = 0) {
    const { status, at: now, cursors, next } = store.get().tournaments;
    const at = Math.max(0, now + step);
    const cursor = step > 0 ? next : cursors[at] ?? null;
    let data;
    try {
      data = await api.request("GET", `/tournaments?status=${status}${cursor ? `&cursor=${id(cursor)}` : ""}`);
    } catch {
      return dispatch({ type: "tournamentsPage", status, page: {}, failed: true });
    }
    const pages = cursors.slice(0, at);
    pages[at] = cursor;
    const list = ((data && data.tournaments) || []).slice(0, PAGE);
    dispatch({ type: "tournamentsPage", status, page: { list, at, cursors: pages, next: (data && data.cursor) || null } });
  }

  async function open(tournamentId) {
    away(`tn=${id(tournamentId)}`);
    dispatch({ type: "tournamentOpened", id: tournamentId });
    await load(tournamentId);
  }

  async function load(tournamentId) {
    let doc;
    try { doc = await api.request("GET", `/tournaments/${id(tournamentId)}`); } catch {
      return dispatch({ type: "tournamentFailed", id: tournamentId });
    }
    let myTable = myTableOf(doc, me());
    if (!myTable && doc.status === "running" && !doc.me && entered(doc, me())) myTable = await fromInbox(doc); // a server that does not say
    dispatch({ type: "tournamentLoaded", id: tournamentId, doc, myTable });
  }

  /** My table of the round from my own tables (read-your-writes, API.md v4), when the page does not say it. */
  async function fromInbox(doc) {
    const now = new Set((doc.tables || []).filter((x) => x.round === doc.round && x.status !== "finished").map((x) => x.tableId));
    if (!now.size) return null;
    let mine;
    try { mine = await api.request("GET", "/players/me/tables"); } catch { return null; }
    const hit = ((mine && mine.tables) || []).find((x) => now.has(x.tableId));
    return hit ? { round: doc.round, tableId: hit.tableId } : null;
  }

  /** A call that says on the page how it went: `ok` (a key) or the refusal's sentence. */
  async function said(call, ok, own) {
    const t = store.get().tournament;
    if (!t) return;
    try {
      await call(t.id);
      dispatch({ type: "tournamentSaid", id: t.id, said: { key: ok, kind: "info" } });
    } catch (e) {
      const key = own[e.code];
      dispatch({ type: "tournamentSaid", id: t.id, said: key ? { key, kind: "error" } : { text: refusal(e), kind: "error" } });
    }
    await load(t.id);
  }

  const register = () => said((tid) => api.request("POST", `/tournaments/${id(tid)}/entries`), "tournaments.registered",
    { tournament_full: "tournaments.full", registration_closed: "tournaments.closed", conflict: "tournaments.already" });
  const withdraw = () => said((tid) => api.request("DELETE", `/tournaments/${id(tid)}/entries/me`), "tournaments.withdrawn",
    { registration_closed: "tournaments.started", wrong_status: "tournaments.started", not_found: "tournaments.notEntered" });

  /** The push: a round seated me. On that tournament's page, or at my finished table of it, the
   * table opens; elsewhere a notice offers it. */
  function pushed(msg) {
    if (!msg || !msg.tableId) return;
    dispatch({ type: "tournamentCalled", call: msg });
    const s = store.get();
    if (s.screen === "tournament" && s.tournament && s.tournament.id === msg.tournamentId) return go();
    const v = s.screen === "table" && s.table && s.table.view;
    if (v && v.status === "finished" && tournamentOf(s, v.tableId) === msg.tournamentId) return go();
    if (s.screen === "tournament" && s.tournament) load(s.tournament.id);
  }

  /** To the table I was called to (the notice's button). */
  function go() {
    const call = store.get().call;
    if (!call) return undefined;
    dispatch({ type: "callDone" });
    return openTable(call.tableId);
  }

  /** Every finished table's deals recomputed from its seed and compared with its proofs, the
   * first deal's also with the commitment the tournament's page listed for that table. */
  async function checkProofs() {
    const t = store.get().tournament;
    const done = ((t && t.doc && t.doc.tables) || []).filter((x) => x.status === "finished");
    dispatch({ type: "tournamentProofs", id: t.id, proofs: Object.fromEntries(done.map((x) => [x.tableId, { state: "wait" }])) });
    const { verifyReplay } = await import("./deal.js"); // only when asked: not part of the boot
    for (const x of done) {
      let proof;
      try {
        const replay = await api.request("GET", `/tables/${id(x.tableId)}/replay`);
        const result = await verifyReplay(replay, seenProofs(storage, x.tableId));
        const first = (replay.hands || [])[0];
        const listed = !x.dealProof || (!!first && first.dealProof === x.dealProof);
        proof = { state: result.ok && listed ? "ok" : "bad", hands: (replay.hands || []).map((hd) => ({ hand: hd.hand, proof: hd.dealProof })) };
      } catch {
        proof = { state: "failed" };
      }
      dispatch({ type: "tournamentProofs", id: t.id, proofs: { [x.tableId]: proof } });
    }
  }

  return {
    openList, loadList, open, load, register, withdraw, pushed, go, checkProofs,
    tab: (status) => openList(status),
    dismiss: () => dispatch({ type: "callDone" }),
    table: (tableId) => openTable(tableId),
    replay: (tableId) => openReplay(tableId),
  };
}
