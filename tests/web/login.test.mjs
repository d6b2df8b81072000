// The login screen (login.js) on the real page: when it shows, what the name field takes, and
// what a sign-in sends.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mountLogin } from "../../clients/web/login.js";
import { createStore, initialState } from "../../clients/web/state.js";
import { BOUNDS } from "./catalogue.mjs";
import { page, storeWith } from "./dom.mjs";

function mounted(store) {
  page("index.html");
  const names = [];
  mountLogin({ store, act: { signIn: (name) => names.push(name) } });
  return { names, $: (sel) => document.querySelector(sel) };
}

test("the login screen waits for the catalogue, then shows only while it is the screen", async () => {
  const waiting = createStore(initialState({}));
  waiting.dispatch({ type: "screen", screen: "login" });
  const before = mounted(waiting);
  assert.equal(before.$("#login").hidden, true); // no label is ever seen as its key
  const store = await storeWith();
  const { $ } = mounted(store);
  assert.equal($("#login").hidden, true); // no screen chosen yet
  store.dispatch({ type: "screen", screen: "login" });
  assert.equal($("#login").hidden, false);
  store.dispatch({ type: "screen", screen: "lobby" });
  assert.equal($("#login").hidden, true);
});

test("the name field takes as many characters as the server does", async () => {
  const { $ } = mounted(await storeWith());
  assert.equal($("#login-name").maxLength, BOUNDS.nameMax);
});

test("a sign-in sends the name typed, trimmed; spaces alone send nothing", async () => {
  const store = await storeWith();
  store.dispatch({ type: "screen", screen: "login" });
  const { names, $ } = mounted(store);
  $("#login-name").value = "  Ece Nur ";
  $("#login-form").requestSubmit();
  $("#login-name").value = "   ";
  $("#login-form").requestSubmit();
  assert.deepEqual(names, ["Ece Nur"]);
});
