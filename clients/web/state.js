// The client's state, changed only by `update(state, message)`: a pure function that returns the
// next state. What a change asks of the world (a sound, a dry run, loading the log…) it lists in
// `state.effects` as data, e.g. {fx: "cue", name: "draw"}; the store hands them to the effects
// (app.js wires them) after the screens have rendered. `createStore` is the tiny store.
import * as D from "./draft.js";
import { limits, mySeat, rackMode, seatPosition } from "./game.js";

const LOG_KEPT = 200; // log events kept per table

export function initialState({ settings = {}, lang = "tr", me = null } = {}) {
  return {
    ready: false, // the catalogue is there: the screens may show
    texts: 0, // bumped whenever the catalogue changes (a language switch, a new version)
    lang, me, screen: null,
    offline: false, busy: false, attention: false,
    notice: null, noticeSeq: 0,
    ws: "offline", settings, settingsOpen: false,
    caps: { log: true, dryRun: true }, // what the server turned out to offer
    lobby: { tab: "waiting", tables: null, at: 0, cursors: [null], next: null },
    search: null, // looking for opponents (search.js): {ticketId, game, since}
    inbox: { tables: [], cursor: null, push: null },
    friends: { data: null, names: {}, invitations: [], invited: [], said: "" },
    account: { open: false, passkeys: null, code: null },
    table: null,
    replay: null, // the replay screen's game: {tableId, doc, hand, step, check, failed}
    tournaments: { status: "registering", list: null, at: 0, cursors: [null], next: null, failed: false }, // the list
    tournament: null, // the tournament page: {id, doc, failed, said, myTable, proofs}
    call: null, // a round seated me (the push): {tournamentId, round, tableId}
    effects: [],
  };
}

/** A fresh table state for the table of `view` (its view arrives with a "view" message). */
export function newTable(view) {
  return {
    id: view.tableId, view: null, draft: null, sel: null, rack: [], fresh: [], validity: {}, errMeld: null,
    hints: view.hints !== false, hinted: null, log: [], logSeq: null, shownHands: null, end: null,
    othersLaid: [], motion: null, dryPausedUntil: 0,
  };
}

const ask = (s, ...effects) => ({ ...s, effects: [...s.effects, ...effects.filter(Boolean)] });
const withTable = (s, patch) => (s.table ? { ...s, table: { ...s.table, ...patch } } : s);
const notice = (s, n) => {
  const seq = s.noticeSeq + 1;
  const kind = n.kind || "error";
  const next = { ...s, noticeSeq: seq, notice: { text: n.text, key: n.key, params: n.params, kind, seq } };
  return kind === "error" ? next : ask(next, { fx: "noticeTimer", seq });
};
const clearError = (s) => (s.notice && s.notice.kind === "error" ? { ...s, notice: null } : s);

const HANDLERS = {
  catalogue: (s, m) => ({ ...s, ready: true, lang: m.lang, texts: s.texts + 1 }),
  signedIn: (s, m) => ({ ...clearError(s), me: { token: m.player.token, playerId: m.player.playerId, name: m.player.name, rating: m.player.rating } }),
  refreshed: (s, m) => (s.me ? { ...s, me: { ...s.me, token: m.token } } : s),
  me: (s, m) => (s.me ? { ...s, me: { ...s.me, name: m.name ?? s.me.name, rating: m.rating ?? s.me.rating } } : s),
  signedOut: (s) => {
    const fresh = initialState({ settings: s.settings, lang: s.lang });
    return { ...fresh, ready: s.ready, texts: s.texts, caps: s.caps, offline: s.offline, screen: "login", notice: s.notice, noticeSeq: s.noticeSeq };
  },
  screen: (s, m) => ({ ...s, screen: m.screen }),
  offline: (s, m) => ({ ...s, offline: !!m.on }),
  busy: (s, m) => ({ ...s, busy: !!m.on }),
  notice,
  noticeCleared: (s, m) => (m.seq == null || (s.notice && s.notice.seq === m.seq) ? { ...s, notice: null } : s),
  ws: (s, m) => ({ ...s, ws: m.state }),
  settings: (s, m) => ({ ...s, settings: m.settings }),
  settingsOpen: (s, m) => ({ ...s, settingsOpen: !!m.open }),
  attention: (s, m) => ({ ...s, attention: !!m.on }),
  caps: (s, m) => ({ ...s, caps: { ...s.caps, ...m.caps } }),

  searching: (s, m) => ({ ...s, search: m.search }),
  lobbyTab: (s, m) => ({ ...s, lobby: { tab: m.tab, tables: null, at: 0, cursors: [null], next: null } }),
  lobbyPage: (s, m) => (m.tab === s.lobby.tab ? { ...s, lobby: { tab: m.tab, tables: m.tables, at: m.at, cursors: m.cursors, next: m.next } } : s),
  inbox: (s, m) => ({ ...s, inbox: { ...s.inbox, tables: m.append ? [...s.inbox.tables, ...m.tables] : m.tables, cursor: m.cursor } }),
  push: (s, m) => ({ ...s, inbox: { ...s.inbox, push: m.state } }),
  friends: (s, m) => {
    const names = { ...s.friends.names };
    for (const k of ["friends", "incoming", "outgoing", "blocked"]) for (const f of m.data[k] || []) names[f.playerId] = f.name;
    return { ...s, friends: { ...s.friends, data: m.data, names, said: "" } };
  },
  friendsSaid: (s, m) => ({ ...s, friends: { ...s.friends, said: m.key } }),
  invitation: (s, m) => ({ ...s, friends: { ...s.friends, invitations: [...s.friends.invitations, m.invitation] } }),
  invitationDone: (s, m) => ({ ...s, friends: { ...s.friends, invitations: s.friends.invitations.filter((x) => x !== m.invitation) } }),
  invited: (s, m) => ({ ...s, friends: { ...s.friends, invited: [...s.friends.invited, m.playerId] } }),
  presence: (s, m) => {
    const data = s.friends.data;
    if (!data) return s;
    const presence = m.game ? { status: m.status, game: m.game } : { status: m.status };
    const friends = data.friends.map((f) => (f.playerId === m.playerId ? { ...f, presence } : f));
    return { ...s, friends: { ...s.friends, data: { ...data, friends } } };
  },
  account: (s, m) => ({ ...s, account: { ...s.account, ...m.patch } }),

  tableOpened: (s, m) => receiveView({ ...s, table: newTable(m.view), screen: "table" }, m.view, true),
  tableLeft: (s) => ({ ...s, table: null }),
  view: (s, m) => receiveView(s, m.view, !!m.force),
  select: (s, m) => withTable(s, { sel: m.id }),
  draft: (s, m) => {
    const next = clearError(withTable(s, { draft: m.draft, errMeld: null, ...("sel" in m ? { sel: m.sel } : {}) }));
    return m.quiet ? next : ask(next, { fx: "cue", name: "place" }, { fx: "dryRun" });
  },
  hinted: (s, m) => (s.table
    ? ask(withTable(s, { draft: m.draft, hinted: m.draft, sel: null, hintSeq: (s.table.hintSeq || 0) + 1 }), { fx: "dryRun" })
    : s),
  draftReset: (s) => (s.table && s.table.view
    ? ask({ ...withTable(s, { draft: D.fromView(s.table.view), sel: null, errMeld: null, validity: {} }), notice: null }, { fx: "cancelDryRun" })
    : s),
  // A move's answer: a newer view starts the next arrangement from the table as it now stands;
  // an older one (a push already brought it) still used the draft up.
  moveAnswered: (s, m) => {
    if (!s.table || !s.table.view) return s;
    const next = withTable(s, { sel: null, draft: null });
    return m.view.version > s.table.view.version ? receiveView(next, m.view, true) : HANDLERS.draftReset(next);
  },
  rack: (s, m) => withTable(s, { rack: m.rack }),
  rackSorted: (s) => (s.table && s.table.view
    ? withTable(s, { rack: D.sortRack(s.table.view.hand || [], rackMode(s.settings, s.table.view.game), limits(s.table.view)) })
    : s),
  validity: (s, m) => withTable(s, { validity: m.validity }),
  verdicts: (s, m) => (s.table ? withTable(s, { validity: { ...s.table.validity, ...Object.fromEntries(m.learned) } }) : s),
  refused: (s, m) => (s.table
    ? withTable(s, { errMeld: m.meld, validity: m.meld == null ? s.table.validity : { ...s.table.validity, [`series:${m.meld}`]: "invalid" } })
    : s),
  hintsOff: (s) => withTable(s, { hints: false }),
  dryRunPaused: (s, m) => withTable(s, { dryPausedUntil: m.until }),
  log: (s, m) => (s.table ? { ...s, table: addLog(s.table, m.events) } : s),
  endClosed: (s) => withTable(s, { end: null }),

  // the replay screen (replay.js): a finished game, a hand and a move at a time
  replayOpened: (s, m) => ({ ...s, screen: "replay", replay: { tableId: m.tableId, doc: null, hand: 0, step: 0, check: null, failed: null, from: m.from || null } }),
  replayLoaded: (s, m) => (s.replay && s.replay.tableId === m.tableId ? { ...s, replay: { ...s.replay, doc: m.doc } } : s),
  replayFailed: (s, m) => (s.replay && s.replay.tableId === m.tableId ? { ...s, replay: { ...s.replay, failed: m.text } } : s),
  replayChecked: (s, m) => (s.replay && s.replay.tableId === m.tableId ? { ...s, replay: { ...s.replay, check: !!m.ok } } : s),
  // the tournaments (tournaments.js, tournament.js; tourneys.js loads): the list, a page, the call to a table
  tournamentsTab: (s, m) => ({ ...s, screen: "tournaments", tournaments: { status: m.status, list: null, at: 0, cursors: [null], next: null, failed: false } }),
  tournamentsPage: (s, m) => (m.status === s.tournaments.status ? { ...s, tournaments: { ...s.tournaments, ...m.page, failed: !!m.failed } } : s),
  tournamentOpened: (s, m) => ({ ...s, screen: "tournament", tournament: { id: m.id, doc: null, failed: false, said: null, myTable: myCall(s.call, m.id), proofs: null } }),
  tournamentLoaded: (s, m) => onTournament(s, m.id, (x) => {
    const myTable = m.myTable || (m.doc.status === "running" && x.myTable && x.myTable.round >= m.doc.round ? x.myTable : null);
    const same = JSON.stringify([x.doc, x.myTable, x.failed]) === JSON.stringify([m.doc, myTable, false]); // a poll that brought nothing new redraws nothing
    return same ? x : { ...x, doc: m.doc, failed: false, myTable };
  }),
  tournamentFailed: (s, m) => onTournament(s, m.id, (x) => ({ ...x, failed: true })),
  tournamentSaid: (s, m) => onTournament(s, m.id, (x) => ({ ...x, said: m.said })),
  tournamentProofs: (s, m) => onTournament(s, m.id, (x) => ({ ...x, proofs: { ...(x.proofs || {}), ...m.proofs } })),
  tournamentCalled: (s, m) => {
    const call = { tournamentId: m.call.tournamentId, round: m.call.round, tableId: m.call.tableId };
    return onTournament({ ...s, call }, call.tournamentId, (x) => ({ ...x, myTable: { round: call.round, tableId: call.tableId } }));
  },
  callDone: (s) => ({ ...s, call: null }),
  replayStep: (s, m) => (s.replay && s.replay.doc ? { ...s, replay: { ...s.replay, hand: m.hand, step: m.step } } : s),
};

const onTournament = (s, id, fn) => (s.tournament && s.tournament.id === id ? { ...s, tournament: fn(s.tournament) } : s);
const myCall = (call, id) => (call && call.tournamentId === id ? { round: call.round, tableId: call.tableId } : null);

/** The next state after `message` ({type, ...}); unknown messages change nothing. */
export function update(state, message) {
  const handler = HANDLERS[message.type];
  return handler ? handler(state, message) : state;
}

/** Log events added (by their seq, once each, oldest first, the last LOG_KEPT kept). */
export function addLog(table, events) {
  const seen = new Set(table.log.map((x) => x.seq));
  const added = (events || []).filter((ev) => ev != null && ev.seq != null && !seen.has(ev.seq) && seen.add(ev.seq));
  if (!added.length) return table;
  const log = [...table.log, ...added].sort((a, b) => a.seq - b.seq).slice(-LOG_KEPT);
  return { ...table, log, logSeq: log[log.length - 1].seq };
}

const mine = (x) => !!(x && x.status === "playing" && x.turn && x.seat != null && x.turn.seat === x.seat);

/**
 * A table view arrived (a push, a REST answer): older versions are ignored unless `force`. The
 * draft is kept while it still fits the table, else rebased onto it (the melds built from the
 * hand survive) or started again; the rack keeps the player's order; a drawn tile flies in,
 * another seat's lay slides in and stays marked until the caller's turn ends; the end of a
 * hand or of the game opens its dialog.
 */
export function receiveView(s, v, force = false) {
  const tb = s.table;
  if (!tb || v.tableId !== tb.id) return s;
  const old = tb.view;
  if (!force && old && v.version <= old.version) return s;
  const fx = [{ fx: "adopt", view: v }];
  const sameHand = !!old && old.handNumber === v.handNumber;
  const oldHand = new Set(((sameHand && old.hand) || []).map((x) => x.id));
  const hand = v.hand || [];
  let { fresh, othersLaid, rack, draft, validity, errMeld, sel, hints, attention } = { ...tb, attention: s.attention };
  const motion = { seq: ((tb.motion && tb.motion.seq) || 0) + 1, flyIn: [], settle: [], slide: [], from: null };
  if (hand.length !== oldHand.size || hand.some((x) => !oldHand.has(x.id))) {
    fresh = oldHand.size ? hand.filter((x) => !oldHand.has(x.id)).map((x) => x.id) : [];
    if (fresh.length) {
      motion.flyIn = fresh; // drawn: it comes from the pile
      fx.push({ fx: "cue", name: "draw" });
    }
  }
  const last = v.last;
  if (old && last && last.type === "lay" && v.version > old.version && old.handNumber === v.handNumber) {
    const ids = last.tiles || [];
    if (last.seat === v.seat) motion.settle = ids;
    else {
      othersLaid = [...new Set([...othersLaid, ...ids])];
      motion.slide = ids;
      motion.from = seatPosition(v, last.seat);
    }
    fx.push({ fx: "cue", name: "place" });
  }
  if (!sameHand) rack = D.sortRack(hand, rackMode(s.settings, v.game), limits(v));
  rack = D.syncRack(rack, hand);
  let next = s;
  const kept = !!(draft && draft.dirty && D.fits(draft, v));
  if (!kept) {
    const moved = draft && draft.dirty && v.status === "playing" && sameHand ? D.rebase(draft, v) : null;
    if (moved && moved.lost && !s.busy) next = notice(next, { key: moved.draft.dirty ? "notice.draftPart" : "notice.draftReset", kind: "info" });
    draft = moved ? moved.draft : D.fromView(v);
    validity = {};
    errMeld = null;
    if (sel != null && !D.locate(draft, sel) && !hand.some((x) => x.id === sel)) sel = null;
    if (moved && moved.draft.dirty) fx.push({ fx: "dryRun" });
  }
  if (v.hints === false) hints = false;
  if (old && old.status !== "finished" && v.status === "finished") fx.push({ fx: "refreshMe" });
  let table = { ...tb, view: v, fresh, othersLaid, rack, draft, validity, errMeld, sel, hints, motion };
  if (last && s.caps.log && tb.logSeq != null && last.seq > tb.logSeq + 1) fx.push({ fx: "loadLog" }); // fill the gap
  else if (last) table = addLog(table, [last]);
  else if (old && v.version > old.version + 1) fx.push({ fx: "loadLog" });
  fx.push({ fx: "proof", view: v });
  if (mine(v) && !mine(old) && old) {
    fx.push({ fx: "cue", name: "turn" }, { fx: "turnCame" });
    if (draft && draft.dirty) fx.push({ fx: "dryRun" }); // a draft built meanwhile: ask now
  }
  if (!mine(v)) attention = false;
  if (mine(old) && !mine(v)) table.othersLaid = []; // the caller had their turn to look at them
  table = endOf(table, old, v, fx);
  return ask({ ...next, attention, table }, ...fx);
}

/** The end of a hand or of the game: its dialog opens (once), a hand's with a sound. */
function endOf(table, old, v, fx) {
  const n = (v.handResults || []).length;
  let { shownHands, end } = table;
  if (shownHands == null) {
    shownHands = n;
    if (v.status !== "finished") return { ...table, shownHands };
  }
  if (v.status === "finished" && (!old || old.status !== "finished" || shownHands < n) && !end) {
    return { ...table, shownHands: n, end: { kind: "game", result: null } };
  }
  if (n > shownHands) {
    shownHands = n;
    const result = v.handResults[n - 1];
    if (mySeat(v) != null) fx.push({ fx: "cue", name: result.finisher === v.seat ? "won" : "lost" });
    end = { kind: "hand", result };
  }
  if (end && endKind(end, v) === "hand" && !v.break && v.status === "playing") end = null; // the break is over
  return { ...table, shownHands, end };
}

/** "game" once the game is over (whatever opened the dialog), else the dialog's own kind. */
export function endKind(end, v) {
  return end.kind === "game" || v.status === "finished" ? "game" : "hand";
}

/** The store: `get()`, `dispatch(message)` (screens render, then the effects asked for run) and
 * `subscribe(fn)` (fn(state, message) after every message). `run(effect)` performs an effect. */
export function createStore(state, run = () => {}) {
  const subscribers = new Set();
  return {
    get: () => state,
    dispatch(message) {
      const before = state;
      const next = update(state, message);
      const effects = next.effects;
      state = effects.length ? { ...next, effects: [] } : next;
      if (state !== before) for (const fn of [...subscribers]) fn(state, message);
      for (const effect of effects) run(effect, state);
      return state;
    },
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
  };
}
