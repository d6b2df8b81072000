// "Dağıtımı doğrula": a finished game's deals recomputed in the browser (docs/DEALS.md) and
// compared with the proofs this browser saw during play (the table keeps them, session.js).
import { createApi } from "./api.js";
import { kept, load } from "./catalogue.js";
import { loadConfig } from "./config.js";
import { verifyReplay } from "./deal.js";
import { loadSession, savedLang, saveLang, seenProofs } from "./session.js";
import { getLang, install, t } from "./texts.js";

const $ = (sel) => document.querySelector(sel);
const storage = window.localStorage;
const configured = loadConfig();

function tableId() {
  const m = /(?:^#|&)t=([\w-]+)/.exec(location.hash) || /[?&]t=([\w-]+)/.exec(location.search);
  return m ? m[1] : null;
}

function translate() {
  document.documentElement.lang = getLang();
  document.title = t("verify.title");
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

/** The catalogue of `lang`: the one kept at once, the server's when it answers. */
async function texts(lang) {
  const have = kept(storage, lang);
  if (have) install(have);
  const fresh = await load(lang, { storage, base: (await configured).rest });
  if (fresh) install(fresh);
  saveLang(storage, getLang());
}

async function run() {
  translate();
  const id = tableId();
  const verdict = $("#verdict");
  if (!id) { verdict.textContent = t("verify.noTable"); return; }
  $("#back").href = `./#t=${id}`;
  const { rest } = await configured;
  const api = createApi({ token: () => (loadSession(storage) || {}).token, lang: getLang, base: () => rest, onUnauthorized: () => {} });
  let replay;
  try {
    replay = await api.request("GET", `/tables/${encodeURIComponent(id)}/replay`);
  } catch (e) {
    verdict.textContent = t("verify.error", { code: e.code });
    verdict.className = "verdict bad";
    return;
  }
  const result = await verifyReplay(replay, seenProofs(storage, id));
  verdict.dataset.t = result.ok ? "verify.ok" : "verify.bad";
  verdict.dataset.done = "";
  verdict.textContent = t(verdict.dataset.t);
  verdict.className = `verdict ${result.ok ? "ok" : "bad"}`;
  $("#hands").replaceChildren(...result.hands.map((c, i) => line(c, replay.hands[i].dealProof)));
  document.body.dataset.verified = result.ok ? "yes" : "no";
}

$("#lang").onclick = async () => { await texts(getLang() === "tr" ? "en" : "tr"); run(); };
texts(savedLang(storage)).then(run);
