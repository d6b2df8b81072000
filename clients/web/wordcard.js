// The word card (GET /words/{word}, POST /words/{word}/reports): tapping a word's "?" on the
// table shows what the game knows of it — in the list or not (and why), its kinds, the lists
// that hold it — and lets a player report it as wrong (or missing). The server's own sentence
// says why a word is refused (Accept-Language).
import { errorText } from "./refusals.js";
import { dialogFrame } from "./chrome.js";
import { has, t } from "./texts.js";

/** The small "?" button a word on the table carries (render.js adds it to Harftet melds). */
export function wordButton(word) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "word-info";
  b.dataset.word = word;
  b.textContent = "?";
  b.title = t("wc.about", { word });
  b.setAttribute("aria-label", b.title);
  return b;
}

/** app: { api, store } — the REST client of api.js (its `request` sends the token when there is
 * one) and the app's store: an open card is drawn again in the new language on the switch. */
export function initWordCard(app) {
  const card = document.createElement("div");
  card.id = "word-card";
  card.className = "word-card card";
  card.setAttribute("role", "dialog");
  card.setAttribute("aria-modal", "false");
  card.hidden = true;
  document.body.append(card);

  const el = (tag, props = {}, ...kids) => {
    const e = Object.assign(document.createElement(tag), props);
    e.append(...kids.filter((k) => k != null));
    return e;
  };
  // the word and its own language switch stay while the body is drawn again (chrome.js)
  const heading = el("h3", { className: "wc-word" });
  const body = dialogFrame(card, heading);
  // what the open card shows: { word, info (null while asked), failed (an error), note (a report's outcome) }
  let held = null;
  const close = () => { held = null; card.hidden = true; body.replaceChildren(); };

  async function show(word) {
    const mine = (held = { word, info: null, failed: null, note: null });
    card.hidden = false;
    draw();
    try {
      mine.info = await app.api.request("GET", `/words/${encodeURIComponent(word)}`);
    } catch (e) {
      mine.failed = e;
    }
    if (held === mine) draw();
  }

  async function report(kind) {
    const mine = held;
    mine.note = { sending: true };
    draw();
    try {
      await app.api.request("POST", `/words/${encodeURIComponent(mine.info.word)}/reports`, { kind });
      mine.note = { thanks: true };
    } catch (e) {
      mine.note = { error: e };
    }
    if (held === mine) draw();
  }

  function draw() {
    const { word, info, failed, note } = held;
    card.setAttribute("aria-label", t("wc.label", { word }));
    heading.textContent = info ? info.word : word;
    if (failed) return body.replaceChildren(el("p", { className: "wc-error" }, errorText(failed)), closeButton());
    if (!info) return body.replaceChildren(el("p", { className: "wc-loading" }, t("wc.loading")));
    const status = el("p", { className: `wc-status ${info.known ? "known" : "unknown"}` },
      info.known ? `✓ ${t("wc.known")}` : `✗ ${t("wc.unknown")}`);
    // the reason in the catalogue's words (the server's message is a fallback for a reason this client does not know)
    const reason = `wc.reason.${info.reason}`;
    const why = info.known ? null : el("p", { className: "wc-reason" }, has(reason) ? t(reason, { word: info.word, stem: info.stem }) : info.message || "");
    const list = (label, items) => el("p", { className: "wc-row" },
      el("b", {}, `${label}: `), items.length ? items.map((k) => (has(`wc.kind.${k}`) ? t(`wc.kind.${k}`) : k)).join(", ") : t("wc.none"));
    // how many dictionaries hold it (their package names mean nothing to a player)
    const sources = el("p", { className: "wc-row" }, el("b", {}, `${t("wc.sources")}: `), t("wc.sources.n", { n: info.sources.length }));
    const kind = info.known ? "wrong" : "missing";
    const said = !note || note.sending ? "" : note.thanks ? t("wc.thanks") : errorText(note.error);
    const button = el("button", { type: "button", className: "wc-report", textContent: t(`wc.${kind}`),
      disabled: !!note && !note.error, onclick: () => report(kind) });
    body.replaceChildren(...[
      status, why,
      info.known ? list(t("wc.kinds"), info.kinds) : null,
      info.known ? sources : null,
      el("div", { className: "wc-actions" }, button, closeButton()), el("p", { className: "wc-note", role: "status" }, said),
    ].filter((k) => k != null));
  }
  let texts = app.store && app.store.get().texts;
  if (app.store) app.store.subscribe((s) => { if (s.texts !== texts) { texts = s.texts; if (held) draw(); } });

  function closeButton() {
    return el("button", { type: "button", className: "wc-close", textContent: t("btn.close"), onclick: close });
  }

  // One listener for every word button, wherever the table is redrawn (capture: before the meld's own click).
  document.addEventListener("click", (ev) => {
    const b = ev.target.closest && ev.target.closest("button.word-info");
    if (!b) return;
    ev.stopPropagation();
    ev.preventDefault();
    show(b.dataset.word);
  }, true);
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && !card.hidden) close(); });
  return { show, close };
}
