// The TypeScript client's WebSocket (clients/typescript/harftet.ts, its types stripped with the
// TypeScript compiler, as apply_deltas_ts.mjs does) on a fake clock: it pings only after 9
// minutes without any message either way (API Gateway's idle timeout is 10), never while
// pushes flow, and never after close().
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";

const source = await readFile(new URL("../../clients/typescript/harftet.ts", import.meta.url), "utf8");
const { outputText } = ts.transpileModule(source, {
  compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 },
});
const clients = await mkdtemp(join(tmpdir(), "harftet-ts-"));
await mkdir(join(clients, "typescript"));
await mkdir(join(clients, "web"));
await copyFile(new URL("../../clients/web/delta.js", import.meta.url), join(clients, "web", "delta.js"));
const file = join(clients, "typescript", "harftet.mjs");
await writeFile(file, outputText);
const { watch, listen } = await import(file);

class FakeSocket {
  static all = [];
  constructor(url) { Object.assign(this, { url, readyState: 1, sent: [] }); FakeSocket.all.push(this); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; }
  push(message) { this.onmessage({ data: JSON.stringify(message) }); }
  pings() { return this.sent.filter((m) => m.action === "ping").length; }
}
globalThis.WebSocket = FakeSocket;
const minute = 60 * 1000;

test("watch() pings only after 9 quiet minutes, never while pushes flow, never after close", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const table = watch("ws://x/ws", "tok", "t1", () => {});
  const socket = FakeSocket.all.at(-1);
  socket.onopen();
  socket.push({ type: "table", view: { tableId: "t1", version: 1, pile: 40 } });
  for (let v = 1; v < 20; v += 1) {
    t.mock.timers.tick(8 * minute);
    socket.push({ type: "table", view: { tableId: "t1", version: v + 1, pile: 40 - v } });
  }
  assert.equal(socket.pings(), 0); // 2½ hours of pushes: no ping
  t.mock.timers.tick(9 * minute - 1);
  assert.equal(socket.pings(), 0);
  t.mock.timers.tick(1);
  assert.equal(socket.pings(), 1);
  t.mock.timers.tick(5 * minute);
  table.send({ action: "sync" }); // the client's own message counts as traffic too
  t.mock.timers.tick(8 * minute);
  assert.equal(socket.pings(), 1);
  t.mock.timers.tick(minute);
  assert.equal(socket.pings(), 2);
  table.close();
  t.mock.timers.tick(60 * minute);
  assert.equal(socket.pings(), 2);
});

test("listen() keeps a quiet lobby connection alive with a ping every 9 minutes", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const lobby = listen("ws://x/ws", "tok", () => {});
  const socket = FakeSocket.all.at(-1);
  for (let i = 0; i < 3; i += 1) t.mock.timers.tick(9 * minute);
  assert.equal(socket.pings(), 3);
  socket.push({ type: "presence", playerId: "p", status: "online" });
  t.mock.timers.tick(8 * minute);
  assert.equal(socket.pings(), 3);
  lobby.close();
  t.mock.timers.tick(60 * minute);
  assert.equal(socket.pings(), 3);
});
