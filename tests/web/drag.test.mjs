// Dragging (drag.js) on the real page, with tiles and melds as render.js draws them: where a
// dragged tile lands (the rack, a meld's left or right half, a new meld) is what drafting.js is
// asked to do; a short move stays a tap; the drag's own click is eaten, a later tap is not.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mountDrag } from "../../clients/web/drag.js";
import { meldEl, tileEl } from "../../clients/web/render.js";
import { page, storeWith } from "./dom.mjs";
import { K, kastetView } from "./fixtures.mjs";

async function mounted(view = kastetView()) {
  const store = await storeWith({ me: { token: "t", playerId: "p0" } });
  store.dispatch({ type: "tableOpened", view });
  page("index.html");
  const $ = (sel) => document.querySelector(sel);
  const tap = () => {};
  $("#rack").append(...view.hand.map((tile) => tileEl(tile, { tap })));
  const meld = [K(11, "black", 1), K(12, "black", 2), K(13, "black", 3)].map((tile) => ({ id: tile.id, tile }));
  $("#series").append(meldEl("series", 0, meld, { game: "kastet", editable: true, active: false, validity: null, sel: null, last: new Set(), onTap: tap, onMeld: tap, onActivate: tap }));
  const slot = document.createElement("li");
  slot.className = "meld new-meld";
  slot.dataset.area = "series";
  $("#series").append(slot);
  // happy-dom lays nothing out: every tile is 40 px wide at x = 100, and a point names its element
  for (const el of document.querySelectorAll(".tile")) el.getBoundingClientRect = () => ({ left: 100, width: 40, top: 0, height: 50 });
  const asked = [];
  const drafting = new Proxy({}, { get: (_, name) => (...args) => asked.push([name, ...args]) });
  mountDrag({ store, drafting });
  const at = (el) => { document.elementFromPoint = () => el; };
  const pointer = (type, target, x, y) => target.dispatchEvent(new window.PointerEvent(type, { bubbles: true, cancelable: true, clientX: x, clientY: y, button: 0 }));
  /** A drag from `from` to `to`, let go at x (100-140 is over a tile: < 120 its left half). */
  const drag = (from, to, x = 110) => { pointer("pointerdown", from, 0, 0); pointer("pointermove", document, 30, 40); at(to); pointer("pointerup", document, x, 40); };
  return { store, asked, $, drag, pointer, at };
}

test("a rack tile dropped on another's left half goes before it, on its right half after it", async () => {
  const { $, asked, drag } = await mounted();
  const [one, , three] = $("#rack").querySelectorAll(".tile");
  drag(one, three, 110);
  drag(one, three, 130);
  drag(one, $("#rack"), 300); // on the rack between tiles: the end
  assert.deepEqual(asked, [["dropOnRack", 1, 3, true], ["dropOnRack", 1, 3, false], ["dropOnRack", 1, null, false]]);
});

test("a tile dropped on a meld goes where it landed in it; on the new-meld slot it starts one", async () => {
  const { $, asked, drag } = await mounted();
  const rack = $("#rack .tile");
  const [first, second] = $("#series .meld").querySelectorAll(".tile");
  drag(rack, first, 110);
  drag(rack, second, 130);
  drag(rack, $("#series .meld"), 0); // beside the tiles: the end, as drafting.js decides
  drag(rack, $(".new-meld"), 0);
  assert.deepEqual(asked, [
    ["dropOnMeld", 1, "series", 0, 0], ["dropOnMeld", 1, "series", 0, 2], ["dropOnMeld", 1, "series", 0, undefined], ["dropOnNew", 1, "series"]]);
});

test("while dragging, a copy of the tile follows the finger; letting go removes it", async () => {
  const { $, pointer, at } = await mounted();
  const tile = $("#rack .tile");
  pointer("pointerdown", tile, 0, 0);
  pointer("pointermove", document, 50, 60);
  const ghost = document.querySelector(".tile.ghost");
  assert.ok(tile.classList.contains("dragging"));
  assert.equal(ghost.getAttribute("aria-hidden"), "true");
  assert.deepEqual([ghost.style.left, ghost.style.top], ["28px", "32px"]);
  at($("#rack"));
  pointer("pointerup", document, 50, 60);
  assert.equal(document.querySelector(".ghost"), null);
  assert.ok(!tile.classList.contains("dragging"));
  pointer("pointerdown", tile, 0, 0);
  pointer("pointermove", document, 50, 60);
  pointer("pointercancel", document, 50, 60); // the system took the pointer (a scroll, a call)
  assert.equal(document.querySelector(".ghost"), null);
});

test("a move shorter than the slop is a tap, not a drag", async () => {
  const { $, asked, pointer, at } = await mounted();
  const tile = $("#rack .tile");
  pointer("pointerdown", tile, 0, 0);
  pointer("pointermove", document, 5, 5);
  at($("#rack .tile:last-child"));
  pointer("pointerup", document, 5, 5);
  assert.deepEqual(asked, []);
  assert.equal(document.querySelector(".ghost"), null);
});

test("nothing is dragged when the player may not change the table", async () => {
  const { $, asked, drag } = await mounted(kastetView({ seat: null }));
  const [one, , three] = $("#rack").querySelectorAll(".tile");
  drag(one, three);
  assert.deepEqual(asked, []);
});

test("the drop's own click is eaten; a tap elsewhere right after reaches its button", async () => {
  const { $, drag } = await mounted();
  const [one, two, three] = $("#rack").querySelectorAll(".tile");
  const clicks = [];
  for (const el of [two, three]) el.addEventListener("click", () => clicks.push(el.dataset.id));
  drag(one, three, 110);
  three.dispatchEvent(new window.MouseEvent("click", { bubbles: true, clientX: 111, clientY: 41 })); // the drag's, where it ended
  two.dispatchEvent(new window.MouseEvent("click", { bubbles: true, clientX: 300, clientY: 300 })); // a real tap
  three.dispatchEvent(new window.MouseEvent("click", { bubbles: true, clientX: 110, clientY: 40 })); // only one is eaten
  assert.deepEqual(clicks, ["2", "3"]);
});
