// The table's traffic with the server: opening a table (its view over REST, then pushes on its
// WebSocket), moves (on the socket when it is open, else REST; the same moveId is never applied
// twice), hints, "ready" between hands, the log, and the manager's buttons. Views go to the
// store as "view" messages; refusals become notices.
import { ApiError, newMoveId } from "./api.js";
import * as D from "./draft.js";
import { draftAsView, limits, mySeat, practice } from "./game.js";
import { saveTable } from "./session.js";
import { getLang, t } from "./texts.js";

// A socket's own trouble (its registration, a busy moment): REST gives the answer instead.
const SOCKET_TROUBLE = new Set(["unauthorized", "not_found", "bad_request", "busy", "internal"]);

/**
 * `tries`: attempts.js; `dryRuns`: dryrun.js; `askFace`, `confirm`: the dialogs; `openLobby()`
 * (tables.js) when a table is gone; `beforeTable()`: the lobby's own socket closes.
 */
export function createPlay({ store, api, live, storage, tries, dryRuns, askFace, confirm, openLobby, beforeTable }) {
  const dispatch = (m) => store.dispatch(m);
  const table = () => store.get().table;
  const view = () => table() && table().view;
  const say = (key, params, kind = "info") => dispatch({ type: "notice", key, params, kind });

  async function openTable(id) {
    beforeTable(); // the table's own connection brings invitations there
    try { enterTable(await api.table(id)); } catch (e) {
      if (e.status === 401) return;
      if (e.code === "network") return tries.setOffline(true);
      if (e.status === 404) say("notice.gone", null, "error");
      else dispatch({ type: "notice", text: tries.refusal(e) });
      await openLobby();
    }
  }

  function enterTable(v) {
    saveTable(storage, v.tableId);
    history.replaceState(null, "", `#t=${v.tableId}`);
    dispatch({ type: "tableOpened", view: v });
    // Already watching this table (sitting down after opening an invitation): keep the connection,
    // or the log would show a needless "bağlantı koptu / geri döndü".
    const w = live.want;
    const token = store.get().me.token;
    if (!(w && w.tableId === v.tableId && w.token === token)) live.connect(token, v.tableId);
    live.adopt(v);
    loadLog();
  }

  async function resync() {
    const id = table() && table().id;
    if (!id) return;
    try {
      dispatch({ type: "view", view: await api.table(id) });
      if (store.get().offline) tries.setOffline(false);
    } catch (e) { if (e.code === "network") tries.setOffline(true); /* else the next push or action retries */ }
  }

  async function loadLog() {
    const tb = table();
    if (!tb || !store.get().caps.log) return;
    try {
      const data = await api.log(tb.id, tb.logSeq);
      if (table() && table().id === tb.id) dispatch({ type: "log", events: (data && data.events) || [] });
    } catch (e) {
      if (e.status === 404 || e.status === 405) dispatch({ type: "caps", caps: { log: false } }); // no log here
    }
  }

  async function sendMove(type, extra = {}) {
    dryRuns.cancel(); // the move lays the draft or ends the turn: a verdict on it is no use now
    const v = view();
    const body = { version: v.version, moveId: newMoveId(), type, ...extra };
    try {
      const answered = await live.move(body, getLang()).catch((refused) => {
        if (SOCKET_TROUBLE.has(refused.error?.code)) return null;
        throw new ApiError(refused.status || 400, refused);
      });
      dispatch({ type: "moveAnswered", view: answered ?? (await api.move(v.tableId, body)) });
      dispatch({ type: "noticeCleared" });
    } catch (e) {
      if (e.code === "stale_version" && e.view) {
        const before = table().draft;
        dispatch({ type: "view", view: e.view, force: true });
        const kept = !!(before && before.dirty && table().draft === before);
        say(kept ? "notice.stale.kept" : "notice.stale");
      } else if (e.code === "illegal_move") {
        dispatch({ type: "refused", meld: e.meld ?? e.params.meld ?? null });
        dispatch({ type: "notice", text: tries.refusal(e) });
      } else throw e;
    }
  }

  /** Lay the draft; `end` ends the turn with it: the lay and the pass as ONE move (API "pass": true). */
  async function lay(end = false) {
    for (const id of D.undeclared(table().draft)) {
      const face = await askFace(null, view());
      if (face == null) return;
      dispatch({ type: "draft", draft: D.setFace(table().draft, id, face), quiet: true });
    }
    return sendMove("lay", { ...D.layBody(table().draft), ...(end === true ? { pass: true } : {}) });
  }

  /** "Pas" ends the turn; with tiles of the hand in the draft it is "Aç ve pas": the lay goes with it. */
  const pass = () => (D.addsFromHand(table().draft) ? lay(true) : sendMove("pass"));

  function draw() {
    if (table().draft && D.addsFromHand(table().draft) && !confirm(t("confirm.draw"))) return;
    return sendMove("draw");
  }

  async function hint() {
    let res;
    try { res = await api.hint(view().tableId); } catch (e) {
      if (e.status === 404 || e.status === 405 || e.code === "hints_off") {
        dispatch({ type: "hintsOff" });
        if (e.code === "hints_off") dispatch({ type: "notice", text: tries.refusal(e), kind: "info" });
        return;
      }
      if (e.code === "no_hints_left") { await resync(); return say("notice.noHintsLeft"); }
      throw e;
    }
    if (!res || (!res.lay && !res.meld)) return say("notice.noHint");
    if (res.version !== view().version) await resync();
    // Unlimited hints give the whole lay; a budgeted hint one meld (RULES §4a), laid out over the
    // table — or over the melds the hints before it laid out, while the player has not changed them.
    const tb = table();
    const over = tb.hinted && tb.draft === tb.hinted && res.revealed > 1 ? draftAsView(tb.view, tb.draft) : tb.view;
    const body = res.lay || D.layOfMeld(over, res.meld, res.area || "series");
    dispatch({ type: "hinted", draft: D.inferFaces(D.fromLay(tb.view, body), tb.view.game, limits(tb.view)) });
    if (res.lay) say("notice.hint", { lay: t(tb.view.series.length ? "btn.lay.more" : "btn.lay") }); // Yere aç or İşle
    else say("notice.hintMeld", { shed: res.meldShed ?? res.shed }); // this meld's own worth, not the whole lay's
  }

  /** "Sonraki el": ready for the next hand (RULES §2a); a version that moved on is retried once. */
  async function ready() {
    for (let round = 0; round < 2; round++) {
      const v = view();
      if (!v || !v.break) return;
      try {
        dispatch({ type: "view", view: await api.move(v.tableId, { version: v.version, moveId: newMoveId(), type: "ready" }) });
        return;
      } catch (e) {
        if (e.code === "stale_version" && e.view) { dispatch({ type: "view", view: e.view }); continue; }
        if (e.code === "wrong_status") return resync(); // the break is already over
        throw e;
      }
    }
  }

  async function leave() {
    const v = view();
    const seat = mySeat(v);
    if (seat != null && v.status !== "finished") {
      const question = practice(v) ? t("confirm.leave.practice") : t("confirm.leave", { n: 2 * v.hands });
      if ((v.status === "playing" || v.status === "paused") && !confirm(question)) return;
      await api.stand(v.tableId, seat);
    }
    await openLobby();
  }

  async function invite() {
    const link = `${location.origin}${location.pathname}#t=${table().id}`;
    try { await navigator.clipboard.writeText(link); } catch { /* no clipboard: the link is shown */ }
    dispatch({ type: "notice", text: `${t("table.copied")} ${link}`, kind: "info" });
  }

  const answer = async (call) => dispatch({ type: "view", view: await call });
  return {
    openTable, enterTable, resync, loadLog, lay, draw, hint, ready, leave, invite,
    pass,
    start: () => answer(api.start(table().id)),
    resume: () => answer(api.resume(table().id)),
    removeBot: (seat) => answer(api.stand(table().id, seat)),
  };
}
