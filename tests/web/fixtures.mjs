// Table views for the node tests, shaped as the server sends them (API.md "The table view"),
// with the rule limits the server sends (limits.json, held to the server by test_view_limits.py).
import { readFileSync } from "node:fs";

export const LIMITS = JSON.parse(readFileSync(new URL("./limits.json", import.meta.url), "utf8"));

export const K = (id, color, number) => ({ id, color, number });
export const L = (id, letter, value = 1) => ({ id, letter, value, color: "red" });

/** A Kastet table of two at its first hand, the caller (p0) at seat 0 and to move. */
export function kastetView(over = {}) {
  return {
    tableId: "t1", game: "kastet", version: 5, status: "playing", manager: "p0", hands: 2, handNumber: 1,
    partners: false, turnSeconds: 45, hints: true, hintsLeft: 3,
    seats: [
      { seat: 0, playerId: "p0", name: "Ayşe", connected: true, bot: false, tiles: 4, penalty: 0 },
      { seat: 1, playerId: null, name: null, connected: true, bot: true, level: "medium", tiles: 14, penalty: 0 },
    ],
    seat: 0, turn: { seat: 0, laid: false, deadline: 2_000_000_000 }, pile: 50,
    series: [], pairs: [], hand: [K(1, "red", 5), K(2, "red", 6), K(3, "red", 7), K(4, "blue", 9)],
    handResults: [], last: null, limits: LIMITS.kastet,
    ...over,
  };
}
