// The TypeScript client's applyDelta (clients/typescript/harftet.ts, its types stripped with
// the TypeScript compiler's transpileModule, beside the web client's delta.js that it imports)
// fed the same cases as apply_deltas.mjs: reads [{"base": view, "pushes": [...]}, ...] on
// stdin, prints [{"view", "syncs"}, ...].
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";

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

let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map(({ base, pushes }) => {
  let view = base;
  let syncs = 0;
  for (const message of pushes) {
    if (message.type === "table") {
      if (view === null || message.view.version >= view.version) view = message.view;
    } else if (message.type === "delta" && !(view !== null && message.version <= view.version)) {
      try {
        view = applyDelta(view, message);
      } catch (error) {
        if (!(error instanceof DeltaError)) throw error;
        syncs += 1; // as watch() does: ask for the whole view
      }
    }
  }
  return { view, syncs };
});
process.stdout.write(JSON.stringify(out));
