// The live connection (clients/web/live.js) over a fake WebSocket: what a player would notice if it
// went wrong — a move after a REST answer waiting for a push, a refusal lost, a move answered
// twice, a missed push never caught up, a dropped socket leaving a move hanging.
import { test } from "node:test";
import assert from "node:assert/strict";

class FakeSocket {
  static all = [];

  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.all.push(this);
  }

  send(text) { this.sent.push(JSON.parse(text)); }

  close() {
    this.readyState = 3;
    this.onclose?.();
  }

  // What the server side does in these tests.
  open() {
    this.readyState = 1;
    this.onopen();
  }

  push(message) { this.onmessage({ data: JSON.stringify(message) }); }

  drop() { this.close(); }
}

globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: "http:", host: "127.0.0.1:3000" };
const { Live } = await import("../../clients/web/live.js");

const view = (version, extra = {}) => ({ tableId: "t1", version, pile: 40 - version, hand: [{ id: 1 }], ...extra });

/** Lets the promises started settle (the resync after a connect, a fake that answers at once). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** A Live connected to table t1 over a fake socket, closed when test `t` ends (pass or fail), its
 * resync after the connect answered (`resync(live)`: the REST read, by default nothing newer). */
async function connected(t, { resync = () => {} } = {}) {
  const seen = { views: [], states: [], resyncs: 0, messages: [] };
  const live = new Live({
    onView: (v) => seen.views.push(v),
    onState: (s) => seen.states.push(s),
    resync: () => { seen.resyncs += 1; return resync(live); },
    onMessage: (m) => seen.messages.push(m),
  });
  t.after(() => live.close()); // its ping timer would keep node running
  live.connect("tok en", "t1");
  const socket = FakeSocket.all.at(-1);
  socket.open();
  await settled();
  return { live, socket, seen };
}

test("connecting names the token and table and, once open, resyncs over REST: nothing goes on the socket", async (t) => {
  const { live, socket, seen } = await connected(t);
  assert.equal(socket.url, "ws://127.0.0.1:3000/ws?token=tok%20en&tableId=t1");
  assert.deepEqual(seen.states, ["connecting", "live"]);
  assert.deepEqual(socket.sent, []); // no {"action": "sync"}: the REST read is the one way back
  assert.equal(seen.resyncs, 1);
  assert.equal(live.connected, true);
  live.close();
  assert.equal(live.connected, false);
});

test("pushes build the view; a missed push asks for the whole view and shows nothing wrong", async (t) => {
  const { live, socket, seen } = await connected(t);
  socket.push({ type: "table", view: view(5) });
  socket.push({ type: "delta", from: 5, version: 6, ops: [["/pile", 34]] });
  assert.deepEqual(seen.views.map((v) => [v.version, v.pile]), [[5, 35], [6, 34]]);
  const asked = socket.sent.length;
  socket.push({ type: "delta", from: 8, version: 9, ops: [["/pile", 31]] }); // 7 and 8 were missed
  assert.equal(seen.views.length, 2); // nothing built on a view it does not hold
  assert.deepEqual(socket.sent.slice(asked), [{ action: "sync" }]);
  socket.push({ type: "delta", from: 5, version: 6, ops: [["/pile", 0]] }); // a repeat: ignored
  assert.equal(seen.views.length, 2);
  seen.views[1].pile = -1; // the app may change its copy; the base stays as pushed
  socket.push({ type: "delta", from: 6, version: 7, ops: [["/hand/1", { id: 2 }]] });
  assert.deepEqual(seen.views.at(-1), view(7, { pile: 34, hand: [{ id: 1 }, { id: 2 }] }));
  socket.push({ type: "phrase", seat: 1, phrase: "merhaba" }); // not a view: handed on
  assert.deepEqual(seen.messages, [{ type: "phrase", seat: 1, phrase: "merhaba" }]);
});

test("a move right after a REST answer goes on the socket once that view is adopted", async (t) => {
  const { live, socket } = await connected(t);
  socket.push({ type: "table", view: view(5) });
  const body = { version: 6, moveId: "m1", move: { type: "draw" } };
  assert.equal(await live.move(body, "tr"), null); // the socket is at 5: the caller uses REST
  live.adopt(view(4)); // older: ignored
  live.adopt({ ...view(6), tableId: "t2" }); // another table's: ignored
  assert.equal(await live.move(body, "tr"), null);
  live.adopt(view(6)); // the REST answer of the move before
  const answer = live.move(body, "tr");
  assert.deepEqual(socket.sent.at(-1), { action: "move", tableId: "t1", lang: "tr", ...body });
  socket.push({ type: "delta", moveId: "m1", from: 6, version: 7, ops: [["/pile", 33]] });
  assert.deepEqual(await answer, view(7, { pile: 33 }));
});

test("a refused move is the caller's error to show, and the view stays where it was", async (t) => {
  const { live, socket, seen } = await connected(t);
  socket.push({ type: "table", view: view(5) });
  const answer = live.move({ version: 5, moveId: "m2", move: { type: "pass" } }, "en");
  const refusal = { type: "error", moveId: "m2", error: { code: "not_allowed", message: "You may still draw" } };
  socket.push(refusal);
  await assert.rejects(answer, (error) => error.error.code === "not_allowed");
  socket.push({ type: "delta", from: 5, version: 6, ops: [["/pile", 34]] });
  assert.deepEqual(seen.views.map((v) => v.version), [5, 6]);
});

test("an answer that comes too late is not taken twice: the move went to REST", async (t) => {
  const { live, socket, seen } = await connected(t);
  socket.push({ type: "table", view: view(5) });
  const answer = await live.move({ version: 5, moveId: "m3", move: { type: "draw" } }, "tr", 10);
  assert.equal(answer, null); // the caller sends the same moveId over REST
  socket.push({ type: "delta", moveId: "m3", from: 5, version: 6, ops: [["/pile", 34]] });
  assert.deepEqual(seen.views.map((v) => v.version), [5, 6]); // an ordinary push now
});

test("a dropped socket hands its waiting move to REST and reconnects by itself", async (t) => {
  const { live, socket, seen } = await connected(t);
  socket.push({ type: "table", view: view(5) });
  const answer = live.move({ version: 5, moveId: "m4", move: { type: "draw" } }, "tr");
  socket.drop();
  assert.equal(await answer, null);
  assert.equal(seen.states.at(-1), "offline");
  live.wake(); // the tab came back: no waiting for the backoff
  const again = FakeSocket.all.at(-1);
  assert.notEqual(again, socket);
  again.open();
  assert.deepEqual(seen.states.slice(-2), ["connecting", "live"]);
  assert.deepEqual(again.sent, []);
  assert.equal(seen.resyncs, 2);
  live.close();
  assert.equal(FakeSocket.all.at(-1), again); // closed on purpose: no reconnect
});

test("a ping goes out only after 9 minutes without any message either way, never while pushes flow", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { socket } = await connected(t);
  const pings = () => socket.sent.filter((m) => m.action === "ping").length;
  const minute = 60 * 1000;
  let version = 5;
  socket.push({ type: "table", view: view(version) });
  for (let i = 0; i < 30; i += 1) { // half an hour of a push every 5 minutes: no ping at all
    t.mock.timers.tick(5 * minute);
    socket.push({ type: "delta", from: version, version: version + 1, ops: [["/pile", 30 - i]] });
    version += 1;
  }
  assert.equal(pings(), 0);
  t.mock.timers.tick(9 * minute - 1); // silence: still under API Gateway's 10-minute idle timeout
  assert.equal(pings(), 0);
  t.mock.timers.tick(1);
  assert.equal(pings(), 1);
  socket.push({ type: "pong" });
  t.mock.timers.tick(8 * minute);
  assert.equal(pings(), 1);
  t.mock.timers.tick(minute); // 9 minutes after the pong: the next ping
  assert.equal(pings(), 2);
  t.mock.timers.tick(9 * minute); // nothing answered: it keeps the connection alive every 9 minutes
  assert.equal(pings(), 3);
});

test("a move the client sends counts as traffic: the ping waits 9 minutes after it", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { live, socket } = await connected(t);
  socket.push({ type: "table", view: view(5) });
  t.mock.timers.tick(8 * 60 * 1000);
  const answer = live.move({ version: 5, moveId: "m1", type: "draw" }, "tr", 600000);
  t.mock.timers.tick(8 * 60 * 1000); // 16 minutes since the last push, 8 since the move
  assert.equal(socket.sent.filter((m) => m.action === "ping").length, 0);
  t.mock.timers.tick(60 * 1000);
  assert.deepEqual(socket.sent.at(-1), { action: "ping" });
  socket.push({ type: "delta", from: 5, version: 6, ops: [["/pile", 34]], moveId: "m1" });
  assert.equal((await answer).version, 6);
  live.close();
  t.mock.timers.tick(60 * 60 * 1000); // closed: no ping on a dead socket
  assert.equal(socket.sent.filter((m) => m.action === "ping").length, 1);
});

test("a spectator's push of several versions shows each in turn, and a newer push cuts it short", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { socket, seen } = await connected(t);
  socket.push({ type: "table", view: view(5, { last: "a" }) });
  const ops = [["/pile", 34], ["/last", "b"], ["/pile", 33], ["/last", "c"], ["/pile", 32], ["/last", "d"]];
  const steps = [{ version: 6, ops: 2 }, { version: 7, ops: 2 }, { version: 8, ops: 2 }];
  socket.push({ type: "delta", from: 5, version: 8, ops, steps });
  const shown = () => seen.views.map((v) => [v.version, v.pile, v.last]);
  assert.deepEqual(shown(), [[5, 35, "a"], [6, 34, "b"]]); // the first move at once
  t.mock.timers.tick(700);
  assert.deepEqual(shown().at(-1), [7, 33, "c"]); // then each computer player's, in order
  t.mock.timers.tick(700);
  assert.deepEqual(shown(), [[5, 35, "a"], [6, 34, "b"], [7, 33, "c"], [8, 32, "d"]]);
  socket.push({ type: "delta", from: 8, version: 10, ops: [["/pile", 31], ["/pile", 30]], steps: [{ version: 9, ops: 1 }, { version: 10, ops: 1 }] });
  socket.push({ type: "delta", from: 10, version: 11, ops: [["/pile", 29]] }); // before 10 was shown
  t.mock.timers.tick(5000);
  assert.deepEqual(seen.views.slice(4).map((v) => v.version), [9, 11]); // never back to an older one
});

/**
 * WebSocket messages of one connect, both ways (each is priced as a push, issue 40): what the
 * client sends, and what the server answers (a {"action": "sync"} is answered with the whole view).
 */
function messagesOfConnect(socket, server) {
  const answered = socket.sent.filter((m) => m.action === "sync").map(() => ({ type: "table", view: server.view }));
  for (const answer of answered) socket.push(answer);
  return socket.sent.length + answered.length;
}

test("a connect and every reconnect cost no WebSocket message: the view comes back by REST alone", async (t) => {
  const server = { view: view(5) }; // the table as stored
  const { live, socket, seen } = await connected(t, { resync: (l) => l.adopt(server.view) });
  const counts = [messagesOfConnect(socket, server)];
  for (let i = 0; i < 3; i += 1) { // the socket drops; the table goes on meanwhile; it comes back
    FakeSocket.all.at(-1).drop();
    server.view = view(server.view.version + 2);
    live.wake();
    FakeSocket.all.at(-1).open();
    await settled();
    counts.push(messagesOfConnect(FakeSocket.all.at(-1), server));
  }
  assert.deepEqual(counts, [0, 0, 0, 0]); // it was 2 a connect: {"action": "sync"} and its answer
  assert.equal(seen.resyncs, 4);
  assert.equal(live.view.version, 11); // nothing missed: the REST read brought each reconnect's present
  const again = FakeSocket.all.at(-1);
  again.push({ type: "delta", from: 11, version: 12, ops: [["/pile", 28]] });
  assert.deepEqual(seen.views.map((v) => v.version), [12]); // the pushes go on from it
  assert.equal(again.sent.length, 0);
});

test("a change between the table's first REST read and the socket's opening is not missed: the read after the opening has it", async (t) => {
  // The lobby read the table at 5 (play.js enterTable adopts it); 6 is stored before the socket is
  // registered, so no push of it ever comes here; the resync, made once the socket is open, reads 6.
  const stored = { view: view(6) };
  let live;
  const { socket, seen } = await connected(t, { resync: (l) => { live = l; l.adopt(stored.view); } });
  assert.equal(live.view.version, 6);
  socket.push({ type: "delta", from: 6, version: 7, ops: [["/pile", 33]] });
  assert.deepEqual(seen.views.map((v) => [v.version, v.pile]), [[7, 33]]);
  assert.deepEqual(socket.sent, []);
});

test("pushes that come while the resync is on its way are kept and laid on the view it brings: no sync, nothing stale", async (t) => {
  const seen = { views: [] };
  let answer;
  const live = new Live({
    onView: (v) => seen.views.push(v), onState() {},
    resync: () => new Promise((resolve) => { answer = resolve; }),
  });
  t.after(() => live.close());
  live.connect("tok", "t1");
  live.adopt(view(5)); // the first REST read, before the socket opened
  const socket = FakeSocket.all.at(-1);
  socket.open();
  // 6 was stored before the socket was registered (never pushed here); 7 and 8 come at once
  socket.push({ type: "delta", from: 6, version: 7, ops: [["/pile", 33]] });
  socket.push({ type: "delta", from: 7, version: 8, ops: [["/pile", 32]] });
  assert.deepEqual(seen.views, []); // nothing built on a view it does not hold
  live.adopt(view(6)); // the resync's read: 6 (7 was written after it)
  answer();
  await settled();
  assert.deepEqual(seen.views.map((v) => [v.version, v.pile]), [[7, 33], [8, 32]]);
  assert.deepEqual(socket.sent, []);
  socket.push({ type: "delta", from: 8, version: 9, ops: [["/pile", 31]] });
  assert.equal(seen.views.at(-1).version, 9);
});

test("a resync that brings nothing (the server not reachable) leaves the held pushes to one sync", async (t) => {
  const { live, socket, seen } = await connected(t, { resync: () => Promise.reject(new Error("network")) });
  assert.equal(seen.resyncs, 1);
  socket.push({ type: "delta", from: 6, version: 7, ops: [["/pile", 33]] }); // after the catch-up: asks at once
  assert.deepEqual(socket.sent, [{ action: "sync" }]);
  socket.drop();
  live.wake();
  let fail;
  const again = FakeSocket.all.at(-1);
  live.resync = () => new Promise((_, reject) => { fail = reject; });
  again.open();
  again.push({ type: "delta", from: 6, version: 7, ops: [["/pile", 33]] });
  again.push({ type: "delta", from: 7, version: 8, ops: [["/pile", 32]] });
  assert.deepEqual(again.sent, []);
  fail(new Error("network"));
  await settled();
  assert.deepEqual(again.sent, [{ action: "sync" }]); // one, for both
  again.push({ type: "table", view: view(8) });
  assert.equal(seen.views.at(-1).version, 8);
});
