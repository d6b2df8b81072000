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
}

// ------------------------------------------------------------------ WebSocket (docs/asyncapi.yaml)

export type ClientMessage =
  | { action: "ping" }
  | ({ action: "move"; tableId: string; lang?: "tr" | "en" } & MoveBody);
export type ServerMessage =
  | { type: "table"; view: TableView }
  | { type: "pong" }
  | { type: "phrase"; seat: number; phrase: string }
  | { type: "invitation"; tableId: string; from: string }
  | ({ type: "dryRun" } & Schemas["DryRun"])
  | { type: "error"; error: Schemas["ErrorDetail"]; view?: TableView | null };

/** Watches one table: calls `onView` with every pushed view; `send` takes client messages. */
export function watch(
  wsUrl: string,
  token: string,
  tableId: string,
  onView: (view: TableView) => void,
  onError: (error: Schemas["ErrorDetail"]) => void = () => {},
): { send: (message: ClientMessage) => void; close: () => void } {
  const query = new URLSearchParams({ token, tableId });
  const socket = new WebSocket(`${wsUrl}?${query}`);
  socket.onmessage = (event: MessageEvent<string>) => {
    const message = JSON.parse(event.data) as ServerMessage;
    if (message.type === "table") onView(message.view);
    else if (message.type === "error") onError(message.error);
  };
  return { send: (message) => socket.send(JSON.stringify(message)), close: () => socket.close() };
}
