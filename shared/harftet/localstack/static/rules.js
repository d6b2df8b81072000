// Shows docs/KURALLAR.tr.md (served at /play/docs/) as HTML: the rules live in one place.
import { markdown } from "./markdown.js";

const el = document.getElementById("rules");
fetch("docs/KURALLAR.tr.md")
  .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
  .then((text) => { el.innerHTML = markdown(text); })
  .catch(() => { el.textContent = "Kurallar şu an yüklenemedi."; });
