// Opening a finished game's replay (GET /tables/{id}/replay) for the replay screen (replay.js),
// and its deal check: deal.js recomputes every deal from the seed and compares the proofs this
// browser saw during play (session.js keeps them).
import { seenProofs } from "./session.js";

/** Opening and loading a replay, and its deal check; `refusal(e)`: the catalogue's sentence for a refusal. */
export function createReplays({ store, api, storage, refusal = (e) => e.code }) {
  const dispatch = (m) => store.dispatch(m);
  /** `from`: the tournament whose page opened it (its back button leads there). */
  async function open(tableId, from = null) {
    dispatch({ type: "replayOpened", tableId, from });
    let doc;
    try {
      doc = await api.request("GET", `/tables/${encodeURIComponent(tableId)}/replay`);
    } catch (e) {
      return dispatch({ type: "replayFailed", tableId, text: refusal(e) });
    }
    dispatch({ type: "replayLoaded", tableId, doc });
    const { verifyReplay } = await import("./deal.js"); // only when a replay opens: not part of the boot
    const result = await verifyReplay(doc, seenProofs(storage, tableId));
    dispatch({ type: "replayChecked", tableId, ok: result.ok });
  }
  return { open, step: (hand, step) => dispatch({ type: "replayStep", hand, step }) };
}
