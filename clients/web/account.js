// Accounts (API.md v3 "Identity"): passkeys make a guest an account, a transfer code moves it
// to a device without the passkey, sessions refresh their short access token. The browser does
// the WebAuthn ceremonies (navigator.credentials); the server checks them. Turkish first.
import { getLang } from "./i18n.js";

const TEXT = {
  "acc.passkey.signin": ["Geçiş anahtarıyla gir", "Sign in with a passkey"],
  "acc.code.label": ["Aktarım kodu", "Transfer code"],
  "acc.code.signin": ["Kodla gir", "Sign in with the code"],
  "acc.open": ["Hesap", "Account"],
  "acc.h": ["Hesabın", "Your account"],
  "acc.passkey.add": ["Geçiş anahtarı ekle", "Add a passkey"],
  "acc.passkey.added": ["Geçiş anahtarı eklendi: başka cihazda onunla girebilirsin.", "Passkey added: sign in with it on another device."],
  "acc.passkeys": ["Geçiş anahtarların", "Your passkeys"],
  "acc.passkey.remove": ["Kaldır", "Remove"],
  "acc.code.make": ["Aktarım kodu al", "Get a transfer code"],
  "acc.code.shown": ["Bu kodu yeni cihazda yaz (10 dakika, bir kez):", "Type this code on the new device (10 minutes, once):"],
  "acc.export": ["Verilerimi indir", "Download my data"],
  "acc.delete": ["Hesabımı sil", "Delete my account"],
  "acc.delete.confirm": ["Adın, puanın, geçiş anahtarların silinecek; biten oyunlarda \"Silinmiş oyuncu\" kalır. Emin misin?", "Your name, rating and passkeys will be deleted; finished games keep \"Silinmiş oyuncu\". Are you sure?"],
  "acc.close": ["Kapat", "Close"],
  "acc.unsupported": ["Bu tarayıcı geçiş anahtarını desteklemiyor.", "This browser does not support passkeys."],
  "acc.failed": ["Olmadı: ", "That did not work: "],
};

const tx = (key) => (TEXT[key] || [key, key])[getLang() === "en" ? 1 : 0];
const REFRESH_KEY = "harftet.refresh";
const REFRESH_MS = 12 * 60 * 1000; // access tokens live 15 minutes

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

// Labels follow the language switch (#lang): elements made with lx() carry their key.
export function relabelOnSwitch(tx) {
  const lang = document.querySelector("#lang");
  if (lang) lang.addEventListener("click", () => setTimeout(() => {
    for (const e of document.querySelectorAll("[data-tx]")) e.textContent = tx(e.dataset.tx);
  }));
}

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

/**
 * Wires the account screens. `app`: { api, session() → {token, playerId, name}, adopt(answer)
 * (a sign-in answer: keep its token, go on), signOut(), notify(message, kind) }.
 */
export function initAccount(app) {
  const { api } = app;
  relabelOnSwitch(tx);
  const supported = !!window.PublicKeyCredential && !!navigator.credentials;
  const fail = (e) => app.notify(tx("acc.failed") + (e && e.message ? e.message : String(e)));

  async function adopt(answer) {
    localStorage.setItem(REFRESH_KEY, answer.refreshToken);
    await app.adopt(answer);
  }

  let pending = null; // one refresh at a time (a 401 during the refresh itself asks again)
  function refresh() {
    const token = localStorage.getItem(REFRESH_KEY);
    if (!token) return Promise.resolve();
    if (pending) return pending;
    pending = api.request("POST", "/sessions/refresh", { refreshToken: token })
      .then((answer) => { localStorage.setItem(REFRESH_KEY, answer.refreshToken); app.refreshed(answer); })
      .catch((e) => { if (e.status === 401) { localStorage.removeItem(REFRESH_KEY); app.signOut(); } })
      .finally(() => { pending = null; });
    return pending;
  }

  async function passkeySignIn() {
    if (!supported) return app.notify(tx("acc.unsupported"));
    try {
      const options = await api.request("POST", "/sessions/passkey/options");
      const credential = await navigator.credentials.get({ publicKey: requestOptions(options.publicKey) });
      await adopt(await api.request("POST", "/sessions/passkey", { challengeId: options.challengeId, credential: credentialJson(credential) }));
    } catch (e) { fail(e); }
  }

  async function codeSignIn(code) {
    try { await adopt(await api.request("POST", "/sessions/transfer", { code })); } catch (e) { fail(e); }
  }

  async function addPasskey() {
    if (!supported) return app.notify(tx("acc.unsupported"));
    try {
      const options = await api.request("POST", "/players/me/passkeys/options");
      const credential = await navigator.credentials.create({ publicKey: creationOptions(options.publicKey) });
      await api.request("POST", "/players/me/passkeys", { challengeId: options.challengeId, credential: credentialJson(credential) });
      app.notify(tx("acc.passkey.added"), "ok");
      await listPasskeys();
    } catch (e) { fail(e); }
  }

  async function listPasskeys() {
    const list = dialog.querySelector("#acc-passkeys");
    list.replaceChildren();
    const { passkeys } = await api.request("GET", "/players/me/passkeys");
    for (const p of passkeys) {
      const when = new Date(p.createdAt * 1000).toLocaleDateString(getLang());
      list.append(el("li", { "data-passkey": p.id }, `${when} `, el("button", { type: "button", class: "link",
        onclick: () => api.request("DELETE", `/players/me/passkeys/${encodeURIComponent(p.id)}`).then(listPasskeys, fail) }, tx("acc.passkey.remove"))));
    }
  }

  async function makeCode() {
    try {
      const { code } = await api.request("POST", "/players/me/transfer-codes");
      const out = dialog.querySelector("#acc-code");
      out.replaceChildren(tx("acc.code.shown"), " ", el("strong", { id: "acc-code-value" }, code));
      out.hidden = false;
    } catch (e) { fail(e); }
  }

  async function download() {
    try {
      const data = await api.request("GET", "/players/me/export");
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
      el("a", { href: url, download: "harftet-verilerim.json" }).click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) { fail(e); }
  }

  async function deleteMe() {
    if (!window.confirm(tx("acc.delete.confirm"))) return;
    try {
      await api.request("DELETE", "/players/me");
      localStorage.removeItem(REFRESH_KEY);
      dialog.close();
      app.signOut();
    } catch (e) { fail(e); }
  }

  // -- the login screen: a passkey, or a code from the old device
  const login = document.querySelector("#login");
  const codeInput = el("input", { id: "acc-code-input", maxlength: "12", autocomplete: "one-time-code", autocapitalize: "characters", placeholder: "ABCD2345" });
  const block = el("div", { class: "account-login" },
    el("button", { type: "button", id: "acc-passkey-signin", onclick: passkeySignIn, "data-tx": "acc.passkey.signin" }, tx("acc.passkey.signin")),
    el("form", { id: "acc-code-form", onsubmit: (ev) => { ev.preventDefault(); codeSignIn(codeInput.value.trim()); } },
      el("label", { for: "acc-code-input", "data-tx": "acc.code.label" }, tx("acc.code.label")), codeInput,
      el("button", { type: "submit", "data-tx": "acc.code.signin" }, tx("acc.code.signin"))));
  if (login) login.append(block);

  // -- the account dialog, opened from the header
  const dialog = el("dialog", { id: "account-dialog", class: "card" },
    el("h2", { "data-tx": "acc.h" }, tx("acc.h")),
    el("button", { type: "button", id: "acc-passkey-add", onclick: addPasskey, "data-tx": "acc.passkey.add" }, tx("acc.passkey.add")),
    el("h3", { "data-tx": "acc.passkeys" }, tx("acc.passkeys")), el("ul", { id: "acc-passkeys" }),
    el("button", { type: "button", id: "acc-code-make", onclick: makeCode, "data-tx": "acc.code.make" }, tx("acc.code.make")),
    el("p", { id: "acc-code", hidden: "" }),
    el("button", { type: "button", id: "acc-export", onclick: download, "data-tx": "acc.export" }, tx("acc.export")),
    el("button", { type: "button", id: "acc-delete", class: "danger", onclick: deleteMe, "data-tx": "acc.delete" }, tx("acc.delete")),
    el("button", { type: "button", id: "acc-close", onclick: () => dialog.close(), "data-tx": "acc.close" }, tx("acc.close")));
  document.body.append(dialog);
  const me = document.querySelector("#me");
  if (me) me.prepend(el("button", { type: "button", id: "acc-open", class: "link", "data-tx": "acc.open",
    onclick: () => { dialog.showModal(); listPasskeys().catch(fail); } }, tx("acc.open")));

  let last = Date.now();
  const fresh = () => { last = Date.now(); return refresh(); };
  setInterval(() => !document.hidden && fresh(), REFRESH_MS);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && Date.now() - last > REFRESH_MS) fresh(); // back after a while
  });
  return {
    refresh: fresh,
    /** Whether this device holds a session (a refresh token): a 401 means "refresh", not "gone". */
    hasSession: () => !!localStorage.getItem(REFRESH_KEY),
    /** Ends this device's session on the server (a guest has none) before the app forgets it. */
    signOut: async () => {
      if (localStorage.getItem(REFRESH_KEY)) await api.request("DELETE", "/sessions/current").catch(() => {});
      localStorage.removeItem(REFRESH_KEY);
    },
  };
}
