// Who is playing: a guest made from a name, a sign-in adopted (a passkey, a transfer code),
// the session forgotten, the name and rating refreshed. The session is kept in this browser.
import { forgetSession, loadSession, saveSession } from "./session.js";
import { getBounds } from "./texts.js";

/** Visible characters of a name as the server counts them: NFC, combining marks join their letter. */
export function nameLength(name) {
  return [...name.trim().normalize("NFC")].filter((ch) => !/\p{M}/u.test(ch)).length;
}

/** `enter()`: where a signed-in player goes (their table, else the lobby); `live`: the table's socket. */
export function createIdentity({ store, api, storage, live, enter }) {
  const me = () => store.get().me;

  async function signIn(name) {
    const max = getBounds().nameMax;
    const n = nameLength(name);
    if (max != null && n > max) throw Object.assign(new Error(), { code: "bad_request", params: { field: "name", max, n } });
    await adopt(await api.createPlayer(name));
  }

  /** A new guest, or a sign-in (account.js: passkey, transfer code). */
  async function adopt(p) {
    store.dispatch({ type: "signedIn", player: p });
    saveSession(storage, me());
    await enter();
  }

  function signOut(message) {
    live.close();
    forgetSession(storage);
    store.dispatch({ type: "signedOut" });
    if (message) store.dispatch({ type: "notice", key: message });
  }

  /** A refreshed access token (a session's lives 15 minutes). */
  function refreshed(p) {
    store.dispatch({ type: "refreshed", token: p.token });
    saveSession(storage, me());
  }

  async function refresh() {
    if (!me()) return;
    try {
      const p = await api.player(me().playerId);
      store.dispatch({ type: "me", name: p.name, rating: p.rating });
      saveSession(storage, me());
    } catch (e) { if (e.status === 404) signOut("notice.session"); }
  }

  return { signIn, adopt, signOut, refreshed, refresh, saved: () => loadSession(storage) };
}
