// Phrases at the table (RULES §7): a fixed set sent by id, shown on the sender's seat for a few
// seconds; any player may mute a seat for themselves (kept in this browser only). Friends'
// invitations arrive on the same socket. Turkish first, English on the switch.
import { getLang } from "./i18n.js";
import { relabelOnSwitch } from "./account.js";

const TEXT = {
  "ph.open": ["Söyle", "Say"],
  "ph.mute": ["Sustur", "Mute"],
  "ph.unmute": ["Sesini aç", "Unmute"],
  "ph.seat": ["Koltuk", "Seat"],
  "ph.invite": ["Bir arkadaşın seni bir masaya çağırıyor. Gidelim mi?", "A friend invites you to a table. Go there?"],
};
const tx = (key) => (TEXT[key] || [key, key])[getLang() === "en" ? 1 : 0];
const SHOW_MS = 4000;

/** app: { api, tableId(), mySeat(), seats() → count, openTable(id), notify(message) } */
export function initPhrases(app) {
  let catalogue = null;
  const mutedKey = () => `harftet.mutedSeats.${app.tableId()}`;
  const muted = () => new Set(JSON.parse(localStorage.getItem(mutedKey()) || "[]"));
  const text = (id) => {
    const p = (catalogue || []).find((x) => x.id === id);
    return p ? (getLang() === "en" ? p.en : p.tr) : null;
  };

  async function load() {
    if (!catalogue) catalogue = (await app.api.request("GET", "/phrases")).phrases;
    return catalogue;
  }

  const menu = document.createElement("div");
  menu.id = "phrase-menu";
  menu.className = "phrase-menu card";
  menu.hidden = true;
  menu.style.cssText = "display:flex;flex-wrap:wrap;gap:4px;margin-top:6px";
  const button = document.createElement("button");
  button.type = "button";
  button.id = "phrase-open";
  button.textContent = tx("ph.open");
  button.dataset.tx = "ph.open";
  relabelOnSwitch(tx);
  button.onclick = async () => {
    if (!menu.hidden) { menu.hidden = true; return; }
    await load().catch(() => null);
    render();
    menu.hidden = false;
  };
  const table = document.querySelector("#table");
  if (table) table.append(button, menu);

  function render() {
    menu.replaceChildren();
    const seated = app.mySeat() != null;
    for (const p of catalogue || []) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.phrase = p.id;
      b.textContent = getLang() === "en" ? p.en : p.tr;
      b.disabled = !seated;
      b.onclick = () => {
        menu.hidden = true;
  menu.style.cssText = "display:flex;flex-wrap:wrap;gap:4px;margin-top:6px";
        app.api.request("POST", `/tables/${encodeURIComponent(app.tableId())}/phrases`, { phrase: p.id })
          .catch((e) => app.notify(e.message));
      };
      menu.append(b);
    }
    const off = muted();
    for (let seat = 0; seat < app.seats(); seat++) {
      if (seat === app.mySeat()) continue;
      const m = document.createElement("button");
      m.type = "button";
      m.className = "link";
      m.dataset.mute = String(seat);
      m.textContent = `${tx("ph.seat")} ${seat + 1}: ${off.has(seat) ? tx("ph.unmute") : tx("ph.mute")}`;
      m.onclick = () => {
        const now = muted();
        if (now.has(seat)) now.delete(seat); else now.add(seat);
        localStorage.setItem(mutedKey(), JSON.stringify([...now]));
        render();
      };
      menu.append(m);
    }
  }

  /** A socket message other than the table: a phrase or an invitation. */
  async function onMessage(msg) {
    if (msg.type === "invitation") {
      if (window.confirm(tx("ph.invite"))) app.openTable(msg.tableId);
      return;
    }
    if (msg.type !== "phrase" || muted().has(msg.seat)) return;
    await load().catch(() => null);
    const seat = document.querySelector(`#seats .seat[data-seat="${msg.seat}"]`);
    const said = text(msg.phrase);
    if (!seat || !said) return;
    const bubble = document.createElement("div");
    bubble.className = "phrase-bubble";
    bubble.setAttribute("role", "status");
    bubble.textContent = said;
    bubble.style.cssText = "background:#fff;color:#222;border-radius:12px;padding:2px 8px;justify-self:start";
    seat.append(bubble);
    setTimeout(() => bubble.remove(), SHOW_MS);
  }

  return { onMessage };
}
