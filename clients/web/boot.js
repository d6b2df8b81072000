// The page's first module: the first screen soon, even on a slow phone. The login is drawn from
// the catalogue kept from an earlier visit or from the copy the shell carries (texts.tr.json,
// preloaded by index.html: no wait for config.json and the API), and only then is the whole
// client (app.js and its graph) loaded, while the player types a name. No build step: the page
// needs five files before its first screen instead of forty. A signed-in player (a session
// kept) goes straight to app.js: the lobby or a table needs all of it.
import { keep, kept } from "./catalogue.js";
import { loadSession, savedLang } from "./session.js";
import { install, t } from "./texts.js";

const storage = window.localStorage;

/** The shell's copy of the catalogue of `lang`, kept for app.js (null: none, e.g. offline). */
async function shellCopy(lang) {
  try {
    const res = await fetch(`texts.${lang}.json`);
    return res.ok ? keep(storage, await res.json()) : null;
  } catch {
    return null;
  }
}

/** Draws the login, labelled as chrome.js labels the page; false when app.js must draw. */
async function firstScreen() {
  if (loadSession(storage)) return false;
  const lang = savedLang(storage);
  const catalogue = kept(storage, lang) || (await shellCopy(lang));
  if (!catalogue) return false;
  install(catalogue);
  document.documentElement.lang = catalogue.lang;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", t(el.dataset.tLabel));
  const max = catalogue.bounds && catalogue.bounds.nameMax; // typing stops at the server's bound
  if (max != null) document.querySelector("#login-name").maxLength = max;
  document.querySelector("#login").hidden = false;
  return true;
}

// A tap on a button (or a form sent) before app.js is there is held, then replayed in order
// once app.js has mounted the screens: no tap is lost to a page that only looks ready.
let loaded = false;
const held = [];
function hold(ev) {
  const target = ev.type === "submit" ? ev.target : ev.target.closest && ev.target.closest("button");
  if (loaded || !target) return;
  ev.preventDefault();
  ev.stopImmediatePropagation();
  held.push({ type: ev.type, target });
}
document.addEventListener("click", hold, true);
document.addEventListener("submit", hold, true);

await firstScreen().catch(() => false);
await (await import("./app.js")).mounted;
loaded = true;
for (const { type, target } of held.splice(0)) {
  if (type === "submit") target.requestSubmit();
  else target.click();
}
