// The live connection (API.md "WebSocket"): pushes of what changed in the table view (delta.js
// applies them; a gap asks for the whole view with {"action": "sync"}), reconnect with backoff,
// and after every (re)connect ONE way back to the present: a REST read (resync) made once the
// socket is open, so every version after it is pushed here; pushes that arrive before its answer
// and do not fit the view held are kept and applied on top of it (no {"action": "sync"}, which
// would cost two WebSocket messages a connect, each priced as a push). Moves go out
// on it too (move()): the answer names the move's moveId; without one in time the caller sends
// the same move over REST (the same moveId is never applied twice). A ping goes out only after
// QUIET ms without any message either way (API Gateway closes a socket idle for 10 minutes), so
// a table whose pushes flow costs no pings at all. A push of several versions at once (`steps`: a
// spectator's, held back while computer players move) is shown a version at a time, STEP_MS apart.
import { receive, stepViews } from "./delta.js";

/** Silence (ms, no message in or out) after which the client pings: under the 10-minute idle timeout. */
export const QUIET = 9 * 60 * 1000;
/** Time (ms) between the versions of one push shown in turn: about a computer player's move. */
export const STEP_MS = 700;

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
    this.pending = new Map(); // moveId -> { resolve, reject, timer }: moves awaiting their answer
    this.stepping = 0; // the timer of a push's next version to show (a newer push shows at once)
    this.held = null; // while the resync after a connect is on its way: the pushes that did not fit yet
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
      this.catchUp(ws);
    };
    ws.onmessage = (ev) => {
      this.quiet(ws);
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      this.take(ws, msg);
    };
    ws.onclose = () => {
      clearTimeout(this.ping);
      this.settle();
      if (this.ws !== ws) return;
      this.ws = null;
      this.onState("offline");
      if (!this.want) return;
      const delay = Math.min(15000, 500 * 2 ** this.tries++);
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  /**
   * The resync after a connect (a REST read: the socket is registered, so every version after the
   * one it reads is pushed here); the pushes held meanwhile then go on top of the view it brought.
   * Only a push that still does not fit (the read failed, or a push was lost) asks for a sync.
   */
  async catchUp(ws) {
    this.held = [];
    try { await this.resync(); } catch { /* the held pushes ask for a sync below */ }
    if (this.ws !== ws) return;
    const held = this.held;
    this.held = null;
    for (const msg of held) if (this.take(ws, msg) === "sync") break; // one sync brings the rest
  }

  /** One push or answer on `ws`; "sync" when it asked for the whole view. */
  take(ws, msg) {
    const waiting = typeof msg.moveId === "string" ? this.pending.get(msg.moveId) : undefined;
    if (waiting) {
      this.pending.delete(msg.moveId);
      clearTimeout(waiting.timer);
    }
    if (msg.type === "error" && waiting) return waiting.reject(msg);
    if (msg.type !== "table" && msg.type !== "delta") return this.onMessage(msg); // phrases, invitations (phrases.js)
    const { view, sync } = receive(this.view, msg);
    if (sync && this.held && !waiting) return void this.held.push(msg); // the resync's view may be its base
    if (sync && ws.readyState === 1) this.send(ws, { action: "sync" });
    if (view === this.view) {
      if (waiting) waiting.resolve(null); // not applied: the caller asks REST
      return sync ? "sync" : undefined;
    }
    const before = this.view;
    this.view = view;
    clearTimeout(this.stepping); // a newer view: what an older push still had to show is past
    if (waiting) return waiting.resolve(structuredClone(view)); // the mover sets it as its answer
    this.show(msg.type === "delta" && msg.steps ? stepViews(before, msg) : [view]);
  }

  /** Hand the app each of `views` in turn, STEP_MS apart (a copy: ours stays the base). */
  show(views) {
    const [first, ...rest] = views;
    this.onView(structuredClone(first));
    if (rest.length) this.stepping = setTimeout(() => this.show(rest), STEP_MS);
  }

  /** Send a client message on `ws`; the silence before the next ping starts again. */
  send(ws, message) {
    ws.send(JSON.stringify(message));
    this.quiet(ws);
  }

  /** Ping after QUIET ms of silence on `ws` from now (any message in or out starts it again). */
  quiet(ws) {
    clearTimeout(this.ping);
    this.ping = setTimeout(() => {
      if (this.ws === ws && ws.readyState === 1) this.send(ws, { action: "ping" });
    }, QUIET);
  }

  /** Reconnect now (e.g. the tab became visible again) unless a connection is open. */
  wake() {
    if (this.want && !this.ws) {
      clearTimeout(this.timer);
      this.open();
    }
  }

  /**
   * Take a newer view of this table from elsewhere (a REST answer) as the base the pushes are applied
   * to: a move sent right after it then goes on the socket instead of waiting for a push to catch up.
   */
  adopt(view) {
    if (!this.want || !view || view.tableId !== this.want.tableId) return;
    if (this.view && view.version <= this.view.version) return; // connect() cleared another table's
    this.view = structuredClone(view);
  }

  get connected() { return !!(this.ws && this.ws.readyState === 1); }

  /**
   * Send a move (the REST move body, moveId included; `lang` that of a refusal's message) on the
   * socket. Resolves with the view its
   * answer brings, rejects with the refusal ({type: "error", error, view?}), or resolves null when
   * the socket cannot take it (closed, or its view is not at the move's version) or no answer came
   * within `ms`: the caller then sends the same body over REST.
   */
  move(body, lang, ms = 3000) {
    const ws = this.ws;
    if (!ws || ws.readyState !== 1 || !this.want || !this.view || this.view.version !== body.version) {
      return Promise.resolve(null);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { this.pending.delete(body.moveId); resolve(null); }, ms);
      this.pending.set(body.moveId, { resolve, reject, timer });
      const lang_ = lang === "tr" || lang === "en" ? { lang } : {};
      this.send(ws, { action: "move", tableId: this.want.tableId, ...lang_, ...body });
    });
  }

  /** Moves still awaiting an answer go to REST (the socket closed). */
  settle() {
    for (const { resolve, timer } of this.pending.values()) {
      clearTimeout(timer);
      resolve(null);
    }
    this.pending.clear();
  }

  close() {
    this.settle();
    this.want = null;
    this.held = null;
    clearTimeout(this.timer);
    clearTimeout(this.stepping);
    clearTimeout(this.ping);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
  }
}
