// Accounts (API.md v3 "Identity"): passkeys make a guest an account, a transfer code moves it to
// a device without the passkey, sessions refresh their short access token. The browser does the
// WebAuthn ceremonies (navigator.credentials); the server checks them.
import { ApiError } from "./api.js";
import { errorText } from "./refusals.js";
import { REFRESH } from "./session.js";
import { t } from "./texts.js";

export const REFRESH_MS = 12 * 60 * 1000; // access tokens live 15 minutes

// -- base64url <-> ArrayBuffer, for browsers without PublicKeyCredential.parse*FromJSON
const toBytes = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const toB64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

function creationOptions(o) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(o);
  return { ...o, challenge: toBytes(o.challenge), user: { ...o.user, id: toBytes(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })) };
}

function requestOptions(o) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(o);
  return { ...o, challenge: toBytes(o.challenge), allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })) };
}

function credentialJson(c) {
  if (typeof c.toJSON === "function") return c.toJSON();
  const r = c.response;
  const response = { clientDataJSON: toB64(r.clientDataJSON) };
  if (r.attestationObject) response.attestationObject = toB64(r.attestationObject);
  if (r.authenticatorData) response.authenticatorData = toB64(r.authenticatorData);
  if (r.signature) response.signature = toB64(r.signature);
  if (r.userHandle) response.userHandle = toB64(r.userHandle);
  return { id: c.id, rawId: toB64(c.rawId), type: c.type, response, clientExtensionResults: c.getClientExtensionResults() };
}

/** What a failed account step says: `wrong` (a catalogue key) for a 401 (a wrong code or
 * passkey), the catalogue's sentence of any other refusal, and a browser's WebAuthn failure as
 * the catalogue words it (cancelled, or not possible here). */
export function failure(e, wrong = null) {
  if (e instanceof ApiError) return e.status === 401 && wrong ? t(wrong) : t("acc.failed", { why: errorText(e) });
  const name = e && e.name;
  if (name === "NotAllowedError" || name === "AbortError") return t("acc.passkey.cancelled");
  return t(name === "InvalidStateError" ? "acc.passkey.exists" : "acc.passkey.failed");
}

/** `identity`: identity.js (adopt a sign-in, refreshed tokens, sign out); `confirm`: the browser's;
 * `hidden()`: whether the tab is in the background (no refresh then). */
export function createAccount({ store, api, storage, identity, confirm, hidden = () => false }) {
  const dispatch = (m) => store.dispatch(m);
  const supported = () => !!globalThis.PublicKeyCredential && !!navigator.credentials;
  // The server's refusals and the browser's own failures in the catalogue's words (a browser's
  // message is in its own language, with links for developers: never shown).
  const fail = (e, wrong = null) => dispatch({ type: "notice", text: failure(e, wrong) });
  const unsupported = () => dispatch({ type: "notice", key: "acc.unsupported" });

  async function adopt(answer) {
    storage.setItem(REFRESH, answer.refreshToken);
    await identity.adopt(answer);
  }

  let pending = null; // one refresh at a time (a 401 during the refresh itself asks again)
  let last = Date.now();
  function refresh() {
    last = Date.now();
    const token = storage.getItem(REFRESH);
    if (!token) return Promise.resolve();
    if (pending) return pending;
    pending = api.request("POST", "/sessions/refresh", { refreshToken: token })
      .then((answer) => { storage.setItem(REFRESH, answer.refreshToken); identity.refreshed(answer); })
      .catch((e) => { if (e.status === 401) { storage.removeItem(REFRESH); identity.signOut(); } })
      .finally(() => { pending = null; });
    return pending;
  }

  async function passkeySignIn() {
    if (!supported()) return unsupported();
    try {
      const options = await api.request("POST", "/sessions/passkey/options");
      const credential = await navigator.credentials.get({ publicKey: requestOptions(options.publicKey) });
      await adopt(await api.request("POST", "/sessions/passkey", { challengeId: options.challengeId, credential: credentialJson(credential) }));
    } catch (e) { fail(e, "acc.passkey.wrong"); }
  }

  async function codeSignIn(code) {
    try { await adopt(await api.request("POST", "/sessions/transfer", { code })); } catch (e) { fail(e, "acc.code.wrong"); }
  }

  async function listPasskeys() {
    const { passkeys } = await api.request("GET", "/players/me/passkeys");
    dispatch({ type: "account", patch: { passkeys } });
  }

  async function addPasskey() {
    if (!supported()) return unsupported();
    try {
      const options = await api.request("POST", "/players/me/passkeys/options");
      const credential = await navigator.credentials.create({ publicKey: creationOptions(options.publicKey) });
      await api.request("POST", "/players/me/passkeys", { challengeId: options.challengeId, credential: credentialJson(credential) });
      dispatch({ type: "notice", key: "acc.passkey.added", kind: "ok" });
      await listPasskeys();
    } catch (e) { fail(e); }
  }

  const removePasskey = (id) => api.request("DELETE", `/players/me/passkeys/${encodeURIComponent(id)}`).then(listPasskeys, fail);

  async function makeCode() {
    try {
      const { code } = await api.request("POST", "/players/me/transfer-codes");
      dispatch({ type: "account", patch: { code } });
    } catch (e) { fail(e); }
  }

  /** The player's data (GET /players/me/export), or null when it could not be had. */
  async function exportData() {
    try { return await api.request("GET", "/players/me/export"); } catch (e) { fail(e); return null; }
  }

  async function deleteMe() {
    if (!confirm(t("acc.delete.confirm"))) return;
    try {
      await api.request("DELETE", "/players/me");
      storage.removeItem(REFRESH);
      dispatch({ type: "account", patch: { open: false } });
      identity.signOut();
      dispatch({ type: "notice", key: "acc.deleted", kind: "ok" }); // said on the first screen
    } catch (e) { fail(e); }
  }

  function open() {
    dispatch({ type: "account", patch: { open: true } });
    listPasskeys().catch(fail);
  }

  setInterval(() => !hidden() && refresh(), REFRESH_MS);
  return {
    refresh, passkeySignIn, codeSignIn, addPasskey, removePasskey, makeCode, exportData, deleteMe, open,
    close: () => dispatch({ type: "account", patch: { open: false } }),
    /** Back after a while (the tab was hidden): a fresh token before anything is asked. */
    wake: () => { if (Date.now() - last > REFRESH_MS) refresh(); },
    /** Whether this device holds a session (a refresh token): a 401 means "refresh", not "gone". */
    hasSession: () => !!storage.getItem(REFRESH),
    /** Ends this device's session on the server (a guest has none) before the app forgets it. */
    signOut: async () => {
      if (storage.getItem(REFRESH)) await api.request("DELETE", "/sessions/current").catch(() => {});
      storage.removeItem(REFRESH);
    },
  };
}
