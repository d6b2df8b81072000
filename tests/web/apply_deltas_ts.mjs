// The TypeScript client's applyDelta (clients/typescript/harftet.ts, its types stripped with
// the TypeScript compiler's transpileModule, beside the web client's delta.js that it imports)
// fed the same cases as apply_deltas.mjs: reads [{"base": view, "pushes": [...]}, ...] on
// stdin, prints [{"view", "syncs"}, ...].
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { replayStdin } from "./replay_pushes.mjs";

const source = await readFile(new URL("../../clients/typescript/harftet.ts", import.meta.url), "utf8");
const { outputText } = ts.transpileModule(source, {
  compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 },
});
const clients = await mkdtemp(join(tmpdir(), "harftet-ts-"));
await mkdir(join(clients, "typescript"));
await mkdir(join(clients, "web"));
await copyFile(new URL("../../clients/web/delta.js", import.meta.url), join(clients, "web", "delta.js"));
const file = join(clients, "typescript", "harftet.mjs");
await writeFile(file, outputText);
const { applyDelta, DeltaError } = await import(file);

// A push as watch() takes it: a newer whole view is held; a delta not yet held is applied,
// and one that does not fit asks for the whole view.
function receive(view, message) {
  if (message.type === "table") {
    return { view: view === null || message.view.version >= view.version ? message.view : view, sync: false };
  }
  if (message.type !== "delta" || (view !== null && message.version <= view.version)) return { view, sync: false };
  try {
    return { view: applyDelta(view, message), sync: false };
  } catch (error) {
    if (!(error instanceof DeltaError)) throw error;
    return { view, sync: true };
  }
}

await replayStdin(receive);
