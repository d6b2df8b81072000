// Friends (API.md v3 "People"): one's own friend code (copy), add by code, incoming and
// outgoing requests, the friends list with live presence, remove, block and unblock, and
// invitations to a table both ways. While the lobby shows, a connection of the player's own
// (/ws?token=T, no table) brings friends' presence and invitations (docs/asyncapi.yaml).
import { getLang } from "./i18n.js";
import { h } from "./render.js";

const WORDS = {
  tr: {
    h: "Arkadaşlar", code: "Arkadaş kodun", copy: "Kopyala", copied: "Kopyalandı", add: "Kodla ekle",
    addLabel: "Arkadaşının kodu", send: "İstek gönder", incoming: "Gelen istekler", outgoing: "Gönderilen istekler",
    accept: "Kabul et", refuse: "Reddet", cancel: "Geri al", list: "Arkadaşların", none: "Henüz arkadaşın yok.",
    remove: "Çıkar", block: "Engelle", unblock: "Engeli kaldır", blocked: "Engellediklerin", invite: "Masaya çağır",
    invited: "Çağrıldı", online: "Çevrimiçi", table: "Masada ({game})", away: "Uzakta", unknown: "Bu kodla oyuncu yok.",
    failed: "Olmadı, yeniden dene.", invitation: "{name} seni masasına çağırıyor", join: "Katıl", ignore: "Yok say",
    harftet: "Harftet", kastet: "Kastet",
  },
  en: {
    h: "Friends", code: "Your friend code", copy: "Copy", copied: "Copied", add: "Add by code",
    addLabel: "Your friend's code", send: "Send request", incoming: "Requests to you", outgoing: "Requests you sent",
    accept: "Accept", refuse: "Refuse", cancel: "Take back", list: "Your friends", none: "No friends yet.",
    remove: "Remove", block: "Block", unblock: "Unblock", blocked: "Blocked", invite: "Invite to a table",
    invited: "Invited", online: "Online", table: "At a table ({game})", away: "Away", unknown: "No player has this code.",
    failed: "That did not work, try again.", invitation: "{name} invites you to a table", join: "Join", ignore: "Ignore",
    harftet: "Harftet", kastet: "Kastet",
  },
};

function w(key, params = {}) {
  const table = WORDS[getLang()] || WORDS.tr;
  return (table[key] || WORDS.tr[key] || key).replace(/\{(\w+)\}/g, (_, k) => String(params[k] ?? ""));
}

function presenceText(p) {
  if (!p) return w("away");
  return p.status === "table" ? w("table", { game: w(p.game) }) : w(p.status);
}

let mounted = null;

/** Mounts the friends card in `host` (the lobby) once; `openTable(id)` joins an invitation. */
export function initFriends({ api, host, token, wsBase = () => "", openTable }) {
  if (mounted && host.contains(mounted.card)) { mounted.load(); mounted.listen(); return mounted; }
  const state = { data: null, names: {}, invitations: [], invited: new Set() };
  const card = h("section", { id: "friends", class: "card friends", role: "region", "aria-labelledby": "friends-h" },
    h("h2", { id: "friends-h" }, w("h"))); // named before the list has loaded
  (host.querySelector(".lobby-grid .side") || host).append(card); // beside the new-table form
  let ws = null;

  const say = (text) => { const p = card.querySelector(".friends-msg"); if (p) p.textContent = text; };

  async function call(method, path, body) {
    try { return await api.request(method, path, body); } catch (e) { say(e && e.status === 404 ? w("unknown") : w("failed")); throw e; }
  }

  async function load() {
    try { state.data = await api.request("GET", "/players/me/friends"); } catch { return; }
    for (const k of ["friends", "incoming", "outgoing", "blocked"]) for (const f of state.data[k]) state.names[f.playerId] = f.name;
    render();
  }

  async function inviteTo(friendId, button) {
    const mine = await call("GET", "/players/me/tables");
    let table = (mine.tables || []).find((x) => x.status === "waiting");
    if (!table) table = await call("POST", "/tables", { game: "harftet", seats: 2, hands: 3, private: true });
    await call("POST", `/tables/${encodeURIComponent(table.tableId)}/invitations`, { playerId: friendId });
    state.invited.add(friendId);
    button.textContent = w("invited");
    button.disabled = true;
  }

  function person(f, ...buttons) {
    const kids = [h("span", { class: "friend-name" }, f.name)];
    if (f.presence) kids.push(h("span", { class: `presence ${f.presence.status}` }, presenceText(f.presence)));
    kids.push(h("span", { class: "friend-actions" }, ...buttons));
    return h("li", { class: "friend", "data-player": f.playerId }, ...kids);
  }

  const btn = (label, onclick, cls = "") => h("button", { type: "button", class: `small ${cls}`, onclick }, label);

  function render() {
    const d = state.data;
    if (!d) return;
    const input = h("input", { id: "friend-code", maxlength: "16", autocomplete: "off", "aria-label": w("addLabel"), placeholder: "ABCD2345" });
    const form = h("form", { class: "row friend-add", onsubmit: async (e) => {
      e.preventDefault();
      const code = input.value.trim();
      if (!code) return;
      try { state.data = await call("POST", "/players/me/friends", { code }); input.value = ""; say(""); render(); } catch { /* said */ }
    } }, input, h("button", { type: "submit", class: "primary small" }, w("send")));
    const section = (title, items, empty) => items.length || empty
      ? h("div", { class: "friend-group" }, h("h3", {}, title), items.length ? h("ul", { class: "friend-list" }, ...items) : h("p", { class: "hint" }, empty))
      : null;
    const act = (fn) => async () => { try { await fn(); await load(); } catch { /* said */ } };
    card.replaceChildren(...[
      h("h2", { id: "friends-h" }, w("h")),
      ...state.invitations.map((inv) => h("div", { class: "invitation", role: "alert" },
        h("span", {}, w("invitation", { name: state.names[inv.from] || "?" })),
        btn(w("join"), () => { state.invitations = state.invitations.filter((x) => x !== inv); openTable(inv.tableId); }, "primary"),
        btn(w("ignore"), () => { state.invitations = state.invitations.filter((x) => x !== inv); render(); }))),
      h("p", { class: "friend-code" }, h("span", {}, `${w("code")}: `), h("strong", { id: "my-friend-code" }, d.code), " ",
        btn(w("copy"), async (e) => { try { await navigator.clipboard.writeText(d.code); } catch { /* no clipboard */ } e.target.textContent = w("copied"); })),
      h("label", { for: "friend-code" }, w("add")), form,
      h("p", { class: "friends-msg hint", role: "status" }),
      section(w("incoming"), d.incoming.map((f) => person(f,
        btn(w("accept"), act(() => call("POST", `/players/me/friends/${encodeURIComponent(f.playerId)}`)), "primary"),
        btn(w("refuse"), act(() => call("DELETE", `/players/me/friends/${encodeURIComponent(f.playerId)}`))))), null),
      section(w("outgoing"), d.outgoing.map((f) => person(f,
        btn(w("cancel"), act(() => call("DELETE", `/players/me/friends/${encodeURIComponent(f.playerId)}`))))), null),
      section(w("list"), d.friends.map((f) => person(f,
        state.invited.has(f.playerId)
          ? h("button", { type: "button", class: "small primary", disabled: true }, w("invited"))
          : btn(w("invite"), (e) => inviteTo(f.playerId, e.target).catch(() => {}), "primary"),
        btn(w("remove"), act(() => call("DELETE", `/players/me/friends/${encodeURIComponent(f.playerId)}`))),
        btn(w("block"), act(() => call("POST", `/players/me/blocks/${encodeURIComponent(f.playerId)}`))))), w("none")),
      section(w("blocked"), (d.blocked || []).map((f) => person({ playerId: f.playerId, name: f.name || "?" },
        btn(w("unblock"), act(() => call("DELETE", `/players/me/blocks/${encodeURIComponent(f.playerId)}`))))), null),
    ].filter(Boolean));
  }

  function onPush(msg) {
    if (msg.type === "presence" && state.data) {
      const f = state.data.friends.find((x) => x.playerId === msg.playerId);
      if (!f) return load(); // a new friend: the list has changed
      f.presence = msg.game ? { status: msg.status, game: msg.game } : { status: msg.status };
      render();
    } else if (msg.type === "invitation") {
      state.invitations.push(msg);
      if (!state.names[msg.from]) load(); else render();
    }
  }

  function listen() {
    if (ws || !token()) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const endpoint = wsBase() || `${proto}://${location.host}/ws`;
    ws = new WebSocket(`${endpoint}?token=${encodeURIComponent(token())}`);
    ws.onmessage = (ev) => { try { onPush(JSON.parse(ev.data)); } catch { /* not ours */ } };
    ws.onclose = () => { ws = null; };
  }

  function close() { if (ws) { const s = ws; ws = null; s.onclose = null; s.close(); } }

  mounted = { card, load, listen, close, onPush, render };
  load();
  listen();
  return mounted;
}

/** Write the screen again (the language switched). */
export function renderFriends() { if (mounted) mounted.render(); }

/** Close the lobby connection (a table's own connection brings pushes there). */
export function closeFriends() { if (mounted) mounted.close(); }
