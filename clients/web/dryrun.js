// Every draft meld is tinted as it is built: by what is known at once (game.js `tint`) and else
// by dry runs (API.md "Dry run"), debounced and ordered so that each one settles at least one
// meld (draft.js `probeBody`). A dry run never outlives its draft or the turn.
import * as D from "./draft.js";
import { limits, myTurn, tint } from "./game.js";

const DEBOUNCE_MS = 300;
const ROUNDS = 3; // dry runs at most per change of the draft (the server budgets them per player)
const REMEMBERED = 500; // the server's verdicts on words kept
const PAUSE_MS = 15_000; // over the server's dry-run budget: ask again after this

export function createDryRuns({ store, api }) {
  const verdicts = new Map(); // "series:KALEM" → "valid": the server's verdicts on Harftet words
  let timer = 0;
  let seq = 0;

  function remember(key, verdict) {
    if (!key) return;
    if (verdicts.size > REMEMBERED) verdicts.delete(verdicts.keys().next().value);
    verdicts.set(key, verdict);
  }

  /** A dry run waiting for its debounce is dropped, an answer on its way ignored. */
  function cancel() {
    clearTimeout(timer);
    seq++; // an answer to an older draft is not this draft's
  }

  /** Tint what is known now, and ask the server about the rest after a pause for more taps. */
  function schedule() {
    cancel();
    const { table, caps } = store.get();
    if (!table || !table.draft || !table.view) return;
    const { validity, unknown } = tint(table.view, table.draft, verdicts);
    const was = table.validity;
    const same = Object.keys(was).length === Object.keys(validity).length && Object.entries(validity).every(([k, x]) => was[k] === x);
    if (!same) store.dispatch({ type: "validity", validity });
    const d = table.draft;
    if (!caps.dryRun || !myTurn(table.view) || !D.addsFromHand(d) || D.undeclared(d).length) return;
    if (Date.now() < table.dryPausedUntil) return;
    const open = unknown.series.length + unknown.pairs.length;
    if (!open && Object.values(validity).includes("invalid")) return; // known to be refused: nothing to ask
    timer = setTimeout(() => run(unknown), DEBOUNCE_MS);
  }

  async function run(unknown) {
    const mine = seq;
    const { draft, view: v } = store.get().table;
    const current = () => store.get().table;
    const outdated = () => mine !== seq || !current() || current().draft !== draft; // changed or put back
    let asked = unknown;
    let withPairs = draft.series.filter((m) => m.length).length >= limits(v).pairsOpenAt; // else tinted closed
    for (let round = 0; round < ROUNDS; round++) {
      // also when the table moved on or the turn ended: the server would only refuse it (403)
      if (outdated() || current().view.version !== v.version || !myTurn(current().view)) return;
      let plan;
      try { plan = D.probeBody(draft, asked, withPairs); } catch { return; }
      let answer;
      try {
        const res = await api.move(v.tableId, { version: v.version, type: "lay", dryRun: true, ...plan.body });
        if (!res || res.legal !== true) return store.dispatch({ type: "caps", caps: { dryRun: false } }); // no dry runs here
        answer = { legal: true };
      } catch (e) {
        if (e.code === "bad_request") return store.dispatch({ type: "caps", caps: { dryRun: false } });
        if (e.status === 429) return store.dispatch({ type: "dryRunPaused", until: Date.now() + PAUSE_MS });
        if (e.code !== "illegal_move") return;
        answer = { legal: false, reason: e.reason, meld: e.meld ?? e.params.meld, pair: e.params.pair };
      }
      if (outdated()) return;
      const learned = D.readProbe(plan, asked, answer);
      for (const [key, verdict] of learned) {
        const [area, mi] = key.split(":");
        remember(D.verdictKey(v.game, area, draft[area][Number(mi)]), verdict);
      }
      store.dispatch({ type: "verdicts", learned: [...learned] });
      if (answer.reason === "pairs_closed") withPairs = false;
      asked = {
        series: asked.series.filter((mi) => !learned.has(`series:${mi}`)),
        pairs: withPairs ? asked.pairs.filter((mi) => !learned.has(`pairs:${mi}`)) : [],
      };
      if (!asked.series.length && !asked.pairs.length) return;
      if (!learned.size && answer.reason !== "pairs_closed") return; // nothing more to learn this way
    }
  }

  return { schedule, cancel };
}
