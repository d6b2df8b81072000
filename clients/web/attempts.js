// How every action meets failure: a refusal becomes a notice (until the next action that
// succeeds), a server out of reach the "bağlantı yok" banner (retried every few seconds), and
// table moves go one at a time.
import { errorText } from "./refusals.js";
import { limits, tileName } from "./game.js";

/** `retry()` is called while offline, every RETRY_MS, until something succeeds. */
export function createAttempts({ store, retry = () => {} }) {
  const RETRY_MS = 5000;
  let timer = 0;

  function setOffline(on) {
    if (store.get().offline !== on) store.dispatch({ type: "offline", on });
    clearTimeout(timer);
    if (on) timer = setTimeout(() => { if (store.get().offline) retry(); }, RETRY_MS);
  }

  /** A refusal in the player's words, tiles named from the table being played. */
  function refusal(e) {
    const v = store.get().table && store.get().table.view;
    return errorText(e, (id) => tileName(v, id), limits(v));
  }

  /** Run `fn`; its refusal is shown, and an old refusal goes once something succeeds. */
  async function attempt(fn) {
    const seq = store.get().noticeSeq;
    try {
      await fn();
      const { notice, noticeSeq } = store.get();
      if (seq === noticeSeq && notice && notice.kind === "error") store.dispatch({ type: "noticeCleared" });
    } catch (e) {
      if (e.status === 0 || e.code === "network") return setOffline(true);
      if (e.status !== 401) store.dispatch({ type: "notice", text: refusal(e) });
    }
  }

  /** One table move at a time: the buttons wait while one is on its way. */
  async function guarded(fn) {
    if (store.get().busy) return;
    store.dispatch({ type: "busy", on: true });
    try { await attempt(fn); } finally { store.dispatch({ type: "busy", on: false }); }
  }

  return { attempt, guarded, setOffline, refusal };
}
