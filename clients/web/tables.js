// Finding a table: the lobby's lists a page at a time (refreshed while it shows), quick play, a
// new table from the form, a seat taken, computer players seated at a level, a rematch.
import { forgetTable } from "./session.js";
import { getBounds } from "./texts.js";

export const LOBBY_PAGE = 10; // a phone shows quick play and a short page, never a list of 40 tables
const LOBBY_REFRESH_MS = 8000;

/** The POST /tables body of the new-table form's fields (FormData as an object; an unchecked
 * box is absent). A partner game with other than 4 seats is refused before it is sent. */
export function createBody(fields) {
  const body = {
    game: fields.game, seats: Number(fields.seats), hands: Number(fields.hands),
    partners: fields.partners === "on", turnSeconds: Number(fields.turnSeconds),
  };
  if (fields.pace === "correspondence") Object.assign(body, { pace: "correspondence", turnSeconds: Number(fields.corrTurn) }); // days, not seconds
  if (fields.private === "on") body.private = true;
  if (fields.botSeconds != null) body.botSeconds = Number(fields.botSeconds); // the computers' pace
  if (body.partners && body.seats !== 4) throw Object.assign(new Error(), { code: "bad_request", params: { field: "partners" } });
  return body;
}

/** `play`: play.js; `contacts`: the friends (contacts.js); `inbox`: {load}; `identity`: identity.js;
 * `hidden()`: whether the tab is in the background (the list is not refreshed then). */
export function createTables({
  store, api, live, storage, play, contacts, inbox, identity, tries, hidden = () => false,
}) {
  const dispatch = (m) => store.dispatch(m);
  const defaultLevel = () => getBounds().defaultLevel || "medium";
  let noLevels = false; // a server that seats plain computer players only
  let timer = 0;

  store.subscribe((s) => { // the lobby's list stays fresh while it shows
    if ((s.screen === "lobby") === !!timer) return;
    clearInterval(timer);
    timer = s.screen === "lobby" ? setInterval(() => !hidden() && loadLobby(), LOBBY_REFRESH_MS) : 0;
  });

  async function openLobby() {
    live.close();
    dispatch({ type: "tableLeft" });
    forgetTable(storage);
    history.replaceState(null, "", location.pathname);
    dispatch({ type: "screen", screen: "lobby" });
    contacts.load();
    contacts.listen();
    identity.refresh();
    inbox.load(); // the player's tables first, "Sıra sende" on top
    await loadLobby();
  }

  /** The lobby's current tab, a page at a time: `step` 0 reloads this page, 1 the next, -1 the previous. */
  async function loadLobby(step = 0) {
    const { tab, at: now, cursors, next } = store.get().lobby;
    const at = Math.max(0, now + step);
    const cursor = step > 0 ? next : cursors[at] ?? null;
    let data;
    try { data = await api.lobby(tab, cursor, LOBBY_PAGE); } catch (e) {
      if (e.code === "bad_request" && tab !== "waiting") data = { tables: [], cursor: null }; // waiting tables only here
      else if (e.code === "network") return tries.setOffline(true);
      else { if (e.status !== 401) dispatch({ type: "notice", text: tries.refusal(e) }); return; }
    }
    if (tab !== store.get().lobby.tab) return;
    if (store.get().offline) tries.setOffline(false);
    const pages = store.get().lobby.cursors.slice(0, at);
    pages[at] = cursor;
    const tables = ((data && data.tables) || []).slice(0, LOBBY_PAGE);
    dispatch({ type: "lobbyPage", tab, tables, at, cursors: pages, next: (data && data.cursor) || null });
  }

  function setTab(tab) {
    dispatch({ type: "lobbyTab", tab });
    return loadLobby();
  }

  /** Seat a computer player of a level (a server without levels gets a plain computer player). */
  async function sitBot(tableId, seat, level) {
    if (!noLevels) {
      try { return await api.sit(tableId, seat, { bot: true, level }); } catch (e) {
        if (e.code !== "bad_request") throw e;
        noLevels = true;
      }
    }
    return api.sit(tableId, seat, { bot: true });
  }

  async function fillWithBots(view, level) {
    for (const [i, s] of view.seats.entries()) if (!s) view = await sitBot(view.tableId, i, level);
    return view;
  }

  const sit = async (tableId, seat) => play.enterTable(await api.sit(tableId, seat));

  /** Quick play: a seat at a waiting table of that game, else a new one against computer players. */
  async function quickPlay(game, level) {
    const data = await api.lobby("waiting");
    for (const x of (data && data.tables) || []) {
      const free = (x.players || []).findIndex((p) => !p);
      if (x.game === game && free >= 0) {
        try { return await sit(x.tableId, free); } catch { /* taken meanwhile: try the next */ }
      }
    }
    let view = await api.createTable({ game, seats: 4, hands: 1, turnSeconds: 45 });
    view = await fillWithBots(view, level);
    play.enterTable(await api.start(view.tableId));
  }

  async function createTable(fields) {
    let view = await api.createTable(createBody(fields));
    if (fields.bots === "on") view = await fillWithBots(view, fields.level || defaultLevel());
    play.enterTable(view);
  }

  /** Rematch: a new table like this one, the computer players seated again at their levels. */
  async function rematch() {
    const v = store.get().table.view;
    let view = await api.createTable({
      game: v.game, seats: v.seats.length, hands: v.hands, partners: v.partners, turnSeconds: v.turnSeconds,
      ...(v.private ? { private: true } : {}),
      ...(v.hints != null ? { hints: v.hints } : {}), ...(v.rated === false ? { rated: false } : {}),
      ...(v.breakSeconds != null ? { breakSeconds: v.breakSeconds } : {}), ...(v.pace ? { pace: v.pace } : {}),
    });
    for (const [i, s] of v.seats.entries()) if (i > 0 && s && s.bot) view = await sitBot(view.tableId, i, s.level || defaultLevel());
    dispatch({ type: "endClosed" });
    play.enterTable(view);
  }

  return {
    openLobby, loadLobby, setTab, quickPlay, createTable, rematch, sit,
    addBot: async (tableId, seat, level) => dispatch({ type: "view", view: await sitBot(tableId, seat, level || defaultLevel()) }),
  };
}
