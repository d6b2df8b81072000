// The player's hands on the draft: taps, drops, new melds, joker faces, the rack's order. Each
// turns into a "draft", "select" or "rack" message; a change the rules refuse at once (draft.js
// DraftError) into a notice, in the catalogue's words.
import * as D from "./draft.js";
import { editable, limits, rackTiles, tileName } from "./game.js";
import { errorText } from "./refusals.js";

/** `askFace(current, view)`: the joker face dialog (dialogs.js), a face or null. */
export function createDrafting({ store, askFace, changeSettings }) {
  const table = () => store.get().table;
  const dispatch = (m) => store.dispatch(m);
  const select = (id) => dispatch({ type: "select", id });

  /** The draft after `fn`, its jokers' faces inferred where only one fits; `patch` rides along. */
  function change(fn, patch = {}) {
    const { draft, view: v } = table();
    try {
      dispatch({ type: "draft", draft: D.inferFaces(fn(draft), v.game, limits(v)), ...patch });
    } catch (e) {
      if (!(e instanceof D.DraftError)) throw e;
      if ("sel" in patch) select(patch.sel);
      dispatch({ type: "notice", text: errorText(e, (id) => tileName(v, id), limits(v)) });
    }
  }

  async function face(id) {
    const at = D.locate(table().draft, id);
    if (!at || !at.entry.tile.joker) return;
    const chosen = await askFace(at.entry.as, table().view);
    if (chosen != null && table()) change((d) => D.setFace(d, id, chosen));
  }

  /** A Harftet joker just placed without a face: ask for its letter at once. */
  function afterPlace(id) {
    const { draft, view: v } = table();
    const at = D.locate(draft, id);
    if (at && at.entry.tile.joker && at.entry.as == null && v.game === "harftet") face(id);
  }

  const place = (id, target, patch = { sel: null }) => {
    const { view: v } = table();
    change((d) => D.place(d, id, target, v.hand, limits(v)), patch);
    afterPlace(id);
  };

  /** A tap on a tile (`where`: its meld, or {} in the rack; `leftHalf`: before it). */
  function tapTile(id, where, leftHalf) {
    const { view: v, draft, sel } = table();
    if (!editable(v)) return;
    if (sel === id) return select(null);
    if (where.area != null) { // a tile in a meld: the selected tile goes there, or this one is selected
      if (sel == null) return select(id);
      return place(sel, { area: where.area, mi: Number(where.mi), at: D.insertIndex(Number(where.ti), leftHalf) });
    }
    if (sel != null && D.locate(draft, sel)) return change((d) => D.backToHand(d, sel), { sel: null });
    if (draft.active) {
      change((d) => D.addToActive(d, id, v.hand, limits(v)));
      return afterPlace(id);
    }
    select(id);
  }

  /** A tap on a meld itself: the selected tile joins it at the end. */
  const tapMeld = (area, mi) => place(table().sel, { area, mi });

  /** A tap on a meld with nothing selected: it becomes (or stops being) the one rack taps add to. */
  function activate(area, mi) {
    const a = table().draft.active;
    const same = a && a.area === area && a.mi === mi;
    change((d) => D.setActive(d, same ? null : area, same ? null : mi));
  }

  /** "+ Yeni seri" / "+ Yeni çift": a new meld, holding the selected tile if there is one. */
  function newMeld(area) {
    const { view: v, sel } = table();
    if (sel == null) return change((d) => D.newMeld(d, area, limits(v)));
    change((d) => {
      const n = D.place(d, sel, { newIn: area }, v.hand, limits(v));
      return D.setActive(n, area, n[area].length - 1);
    }, { sel: null });
    afterPlace(sel);
  }

  const backToHand = () => change((d) => D.backToHand(d, table().sel), { sel: null });

  /** The selected tile one place left (-1) or right (1) in its meld; the tile's id, or null. */
  function shift(delta) {
    const { draft, sel, view: v } = table();
    const at = D.locate(draft, sel);
    if (!at) return null;
    const to = at.ti + delta;
    if (to < 0 || to >= draft[at.area][at.mi].length) return null;
    change((d) => D.place(d, sel, { area: at.area, mi: at.mi, at: delta > 0 ? to + 1 : to }, v.hand, limits(v)));
    return sel;
  }

  /** A tile dropped on the rack: back to hand if it was in the draft, then placed before the
   * rack tile `overId` (after it when `leftHalf` is false), or last. */
  function dropOnRack(id, overId, leftHalf) {
    if (D.locate(table().draft, id)) change((d) => D.backToHand(d, id));
    const ids = rackTiles(table()).map((x) => x.id);
    const to = overId == null ? ids.length : D.insertIndex(ids.indexOf(overId), leftHalf);
    const target = to < ids.length ? ids[to] : null;
    const order = table().rack.filter((x) => x !== id);
    const at = target == null ? order.length : order.indexOf(target);
    order.splice(at < 0 ? order.length : at, 0, id);
    dispatch({ type: "rack", rack: order });
  }

  /** The rack sorted ("letter", "value", "series", "pairs"); the choice is kept. */
  function sort(mode) {
    if (store.get().settings.sort !== mode) changeSettings({ sort: mode });
    else dispatch({ type: "rackSorted" });
  }

  return {
    tapTile, tapMeld, activate, newMeld, backToHand, shift, face, dropOnRack, sort,
    dropOnMeld: (id, area, mi, at) => place(id, { area, mi, at }, {}),
    dropOnNew: (id, area) => place(id, { newIn: area }, {}),
    deselect: () => select(null),
    reset: () => dispatch({ type: "draftReset" }),
  };
}
