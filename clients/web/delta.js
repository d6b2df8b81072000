// Applying the WebSocket's pushes (docs/asyncapi.yaml, "delta" and "table"; the server side is
// shared/harftet/api/delta.py). Pure: no DOM, no socket. Each operation is an array whose first
// element is a JSON Pointer (RFC 6901) into the view: [p] removes, [p, v] sets (appends at an
// array's length), [p, i, n, items] splices the array at p, [p, "tiles", ids] sets p to the
// game's tiles with these ids (the short tile form: a tile's id names its face). The view's
// version is the message's.

export class DeltaError extends Error {}

// The tiles of both games by id, as a view writes a tile off the table (harftet.engine.tiles;
// tests/web/test_delta_js.py compares every one with the server's). Harftet: face and hand
// value, "*n" for n tiles in a row; colours go round by id.
const COLORS = ["red", "yellow", "blue", "black"];
const HARFTET = "A1*8 E1*7 İ1*8 K1*5 L1*5 N1*4 R1*6 T1*4 I2*4 M2*5 O2*3 S2*4 U2*3 B3*3 D3*3 Ü3*2 Y3*4 C4 Ç4 Ş4*2 Z4*2 G5*2 H5*2 P5 F7 Ö7 V7 Ğ8 J10 AR2 ER2 AN2 EN2 LA2 LE2 DA4 DE4 İN2 IN3"
  .split(" ")
  .flatMap((run) => {
    const [, letter, value, count] = /^(\D+)(\d+)(?:\*(\d+))?$/u.exec(run);
    return Array(Number(count ?? 1)).fill([letter, Number(value)]);
  });

/** The tile `id` of `game` ("kastet" or "harftet") as the view writes it. */
export function tileOf(game, id) {
  if (!Number.isInteger(id) || id < 0 || id > 105) throw new DeltaError(`not a tile id: ${id}`);
  if (game !== "kastet" && game !== "harftet") throw new DeltaError(`no tiles of game ${game}`);
  if (id >= 104) return { id, joker: true, as: null };
  if (game === "kastet") return { id, color: COLORS[Math.floor((id % 52) / 13)], number: (id % 13) + 1 };
  const [letter, value] = HARFTET[id];
  return { id, letter, value, color: COLORS[id % 4] };
}

const isIndex = (x) => Number.isInteger(x) && x >= 0;

/** The reference tokens of a JSON Pointer ("" is the whole value). */
export function parsePointer(text) {
  if (typeof text !== "string") throw new DeltaError("a pointer is a string");
  if (text === "") return [];
  if (!text.startsWith("/")) throw new DeltaError(`a pointer starts with "/": ${text.slice(0, 40)}`);
  return text.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function arrayIndex(token) {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new DeltaError(`not an array index: ${token}`);
  return Number(token);
}

function resolve(root, tokens) {
  let node = root;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      const i = arrayIndex(token);
      if (i >= node.length) throw new DeltaError(`no element ${i}`);
      node = node[i];
    } else if (node !== null && typeof node === "object" && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      throw new DeltaError(`nothing at /${tokens.join("/")}`);
    }
  }
  return node;
}

function applyOne(root, op, game) {
  if (!Array.isArray(op) || ![1, 2, 3, 4].includes(op.length)) throw new DeltaError("not an operation");
  if (op.length === 3) {
    if (op[1] !== "tiles" || !Array.isArray(op[2])) throw new DeltaError("not an operation");
    op = [op[0], op[2].map((id) => tileOf(game, id))];
  }
  const tokens = parsePointer(op[0]);
  if (op.length === 4) {
    const [, start, count, items] = op;
    const target = resolve(root, tokens);
    if (!Array.isArray(target) || !Array.isArray(items)) throw new DeltaError(`a splice needs an array at ${op[0]}`);
    if (!isIndex(start) || !isIndex(count) || start + count > target.length) throw new DeltaError(`a splice beyond the array at ${op[0]}`);
    target.splice(start, count, ...items);
    return root;
  }
  if (tokens.length === 0) {
    if (op.length === 1) throw new DeltaError("the whole value cannot be removed");
    return op[1];
  }
  const parent = resolve(root, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const i = arrayIndex(last);
    if (op.length === 1) {
      if (i >= parent.length) throw new DeltaError(`nothing to remove at ${op[0]}`);
      parent.splice(i, 1);
    } else if (i <= parent.length) {
      parent[i] = op[1];
    } else {
      throw new DeltaError(`beyond the array at ${op[0]}`);
    }
  } else if (parent !== null && typeof parent === "object") {
    if (op.length === 1) {
      if (!Object.hasOwn(parent, last)) throw new DeltaError(`nothing to remove at ${op[0]}`);
      delete parent[last];
    } else {
      parent[last] = op[1];
    }
  } else {
    throw new DeltaError(`no object or array holds ${op[0]}`);
  }
  return root;
}

/**
 * `value` with `ops` applied; `value` and `ops` themselves are left as they were (a value an op
 * sets is a copy, which a later op may change: a push of several versions is applied twice).
 */
export function applyOps(value, ops) {
  if (!Array.isArray(ops)) throw new DeltaError("a delta carries a list of ops");
  let result = structuredClone(value);
  const game = value?.game;
  for (const op of structuredClone(ops)) result = applyOne(result, op, game);
  return result;
}

/** The view after a delta message; DeltaError when `view` is not at the delta's `from`. */
export function applyDelta(view, message) {
  if (!view || view.version !== message.from) throw new DeltaError(`the delta is from version ${message.from}`);
  const next = applyOps(view, message.ops);
  if (next === null || typeof next !== "object" || Array.isArray(next)) throw new DeltaError("a delta turns a view into a view");
  next.version = message.version;
  return next;
}

/**
 * One push received by a client holding `view` (null for none): the view it holds after it,
 * and whether it must ask for the whole view ({"action": "sync"}) because a push was missed.
 * Pushes of versions it already holds (e.g. from a REST answer) change nothing.
 */
export function receive(view, message) {
  if (message.type === "table") {
    const whole = message.view;
    const newer = !view || view.tableId !== whole.tableId || whole.version >= view.version;
    return { view: newer ? whole : view, sync: false };
  }
  if (message.type !== "delta") return { view, sync: false };
  if (view && message.version <= view.version) return { view, sync: false };
  try {
    return { view: applyDelta(view, message), sync: false };
  } catch (error) {
    if (!(error instanceof DeltaError)) throw error;
    return { view, sync: true };
  }
}

/**
 * Each version a delta with `steps` (several stored versions in one push: a spectator's while
 * computer players move) passes through, from `view` at its `from`: the views after each step's
 * share of the ops, the last one the view at the message's `version`. A delta without steps, or
 * one whose steps do not add up, is one version: [the view after all its ops].
 */
export function stepViews(view, message) {
  const whole = applyDelta(view, message);
  const steps = message.steps;
  if (!Array.isArray(steps) || steps.reduce((n, s) => n + (s?.ops ?? NaN), 0) !== message.ops.length) return [whole];
  const views = [];
  let at = 0;
  let current = view;
  try {
    for (const step of steps.slice(0, -1)) {
      current = applyDelta(current, { from: current.version, version: step.version, ops: message.ops.slice(at, at + step.ops) });
      at += step.ops;
      views.push(current);
    }
  } catch (error) {
    if (!(error instanceof DeltaError)) throw error;
    return [whole]; // steps that do not fit: the versions' end is still right
  }
  return [...views, whole];
}
