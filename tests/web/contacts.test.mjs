// Friends (contacts.js) over the real store and a fake server: what each action sends, what a
// refusal says on the friends card, and what the lobby's own connection does with a push.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../../clients/web/api.js";
import { createContacts } from "../../clients/web/contacts.js";
import { storeWith } from "./dom.mjs";

const ME = { token: "tok/1", playerId: "p0", name: "Ayşe" };
const LIST = { code: "AYSE2345", friends: [{ playerId: "p1", name: "Ece" }], incoming: [{ playerId: "p2", name: "Can" }], outgoing: [], blocked: [] };

/** A server that answers from `routes` ("METHOD /path" → answer, or an ApiError to refuse). */
function server(routes = {}) {
  const sent = [];
  const request = async (method, path, body) => {
    sent.push(body === undefined ? `${method} ${path}` : [`${method} ${path}`, body]);
    const answer = routes[`${method} ${path}`] ?? (method === "GET" && path === "/players/me/friends" ? LIST : {});
    if (answer instanceof Error) throw answer;
    return typeof answer === "function" ? answer(body) : answer;
  };
  return { sent, request };
}

class FakeSocket {
  static opened = [];
  constructor(url) { this.url = url; this.closed = false; FakeSocket.opened.push(this); }
  close() { this.closed = true; }
}
globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: "https:", host: "harftet.test" };

async function contacts(routes, opts = {}) {
  const store = await storeWith({ me: ME });
  const api = server(routes);
  const opened = [];
  const c = createContacts({ store, api, openTable: (id) => opened.push(id), ...opts });
  return { store, api, c, opened };
}

test("the friends list is read once asked; a server that cannot answer leaves the card as it was", async () => {
  const { store, c, api } = await contacts();
  await c.load();
  assert.deepEqual(api.sent, ["GET /players/me/friends"]);
  assert.equal(store.get().friends.data, LIST);
  assert.deepEqual(store.get().friends.names, { p1: "Ece", p2: "Can" });
  const down = await contacts({ "GET /players/me/friends": new ApiError(0, { error: { code: "network" } }) });
  await down.c.load();
  assert.equal(down.store.get().friends.data, null);
});

test("a request sends the code typed; an unknown code and any other refusal are said apart", async () => {
  const after = { ...LIST, outgoing: [{ playerId: "p3", name: "Deniz" }] };
  const ok = await contacts({ "POST /players/me/friends": after });
  await ok.c.send("DENIZ234");
  assert.deepEqual(ok.api.sent, [["POST /players/me/friends", { code: "DENIZ234" }]]);
  assert.equal(ok.store.get().friends.data, after);
  const unknown = await contacts({ "POST /players/me/friends": new ApiError(404, { error: { code: "not_found" } }) });
  await assert.rejects(unknown.c.send("NOPE"));
  assert.equal(unknown.store.get().friends.said, "friends.unknown");
  const busy = await contacts({ "POST /players/me/friends": new ApiError(503, { error: { code: "busy" } }) });
  await assert.rejects(busy.c.send("NOPE"));
  assert.equal(busy.store.get().friends.said, "friends.failed");
});

test("accept, refuse, block and unblock each call their address, then read the list again", async () => {
  const { c, api } = await contacts();
  await c.accept("p/2");
  await c.refuse("p2");
  await c.block("p1");
  await c.unblock("p1");
  assert.deepEqual(api.sent, [
    "POST /players/me/friends/p%2F2", "GET /players/me/friends", "DELETE /players/me/friends/p2", "GET /players/me/friends",
    "POST /players/me/blocks/p1", "GET /players/me/friends", "DELETE /players/me/blocks/p1", "GET /players/me/friends",
  ]);
});

test("a refused accept is said and the list is not read again", async () => {
  const { c, api, store } = await contacts({ "POST /players/me/friends/p2": new ApiError(409, { error: { code: "wrong_status" } }) });
  await c.accept("p2");
  assert.deepEqual(api.sent, ["POST /players/me/friends/p2"]);
  assert.equal(store.get().friends.said, "friends.failed");
});

test("a friend is invited to the player's waiting table, or to a new private one, and the player is taken there", async () => {
  const waiting = { "GET /players/me/tables": { tables: [{ tableId: "old", status: "playing" }, { tableId: "w1", status: "waiting" }] } };
  const one = await contacts(waiting);
  await one.c.invite("p1");
  assert.deepEqual(one.api.sent, ["GET /players/me/tables", ["POST /tables/w1/invitations", { playerId: "p1" }]]);
  assert.deepEqual(one.store.get().friends.invited, ["p1"]);
  assert.deepEqual(one.opened, ["w1"]); // never a table the inviter cannot find
  const none = await contacts({ "GET /players/me/tables": { tables: [] }, "POST /tables": { tableId: "new1" } });
  await none.c.invite("p1");
  assert.deepEqual(none.api.sent, [
    "GET /players/me/tables", ["POST /tables", { game: "harftet", seats: 2, hands: 3, private: true }],
    ["POST /tables/new1/invitations", { playerId: "p1" }],
  ]);
  assert.deepEqual(none.opened, ["new1"]);
});

test("block asks first, naming the player; a 'no' sends nothing", async () => {
  const asked = [];
  let answer = false;
  const { c, api } = await contacts({}, { confirm: (q) => { asked.push(q); return answer; } });
  await c.block("p1", "Ece");
  assert.deepEqual(asked, ["Ece engellensin mi? Arkadaşlığınız biter; sana istek ya da davet gönderemez."]);
  assert.deepEqual(api.sent, []);
  answer = true;
  await c.block("p1", "Ece");
  assert.deepEqual(api.sent, ["POST /players/me/blocks/p1", "GET /players/me/friends"]);
});

test("a friend request pushed to the lobby's connection reads the list at once (no reload)", async () => {
  FakeSocket.opened.length = 0;
  const { c, api } = await contacts();
  c.listen();
  FakeSocket.opened[0].onmessage({ data: JSON.stringify({ type: "friendRequest", from: "p7", name: "Deniz" }) });
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(api.sent, ["GET /players/me/friends"]);
  c.close();
  FakeSocket.opened.length = 0;
});

test("in the lobby the player's own connection brings friends' presence and invitations", async () => {
  const { c, store, api } = await contacts();
  await c.load();
  c.listen();
  c.listen(); // one connection, however often asked
  assert.equal(FakeSocket.opened.length, 1);
  const ws = FakeSocket.opened[0];
  assert.equal(ws.url, "wss://harftet.test/ws?token=tok%2F1");
  const push = (msg) => ws.onmessage({ data: JSON.stringify(msg) });
  push({ type: "presence", playerId: "p1", status: "playing", game: "kastet" });
  assert.deepEqual(store.get().friends.data.friends[0].presence, { status: "playing", game: "kastet" });
  api.sent.length = 0;
  push({ type: "presence", playerId: "p9", status: "online" }); // a friend the list does not have yet
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(api.sent, ["GET /players/me/friends"]);
  const invitation = { type: "invitation", from: "p1", tableId: "t5" };
  push(invitation);
  assert.deepEqual(store.get().friends.invitations, [invitation]);
  ws.onmessage({ data: "not json" }); // ignored
  assert.equal(store.get().friends.invitations.length, 1);
  c.close();
  assert.equal(ws.closed, true);
  c.listen();
  assert.equal(FakeSocket.opened.length, 2); // a new one once the lobby shows again
});

test("the connection goes where config.json says; a guest with no session opens none", async () => {
  FakeSocket.opened.length = 0;
  const elsewhere = await contacts({}, { wsBase: () => "wss://ws.harftet.test/prod" });
  elsewhere.c.listen();
  assert.equal(FakeSocket.opened[0].url, "wss://ws.harftet.test/prod?token=tok%2F1");
  const { c, store } = await contacts();
  store.dispatch({ type: "signedOut" });
  c.listen();
  assert.equal(FakeSocket.opened.length, 1);
});

test("an invitation joined opens its table; one ignored only goes away", async () => {
  const { c, store, opened } = await contacts();
  const a = { type: "invitation", from: "p1", tableId: "tA" };
  const b = { type: "invitation", from: "p1", tableId: "tB" };
  store.dispatch({ type: "invitation", invitation: a });
  store.dispatch({ type: "invitation", invitation: b });
  c.ignore(a);
  c.join(b);
  assert.deepEqual(opened, ["tB"]);
  assert.deepEqual(store.get().friends.invitations, []);
});
