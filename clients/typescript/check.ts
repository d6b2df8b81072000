// Type-level checks: the generated types are precise enough to catch a client's mistakes
// (each @ts-expect-error must be an error, or tsc fails on the unused directive).
import {
  applyDelta,
  Harftet,
  listen,
  type PresenceMessage,
  type ClientMessage,
  type DeltaMessage,
  type DeltaOp,
  type MoveBody,
  type ServerMessage,
  type TableView,
} from "./harftet";

export async function game(api: Harftet): Promise<TableView> {
  await api.createPlayer({ name: "Ayşe" });
  const table = await api.createTable({ game: "kastet", seats: 2, hands: 1 });
  const status: "waiting" | "playing" | "paused" | "finished" = table.status;
  const draw: MoveBody = { version: table.version, moveId: "m1", type: "draw" };
  void status;
  return api.move(table.tableId, draw);
}

// @ts-expect-error: no such game
export const chess = (api: Harftet) => api.createTable({ game: "chess" });
// @ts-expect-error: a move needs its version
export const unversioned: MoveBody = { moveId: "m1", type: "draw" };
// @ts-expect-error: the version is a number
export const textVersion: MoveBody = { version: "3", moveId: "m1", type: "pass" };
// A dry run needs no moveId.
export const check: ClientMessage = { action: "move", tableId: "t", version: 3, type: "draw", dryRun: true };
// @ts-expect-error: a player's name is the only field of the body
export const extra = (api: Harftet) => api.createPlayer({ name: "Ali", rating: 2000 });
// @ts-expect-error: no such action
export const shout: ClientMessage = { action: "shout" };

export function seats(view: TableView): (string | null)[] {
  return view.seats.map((seat) => (seat === null ? null : (seat.name ?? null)));
}

export function describe(message: ServerMessage): string {
  switch (message.type) {
    case "table":
      return `table ${message.view.tableId} at version ${message.view.version}`;
    case "delta":
      return `${message.ops.length} changes from version ${message.from} to ${message.version}`;
    case "pong":
      return "pong";
    case "dryRun":
      return `legal: the view would be at version ${message.view.version}`;
    case "error":
      return `${message.error.code}: ${message.error.message}`;
    case "phrase":
      return `seat ${message.seat} says ${message.phrase}`;
    case "invitation":
      return `${message.from} invites you to ${message.tableId}`;
    case "friendRequest":
      return `${message.name} asks to be friends`;
    case "presence":
      return `${message.playerId} is ${message.status === "table" ? `playing ${message.game}` : message.status}`;
  }
}

// A client asks for the whole view after a missed push.
export const sync: ClientMessage = { action: "sync" };
// The three operations of a delta, and a pile count brought up to date.
export const ops: DeltaOp[] = [["/last"], ["/pile", 39], ["/hand", 2, 1, []]];
export const pileDrawn = (view: TableView): TableView =>
  applyDelta(view, { type: "delta", from: view.version, version: view.version + 1, ops: [["/pile", view.pile - 1]] });
// @ts-expect-error: an operation has 1, 2 or 4 elements
export const threeElements: DeltaOp = ["/pile", 1, 2];
// @ts-expect-error: a delta says which version it is from
export const fromless: DeltaMessage = { type: "delta", version: 3, ops: [] };
// A friend's presence: "table" comes with the game, never a table id.
export const friendsOnline = (url: string, token: string, seen: Map<string, string>) =>
  listen(url, token, (m) => seen.set(m.playerId, m.status === "table" ? `${m.status}:${m.game}` : m.status));
// @ts-expect-error: a presence push has no "busy" status
export const busy: PresenceMessage = { type: "presence", playerId: "p", status: "busy" };
// A replay's seed is a string of digits (API.md v4): exact as a BigInt, never a rounded number.
export const seedOf = async (api: Harftet, tableId: string): Promise<bigint> => BigInt((await api.replay(tableId)).seed);
// @ts-expect-error: the seed is no number (JSON.parse would round it)
export const roundedSeed = async (api: Harftet, tableId: string): Promise<number> => (await api.replay(tableId)).seed;
// A hint says what its own meld sheds beside the whole lay.
export const meldWorth = async (api: Harftet, tableId: string): Promise<number> => (await api.hint(tableId)).meldShed;
