// Looking for opponents (POST /matchmaking, API.md v4): "Hemen oyna" for a rated game. While it
// looks, the lobby's quick-play card says "Rakip aranıyor…" with the time waited and a cancel; the
// table opens once matched (asked every second, at once when the player's own socket pushes
// `matched`). A computer game is still a tick away (tables.js, quickPlay).
export const POLL_MS = 1000;
const SEATS = 4;

/** "1:05": the time waited, minutes and seconds. */
export function waited(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** `play`: play.js (openTable); `now()`: the clock, in ms. */
export function createSearch({ store, api, play, now = () => Date.now() }) {
  const dispatch = (m) => store.dispatch(m);
  let timer = 0;

  function stop() {
    clearTimeout(timer);
    timer = 0;
    if (store.get().search) dispatch({ type: "searching", search: null });
  }

  async function start(game) {
    const { ticketId } = await api.search({ game, seats: SEATS });
    dispatch({ type: "searching", search: { ticketId, game, since: now() } });
    timer = setTimeout(poll, POLL_MS);
  }

  async function found(ticketId, tableId) {
    const s = store.get().search;
    if (!s || s.ticketId !== ticketId) return; // told twice (the push and the poll): opened once
    stop();
    await play.openTable(tableId);
  }

  async function poll() {
    const s = store.get().search;
    if (!s) return;
    let got = null;
    try { got = await api.ticket(s.ticketId); } catch (e) {
      if (e.code === "not_found") return stop();
    }
    if (got && got.status === "matched") return found(s.ticketId, got.tableId);
    if (got && got.status === "cancelled") return stop();
    if (store.get().search === s) timer = setTimeout(poll, POLL_MS);
  }

  async function cancel() {
    const s = store.get().search;
    if (!s) return;
    try { await api.cancelSearch(s.ticketId); } catch (e) {
      if (e.code === "wrong_status") return poll(); // matched meanwhile: the table opens
      if (e.code !== "not_found") throw e;
    }
    stop();
  }

  const pushed = (msg) => found(msg.ticketId, msg.tableId);
  return { start, cancel, pushed, stop };
}
