// Shows the rules (docs/KURALLAR.tr.md, or docs/RULES.en.md in English; served at /play/docs/) as
// HTML: the rules live in one place. `?doc=` names the file, `?lang=en` picks the English one.
import { kept, load } from "./catalogue.js";
import { loadConfig } from "./config.js";
import { markdown } from "./markdown.js";
import { savedLang } from "./session.js";
import { install, t } from "./texts.js";

const DOCS = { tr: "KURALLAR.tr.md", en: "RULES.en.md" };
const query = new URLSearchParams(location.search);
const storage = window.localStorage;
const asked = query.get("doc");
const lang = Object.values(DOCS).includes(asked) ? (asked === DOCS.en ? "en" : "tr") : query.get("lang") === "en" ? "en" : query.get("lang") ? "tr" : savedLang(storage);
const doc = DOCS[lang];
const el = document.getElementById("rules");
document.documentElement.lang = lang;

function label() {
  document.title = t("rules.title");
  const back = document.getElementById("back");
  if (back) back.textContent = t("verify.back");
  if (!("done" in el.dataset)) el.textContent = t("rules.loading");
}

const have = kept(storage, lang);
if (have) { install(have); label(); }
loadConfig().then(({ rest }) => load(lang, { storage, base: rest })).then((fresh) => { if (fresh) { install(fresh); label(); } });

fetch(`docs/${doc}`)
  .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
  .then((text) => { el.dataset.done = ""; el.innerHTML = markdown(text); })
  .catch(() => { el.dataset.done = ""; el.textContent = t("rules.failed"); });
