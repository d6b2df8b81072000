// The bootstrap (app.js) on the real page over a fake server: what a first visit shows and asks,
// a sign-in reaching the lobby, a returning player's table link, and a start with no server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { page, read, serve, textsRoute, until } from "./dom.mjs";
import { kastetView } from "./fixtures.mjs";

class FakeSocket {
  static opened = [];
  constructor(url) { this.url = url; this.readyState = 0; FakeSocket.opened.push(this); }
  send() {}
  close() { this.readyState = 3; }
}
globalThis.WebSocket = FakeSocket;

/** A test on a clock of its own: the page's timers (the turn clock, the token refresh) neither
 * run nor keep node waiting. */
const it = (name, fn) => test(name, (ctx) => {
  ctx.mock.timers.enable({ apis: ["setInterval"] });
  return fn(ctx);
});

let loads = 0;
/** index.html at `url` with `storage` kept from before, app.js started over a server answering `routes`. */
async function start(routes, { hash = "", storage = {} } = {}) {
  page("index.html", { url: `http://127.0.0.1:3000/play/${hash}` });
  for (const [k, v] of Object.entries(storage)) localStorage.setItem(k, v);
  const requests = serve(routes);
  loads += 1;
  await import(`../../clients/web/app.js?start=${loads}`);
  const $ = (sel) => document.querySelector(sel);
  return { requests, $, asked: () => requests.map((r) => `${r.method} ${r.url}`) };
}
const ME = { token: "tok", playerId: "p0", name: "Ayşe", rating: 1500 };
const EMPTY = { tables: [], cursor: null };

it("a first visit shows the login screen in Turkish once the catalogue is there, and asks nothing else", async () => {
  const { $, asked } = await start(await textsRoute("tr"));
  await until(() => !$("#login").hidden, "the login screen");
  assert.equal(read($("#login-h")), "Kim oynuyor?");
  assert.equal(read($("#login button[type=submit]")), "Misafir olarak oyna");
  assert.equal($("#lobby").hidden, true);
  assert.equal($("#me").hidden, true);
  assert.deepEqual(asked().sort(), ["GET /texts?lang=tr", "GET config.json"]);
});

it("a name typed makes a guest: the session is kept and the lobby opens", async () => {
  const routes = {
    ...(await textsRoute("tr")),
    "POST /players": (r) => ({ ...ME, name: r.body.name }),
    "GET /players/p0": ME,
    "GET /players/me/tables": EMPTY,
    "GET /players/me/friends": { code: "AYSE2345", friends: [], incoming: [], outgoing: [], blocked: [] },
    "GET /tables?status=waiting&limit=20": EMPTY,
  };
  FakeSocket.opened.length = 0;
  const { $, requests, asked } = await start(routes);
  await until(() => !$("#login").hidden, "the login screen");
  $("#login-name").value = "Ayşe";
  $("#login-form").requestSubmit();
  await until(() => !$("#lobby").hidden, "the lobby");
  assert.deepEqual(requests.find((r) => r.method === "POST").body, { name: "Ayşe" });
  assert.equal(JSON.parse(localStorage.getItem("harftet.session")).token, "tok");
  assert.equal($("#login").hidden, true);
  assert.equal(read($("#me-name")), "Ayşe");
  assert.ok(asked().some((a) => a.startsWith("GET /tables?status=waiting")), asked().join("\n"));
  const lobbyCall = requests.find((r) => r.url.startsWith("/tables?"));
  assert.equal(lobbyCall.headers.Authorization, "Bearer tok");
  assert.deepEqual(FakeSocket.opened.map((ws) => ws.url), ["ws://127.0.0.1:3000/ws?token=tok"]); // friends' presence
});

it("a returning player following a table link lands at that table", async () => {
  FakeSocket.opened.length = 0;
  const view = kastetView({ tableId: "t9" });
  const routes = { ...(await textsRoute("tr")), "GET /players/p0": ME, "GET /tables/t9": view, "GET /tables/t9/log": { events: [] } };
  const { $, asked } = await start(routes, { hash: "#t=t9", storage: { "harftet.session": JSON.stringify(ME) } });
  await until(() => !$("#table").hidden, "the table");
  assert.equal($("#login").hidden, true);
  assert.ok(asked().includes("GET /tables/t9"));
  assert.equal(localStorage.getItem("harftet.table"), "t9"); // a closed tab comes back here
  assert.deepEqual(FakeSocket.opened.map((ws) => ws.url), ["ws://127.0.0.1:3000/ws?token=tok&tableId=t9"]); // the table's pushes
});

it("with no server and no catalogue kept, only the offline banner shows; the login follows once it answers", async (ctx) => {
  ctx.mock.timers.reset();
  ctx.mock.timers.enable({ apis: ["setInterval", "setTimeout"] });
  let up = false;
  const catalogue = await textsRoute("tr");
  const { $ } = await start({ "GET /texts?lang=tr": () => (up ? catalogue["GET /texts?lang=tr"] : new TypeError("offline")) });
  await until(() => !$("#offline").hidden, "the offline banner");
  assert.equal($("#login").hidden, true); // nothing shows before the catalogue: no label read as its key
  up = true;
  ctx.mock.timers.tick(5000);
  await until(() => !$("#login").hidden, "the login screen");
  assert.equal($("#offline").hidden, true);
});
