// Reads JSON [{"base": view, "pushes": [message, ...]}, ...] on stdin and prints, for each, the
// view clients/web/delta.js rebuilds from the pushes (and how many times it asked for a sync).
import { receive } from "../../clients/web/delta.js";

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
