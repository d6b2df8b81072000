// Validates an AsyncAPI document with the AsyncAPI parser (npm @asyncapi/parser) and prints
// what it read as JSON: {"errors": [...], "warnings": [...], "messages": {...}, "operations": {...}}.
// Exit 1 when the parser reports an error. Usage: node clients/asyncapi/validate.mjs docs/asyncapi.yaml
import { readFile } from "node:fs/promises";
import { Parser } from "@asyncapi/parser";

const path = process.argv[2];
const parser = new Parser();
const { document, diagnostics } = await parser.parse(await readFile(path, "utf8"), { source: path });
const describe = (d) => ({ code: d.code, message: d.message, path: d.path.join(".") });
const errors = diagnostics.filter((d) => d.severity === 0).map(describe);
const warnings = diagnostics.filter((d) => d.severity === 1).map(describe);
const result = { errors, warnings, messages: {}, operations: {} };
if (document) {
  for (const message of document.allMessages()) {
    result.messages[message.id()] = { name: message.name(), payload: message.payload()?.json() };
  }
  for (const operation of document.operations()) {
    result.operations[operation.id()] = {
      action: operation.action(),
      messages: operation.messages().all().map((m) => m.id()),
      reply: operation.reply()?.messages().all().map((m) => m.id()) ?? [],
    };
  }
}
process.stdout.write(JSON.stringify(result));
process.exitCode = document && errors.length === 0 ? 0 : 1; // not exit(): a pipe would lose what is past 64 KB
