// "Dağıtımı doğrula": a finished game's deals recomputed in the browser (docs/DEALS.md) and
// compared with the proofs this browser saw during play (app.js keeps them per table).
import { createApi } from "./api.js";
import { verifyReplay } from "./deal.js";
import { getLang, setLang, t } from "./i18n.js";

const $ = (sel) => document.querySelector(sel);
const store = window.localStorage;

function session() {
  try { return JSON.parse(store.getItem("harftet.session") || "{}"); } catch { return {}; }
}

/** The proofs this browser saw at `tableId`, by hand (app.js writes them). */
export function seenProofs(tableId) {
  try { return JSON.parse(store.getItem(`harftet.proofs.${tableId}`) || "{}"); } catch { return {}; }
}

function tableId() {
  const m = /(?:^#|&)t=([\w-]+)/.exec(location.hash) || /[?&]t=([\w-]+)/.exec(location.search);
  return m ? m[1] : null;
}

function translate() {
  document.documentElement.lang = getLang();
  for (const el of document.querySelectorAll("[data-t]")) {
    if (el.id !== "verdict" || !el.dataset.done) el.textContent = t(el.dataset.t);
  }
}

function line(check, proof) {
  const li = document.createElement("li");
  const seen = check.seen == null ? t("verify.unseen") : check.seen ? t("verify.seen") : t("verify.mismatch");
  const deal = check.deal && check.pile && check.committed && check.proof ? t("verify.deal") : t("verify.wrongdeal");
  li.className = check.ok ? "ok" : "bad";
  li.append(`${check.ok ? "✓" : "✗"} ${t("verify.hand", { n: check.hand })}: ${deal}; ${seen} `);
  const code = document.createElement("code");
  code.textContent = proof;
  li.append(code);
  return li;
}

async function run() {
  translate();
  const id = tableId();
  const verdict = $("#verdict");
  if (!id) { verdict.textContent = t("verify.noTable"); return; }
  $("#back").href = `./#t=${id}`;
  const api = createApi({ token: () => session().token, lang: getLang, onUnauthorized: () => {} });
  let replay;
  try {
    replay = await api.request("GET", `/tables/${encodeURIComponent(id)}/replay`);
  } catch (e) {
    verdict.textContent = t("verify.error", { code: e.code });
    verdict.className = "verdict bad";
    return;
  }
  const result = await verifyReplay(replay, seenProofs(id));
  verdict.dataset.t = result.ok ? "verify.ok" : "verify.bad";
  verdict.dataset.done = "";
  verdict.textContent = t(verdict.dataset.t);
  verdict.className = `verdict ${result.ok ? "ok" : "bad"}`;
  $("#hands").replaceChildren(...result.hands.map((c, i) => line(c, replay.hands[i].dealProof)));
  document.body.dataset.verified = result.ok ? "yes" : "no";
}

$("#lang").onclick = () => { setLang(getLang() === "tr" ? "en" : "tr"); run(); };
run();
