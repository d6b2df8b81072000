// Shows the rules (docs/KURALLAR.tr.md, or docs/RULES.en.md in English; served at /play/docs/) as
// HTML: the rules live in one place. `?doc=` names the file, `?lang=en` picks the English one.
import { markdown } from "./markdown.js";

const DOCS = { tr: "KURALLAR.tr.md", en: "RULES.en.md" };
const query = new URLSearchParams(location.search);
let lang = query.get("lang");
if (!lang) { try { lang = localStorage.getItem("harftet.lang"); } catch { /* no storage */ } }
const asked = query.get("doc");
const doc = Object.values(DOCS).includes(asked) ? asked : DOCS[lang === "en" ? "en" : "tr"];
const english = doc === DOCS.en;
document.documentElement.lang = english ? "en" : "tr";
document.title = english ? "Rules · Harftet and Kastet" : "Kurallar · Harftet ve Kastet";
const back = document.getElementById("back");
if (back) back.textContent = english ? "Back to the table" : "Masaya dön";

const el = document.getElementById("rules");
el.textContent = english ? "Loading the rules…" : "Kurallar yükleniyor…";
fetch(`docs/${doc}`)
  .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
  .then((text) => { el.innerHTML = markdown(text); })
  .catch(() => { el.textContent = english ? "The rules could not be loaded right now." : "Kurallar şu an yüklenemedi."; });
