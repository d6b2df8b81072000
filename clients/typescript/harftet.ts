// A small typed client for the Harftet REST and WebSocket APIs. Its types come from
// generated/openapi.d.ts, which `make ts-client` (openapi-typescript) writes from
// docs/openapi.json; tests/test_contracts.py regenerates it and type-checks this file.
import type { components, paths } from "./generated/openapi";
// The deltas are applied as the web client applies them: its delta.js (plain JS) is the one
// implementation of both clients.
import { applyDelta as applied, DeltaError, tileOf } from "../web/delta.js";

export { DeltaError, tileOf };

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

  /** The next meld of the best lay: `meldShed` what that meld sheds, `shed` the whole lay. */
  hint(tableId: string): Promise<Schemas["Hint"]> {
    return this.call("GET", `/tables/${encodeURIComponent(tableId)}/hint`);
  }

  /** A finished game whole. Its `seed` is a string of digits (API.md v4): `BigInt(seed)`. */
  replay(tableId: string): Promise<Schemas["Replay"]> {
    return this.call("GET", `/tables/${encodeURIComponent(tableId)}/replay`);
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
 * move this socket sent (that socket gets no other push of the version); `steps` when several
 * stored versions come in one push (a spectator's, held back while computer players move): each
 * version and how many of `ops`, in order, lead to it (all of `ops` give `version`). */
export type DeltaMessage = {
  type: "delta";
  from: number;
  version: number;
  ops: DeltaOp[];
  moveId?: string;
  steps?: { version: number; ops: number }[];
};
export type ServerMessage =
  | { type: "table"; view: TableView; moveId?: string }
  | DeltaMessage
  | { type: "pong" }
  | { type: "phrase"; seat: number; phrase: string }
  | { type: "invitation"; tableId: string; from: string }
  | { type: "friendRequest"; from: string; name: string }
  | { type: "presence"; playerId: string; status: "online" | "table" | "away"; game?: "harftet" | "kastet" }
  | ({ type: "dryRun" } & Schemas["DryRun"])
  | { type: "error"; error: Schemas["ErrorDetail"]; view?: TableView | null; moveId?: string; status?: number };

/** The view after a delta; DeltaError (a delta that does not fit the view at hand: ask for the
 * whole view, {"action": "sync"}) when `view` is not at the delta's `from` or it does not fit. */
export function applyDelta(view: TableView, message: DeltaMessage): TableView {
  return applied(view, message) as TableView;
}

/** Silence (ms, no message in or out) after which a connection pings: under API Gateway's
 * 10-minute idle timeout, so a table whose pushes flow sends no pings at all. */
export const QUIET_MS = 9 * 60 * 1000;

/**
 * Pings `socket` after QUIET_MS without any message either way; `heard()` on every message in
 * or out starts the silence again, `stop()` when the socket is closed.
 */
export function keepAlive(socket: WebSocket): { heard: () => void; stop: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => clearTimeout(timer);
  const heard = () => {
    stop();
    timer = setTimeout(() => {
      if (socket.readyState !== 1) return;
      socket.send(JSON.stringify({ action: "ping" }));
      heard();
    }, QUIET_MS);
  };
  socket.addEventListener?.("close", stop);
  heard();
  return { heard, stop };
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
  const alive = keepAlive(socket);
  const send = (message: ClientMessage) => {
    socket.send(JSON.stringify(message));
    alive.heard();
  };
  let view: TableView | null = null;
  const hold = (next: TableView) => {
    view = next;
    onView(structuredClone(next));
  };
  socket.onopen = () => send({ action: "sync" });
  socket.onmessage = (event: MessageEvent<string>) => {
    alive.heard();
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
  return { send, close: () => (alive.stop(), socket.close()) };
}

export type PresenceMessage = Extract<ServerMessage, { type: "presence" }>;
export type InvitationMessage = Extract<ServerMessage, { type: "invitation" }>;
export type FriendRequestMessage = Extract<ServerMessage, { type: "friendRequest" }>;

/**
 * The player's own connection (no table): friends' presence as it changes, invitations to a
 * table and friend requests. At most 4 per player; it watches no table (sync and moves are
 * refused).
 */
export function listen(
  wsUrl: string,
  token: string,
  onPresence: (message: PresenceMessage) => void,
  onInvitation: (message: InvitationMessage) => void = () => {},
  onFriendRequest: (message: FriendRequestMessage) => void = () => {},
): { close: () => void } {
  const socket = new WebSocket(`${wsUrl}?${new URLSearchParams({ token })}`);
  const alive = keepAlive(socket);
  socket.onmessage = (event: MessageEvent<string>) => {
    alive.heard();
    const message = JSON.parse(event.data) as ServerMessage;
    if (message.type === "presence") onPresence(message);
    else if (message.type === "invitation") onInvitation(message);
    else if (message.type === "friendRequest") onFriendRequest(message);
  };
  return { close: () => (alive.stop(), socket.close()) };
}
