// Tile motion (motion.js): where a drawn tile flies from, how a meld settles and another seat's
// lay slides in, and that nothing moves when the player or the system asked for stillness.
import { test } from "node:test";
import assert from "node:assert/strict";
import { flyFrom, reducedMotion, settle, slideIn } from "../../clients/web/motion.js";

/** A tile at `rect` that keeps the animations asked of it. */
function tile(rect = { left: 100, top: 200, width: 40, height: 50 }) {
  const asked = [];
  return { asked, getBoundingClientRect: () => rect, animate: (frames, timing) => { asked.push({ frames, timing }); return { frames, timing }; } };
}

test("a drawn tile starts on the pile and glides to its place in the rack", () => {
  const el = tile();
  flyFrom(el, { left: 10, top: 20, width: 40, height: 50 }, true);
  assert.equal(el.asked.length, 1);
  const [{ frames, timing }] = el.asked;
  assert.equal(frames[0].transform, "translate(-90px, -180px) scale(.8)");
  assert.equal(frames[1].transform, "none");
  assert.equal(timing.duration, 520);
});

test("a meld just laid drops in tile after tile; another seat's tiles come from that seat's side", () => {
  const tiles = [tile(), tile(), tile()];
  tiles.forEach((el, i) => settle(el, i));
  assert.deepEqual(tiles.map((el) => el.asked[0].timing.delay), [0, 40, 80]);
  assert.equal(tiles[0].asked[0].timing.fill, "backwards"); // no flash of the tile in place first
  const from = (dir) => { const el = tile(); slideIn(el, dir, 2); return el.asked[0]; };
  assert.equal(from("left").frames[0].transform, "translate(-40px, 0)");
  assert.equal(from("right").frames[0].transform, "translate(40px, 0)");
  assert.equal(from("top").frames[0].transform, "translate(0, -40px)");
  assert.equal(from("nowhere").frames[0].transform, "translate(0, -40px)");
  assert.equal(from("left").timing.delay, 100);
});

test("with motion off (the setting or the system's), or no animation support, nothing moves", () => {
  const el = tile();
  assert.equal(flyFrom(el, { left: 0, top: 0, width: 1, height: 1 }, false), null);
  assert.equal(settle(el, 0, false), null);
  assert.equal(slideIn(el, "left", 0, false), null);
  assert.equal(el.asked.length, 0);
  assert.equal(flyFrom(el, null, true), null); // nowhere to fly from
  assert.equal(settle({ getBoundingClientRect: () => ({}) }, 0, true), null);
});

test("the system's reduced-motion preference is read from the media query", () => {
  const asked = [];
  globalThis.matchMedia = (q) => { asked.push(q); return { matches: true }; };
  assert.equal(reducedMotion(), true);
  globalThis.matchMedia = () => ({ matches: false });
  assert.equal(reducedMotion(), false);
  delete globalThis.matchMedia;
  assert.equal(reducedMotion(), false);
  assert.deepEqual(asked, ["(prefers-reduced-motion: reduce)"]);
});
