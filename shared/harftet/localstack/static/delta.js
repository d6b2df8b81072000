// Applying the WebSocket's pushes (docs/asyncapi.yaml, "delta" and "table"; the server side is
// shared/harftet/api/delta.py). Pure: no DOM, no socket. Each operation is an array whose first
// element is a JSON Pointer (RFC 6901) into the view: [p] removes, [p, v] sets (appends at an
// array's length), [p, i, n, items] splices the array at p. The view's version is the message's.

export class DeltaError extends Error {}

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

function applyOne(root, op) {
  if (!Array.isArray(op) || ![1, 2, 4].includes(op.length)) throw new DeltaError("not an operation");
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

/** `value` with `ops` applied; `value` itself is left as it was. */
export function applyOps(value, ops) {
  if (!Array.isArray(ops)) throw new DeltaError("a delta carries a list of ops");
  let result = structuredClone(value);
  for (const op of ops) result = applyOne(result, op);
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
