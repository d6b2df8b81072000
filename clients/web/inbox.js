// The inbox: the player's tables, theirs to play first ("Sıra sende"), then the nearest
// deadline (GET /players/me/tables); opening one switches tables without a page load. Also
// the browser's push subscription (Web Push: sw-push.js shows what arrives).
import { h, logLine } from "./render.js";
import { t } from "./i18n.js";

/** The table a notification or a shared link asks for: `?table=ID`. */
export function tableFromUrl(href = location.href) {
  const id = new URL(href).searchParams.get("table");
  return id && /^[\w-]{1,64}$/.test(id) ? id : null;
}

function left(deadline, now = Date.now() / 1000) {
  const s = Math.max(0, Math.round(deadline - now));
  const days = Math.floor(s / 86400), hours = Math.floor((s % 86400) / 3600), mins = Math.floor((s % 3600) / 60);
  if (days) return t("inbox.days", { d: days, h: hours });
  if (hours) return t("inbox.hours", { h: hours, m: mins });
  return t("inbox.minutes", { m: mins });
}

function item(x, onOpen) {
  const state = x.yourTurn ? t("inbox.yourTurn")
    : x.status === "waiting" ? t("inbox.waitingTable")
    : x.status === "finished" ? t("inbox.finished") : t("inbox.theirTurn");
  const names = x.players.map((n, i) => n || t("seat", { n: i + 1 }));
  const facts = [x.game === "kastet" ? "Kastet" : "Harftet", t(`inbox.pace.${x.pace}`)];
  const last = x.last ? logLine(x.last, names, {}, x.game) : null;
  const cls = x.yourTurn ? "your-turn" : x.status === "finished" ? "over" : "";
  return h("li", { class: `inbox-item ${cls}`.trim(), "data-table": x.tableId },
    h("button", { type: "button", class: "inbox-open", onclick: () => onOpen(x.tableId) },
      h("span", { class: "inbox-top" },
        h("strong", { class: "inbox-state" }, state),
        h("span", { class: "inbox-facts" }, facts.join(" · "))),
      h("span", { class: "inbox-names" }, x.players.filter(Boolean).join(", ")),
      last || (x.yourTurn && x.deadline) ? h("span", { class: "inbox-last" },
        [last, x.yourTurn && x.deadline ? left(x.deadline) : null].filter(Boolean).join(" · ")) : null));
}

/** Mounts the inbox at the top of `screen`; `load()` fills it (hidden when there is none). */
export function createInbox({ api, screen, onOpen }) {
  const list = h("ul", { class: "inbox-list" });
  const count = h("p", { class: "inbox-count", role: "status" });
  const more = h("button", { type: "button", hidden: true }, t("inbox.more"));
  const push = h("button", { type: "button", class: "inbox-push", hidden: !("PushManager" in globalThis) }, t("inbox.notify"));
  const box = h("section", { id: "inbox", class: "card inbox", hidden: true, "aria-label": t("inbox.h") },
    h("h2", {}, t("inbox.h")), count, list, h("div", { class: "row inbox-actions" }, more, push));
  screen.prepend(box);
  let cursor = null;

  async function load(next = false) {
    let data;
    try { data = await api.request("GET", `/players/me/tables${next && cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`); } catch { return 0; }
    cursor = data.cursor;
    const items = data.tables.map((x) => item(x, onOpen));
    if (next) list.append(...items); else list.replaceChildren(...items);
    const waiting = list.querySelectorAll(".your-turn").length;
    count.textContent = waiting ? t("inbox.waiting", { n: waiting }) : t("inbox.none");
    box.hidden = list.children.length === 0;
    more.hidden = !cursor;
    if (typeof document !== "undefined") document.title = waiting ? `(${waiting}) Harftet` : "Harftet";
    return waiting;
  }
  more.addEventListener("click", () => load(true));
  push.addEventListener("click", async () => {
    try {
      await enablePush(api);
      push.textContent = t("inbox.notify.on");
      push.disabled = true;
    } catch { push.textContent = t("inbox.notify.off"); }
  });
  return { load, element: box };
}

function urlKey(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** Subscribe this browser (the app's service worker, else sw-push.js on its own). */
export async function enablePush(api) {
  const { publicKey } = await api.request("GET", "/push/key");
  if (!publicKey) throw new Error("push is off");
  const reg = (await navigator.serviceWorker.getRegistration()) || (await navigator.serviceWorker.register("sw-push.js"));
  await navigator.serviceWorker.ready;
  const sub = (await reg.pushManager.getSubscription())
    || (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlKey(publicKey) }));
  return api.request("POST", "/players/me/push-subscriptions", sub.toJSON());
}

/** Tables a notification click asks to open (sw-push.js posts them). */
export function onPushOpen(handler) {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", (event) => {
    const d = event.data || {};
    if (d.type === "open-table" && typeof d.tableId === "string") handler(d.tableId);
  });
}
