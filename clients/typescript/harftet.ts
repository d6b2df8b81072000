// A small typed client for the Harftet REST and WebSocket APIs. Its types come from
// generated/openapi.d.ts, which `make ts-client` (openapi-typescript) writes from
// docs/openapi.json; tests/test_contracts.py regenerates it and type-checks this file.
import type { components, paths } from "./generated/openapi";

export type Schemas = components["schemas"];
export type TableView = Schemas["TableView"];
export type ApiError = Schemas["Error"];
export type MoveBody = Schemas["DrawMove"] | Schemas["PassMove"] | Schemas["LayMove"];

type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;
type Operation<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];
/** The JSON a route answers with a given status, as docs/openapi.json describes it. */
export type Answer<
  P extends keyof paths,
  M extends keyof paths[P],
  S extends keyof NonNullable<Operation<P, M>> extends never ? never : number,
> = Operation<P, M> extends { responses: infer R } ? (S extends keyof R ? Json<R[S]> : never) : never;
/** The body a route takes. */
export type Body<P extends keyof paths, M extends keyof paths[P]> = Operation<P, M> extends {
  requestBody?: infer B;
}
  ? Json<NonNullable<B>> // an optional body (sitting down) is still typed
  : never;

export class HarftetError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError,
  ) {
    super(`${status} ${body.error.code}: ${body.error.message}`);
  }
}

export class Harftet {
  token: string | null = null;

  constructor(readonly baseUrl: string) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.token !== null) headers.authorization = `Bearer ${this.token}`;
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(`${this.baseUrl}${path}`, init);
    if (response.status === 204) return undefined as T;
    const json: unknown = await response.json();
    if (!response.ok) throw new HarftetError(response.status, json as ApiError);
    return json as T;
  }

  async createPlayer(body: Body<"/players", "post">): Promise<Answer<"/players", "post", 201>> {
    const player = await this.call<Answer<"/players", "post", 201>>("POST", "/players", body);
    this.token = player.token;
    return player;
  }

  createTable(body: Body<"/tables", "post">): Promise<TableView> {
    return this.call("POST", "/tables", body);
  }

  lobby(): Promise<Answer<"/tables", "get", 200>> {
    return this.call("GET", "/tables?status=waiting");
  }

  table(tableId: string): Promise<TableView> {
    return this.call("GET", `/tables/${encodeURIComponent(tableId)}`);
  }

  sit(tableId: string, seat: number, body: Body<"/tables/{tableId}/seats/{seat}", "post"> = {}) {
    return this.call<TableView>("POST", `/tables/${encodeURIComponent(tableId)}/seats/${seat}`, body);
  }

  start(tableId: string): Promise<TableView> {
    return this.call("POST", `/tables/${encodeURIComponent(tableId)}/start`);
  }

  move(tableId: string, body: MoveBody): Promise<TableView> {
    return this.call("POST", `/tables/${encodeURIComponent(tableId)}/moves`, body);
  }

  // -- profiles, leaderboards, reports (API.md v3)
  profile(playerId: string): Promise<Schemas["Profile"]> {
    return this.call("GET", `/players/${encodeURIComponent(playerId)}/profile`);
  }

  leaderboard(
    game: "kastet" | "harftet",
    period: "week" | "all" = "all",
    options: { limit?: number; cursor?: string } = {},
  ): Promise<Schemas["Leaderboard"]> {
    const query = new URLSearchParams({ period });
    if (options.limit !== undefined) query.set("limit", String(options.limit));
    if (options.cursor !== undefined) query.set("cursor", options.cursor);
    return this.call("GET", `/leaderboards/${game}?${query}`);
  }

  report(
    tableId: string,
    body: Body<"/tables/{tableId}/reports", "post">,
  ): Promise<Schemas["ReportAccepted"]> {
    return this.call("POST", `/tables/${encodeURIComponent(tableId)}/reports`, body);
  }

  /** The caller's tables, theirs to play first, then the nearest deadline (the inbox). */
  myTables(cursor?: string): Promise<Answer<"/players/me/tables", "get", 200>> {
    const query = cursor === undefined ? "" : `?cursor=${encodeURIComponent(cursor)}`;
    return this.call("GET", `/players/me/tables${query}`);
  }

  /** Web Push: a browser's PushSubscription JSON (subscribed with `pushKey()`'s key). */
  subscribePush(
    body: Body<"/players/me/push-subscriptions", "post">,
  ): Promise<Answer<"/players/me/push-subscriptions", "post", 201>> {
    return this.call("POST", "/players/me/push-subscriptions", body);
  }

  async unsubscribePush(id: string): Promise<void> {
    const headers: Record<string, string> = {};
    if (this.token !== null) headers.authorization = `Bearer ${this.token}`;
    const path = `/players/me/push-subscriptions/${encodeURIComponent(id)}`;
    const response = await fetch(`${this.baseUrl}${path}`, { method: "DELETE", headers });
    if (!response.ok) throw new HarftetError(response.status, (await response.json()) as ApiError);
  }

  registerDevice(
    body: Body<"/players/me/devices", "post">,
  ): Promise<Answer<"/players/me/devices", "post", 201>> {
    return this.call("POST", "/players/me/devices", body);
  }

  pushKey(): Promise<Answer<"/push/key", "get", 200>> {
    return this.call("GET", "/push/key");
  }

  // -- accounts (API.md v3 "Identity"): sign-ins keep the access token; refresh it in time
  refreshToken: string | null = null;

  private signedIn(answer: Schemas["SignedIn"]): Schemas["SignedIn"] {
    this.token = answer.token;
    this.refreshToken = answer.refreshToken;
    return answer;
  }

  passkeyRegistrationOptions(): Promise<Schemas["PasskeyOptions"]> {
    return this.call("POST", "/players/me/passkeys/options");
  }

  registerPasskey(body: Schemas["PasskeyResponse"]): Promise<Schemas["Passkey"]> {
    return this.call("POST", "/players/me/passkeys", body);
  }

  removePasskey(passkeyId: string): Promise<void> {
    return this.call("DELETE", `/players/me/passkeys/${encodeURIComponent(passkeyId)}`);
  }

  passkeySignInOptions(): Promise<Schemas["PasskeyOptions"]> {
    return this.call("POST", "/sessions/passkey/options");
  }

  async signInWithPasskey(body: Schemas["PasskeyResponse"]): Promise<Schemas["SignedIn"]> {
    return this.signedIn(await this.call("POST", "/sessions/passkey", body));
  }

  transferCode(): Promise<Schemas["TransferCode"]> {
    return this.call("POST", "/players/me/transfer-codes");
  }

  async signInWithCode(code: string): Promise<Schemas["SignedIn"]> {
    return this.signedIn(await this.call("POST", "/sessions/transfer", { code }));
  }

  async refresh(): Promise<Schemas["SignedIn"]> {
    return this.signedIn(
      await this.call("POST", "/sessions/refresh", { refreshToken: this.refreshToken }),
    );
  }

  signOut(): Promise<void> {
    return this.call("DELETE", "/sessions/current");
  }

  exportData(): Promise<Schemas["Export"]> {
    return this.call("GET", "/players/me/export");
  }

  deleteMe(): Promise<void> {
    return this.call("DELETE", "/players/me");
  }

  friends(): Promise<Schemas["Friends"]> {
    return this.call("GET", "/players/me/friends");
  }

  askFriend(code: string): Promise<Schemas["Friends"]> {
    return this.call("POST", "/players/me/friends", { code });
  }

  invite(tableId: string, playerId: string): Promise<Schemas["Invited"]> {
    return this.call("POST", `/tables/${encodeURIComponent(tableId)}/invitations`, { playerId });
  }

  sendPhrase(tableId: string, phrase: string): Promise<Schemas["PhraseSent"]> {
    return this.call("POST", `/tables/${encodeURIComponent(tableId)}/phrases`, { phrase });
  }

  /** Every sentence a player reads, in one language, with the bounds forms show (GET /texts). */
  texts(lang: "tr" | "en"): Promise<Schemas["Texts"]> {
    return this.call("GET", `/texts?lang=${lang}`);
  }

  /** What the game knows of a word (no token needed): kinds, sources, or why it is refused. */
  word(word: string): Promise<Schemas["WordInfo"]> {
    return this.call("GET", `/words/${encodeURIComponent(word)}`);
  }

  reportWord(word: string, kind: "wrong" | "missing"): Promise<Schemas["WordReported"]> {
    return this.call("POST", `/words/${encodeURIComponent(word)}/reports`, { kind });
  }
}

// ------------------------------------------------------------------ WebSocket (docs/asyncapi.yaml)

export type ClientMessage =
  | { action: "ping" }
  | { action: "sync" }
  | ({ action: "move"; tableId: string; lang?: "tr" | "en" } & MoveBody);

/**
 * One operation of a delta: remove, set, set in the short tile form (the game's tiles with
 * these ids), or splice the array at a JSON Pointer (RFC 6901).
 */
export type DeltaOp =
  | [pointer: string]
  | [pointer: string, value: unknown]
  | [pointer: string, form: "tiles", ids: number[]]
  | [pointer: string, index: number, count: number, items: unknown[]];
/** What changed in this connection's view since version `from`; `moveId` on the answer to a
 * move this socket sent (that socket gets no other push of the version). */
export type DeltaMessage = { type: "delta"; from: number; version: number; ops: DeltaOp[]; moveId?: string };
export type ServerMessage =
  | { type: "table"; view: TableView; moveId?: string }
  | DeltaMessage
  | { type: "pong" }
  | { type: "phrase"; seat: number; phrase: string }
  | { type: "invitation"; tableId: string; from: string }
  | { type: "presence"; playerId: string; status: "online" | "table" | "away"; game?: "harftet" | "kastet" }
  | ({ type: "dryRun" } & Schemas["DryRun"])
  | { type: "error"; error: Schemas["ErrorDetail"]; view?: TableView | null; moveId?: string; status?: number };

/** A delta that does not fit the view at hand: ask for the whole view ({"action": "sync"}). */
export class DeltaError extends Error {}

type Node = Record<string, unknown> | unknown[];

const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null;
const isIndex = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0;

function tokens(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new DeltaError(`not a JSON Pointer: ${pointer}`);
  return pointer.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function index(token: string): number {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new DeltaError(`not an array index: ${token}`);
  return Number(token);
}

function resolve(root: unknown, path: string[]): unknown {
  let node = root;
  for (const token of path) {
    if (Array.isArray(node)) {
      const i = index(token);
      if (i >= node.length) throw new DeltaError(`no element ${i}`);
      node = node[i];
    } else if (isNode(node) && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      throw new DeltaError(`nothing at /${path.join("/")}`);
    }
  }
  return node;
}

// The tiles of both games by id, as a view writes a tile off the table (the server's
// harftet.engine.tiles; tests/web/test_delta_js.py compares every one). Harftet: face and hand
// value, "*n" for n tiles in a row; colours go round by id.
const COLORS = ["red", "yellow", "blue", "black"] as const;
const HARFTET: [string, number][] =
  "A1*8 E1*7 İ1*8 K1*5 L1*5 N1*4 R1*6 T1*4 I2*4 M2*5 O2*3 S2*4 U2*3 B3*3 D3*3 Ü3*2 Y3*4 C4 Ç4 Ş4*2 Z4*2 G5*2 H5*2 P5 F7 Ö7 V7 Ğ8 J10 AR2 ER2 AN2 EN2 LA2 LE2 DA4 DE4 İN2 IN3"
    .split(" ")
    .flatMap((run): [string, number][] => {
      const [, letter, value, count] = /^(\D+)(\d+)(?:\*(\d+))?$/u.exec(run) as RegExpExecArray;
      return Array.from({ length: Number(count ?? 1) }, () => [letter as string, Number(value)]);
    });

/** The tile `id` of `game` ("kastet" or "harftet") as a view writes it off the table. */
export function tileOf(game: unknown, id: unknown): Record<string, unknown> {
  if (!Number.isInteger(id) || (id as number) < 0 || (id as number) > 105) throw new DeltaError(`not a tile id: ${id}`);
  const n = id as number;
  if (game !== "kastet" && game !== "harftet") throw new DeltaError(`no tiles of game ${game}`);
  if (n >= 104) return { id: n, joker: true, as: null };
  if (game === "kastet") return { id: n, color: COLORS[Math.floor((n % 52) / 13)], number: (n % 13) + 1 };
  const [letter, value] = HARFTET[n] as [string, number];
  return { id: n, letter, value, color: COLORS[n % 4] };
}

function applyOp(root: unknown, given: DeltaOp, game: unknown): unknown {
  let op = given;
  if (op.length === 3) {
    if (op[1] !== "tiles" || !Array.isArray(op[2])) throw new DeltaError("not an operation");
    op = [op[0], op[2].map((id) => tileOf(game, id))];
  }
  const path = tokens(op[0]);
  if (op.length === 4) {
    const [, start, count, items] = op;
    const target = resolve(root, path);
    if (!Array.isArray(target) || !Array.isArray(items)) throw new DeltaError("a splice needs arrays");
    if (!isIndex(start) || !isIndex(count) || start + count > target.length) throw new DeltaError("a splice beyond the array");
    target.splice(start, count, ...items);
    return root;
  }
  if (path.length === 0) {
    if (op.length === 1) throw new DeltaError("the whole view cannot be removed");
    return op[1];
  }
  const parent = resolve(root, path.slice(0, -1));
  const last = path[path.length - 1] as string;
  if (Array.isArray(parent)) {
    const i = index(last);
    if (op.length === 1) {
      if (i >= parent.length) throw new DeltaError(`nothing to remove at ${op[0]}`);
      parent.splice(i, 1);
    } else if (i <= parent.length) parent[i] = op[1];
    else throw new DeltaError(`beyond the array at ${op[0]}`);
  } else if (isNode(parent)) {
    const object = parent as Record<string, unknown>;
    if (op.length === 1) {
      if (!Object.hasOwn(object, last)) throw new DeltaError(`nothing to remove at ${op[0]}`);
      delete object[last];
    } else object[last] = op[1];
  } else {
    throw new DeltaError(`no object or array holds ${op[0]}`);
  }
  return root;
}

/** The view after a delta; DeltaError when `view` is not at the delta's `from` or it does not fit. */
export function applyDelta(view: TableView, message: DeltaMessage): TableView {
  if (view.version !== message.from) throw new DeltaError(`the delta is from version ${message.from}`);
  let next: unknown = structuredClone(view);
  for (const op of message.ops) {
    if (!Array.isArray(op) || ![1, 2, 3, 4].includes(op.length)) throw new DeltaError("not an operation");
    next = applyOp(next, op, view.game);
  }
  if (!isNode(next) || Array.isArray(next)) throw new DeltaError("a delta turns a view into a view");
  return { ...(next as TableView), version: message.version };
}

/**
 * Watches one table: calls `onView` with the view after every push (deltas applied; after a
 * missed push it asks for the whole view with `sync`); `send` takes client messages.
 */
export function watch(
  wsUrl: string,
  token: string,
  tableId: string,
  onView: (view: TableView) => void,
  onError: (error: Schemas["ErrorDetail"]) => void = () => {},
): { send: (message: ClientMessage) => void; close: () => void } {
  const query = new URLSearchParams({ token, tableId });
  const socket = new WebSocket(`${wsUrl}?${query}`);
  const send = (message: ClientMessage) => socket.send(JSON.stringify(message));
  let view: TableView | null = null;
  const hold = (next: TableView) => {
    view = next;
    onView(structuredClone(next));
  };
  socket.onopen = () => send({ action: "sync" });
  socket.onmessage = (event: MessageEvent<string>) => {
    const message = JSON.parse(event.data) as ServerMessage;
    if (message.type === "table") {
      if (view === null || message.view.version >= view.version) hold(message.view);
    } else if (message.type === "delta") {
      if (view !== null && message.version <= view.version) return; // already held
      try {
        if (view === null) throw new DeltaError("no view yet");
        hold(applyDelta(view, message));
      } catch (error) {
        if (!(error instanceof DeltaError)) throw error;
        send({ action: "sync" });
      }
    } else if (message.type === "error") {
      if (message.view && (view === null || message.view.version >= view.version)) hold(message.view); // stale_version
      onError(message.error);
    }
  };
  return { send, close: () => socket.close() };
}

export type PresenceMessage = Extract<ServerMessage, { type: "presence" }>;
export type InvitationMessage = Extract<ServerMessage, { type: "invitation" }>;

/**
 * The player's own connection (no table): friends' presence as it changes and invitations to
 * a table. At most 4 per player; it watches no table (sync and moves are refused).
 */
export function listen(
  wsUrl: string,
  token: string,
  onPresence: (message: PresenceMessage) => void,
  onInvitation: (message: InvitationMessage) => void = () => {},
): { close: () => void } {
  const socket = new WebSocket(`${wsUrl}?${new URLSearchParams({ token })}`);
  socket.onmessage = (event: MessageEvent<string>) => {
    const message = JSON.parse(event.data) as ServerMessage;
    if (message.type === "presence") onPresence(message);
    else if (message.type === "invitation") onInvitation(message);
  };
  return { close: () => socket.close() };
}
