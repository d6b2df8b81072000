// The REST client (API.md): bearer token, Accept-Language, one error type for every failure.

export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.message || `HTTP ${status}`);
    this.status = status;
    this.code = e.code || `http_${status}`;
    this.reason = e.reason;
    this.meld = e.meld;
    this.word = e.word;
    this.params = { ...(e.params || {}), ...rest(e) };
    this.view = body && body.view;
  }
}

// An illegal_move's params sit beside code, message and reason (meld, pair, word, tile, kind …).
function rest(o) {
  const out = {};
  for (const [k, v] of Object.entries(o)) if (!["code", "message", "reason", "params"].includes(k) && v != null) out[k] = v;
  return out;
}

export function newMoveId() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16)); // insecure contexts lack randomUUID
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** A client bound to the session: `token()`, `lang()` and `base()` (the REST URL; "" = this host) are
 * read on every call, after `ready` (config.json's promise) has settled. */
export function createApi({ token, lang, onUnauthorized, base = () => "", ready = null }) {
  async function request(method, path, body) {
    if (ready) await ready;
    const headers = { "Accept-Language": lang() };
    const tok = token();
    if (tok) headers.Authorization = `Bearer ${tok}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let res;
    try {
      res = await fetch(base() + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw new ApiError(0, { error: { code: "network", message: "network" } });
    }
    const text = await res.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
    if (!res.ok) {
      const err = new ApiError(res.status, data);
      const wait = Number(res.headers && res.headers.get && res.headers.get("Retry-After"));
      if (err.params.retryAfter == null && wait > 0) err.params.retryAfter = wait; // a 429 the body does not time
      if (res.status === 401 && tok) onUnauthorized();
      throw err;
    }
    return data;
  }
  const id = encodeURIComponent;
  return {
    request,
    createPlayer: (name) => request("POST", "/players", { name }),
    player: (pid) => request("GET", `/players/${id(pid)}`),
    lobby: (status, cursor, limit) => request("GET", `/tables?status=${status}${limit ? `&limit=${limit}` : ""}${cursor ? `&cursor=${id(cursor)}` : ""}`),
    createTable: (body) => request("POST", "/tables", body),
    search: (body) => request("POST", "/matchmaking", body), // looking for opponents (API.md v4)
    ticket: (tid) => request("GET", `/matchmaking/${id(tid)}`),
    cancelSearch: (tid) => request("DELETE", `/matchmaking/${id(tid)}`),
    table: (tid) => request("GET", `/tables/${id(tid)}`),
    sit: (tid, seat, body) => request("POST", `/tables/${id(tid)}/seats/${seat}`, body),
    stand: (tid, seat) => request("DELETE", `/tables/${id(tid)}/seats/${seat}`),
    start: (tid) => request("POST", `/tables/${id(tid)}/start`),
    resume: (tid) => request("POST", `/tables/${id(tid)}/continue`),
    move: (tid, body) => request("POST", `/tables/${id(tid)}/moves`, body),
    hint: (tid) => request("GET", `/tables/${id(tid)}/hint`),
    log: (tid, after) => request("GET", `/tables/${id(tid)}/log${after != null ? `?after=${after}` : ""}`),
  };
}
