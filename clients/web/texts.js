// The catalogue in use: every sentence a player reads, by key, in the language chosen, and the
// bounds of the server's rules (GET /texts; catalogue.js fetches and keeps it). The client writes
// no sentence of its own: `t(key, params)` says a key with its {name} placeholders filled.

export const LANGUAGES = ["tr", "en"];

let lang = "tr";
let texts = {};
let bounds = {};

/** Use a catalogue ({lang, texts, bounds}) from now on. */
export function install(catalogue) {
  lang = LANGUAGES.includes(catalogue.lang) ? catalogue.lang : LANGUAGES[0];
  texts = catalogue.texts || {};
  bounds = catalogue.bounds || {};
}

export function getLang() { return lang; }

/** The bounds the server's rules set (nameMax, codeLength, options, levels, …). */
export function getBounds() { return bounds; }

export function has(key) { return Object.hasOwn(texts, key); }

/** `text` with its {name} placeholders filled from `params` (a missing one reads as nothing). */
export function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (_, k) => (params && params[k] != null ? String(params[k]) : ""));
}

/** The sentence of `key`, filled; English says "1 table" but "2 tables": a key may have a ".one"
 * form for n = 1 (Turkish needs none). An unknown key reads as itself. */
export function t(key, params) {
  const one = params && params.n === 1 && has(`${key}.one`) ? texts[`${key}.one`] : undefined;
  const text = one ?? (has(key) ? texts[key] : key);
  return fill(text, params);
}
