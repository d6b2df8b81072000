// The page's first module (boot.js) on the real page over a fake server: a first visit's login
// drawn from the shell's copy of the catalogue before the whole client is there, the client
// (app.js) taking over without hiding it, and taps made before it is there (the language
// switch, a name sent) replayed once it is, once each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { page, read, serve, until } from "./dom.mjs";
import { BOUNDS, TEXTS } from "./catalogue.mjs";

globalThis.WebSocket = class { constructor() { this.readyState = 0; } send() {} close() {} };

const ME = { token: "tok", playerId: "p0", name: "Ayşe", rating: 1500 };
const EMPTY = { tables: [], cursor: null };

test("a first visit shows the login from the shell's catalogue before app.js, which keeps it; taps made at once count, once", async (ctx) => {
  ctx.mock.timers.enable({ apis: ["setInterval"] }); // the page's timers neither run nor keep node waiting
  page("index.html");
  const etag = '"shell-v1-tr"';
  const requests = serve({
    "GET texts.tr.json": { lang: "tr", version: "v1", etag, texts: TEXTS.tr, bounds: BOUNDS },
    "GET /texts?lang=tr": (r) => (r.headers["If-None-Match"] === etag ? new Response(null, { status: 304 }) : { lang: "tr", version: "v2", texts: TEXTS.tr, bounds: BOUNDS }),
    "GET /texts?lang=en": { lang: "en", version: "v1", texts: TEXTS.en, bounds: BOUNDS },
    "POST /players": (r) => ({ ...ME, name: r.body.name }),
    "GET /players/p0": ME,
    "GET /players/me/tables": EMPTY,
    "GET /players/me/friends": { code: "AYSE2345", friends: [], incoming: [], outgoing: [], blocked: [] },
    "GET /tables?status=waiting&limit=20": EMPTY,
  });
  const $ = (sel) => document.querySelector(sel);
  const seen = []; // each value the login's hidden flag is given, and what had been asked by then
  const flag = Object.getOwnPropertyDescriptor(window.HTMLElement.prototype, "hidden");
  Object.defineProperty($("#login"), "hidden", {
    get() { return flag.get.call(this); },
    set(v) { seen.push({ hidden: !!v, asked: requests.map((r) => r.url) }); flag.set.call(this, v); },
  });
  const states = () => [true, ...seen.map((s) => s.hidden)].filter((h, i, all) => i === 0 || h !== all[i - 1]);
  let sent = false;
  const booted = import("../../clients/web/boot.js");
  await until(() => !$("#login").hidden, "the login screen");
  assert.deepEqual(seen, [{ hidden: false, asked: ["texts.tr.json"] }]); // no config.json, no API, no app.js yet
  assert.equal(read($("#login-h")), "Kim oynuyor?");
  assert.equal(read($("#login button[type=submit]")), "Misafir olarak oyna");
  assert.equal(read($("#settings")), "Ayarlar");
  assert.equal(document.documentElement.lang, "tr");
  assert.equal($("#login-name").maxLength, BOUNDS.nameMax); // a name typed at once stops at the server's bound
  $("#lang").click(); // taps before app.js is there: held, then replayed in order, not lost, not sent twice
  $("#login-name").value = "Ayşe";
  $("#login-form").requestSubmit();
  sent = true;
  assert.equal(document.documentElement.lang, "tr");
  await booted;
  await until(() => !$("#lobby").hidden, "the lobby");
  await until(() => document.documentElement.lang === "en", "the language switched");
  assert.equal(read($("#settings")), "Settings");
  assert.ok(sent);
  assert.deepEqual(states(), [true, false, true]); // app.js never hid the login it found: hidden again only for the lobby
  assert.equal(requests.filter((r) => r.method === "POST").length, 1);
  assert.deepEqual(requests.find((r) => r.method === "POST").body, { name: "Ayşe" });
  const revalidated = requests.find((r) => r.url === "/texts?lang=tr");
  assert.equal(revalidated.headers["If-None-Match"], etag); // the shell's copy is checked with the API, a 304 keeps it
  assert.equal(JSON.parse(localStorage.getItem("harftet.texts.tr")).etag, etag);
  assert.equal(read($("#me-name")), "Ayşe");
});
