// The inbox at the top of the lobby: the player's tables, theirs to play first ("Sıra sende"),
// then the nearest deadline; opening one switches tables without a page load. A button asks
// for notifications (push.js subscribes this browser).
import { h, listedName, logLine } from "./render.js";
import { t } from "./texts.js";

/** How long is left until `deadline` (epoch seconds), in days and hours, hours and minutes, or minutes. */
export function timeLeft(deadline, now = Date.now() / 1000) {
  const s = Math.max(0, Math.round(deadline - now));
  const days = Math.floor(s / 86400), hours = Math.floor((s % 86400) / 3600), mins = Math.floor((s % 3600) / 60);
  if (days) return t("inbox.days", { d: days, h: hours });
  if (hours) return t("inbox.hours", { h: hours, m: mins });
  return t("inbox.minutes", { m: mins });
}

/** Whether `me` left the table (the server's `left`; an entry written before it had one: its
 * last event is my own leave). A table I left goes on, or ends, without me. */
export const leftByMe = (x, me) => !!x.left || (!!me && !!x.last && x.last.type === "leave" && x.last.playerId === me);

/** A table's line in the inbox: whose turn, the game and its pace, the last event (`me`: my id). */
export function inboxLine(x, me = null) {
  const left = leftByMe(x, me);
  const state = x.closed ? t(`inbox.closed.${x.closed}`) // ended early: why, whoever left it
    : left ? t("inbox.left")
    : x.yourTurn ? t("inbox.yourTurn")
    : x.status === "waiting" ? t("inbox.waitingTable")
    : x.status === "finished" ? t("inbox.finished") : t("inbox.theirTurn");
  const gone = new Set(x.deleted || []); // a deleted player's seat: the server stores its name in Turkish
  const named = (n, i) => (gone.has(i) ? t("player.deleted") : listedName(n));
  const names = x.players.map((n, i) => named(n, i) || t("seat", { n: i + 1 }));
  const facts = [t(`game.${x.game}`), t(`inbox.pace.${x.pace}`)].join(" · ");
  const mine = x.last && x.last.playerId && x.last.playerId === me; // my own leave: the state says it
  const last = x.last && !(left && mine) ? logLine(x.last, names, {}, x.game) : null;
  const after = [last, x.yourTurn && x.deadline ? timeLeft(x.deadline) : null].filter(Boolean).join(" · ");
  return { state, facts, names: x.players.map((n, i) => n && named(n, i)).filter(Boolean).join(", "), after };
}

/** `act`: { openTable(id), more(), enablePush() }; mounted at the top of `screen` (the lobby). */
export function mountInbox({ store, act, screen }) {
  const list = h("ul", { class: "inbox-list" });
  const count = h("p", { class: "inbox-count", role: "status" });
  const more = h("button", { type: "button", hidden: true, onclick: act.more, dataset: { t: "inbox.more" } }, t("inbox.more"));
  const push = h("button", { type: "button", class: "inbox-push", hidden: !("PushManager" in globalThis), onclick: act.enablePush });
  const title = h("h2", { dataset: { t: "inbox.h" } }, t("inbox.h"));
  const box = h("section", { id: "inbox", class: "card inbox", hidden: true, dataset: { tLabel: "inbox.h" } },
    title, count, list, h("div", { class: "row inbox-actions" }, more, push));
  screen.prepend(box);

  function item(x, me) {
    const line = inboxLine(x, me);
    const cls = leftByMe(x, me) ? "over left" : x.yourTurn ? "your-turn" : x.status === "finished" ? "over" : "";
    return h("li", { class: `inbox-item ${cls}`.trim(), "data-table": x.tableId },
      h("button", { type: "button", class: "inbox-open", onclick: () => act.openTable(x.tableId) },
        h("span", { class: "inbox-top" },
          h("strong", { class: "inbox-state" }, line.state),
          h("span", { class: "inbox-facts" }, line.facts)),
        h("span", { class: "inbox-names" }, line.names),
        line.after ? h("span", { class: "inbox-last" }, line.after) : null));
  }

  let shown = {};
  store.subscribe((s) => {
    const { tables, cursor, push: pushed } = s.inbox;
    if (s.inbox === shown.inbox && s.texts === shown.texts) return;
    shown = { inbox: s.inbox, texts: s.texts };
    box.setAttribute("aria-label", t("inbox.h"));
    const me = s.me && s.me.playerId;
    list.replaceChildren(...tables.map((x) => item(x, me)));
    const waiting = tables.filter((x) => x.yourTurn).length;
    count.textContent = waiting ? t("inbox.waiting", { n: waiting }) : t("inbox.none");
    box.hidden = tables.length === 0;
    more.hidden = !cursor;
    push.textContent = t(pushed === "on" ? "inbox.notify.on" : pushed === "off" ? "inbox.notify.off" : "inbox.notify");
    push.disabled = pushed === "on";
  });
}
