// Dragging with pointer events (mouse and touch alike): a rack tile to another place in the rack,
// or a tile onto a meld or a new meld. Where it lands is read from the page; drafting.js changes
// the draft or the rack's order.
import { insertIndex } from "./draft.js";
import { editable } from "./game.js";

const DRAG_SLOP = 8; // px: a pointer moved less than this taps; a drag's own click lands within it
const GHOST_OFFSET = { x: 22, y: 28 }; // the dragged tile's copy sits under the finger

/** A mouse drag ends in a click where it was dropped; that click is the drag's, not a tap. A
 * finger drag ends in none, so only a click at the drop point is eaten: a tap elsewhere soon
 * after (or before a slow machine's timer fires) reaches its button. */
function suppressClick(x, y) {
  const stop = (e) => {
    if (Math.hypot(e.clientX - x, e.clientY - y) > DRAG_SLOP) return;
    e.stopPropagation();
    e.preventDefault();
    document.removeEventListener("click", stop, { capture: true });
  };
  document.addEventListener("click", stop, { capture: true });
  setTimeout(() => document.removeEventListener("click", stop, { capture: true }), 50);
}

export function mountDrag({ store, drafting }) {
  let drag = null;

  function drop(id, under, x) {
    const tile = under.closest(".tile[data-id]");
    const box = tile && tile.getBoundingClientRect();
    const left = tile ? x < box.left + box.width / 2 : false;
    if (under.closest("#rack")) {
      const over = tile && tile.closest("#rack") ? Number(tile.dataset.id) : null;
      return drafting.dropOnRack(id, over, left);
    }
    const slot = under.closest(".new-meld");
    if (slot) return drafting.dropOnNew(id, slot.dataset.area);
    const meld = under.closest("li.meld[data-area]");
    if (meld) {
      const at = tile && tile.dataset.ti != null ? insertIndex(Number(tile.dataset.ti), left) : undefined;
      drafting.dropOnMeld(id, meld.dataset.area, Number(meld.dataset.mi), at);
    }
  }

  document.addEventListener("pointerdown", (ev) => {
    const tile = ev.target.closest(".tile[data-id]");
    const tb = store.get().table;
    if (!tile || !tb || !editable(tb.view) || ev.button > 0 || !tile.closest("#rack, #series, #pairs")) return;
    drag = { id: Number(tile.dataset.id), x: ev.clientX, y: ev.clientY, el: tile, moving: false, ghost: null };
  });

  document.addEventListener("pointermove", (ev) => {
    const d = drag;
    if (!d) return;
    if (!d.moving && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < DRAG_SLOP) return;
    if (!d.moving) {
      d.moving = true;
      d.ghost = d.el.cloneNode(true);
      d.ghost.classList.add("ghost");
      d.ghost.setAttribute("aria-hidden", "true");
      document.body.append(d.ghost);
      d.el.classList.add("dragging");
    }
    d.ghost.style.left = `${ev.clientX - GHOST_OFFSET.x}px`;
    d.ghost.style.top = `${ev.clientY - GHOST_OFFSET.y}px`;
    ev.preventDefault();
  }, { passive: false });

  document.addEventListener("pointerup", (ev) => {
    const d = drag;
    drag = null;
    if (!d || !d.moving) return;
    d.ghost.remove();
    d.el.classList.remove("dragging");
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    suppressClick(ev.clientX, ev.clientY);
    if (under) drop(d.id, under, ev.clientX);
  });

  document.addEventListener("pointercancel", () => {
    if (drag && drag.ghost) drag.ghost.remove();
    drag = null;
  });
}
