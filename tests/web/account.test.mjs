// The account's screens (account.js) on the real page: the passkey and transfer-code sign-in
// under the login form, and the account dialog (passkeys, a transfer code, the player's data,
// deletion): what shows for a given state and which of passkeys.js's actions a tap asks for.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mountAccount } from "../../clients/web/account.js";
import { install } from "../../clients/web/texts.js";
import { BOUNDS, catalogue } from "./catalogue.mjs";
import { page, read, settled, storeWith } from "./dom.mjs";

async function mounted({ exported = { player: { name: "Ayşe" } } } = {}) {
  const store = await storeWith({ me: { token: "t", playerId: "p1", name: "Ayşe" } });
  page("index.html");
  const asked = [];
  const act = new Proxy({}, { get: (_, name) => (...args) => {
    asked.push([name, ...args.filter((a) => !(a instanceof window.Event))]); // a button hands its click on
    return name === "exportData" ? Promise.resolve(exported) : undefined;
  } });
  mountAccount({ store, act });
  return { store, asked, $: (sel) => document.querySelector(sel) };
}

test("under the login form: a passkey sign-in, and a transfer code typed as it was read", async () => {
  const { $, asked } = await mounted();
  assert.equal(read($("#acc-passkey-signin")), "Geçiş anahtarıyla gir");
  $("#acc-passkey-signin").click();
  $("#acc-code-input").value = "  abcd-2345 ";
  $("#acc-code-form").requestSubmit();
  assert.deepEqual(asked, [["passkeySignIn"], ["codeSignIn", "abcd-2345"]]);
  assert.equal($("#acc-code-input").maxLength, 2 * BOUNDS.codeLength); // room for a space or dash between any two
});

test("the account dialog opens from the header and shows the passkeys, each with its remove button", async () => {
  const { store, $, asked } = await mounted();
  assert.equal($("#me #acc-open").textContent, "Hesap");
  $("#acc-open").click();
  assert.deepEqual(asked, [["open"]]);
  assert.equal($("#account-dialog").open, false);
  store.dispatch({ type: "account", patch: { open: true, passkeys: [{ id: "pk-1", createdAt: 1_700_000_000 }, { id: "pk-2", createdAt: 1_710_000_000 }] } });
  assert.equal($("#account-dialog").open, true);
  const items = [...document.querySelectorAll("#acc-passkeys li")];
  assert.deepEqual(items.map((li) => li.dataset.passkey), ["pk-1", "pk-2"]);
  assert.equal($("#acc-passkeys-none").hidden, true);
  assert.equal(read(items[0]), `${new Date(1_700_000_000_000).toLocaleDateString("tr")} Kaldır`);
  items[1].querySelector("button").click();
  assert.deepEqual(asked.at(-1), ["removePasskey", "pk-2"]);
  install(catalogue("en"));
  store.dispatch({ type: "catalogue", lang: "en" });
  assert.equal(read(document.querySelector("#acc-passkeys li button")), "Remove");
  install(catalogue("tr"));
});

test("a transfer code made shows with how to use it; none shows nothing", async () => {
  const { store, $, asked } = await mounted();
  store.dispatch({ type: "account", patch: { open: true } });
  assert.equal($("#acc-code").hidden, true);
  $("#acc-code-make").click();
  assert.deepEqual(asked, [["makeCode"]]);
  store.dispatch({ type: "account", patch: { code: "QX7P2KMD" } });
  assert.equal($("#acc-code").hidden, false);
  assert.equal(read($("#acc-code")), "Bu kodu yeni cihazda yaz (10 dakika, bir kez): QX7P2KMD");
  assert.equal($("#acc-code-value").textContent, "QX7P2KMD");
});

test("the player's data downloads as a JSON file named in their language", async () => {
  const { $ } = await mounted({ exported: { player: { name: "Ayşe" }, games: [] } });
  const saved = [];
  const { createObjectURL, revokeObjectURL } = URL;
  URL.createObjectURL = (blob) => { saved.push(blob); return "blob:test/1"; };
  URL.revokeObjectURL = () => {};
  const downloads = [];
  const anchor = window.HTMLAnchorElement.prototype;
  const { click } = anchor;
  anchor.click = function () { downloads.push([this.getAttribute("download"), this.getAttribute("href")]); }; // the browser's save
  $("#acc-export").click();
  await settled();
  Object.assign(URL, { createObjectURL, revokeObjectURL });
  anchor.click = click;
  assert.deepEqual(downloads, [["harftet-verilerim.json", "blob:test/1"]]);
  assert.equal(saved[0].type, "application/json");
  assert.deepEqual(JSON.parse(await saved[0].text()), { player: { name: "Ayşe" }, games: [] });
});

test("nothing downloads when the data could not be had (the refusal is passkeys.js's notice)", async () => {
  const { $ } = await mounted({ exported: null });
  let made = 0;
  const { createObjectURL } = URL;
  URL.createObjectURL = () => { made += 1; return "blob:x"; };
  $("#acc-export").click();
  await settled();
  URL.createObjectURL = createObjectURL;
  assert.equal(made, 0);
});

test("deleting asks passkeys.js (which confirms); closing the dialog any way tells the state", async () => {
  const { store, $, asked } = await mounted();
  store.dispatch({ type: "account", patch: { open: true } });
  $("#acc-delete").click();
  $("#acc-close").click();
  assert.deepEqual(asked, [["deleteMe"], ["close"]]);
  $("#account-dialog").close(); // Escape closes a dialog by itself
  assert.deepEqual(asked.at(-1), ["close"]);
  assert.equal(asked.length, 3);
  store.dispatch({ type: "account", patch: { open: false } });
  assert.equal($("#account-dialog").open, false);
});

test("an account with no passkey says so under its heading (not an empty list)", async () => {
  const { store, $ } = await mounted();
  store.dispatch({ type: "account", patch: { open: true } });
  assert.equal($("#acc-passkeys-none").hidden, true); // not known yet
  store.dispatch({ type: "account", patch: { passkeys: [] } });
  assert.equal($("#acc-passkeys-none").hidden, false);
  assert.equal(read($("#acc-passkeys-none")), "Henüz geçiş anahtarın yok: bu cihazdan başka yerde girmek için bir tane ekle.");
});
