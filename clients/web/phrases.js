// Phrases at the table (RULES §7): a fixed set (GET /phrases) sent by id, said in the catalogue's
// words (`phrase.<id>`) on the sender's seat for a few seconds; any player may mute a seat for
// themselves (kept in this browser only). Friends' invitations arrive on the same socket.
import { mySeat } from "./game.js";
import { getLang, has, t } from "./texts.js";
import { cue } from "./sound.js";

const SHOW_MS = 4000;

/** `refusal(e)`: a refusal's sentence (attempts.js); `openTable(id)` follows an invitation. */
export function mountPhrases({ store, api, openTable, refusal }) {
  let catalogue = null;
  const view = () => (store.get().table && store.get().table.view) || null;
  const tableId = () => store.get().table && store.get().table.id;
  const mutedKey = () => `harftet.mutedSeats.${tableId()}`;
  const muted = () => new Set(JSON.parse(localStorage.getItem(mutedKey()) || "[]"));
  const said = (p) => (has(`phrase.${p.id}`) ? t(`phrase.${p.id}`) : p[getLang()] || p.tr);

  async function load() {
    if (!catalogue) catalogue = (await api.request("GET", "/phrases")).phrases;
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
  button.textContent = t("ph.open");
  button.dataset.t = "ph.open";
  button.onclick = async () => {
    if (!menu.hidden) { menu.hidden = true; return; }
    await load().catch(() => null);
    render();
    menu.hidden = false;
  };
  document.querySelector("#table").append(button, menu);

  function render() {
    menu.replaceChildren();
    const me = mySeat(view());
    for (const p of catalogue || []) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.phrase = p.id;
      b.textContent = said(p);
      b.disabled = me == null;
      b.onclick = () => {
        menu.hidden = true;
        api.request("POST", `/tables/${encodeURIComponent(tableId())}/phrases`, { phrase: p.id })
          .catch((e) => store.dispatch({ type: "notice", text: refusal(e) }));
      };
      menu.append(b);
    }
    const off = muted();
    const seats = view() ? view().seats.length : 0;
    for (let seat = 0; seat < seats; seat++) {
      if (seat === me) continue;
      const m = document.createElement("button");
      m.type = "button";
      m.className = "link";
      m.dataset.mute = String(seat);
      m.textContent = t(off.has(seat) ? "ph.unmuteSeat" : "ph.muteSeat", { n: seat + 1 });
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
      if (window.confirm(t("ph.invite"))) openTable(msg.tableId);
      return;
    }
    if (msg.type !== "phrase" || muted().has(msg.seat)) return;
    await load().catch(() => null);
    const seat = document.querySelector(`#seats .seat[data-seat="${msg.seat}"]`);
    const p = (catalogue || []).find((x) => x.id === msg.phrase);
    if (!seat || !p) return;
    const bubble = document.createElement("div");
    bubble.className = "phrase-bubble";
    bubble.setAttribute("role", "status");
    bubble.textContent = said(p);
    bubble.style.cssText = "background:#fff;color:#222;border-radius:12px;padding:2px 8px;justify-self:start";
    seat.append(bubble);
    cue("phrase"); // heard too, as the player's sound settings say
    setTimeout(() => bubble.remove(), SHOW_MS);
  }

  return { onMessage };
}
