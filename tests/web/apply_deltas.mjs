// Reads JSON [{"base": view, "pushes": [message, ...]}, ...] on stdin and prints, for each, the
// view clients/web/delta.js rebuilds from the pushes (and how many times it asked for a sync).
import { receive } from "../../clients/web/delta.js";
import { replayStdin } from "./replay_pushes.mjs";

await replayStdin(receive);
