// A page for the node tests of the screens: one of clients/web's HTML files in happy-dom (a DOM
// written for tests, with dialogs, forms and events as a browser has them), its window's
// globals (document, window, localStorage, navigator, …) put where the client's modules look.
// No script of the page runs: the test imports the modules it means to try.
import { readFileSync } from "node:fs";
import { Window } from "happy-dom";

const WEB = new URL("../../clients/web/", import.meta.url);
const GLOBALS = ["window", "document", "localStorage", "navigator", "location", "history", "ResizeObserver", "matchMedia"];
let current = null;

/** A fresh page (`file` of clients/web, or an empty one) at `url`; the previous one is closed. */
export function page(file = null, { url = "http://127.0.0.1:3000/play/" } = {}) {
  if (current) current.happyDOM.abort();
  // The page's own loads (index.html preloads config.json) never leave the test: answered 404.
  const offline = async () => new window.Response("", { status: 404 });
  const window = new Window({
    url,
    settings: {
      disableJavaScriptFileLoading: true, disableJavaScriptEvaluation: true, disableCSSFileLoading: true,
      fetch: { interceptor: { beforeAsyncRequest: offline } },
    },
  });
  window.document.write(file ? readFileSync(new URL(file, WEB), "utf8") : "<!doctype html><html><head></head><body></body></html>");
  for (const name of GLOBALS) {
    const value = name === "window" ? window : name === "matchMedia" ? window.matchMedia.bind(window) : window[name];
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
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

/** Waits (ten seconds at most, by a clock no test mocks) until `ready()` holds. */
export async function until(ready, what = "the page") {
  const start = performance.now();
  while (performance.now() - start < 10_000) {
    if (ready()) return;
    await settled();
  }
  throw new Error(`${what} never got there`);
}

/**
 * The server, as the page's fetch meets it: `routes` maps "METHOD path" (the path as the client
 * wrote it, "config.json" or "/texts?lang=tr") to an answer: a body (JSON), a Response, a
 * function of the request, or an Error (the network failed). Anything else is a 404.
 * Returns the requests made: {method, url, headers, body}.
 */
export function serve(routes) {
  const requests = [];
  globalThis.fetch = async (url, init = {}) => {
    const method = init.method || "GET";
    const request = { method, url: String(url), headers: init.headers || {}, body: init.body == null ? undefined : JSON.parse(init.body) };
    requests.push(request);
    let answer = routes[`${method} ${url}`];
    if (typeof answer === "function") answer = await answer(request);
    if (answer instanceof Error) throw answer;
    if (answer instanceof Response) return answer;
    if (answer === undefined) return Response.json({ error: { code: "not_found", message: "no such route" } }, { status: 404 });
    return typeof answer === "string" ? new Response(answer) : Response.json(answer);
  };
  return requests;
}

/** The catalogue as GET /texts answers it. */
export async function textsRoute(lang) {
  const { TEXTS, BOUNDS } = await import("./catalogue.mjs");
  return { [`GET /texts?lang=${lang}`]: { lang, version: "test", texts: TEXTS[lang], bounds: BOUNDS } };
}
