// The friends card in the lobby: one's own friend code (copy), add by code, incoming and outgoing
// requests, the friends with their live presence, remove, block and unblock, invitations to a
// table both ways. contacts.js does the work.
import { h } from "./render.js";
import { getBounds, t } from "./texts.js";

/** What a friend is doing now, in words. */
export function presenceText(p) {
  if (!p) return t("friends.away");
  return p.status === "table" ? t("friends.table", { game: t(`game.${p.game}`) }) : t(`friends.${p.status}`);
}

/** `act`: contacts.js. */
export function mountFriends({ store, act, host }) {
  const card = h("section", { id: "friends", class: "card friends", role: "region", "aria-labelledby": "friends-h" },
    h("h2", { id: "friends-h", dataset: { t: "friends.h" } }, t("friends.h"))); // named before the list has loaded
  (host.querySelector(".lobby-grid") || host).append(card); // under the tables (style.css places it)
  // What asks for an answer (an invitation, a friend request) shows where a player looks: at the
  // lobby's top, and as a count in the header that leads there.
  const alerts = h("div", { id: "friend-alerts", class: "friend-alerts", "aria-live": "polite" });
  host.prepend(alerts);
  const badge = h("button", { type: "button", id: "friends-badge", class: "link badge-count", hidden: true,
    onclick: () => (alerts.childElementCount ? alerts : card).scrollIntoView({ block: "start", behavior: "smooth" }) });
  const links = document.querySelector(".top-links");
  if (links) links.prepend(badge);

  const btn = (label, onclick, cls = "") => h("button", { type: "button", class: `small ${cls}`, onclick }, label);
  const person = (f, ...buttons) => h("li", { class: "friend", "data-player": f.playerId },
    h("span", { class: "friend-name" }, f.name),
    f.presence ? h("span", { class: `presence ${f.presence.status}` }, presenceText(f.presence)) : null,
    h("span", { class: "friend-actions" }, ...buttons));
  const section = (title, items, empty) => (items.length || empty
    ? h("div", { class: "friend-group" }, h("h3", {}, title),
      items.length ? h("ul", { class: "friend-list" }, ...items) : h("p", { class: "hint" }, empty))
    : null);

  function render({ data, names, invitations, invited, said }) {
    const typed = card.querySelector("#friend-code"); // what the player is typing survives a redraw
    const input = h("input", { id: "friend-code", autocomplete: "off", "aria-label": t("friends.addLabel"), placeholder: "ABCD2345" });
    if (typed) input.value = typed.value;
    // Codes are typed with spaces or dashes too (the server drops them): room for one between any two.
    if (getBounds().codeLength) input.maxLength = 2 * getBounds().codeLength;
    const form = h("form", { class: "row friend-add", onsubmit: (e) => {
      e.preventDefault();
      const code = input.value.trim();
      if (code) act.send(code).then(() => { card.querySelector("#friend-code").value = ""; }, () => { /* said */ });
    } }, input, h("button", { type: "submit", class: "primary small" }, t("friends.send")));
    const copy = async (e) => {
      try { await navigator.clipboard.writeText(data.code); } catch { /* no clipboard */ }
      e.target.textContent = t("friends.copied");
    };
    card.replaceChildren(...[
      h("h2", { id: "friends-h" }, t("friends.h")),
      h("p", { class: "friend-code" }, h("span", {}, `${t("friends.code")}: `), h("strong", { id: "my-friend-code" }, data.code), " ",
        btn(t("friends.copy"), copy)),
      h("label", { for: "friend-code" }, t("friends.add")), form,
      h("p", { class: "friends-msg hint", role: "status" }, said ? t(said) : ""),
      section(t("friends.incoming"), data.incoming.map((f) => person(f,
        btn(t("friends.accept"), () => act.accept(f.playerId), "primary"),
        btn(t("friends.refuse"), () => act.refuse(f.playerId)))), null),
      section(t("friends.outgoing"), data.outgoing.map((f) => person(f,
        btn(t("friends.cancel"), () => act.refuse(f.playerId)))), null),
      section(t("friends.list"), data.friends.map((f) => person(f,
        invited.includes(f.playerId)
          ? h("button", { type: "button", class: "small primary", disabled: true }, t("friends.invited"))
          : btn(t("friends.invite"), () => act.invite(f.playerId).catch(() => {}), "primary"),
        btn(t("friends.remove"), () => act.refuse(f.playerId)),
        btn(t("friends.block"), () => act.block(f.playerId, f.name)))), t("friends.none")),
      section(t("friends.blocked"), (data.blocked || []).map((f) => person({ playerId: f.playerId, name: f.name || "?" },
        btn(t("friends.unblock"), () => act.unblock(f.playerId)))), null),
    ].filter(Boolean));
    if (typed && typed === document.activeElement) input.focus();
    alerts.replaceChildren(
      ...invitations.map((inv) => h("div", { class: "invitation card", role: "alert" },
        h("span", {}, t("friends.invitation", { name: names[inv.from] || t("friends.someone") })),
        btn(t("friends.join"), () => act.join(inv), "primary"),
        btn(t("friends.ignore"), () => act.ignore(inv)))),
      ...data.incoming.map((f) => h("div", { class: "invitation card", role: "status" },
        h("span", {}, t("friends.asks", { name: f.name })),
        btn(t("friends.accept"), () => act.accept(f.playerId), "primary"),
        btn(t("friends.refuse"), () => act.refuse(f.playerId)))));
    const waiting = invitations.length + data.incoming.length;
    badge.hidden = !waiting;
    badge.textContent = t("friends.badge", { n: waiting });
  }

  let shown = {};
  store.subscribe((s) => {
    if (s.friends === shown.friends && s.texts === shown.texts) return;
    shown = { friends: s.friends, texts: s.texts };
    if (s.friends.data) render(s.friends);
    else { alerts.replaceChildren(); badge.hidden = true; } // signed out: nothing of theirs left
  });
}
