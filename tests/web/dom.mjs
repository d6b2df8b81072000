// A page for the node tests of the screens: one of clients/web's HTML files in happy-dom (a DOM
// written for tests, with dialogs, forms and events as a browser has them), its window's
// globals (document, window, localStorage, navigator, …) put where the client's modules look.
// No script of the page runs: the test imports the modules it means to try.
import { readFileSync } from "node:fs";
import { Window } from "happy-dom";

const WEB = new URL("../../clients/web/", import.meta.url);
const GLOBALS = ["window", "document", "localStorage", "navigator", "location", "history"];
let current = null;

/** A fresh page (`file` of clients/web, or an empty one) at `url`; the previous one is closed. */
export function page(file = null, { url = "http://127.0.0.1:3000/play/" } = {}) {
  if (current) current.happyDOM.abort();
  const window = new Window({
    url,
    settings: { disableJavaScriptFileLoading: true, disableJavaScriptEvaluation: true, disableCSSFileLoading: true },
  });
  window.document.write(file ? readFileSync(new URL(file, WEB), "utf8") : "<!doctype html><html><head></head><body></body></html>");
  for (const name of GLOBALS) {
    Object.defineProperty(globalThis, name, { value: name === "window" ? window : window[name], configurable: true, writable: true });
  }
  window.confirm = () => true; // a test that cares answers for the player
  current = window;
  return window;
}

/** Lets the promises started by a tap settle (a fake server answers at once). */
export const settled = () => new Promise((resolve) => setImmediate(resolve)); // after every microtask, whatever clock a test mocks

/** What a player reads in `el`: its text, spaces as the page shows them. */
export const read = (el) => el.textContent.replace(/\s+/g, " ").trim();

/** The client's store as the app makes it, the catalogue of `lang` installed and announced. */
export async function storeWith({ lang = "tr", me = null, settings = null } = {}) {
  const [{ createStore, initialState }, { install }, { catalogue }, Settings] = await Promise.all([
    import("../../clients/web/state.js"), import("../../clients/web/texts.js"), import("./catalogue.mjs"), import("../../clients/web/settings.js"),
  ]);
  install(catalogue(lang));
  const effects = [];
  const store = createStore(initialState({ settings: settings || Settings.DEFAULTS, lang, me }), (e) => effects.push(e));
  store.dispatch({ type: "catalogue", lang });
  return Object.assign(store, { effects });
}
