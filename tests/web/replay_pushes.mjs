// What apply_deltas.mjs and apply_deltas_ts.mjs share: read JSON [{"base": view, "pushes":
// [message, ...]}, ...] on stdin and print, for each, the view a client's `receive(view,
// message)` (→ {view, sync}) rebuilds from the pushes, and how many times it asked for a sync.
export async function replayStdin(receive) {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  const out = JSON.parse(input).map(({ base, pushes }) => {
    let view = base;
    let syncs = 0;
    for (const message of pushes) {
      const state = receive(view, message);
      view = state.view;
      syncs += state.sync ? 1 : 0;
    }
    return { view, syncs };
  });
  process.stdout.write(JSON.stringify(out));
}
