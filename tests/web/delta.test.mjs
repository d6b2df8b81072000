// Applying the WebSocket's delta pushes (clients/web/delta.js): `node --test tests/web/`.
// test_delta_js.py feeds the same module the deltas the server computes over whole games.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyDelta, applyOps, DeltaError, parsePointer, receive, stepViews } from "../../clients/web/delta.js";

const view = () => ({
  tableId: "t1",
  version: 7,
  pile: 40,
  turn: { seat: 0, laid: false, deadline: 100 },
  seats: [{ seat: 0, tiles: 14 }, { seat: 1, tiles: 14 }],
  hand: [{ id: 1 }, { id: 2 }, { id: 3 }],
  last: null,
});

test("the three operations: set, remove and splice, in order", () => {
  const before = view();
  const after = applyOps(before, [
    ["/seats/1/tiles", 15],
    ["/turn"],
    ["/hand", 1, 1, [{ id: 9 }, { id: 8 }]],
    ["/hand/4", { id: 5 }], // at the length: appended
    ["/last", { seq: 3, type: "draw" }],
  ]);
  assert.equal(after.seats[1].tiles, 15);
  assert.equal("turn" in after, false);
  assert.deepEqual(after.hand.map((t) => t.id), [1, 9, 8, 3, 5]);
  assert.deepEqual(after.last, { seq: 3, type: "draw" });
  assert.deepEqual(before, view()); // the base is left as it was
});

test("null is a value a member is set to, not a removal", () => {
  assert.deepEqual(applyOps({ turn: { seat: 1 } }, [["/turn", null]]), { turn: null });
});

test("pointers unescape ~1 to / and ~0 to ~", () => {
  assert.deepEqual(parsePointer("/a~1b/m~0n/3"), ["a/b", "m~n", "3"]);
  assert.deepEqual(parsePointer(""), []);
  assert.deepEqual(applyOps({ "x/y": { "~": 1 } }, [["/x~1y/~0", 2]]), { "x/y": { "~": 2 } });
});

test("a delta applies only to the version it is from, and sets the new version", () => {
  const message = { type: "delta", from: 7, version: 8, ops: [["/pile", 39]] };
  const next = applyDelta(view(), message);
  assert.equal(next.version, 8);
  assert.equal(next.pile, 39);
  assert.throws(() => applyDelta({ ...view(), version: 6 }, message), DeltaError);
  assert.throws(() => applyDelta(null, message), DeltaError);
});

for (const [name, ops] of [
  ["nothing to remove", [["/missing"]]],
  ["no parent", [["/a/b/c", 1]]],
  ["beyond the array", [["/hand/9", 1]]],
  ["a leading zero", [["/hand/01", 1]]],
  ["a splice past the end", [["/hand", 2, 5, []]]],
  ["a negative splice", [["/hand", -1, 0, []]]],
  ["a splice on an object", [["/turn", 0, 0, []]]],
  ["items not an array", [["/hand", 0, 0, 5]]],
  ["not a pointer", [["pile", 1]]],
  ["three elements", [["/pile", 1, 2]]],
  ["removing everything", [[""]]],
  ["ops not a list", { pile: 1 }],
]) {
  test(`an operation that does not fit is refused: ${name}`, () => {
    const before = view();
    assert.throws(() => applyOps(before, ops), DeltaError);
    assert.deepEqual(before, view());
  });
}

test("a client asks for the whole view after a missed push, and takes it", () => {
  let state = receive(null, { type: "table", view: view() });
  assert.equal(state.sync, false);
  assert.equal(state.view.version, 7);
  const skipped = receive(state.view, { type: "delta", from: 8, version: 9, ops: [["/pile", 38]] });
  assert.equal(skipped.sync, true); // version 8 never arrived
  assert.equal(skipped.view, state.view); // nothing applied
  state = receive(skipped.view, { type: "table", view: { ...view(), version: 9, pile: 38 } });
  assert.equal(state.view.version, 9);
  const next = receive(state.view, { type: "delta", from: 9, version: 10, ops: [["/pile", 37]] });
  assert.equal(next.sync, false);
  assert.equal(next.view.pile, 37);
});

test("a push of a version the client already holds changes nothing and asks nothing", () => {
  const held = { ...view(), version: 9 };
  assert.deepEqual(receive(held, { type: "delta", from: 7, version: 8, ops: [["/pile", 1]] }), { view: held, sync: false });
  assert.equal(receive(held, { type: "table", view: view() }).view, held); // an older whole view
  assert.equal(receive(held, { type: "pong" }).view, held);
});

test("a socket's first delta with no view at all asks for the whole view", () => {
  assert.deepEqual(receive(null, { type: "delta", from: 1, version: 2, ops: [] }), { view: null, sync: true });
});

test("a delta's steps give each version it passes through; steps that do not fit give its end only", () => {
  const base = { tableId: "t1", version: 3, pile: 10, last: null };
  const ops = [["/pile", 9], ["/last", "x"], ["/pile", 8]];
  const message = { type: "delta", from: 3, version: 5, ops, steps: [{ version: 4, ops: 2 }, { version: 5, ops: 1 }] };
  assert.deepEqual(stepViews(base, message), [
    { tableId: "t1", version: 4, pile: 9, last: "x" },
    { tableId: "t1", version: 5, pile: 8, last: "x" },
  ]);
  assert.deepEqual(stepViews(base, message).at(-1), applyDelta(base, message)); // the same end
  const wrong = { ...message, steps: [{ version: 4, ops: 1 }, { version: 5, ops: 1 }] };
  assert.deepEqual(stepViews(base, wrong), [applyDelta(base, message)]);
  assert.equal(base.pile, 10); // the base is left as it was
});

test("applying a delta leaves it as it was, so the same push applies again alike", () => {
  const base = { tableId: "t1", version: 1, series: [] };
  const message = { type: "delta", from: 1, version: 3, ops: [["/series", [[1]]], ["/series/0", 1, 0, [2]]],
    steps: [{ version: 2, ops: 1 }, { version: 3, ops: 1 }] };
  const once = applyDelta(base, message);
  assert.deepEqual(once.series, [[1, 2]]);
  assert.deepEqual(message.ops[0], ["/series", [[1]]]); // the later splice did not reach into it
  assert.deepEqual(stepViews(base, message).map((v) => v.series), [[[1]], [[1, 2]]]);
});
