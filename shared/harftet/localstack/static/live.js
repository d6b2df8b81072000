// The live connection (API.md "WebSocket"): pushes of what changed in the table view (delta.js
// applies them; a gap asks for the whole view with {"action": "sync"}), reconnect with backoff,
// and a resync after every (re)connect so a missed push is never missed for long.
import { receive } from "./delta.js";

export class Live {
  /** onView(view) for every push; onState("connecting"|"live"|"offline"); resync() after connect. */
  constructor({ onView, onState, resync, base = () => "", onMessage = () => {} }) {
    Object.assign(this, { onView, onState, resync, base, onMessage });
    this.ws = null;
    this.tries = 0;
    this.timer = 0;
    this.ping = 0;
    this.want = null;
    this.view = null; // the view the pushes are applied to
  }

  connect(token, tableId) {
    this.close();
    this.want = { token, tableId };
    this.view = null;
    this.open();
  }

  open() {
    if (!this.want) return;
    const { token, tableId } = this.want;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const endpoint = this.base() || `${proto}://${location.host}/ws`; // deployed: config.json's WebSocket URL
    const ws = new WebSocket(`${endpoint}?token=${encodeURIComponent(token)}&tableId=${encodeURIComponent(tableId)}`);
    this.ws = ws;
    this.onState("connecting");
    ws.onopen = () => {
      this.tries = 0;
      this.onState("live");
      ws.send(JSON.stringify({ action: "sync" }));
      this.resync();
      clearInterval(this.ping);
      this.ping = setInterval(() => ws.readyState === 1 && ws.send(JSON.stringify({ action: "ping" })), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type !== "table" && msg.type !== "delta") return this.onMessage(msg); // phrases, invitations (phrases.js)
      const { view, sync } = receive(this.view, msg);
      if (sync && ws.readyState === 1) ws.send(JSON.stringify({ action: "sync" }));
      if (view === this.view) return;
      this.view = view;
      this.onView(structuredClone(view)); // the app may change its copy; ours stays the base
    };
    ws.onclose = () => {
      clearInterval(this.ping);
      if (this.ws !== ws) return;
      this.ws = null;
      this.onState("offline");
      if (!this.want) return;
      const delay = Math.min(15000, 500 * 2 ** this.tries++);
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  /** Reconnect now (e.g. the tab became visible again) unless a connection is open. */
  wake() {
    if (this.want && !this.ws) {
      clearTimeout(this.timer);
      this.open();
    }
  }

  get connected() { return !!(this.ws && this.ws.readyState === 1); }

  close() {
    this.want = null;
    clearTimeout(this.timer);
    clearInterval(this.ping);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
  }
}
