// The server's catalogue as GET /texts serves it, for the node tests: the same JSON files and
// the same bounds (tests/web/test_catalogue_fixture.py keeps bounds.json equal to the server's).
import { readFileSync } from "node:fs";

const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
export const BOUNDS = read("./bounds.json");
export const TEXTS = { tr: read("../../shared/harftet/texts/tr.json"), en: read("../../shared/harftet/texts/en.json") };
export const catalogue = (lang) => ({ lang, version: "test", texts: TEXTS[lang], bounds: BOUNDS });
