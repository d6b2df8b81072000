// Tile motion with the Web Animations API: a drawn tile flies from the pile to the rack, a meld
// just laid settles, another seat's lay slides in. Every function does nothing (and returns
// null) when `on` is false: the player's setting or the system's prefers-reduced-motion.

const EASE = "cubic-bezier(.2,.8,.2,1)";

/** Whether the system asks for reduced motion. */
export function reducedMotion() {
  return !!(globalThis.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** `el` starts where `from` (a DOMRect) is and glides to its own place. */
export function flyFrom(el, from, on) {
  if (!on || !el || !from || !el.animate) return null;
  const to = el.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  return el.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(.8)`, opacity: 0.6 },
    { transform: "none", opacity: 1 },
  ], { duration: 520, easing: EASE });
}

/** A meld just laid: each tile drops into place, one after another. */
export function settle(el, i = 0, on = true) {
  if (!on || !el || !el.animate) return null;
  return el.animate([{ transform: "translateY(-14px) scale(1.08)" }, { transform: "none" }],
    { duration: 320, delay: i * 40, easing: EASE, fill: "backwards" });
}

/** Another seat's tiles slide in from that seat's side of the table (`dir`: top, left, right, bottom). */
export function slideIn(el, dir, i = 0, on = true) {
  if (!on || !el || !el.animate) return null;
  const offset = { top: "0, -40px", bottom: "0, 40px", left: "-40px, 0", right: "40px, 0" }[dir] || "0, -40px";
  return el.animate([{ transform: `translate(${offset})`, opacity: 0 }, { transform: "none", opacity: 1 }],
    { duration: 450, delay: i * 50, easing: EASE, fill: "backwards" });
}
