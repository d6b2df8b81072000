// Accounts (passkeys.js) over the real store, a fake server and a fake WebAuthn: what each
// sign-in and account action sends, what this browser keeps, what a refusal reads, and how the
// short access token is kept fresh.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../../clients/web/api.js";
import { createAccount, REFRESH_MS } from "../../clients/web/passkeys.js";
import { REFRESH } from "../../clients/web/session.js";
import { t } from "../../clients/web/texts.js";
import { storeWith } from "./dom.mjs";

const b64url = (bytes) => Buffer.from(bytes).toString("base64url");
const refused = (status, code) => new ApiError(status, { error: { code, message: `server says ${code}` } });

/** A test on a clock of its own: the refresh timer neither runs nor keeps node waiting. */
const it = (name, fn) => test(name, (ctx) => {
  ctx.mock.timers.enable({ apis: ["setInterval", "Date"] });
  return fn(ctx);
});

function memory(init = {}) {
  const data = { ...init };
  return { data, getItem: (k) => data[k] ?? null, setItem: (k, v) => { data[k] = String(v); }, removeItem: (k) => { delete data[k]; } };
}

/** An account over a server answering from `routes` ("METHOD /path" → answer, fn(body), or an error). */
async function account( { routes = {}, stored = {}, confirm = () => true, hidden = () => false } = {}) {
  const store = await storeWith({ me: { token: "a1", playerId: "p1", name: "Ayşe" } });
  const sent = [];
  const api = {
    request: async (method, path, body) => {
      sent.push(body === undefined ? `${method} ${path}` : [`${method} ${path}`, body]);
      const answer = routes[`${method} ${path}`];
      if (answer instanceof Error) throw answer;
      return typeof answer === "function" ? answer(body) : answer ?? {};
    },
  };
  const calls = [];
  const identity = { adopt: async (a) => calls.push(["adopt", a]), refreshed: (a) => calls.push(["refreshed", a]), signOut: () => calls.push(["signOut"]) };
  const storage = memory(stored);
  const questions = [];
  const acc = createAccount({ store, api, storage, identity, confirm: (q) => { questions.push(q); return confirm(q); }, hidden });
  return { acc, store, sent, calls, storage, questions };
}

/** WebAuthn in the browser: what was asked of it, and the credential it hands back. */
function webauthn({ toJSON = false } = {}) {
  const asked = [];
  const buffer = (...b) => new Uint8Array(b).buffer;
  const credential = {
    id: "cred-1", rawId: buffer(1, 2, 250), type: "public-key", getClientExtensionResults: () => ({}),
    response: { clientDataJSON: buffer(123, 125), authenticatorData: buffer(9), signature: buffer(255, 254), userHandle: buffer(112), attestationObject: buffer(7, 7) },
    ...(toJSON ? { toJSON: () => ({ id: "cred-1", fromBrowser: true }) } : {}),
  };
  globalThis.PublicKeyCredential = function PublicKeyCredential() {};
  Object.defineProperty(globalThis, "navigator", { value: { credentials: {
    get: async (o) => { asked.push(["get", o]); return credential; },
    create: async (o) => { asked.push(["create", o]); return credential; },
  } }, configurable: true, writable: true });
  return asked;
}

function noWebauthn() {
  delete globalThis.PublicKeyCredential;
  Object.defineProperty(globalThis, "navigator", { value: {}, configurable: true, writable: true });
}

it("a transfer code signs in: the session is kept in this browser and the player adopted", async () => {
  const answer = { token: "a2", refreshToken: "r2", playerId: "p1", name: "Ayşe" };
  const { acc, sent, calls, storage } = await account( { routes: { "POST /sessions/transfer": answer } });
  await acc.codeSignIn("QX7P-2KMD");
  assert.deepEqual(sent, [["POST /sessions/transfer", { code: "QX7P-2KMD" }]]);
  assert.equal(storage.data[REFRESH], "r2");
  assert.deepEqual(calls, [["adopt", answer]]);
  assert.equal(acc.hasSession(), true);
});

it("a refused code reads the catalogue's sentence for the refusal, in a notice", async () => {
  const { acc, store, calls } = await account( { routes: { "POST /sessions/transfer": refused(404, "not_found") } });
  await acc.codeSignIn("NOPE");
  assert.equal(store.get().notice.text, "Olmadı: Bulunamadı");
  assert.equal(store.get().notice.kind, "error");
  assert.deepEqual(calls, []);
});

it("a browser without passkeys is told so, and nothing is asked of the server", async () => {
  noWebauthn();
  const { acc, store, sent } = await account();
  await acc.passkeySignIn();
  assert.equal(store.get().notice.key, "acc.unsupported");
  await acc.addPasskey();
  assert.deepEqual(sent, []);
});

it("a passkey sign-in hands the server's challenge to the browser and its signature back", async () => {
  const asked = webauthn();
  const options = { challengeId: "ch-1", publicKey: { challenge: b64url([1, 2, 3, 251]), rpId: "harftet.test", allowCredentials: [{ id: b64url([9, 9]), type: "public-key" }] } };
  const answer = { token: "a3", refreshToken: "r3" };
  const { acc, sent, calls, storage } = await account( { routes: { "POST /sessions/passkey/options": options, "POST /sessions/passkey": answer } });
  await acc.passkeySignIn();
  const [[kind, { publicKey }]] = asked;
  assert.equal(kind, "get");
  assert.deepEqual([...publicKey.challenge], [1, 2, 3, 251]); // bytes, as WebAuthn wants them
  assert.deepEqual([...publicKey.allowCredentials[0].id], [9, 9]);
  assert.equal(publicKey.rpId, "harftet.test");
  assert.deepEqual(sent[1], ["POST /sessions/passkey", { challengeId: "ch-1", credential: {
    id: "cred-1", rawId: b64url([1, 2, 250]), type: "public-key", clientExtensionResults: {},
    response: { clientDataJSON: b64url([123, 125]), attestationObject: b64url([7, 7]), authenticatorData: b64url([9]), signature: b64url([255, 254]), userHandle: b64url([112]) },
  } }]);
  assert.deepEqual(calls, [["adopt", answer]]);
  assert.equal(storage.data[REFRESH], "r3");
});

it("a browser that writes the credential itself (toJSON) is trusted with it", async () => {
  webauthn({ toJSON: true });
  const { acc, sent } = await account( { routes: { "POST /sessions/passkey/options": { challengeId: "c", publicKey: { challenge: "AQ" } } } });
  await acc.passkeySignIn();
  assert.deepEqual(sent[1][1].credential, { id: "cred-1", fromBrowser: true });
});

it("a passkey cancelled in the browser is said in the catalogue's words, never the browser's English", async () => {
  webauthn();
  navigator.credentials.get = async () => { throw Object.assign(new Error("The operation either timed out or was not allowed. See: https://www.w3.org/TR/webauthn-2/#sctn-privacy-considerations-client."), { name: "NotAllowedError" }); };
  const { acc, store, calls } = await account( { routes: { "POST /sessions/passkey/options": { challengeId: "c", publicKey: { challenge: "AQ" } } } });
  await acc.passkeySignIn();
  assert.equal(store.get().notice.text, "Geçiş anahtarı kullanılmadı: iptal edildi ya da süre doldu.");
  assert.doesNotMatch(store.get().notice.text, /w3\.org|operation/);
  assert.deepEqual(calls, []);
  navigator.credentials.get = async () => { throw new TypeError("Failed to execute 'get' on 'CredentialsContainer'"); };
  await acc.passkeySignIn();
  assert.equal(store.get().notice.text, "Geçiş anahtarı bu tarayıcıda kullanılamadı.");
});

it("a wrong transfer code says so in Turkish, and the notice goes once a sign-in succeeds", async () => {
  const refused = new ApiError(401, { error: { code: "unauthorized", message: "this code is unknown, used or expired" } });
  const { acc, store } = await account({ routes: { "POST /sessions/transfer": refused } });
  await acc.codeSignIn("WRONG1");
  assert.equal(store.get().notice.text, "Bu kod tanınmadı: süresi geçmiş ya da kullanılmış olabilir. Diğer cihazında yeni bir kod al.");
  store.dispatch({ type: "signedIn", player: { token: "t", playerId: "p", name: "Ayşe", rating: 900 } });
  assert.equal(store.get().notice, null); // no red notice left on the lobby
});

it("a passkey added is said, and the list of passkeys read again", async () => {
  const asked = webauthn();
  const listed = { passkeys: [{ id: "cred-1", createdAt: 1 }] };
  const options = { challengeId: "ch-2", publicKey: { challenge: b64url([5]), user: { id: b64url([1, 1]), name: "Ayşe" }, excludeCredentials: [{ id: b64url([4]) }] } };
  const { acc, store, sent } = await account( { routes: { "POST /players/me/passkeys/options": options, "GET /players/me/passkeys": listed } });
  await acc.addPasskey();
  const { publicKey } = asked[0][1];
  assert.deepEqual([[...publicKey.challenge], [...publicKey.user.id], [...publicKey.excludeCredentials[0].id]], [[5], [1, 1], [4]]);
  assert.equal(publicKey.user.name, "Ayşe");
  assert.deepEqual(sent.map((x) => (typeof x === "string" ? x : x[0])), ["POST /players/me/passkeys/options", "POST /players/me/passkeys", "GET /players/me/passkeys"]);
  assert.equal(sent[1][1].challengeId, "ch-2");
  assert.deepEqual(store.get().notice, { text: undefined, key: "acc.passkey.added", params: undefined, kind: "ok", seq: 1 });
  assert.equal(store.get().account.passkeys, listed.passkeys);
});

it("the account dialog opens with the passkeys; one removed is gone from the list; a code is shown", async () => {
  const { acc, store, sent } = await account( { routes: { "GET /players/me/passkeys": { passkeys: [] }, "POST /players/me/transfer-codes": { code: "QX7P2KMD" } } });
  acc.open();
  await new Promise((r) => setImmediate(r));
  assert.equal(store.get().account.open, true);
  assert.deepEqual(store.get().account.passkeys, []);
  await acc.removePasskey("id/1");
  assert.deepEqual(sent.slice(1), ["DELETE /players/me/passkeys/id%2F1", "GET /players/me/passkeys"]);
  await acc.makeCode();
  assert.equal(store.get().account.code, "QX7P2KMD");
  acc.close();
  assert.equal(store.get().account.open, false);
});

it("the player's data is fetched for the download; a refusal gives nothing and says why", async () => {
  const ok = await account( { routes: { "GET /players/me/export": { player: { name: "Ayşe" } } } });
  assert.deepEqual(await ok.acc.exportData(), { player: { name: "Ayşe" } });
  const down = await account( { routes: { "GET /players/me/export": new ApiError(0, { error: { code: "network" } }) } });
  assert.equal(await down.acc.exportData(), null);
  assert.equal(down.store.get().notice.text, "Olmadı: Sunucuya ulaşılamıyor");
});

it("deleting the account asks first; only a yes deletes, forgets the session and signs out", async () => {
  const no = await account( { confirm: () => false, stored: { [REFRESH]: "r1" } });
  await no.acc.deleteMe();
  assert.deepEqual(no.questions, [t("acc.delete.confirm")]);
  assert.deepEqual(no.sent, []);
  const yes = await account( { stored: { [REFRESH]: "r1" } });
  yes.store.dispatch({ type: "account", patch: { open: true } });
  await yes.acc.deleteMe();
  assert.deepEqual(yes.sent, ["DELETE /players/me"]);
  assert.equal(yes.storage.data[REFRESH], undefined);
  assert.equal(yes.store.get().account.open, false);
  assert.deepEqual(yes.calls, [["signOut"]]);
  assert.equal(yes.store.get().notice.key, "acc.deleted"); // said on the first screen, not in red
  assert.equal(yes.store.get().notice.kind, "ok");
});

it("the access token is refreshed with the kept session, one request at a time", async () => {
  let answer;
  const pending = new Promise((resolve) => { answer = resolve; });
  const { acc, sent, calls, storage } = await account( { stored: { [REFRESH]: "r1" }, routes: { "POST /sessions/refresh": () => pending } });
  const first = acc.refresh();
  const second = acc.refresh();
  answer({ token: "a9", refreshToken: "r9" });
  await Promise.all([first, second]);
  assert.deepEqual(sent, [["POST /sessions/refresh", { refreshToken: "r1" }]]);
  assert.equal(storage.data[REFRESH], "r9");
  assert.deepEqual(calls, [["refreshed", { token: "a9", refreshToken: "r9" }]]);
  const guest = await account();
  await guest.acc.refresh();
  assert.deepEqual(guest.sent, []); // a guest has no session to refresh
});

it("a session the server no longer knows signs out; a network failure keeps it for later", async () => {
  const gone = await account( { stored: { [REFRESH]: "r1" }, routes: { "POST /sessions/refresh": refused(401, "unauthorized") } });
  await gone.acc.refresh();
  assert.equal(gone.storage.data[REFRESH], undefined);
  assert.deepEqual(gone.calls, [["signOut"]]);
  const away = await account( { stored: { [REFRESH]: "r1" }, routes: { "POST /sessions/refresh": refused(0, "network") } });
  await away.acc.refresh();
  assert.equal(away.storage.data[REFRESH], "r1");
  assert.deepEqual(away.calls, []);
});

it("the token is refreshed every twelve minutes while the tab shows, and on coming back after longer", async (ctx) => {
  let hidden = false;
  const { acc, sent } = await account( { stored: { [REFRESH]: "r1" }, hidden: () => hidden, routes: { "POST /sessions/refresh": { token: "a", refreshToken: "r1" } } });
  const refreshes = () => sent.filter((x) => x[0] === "POST /sessions/refresh").length;
  ctx.mock.timers.tick(REFRESH_MS);
  await new Promise((r) => setImmediate(r));
  assert.equal(refreshes(), 1);
  hidden = true;
  ctx.mock.timers.tick(REFRESH_MS);
  assert.equal(refreshes(), 1); // a background tab asks nothing
  ctx.mock.timers.tick(1000);
  acc.wake();
  await new Promise((r) => setImmediate(r));
  assert.equal(refreshes(), 2); // back after more than twelve minutes
  acc.wake();
  assert.equal(refreshes(), 2); // just refreshed
});

it("signing out ends this device's session on the server; a guest has none to end", async () => {
  const { acc, sent, storage } = await account( { stored: { [REFRESH]: "r1" }, routes: { "DELETE /sessions/current": refused(0, "network") } });
  await acc.signOut(); // even unreachable, the session is forgotten here
  assert.deepEqual(sent, ["DELETE /sessions/current"]);
  assert.equal(storage.data[REFRESH], undefined);
  assert.equal(acc.hasSession(), false);
  const guest = await account();
  await guest.acc.signOut();
  assert.deepEqual(guest.sent, []);
});
