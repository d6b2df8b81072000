// Friends (API.md v3 "People"): the list, requests by code, accept, refuse, remove, block, and
// invitations to a table both ways. While the lobby shows, a connection of the player's own
// (/ws?token=T, no table) brings friends' presence, invitations, matches and tournament calls (docs/asyncapi.yaml).
import { t } from "./texts.js";

/** `wsBase()`: the WebSocket's URL ("" for this host); `openTable(id)` joins an invitation;
 * `onMatched(msg)`: the player's search for opponents found a table; `confirm(question)`. */
export function createContacts({
  store, api, wsBase = () => "", openTable, onMatched = null, onTournament = null, confirm = () => true,
}) {
  const dispatch = (m) => store.dispatch(m);
  const id = encodeURIComponent;
  let ws = null;

  /** A call whose refusal the friends card says (an unknown code, or plainly "did not work"). */
  async function call(method, path, body) {
    try { return await api.request(method, path, body); } catch (e) {
      dispatch({ type: "friendsSaid", key: e && e.status === 404 ? "friends.unknown" : "friends.failed" });
      throw e;
    }
  }

  async function load() {
    let data;
    try { data = await api.request("GET", "/players/me/friends"); } catch { return; }
    dispatch({ type: "friends", data });
  }

  /** Call, then read the list again (it changed); a refusal is said and the list kept. */
  const act = (method, path) => call(method, path).then(load, () => {});

  async function send(code) {
    dispatch({ type: "friends", data: await call("POST", "/players/me/friends", { code }) });
  }

  /** A friend invited to the caller's waiting table (a new private one if there is none); the
   * caller goes to that table, to wait for the friend there. */
  async function invite(friendId) {
    const mine = await call("GET", "/players/me/tables");
    let table = (mine.tables || []).find((x) => x.status === "waiting");
    if (!table) table = await call("POST", "/tables", { game: "harftet", seats: 2, hands: 3, private: true });
    await call("POST", `/tables/${id(table.tableId)}/invitations`, { playerId: friendId });
    dispatch({ type: "invited", playerId: friendId });
    openTable(table.tableId);
  }

  /** Block, once the player confirmed it (it also ends the friendship). */
  function block(playerId, name) {
    if (!confirm(t("friends.block.confirm", { name: name || t("friends.someone") }))) return Promise.resolve();
    return act("POST", `/players/me/blocks/${id(playerId)}`);
  }

  function onPush(msg) {
    const { data, names } = store.get().friends;
    if (msg.type === "presence" && data) {
      if (!data.friends.some((x) => x.playerId === msg.playerId)) return load(); // a new friend
      dispatch({ type: "presence", playerId: msg.playerId, status: msg.status, game: msg.game });
    } else if (msg.type === "friendRequest") {
      load(); // the request shows at once (the list holds it), with the header's badge
    } else if (msg.type === "invitation") {
      dispatch({ type: "invitation", invitation: msg });
      if (!names[msg.from]) load();
    } else if (msg.type === "matched" && onMatched) {
      onMatched(msg); // opponents found (search.js)
    } else if (msg.type === "tournament" && onTournament) {
      onTournament(msg); // a tournament's round seated me (tourneys.js)
    }
  }

  function listen() {
    const me = store.get().me;
    if (ws || !me) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const endpoint = wsBase() || `${proto}://${location.host}/ws`;
    ws = new WebSocket(`${endpoint}?token=${id(me.token)}`);
    ws.onmessage = (ev) => { try { onPush(JSON.parse(ev.data)); } catch { /* not ours */ } };
    ws.onclose = () => { ws = null; };
  }

  /** Close the lobby's connection (a table's own connection brings pushes there). */
  function close() {
    if (!ws) return;
    const s = ws;
    ws = null;
    s.onclose = null;
    s.close();
  }

  return {
    load, listen, close, send, invite,
    accept: (pid) => act("POST", `/players/me/friends/${id(pid)}`),
    refuse: (pid) => act("DELETE", `/players/me/friends/${id(pid)}`),
    block,
    unblock: (pid) => act("DELETE", `/players/me/blocks/${id(pid)}`),
    join: (invitation) => { dispatch({ type: "invitationDone", invitation }); openTable(invitation.tableId); },
    ignore: (invitation) => dispatch({ type: "invitationDone", invitation }),
  };
}
