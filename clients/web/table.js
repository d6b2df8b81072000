// The table screen: the head (status, manager's buttons, the connection), the seats around the
// felt, the series and pair areas with the draft, and the dock (the rack, the buttons, the turn's
// timer); the move log below. Each part is drawn again only when what it shows has changed.
import * as D from "./draft.js";
import * as Motion from "./motion.js";
import * as Settings from "./settings.js";
import { dockShown, layoutDock } from "./chrome.js";
import { editable, isManager, lastTiles, limits, mySeat, myTurn, POSITIONS, rackTiles, tileName } from "./game.js";
import { clockText, h, levelOptions, logLine, meldEl, seatEl, seatNames, tileEl } from "./render.js";
import { getBounds, getLang, t } from "./texts.js";

const $ = (sel) => document.querySelector(sel);
const TICK_MS = 250;
const LOW_SECONDS = 10; // the timer turns red, and ticks once, with this much left
const LOG_SHOWN = 40;

/** The table's state in a line: waiting for players, the hand and the pile, paused, over. */
export function statusText(v, playerId) {
  const taken = v.seats.filter((s) => s && !s.vacant).length;
  const full = taken === v.seats.length;
  const mgr = isManager(v, playerId);
  if (v.status === "waiting" && full) return t("status.waiting.full") + t(mgr ? "status.waiting.full.mgr" : "status.waiting.full.other");
  if (v.status === "waiting") return t("status.waiting", { taken, seats: v.seats.length }) + t(mgr ? "status.waiting.mgr" : "status.waiting.other");
  if (v.status === "finished") return t(v.closed ? `status.finished.${v.closed}` : "status.finished");
  const hand = t("status.hand", { n: v.handNumber, of: v.hands, pile: v.pile });
  if (v.status === "paused") return `${hand} · ${t(full ? (mgr ? "status.paused.ready.mgr" : "status.paused.ready") : "status.paused")}`;
  return hand;
}

/** The dock's line: whose turn it is and what the caller may do, else the table's state. */
export function turnText(v, playerId) {
  if (v.status !== "playing" || !v.turn) return statusText(v, playerId);
  if (myTurn(v)) {
    if (v.turn.laid) return t("turn.mine.laid");
    const lim = limits(v);
    if ((v.hand || []).length >= lim.handLimit) return t("reason.hand_full", { max: lim.handLimit }); // never "taş çek" when it cannot be
    if (v.pile === 0) return t("turn.mine.pileEmpty");
    return t("turn.mine.fresh");
  }
  return t("turn.other", { name: seatNames(v)[v.turn.seat] });
}

/** The action buttons' states: which may be pressed now. */
export function actionsState(v, draft, busy, hints) {
  const turn = myTurn(v);
  const handSize = (v.hand || []).length;
  const lim = limits(v);
  const drawShut = v.turn && (v.turn.laid || handSize >= lim.handLimit || v.pile === 0);
  return {
    draw: !busy && turn && !drawShut,
    pass: !busy && turn && (!!drawShut || D.addsFromHand(draft)), // with a draft: lay and pass as one move
    lay: !busy && turn && D.addsFromHand(draft),
    reset: !busy && draft.dirty,
    hint: !busy && turn && v.hintsLeft !== 0,
    hintShown: hints,
  };
}

/** Why each action button that is off is off (a catalogue sentence), null for one that is on. */
export function whyNot(v, draft, busy, hints) {
  const can = actionsState(v, draft, busy, hints);
  const turn = myTurn(v);
  const lim = limits(v);
  const common = busy ? t("why.busy") : !turn ? t("why.notTurn") : null;
  const drawWhy = v.turn && v.turn.laid ? t("why.laid") : (v.hand || []).length >= lim.handLimit
    ? t("reason.hand_full", { max: lim.handLimit }) : v.pile === 0 ? t("turn.mine.pileEmpty") : null;
  return {
    draw: can.draw ? null : common || drawWhy,
    pass: can.pass ? null : common || t("why.drawFirst"),
    lay: can.lay ? null : common || t("why.nothingPlaced"),
    reset: can.reset ? null : busy ? t("why.busy") : t("why.nothingChanged"),
    hint: can.hint ? null : common || t("notice.noHintsLeft"),
  };
}

/** Whether a clock runs on screen: a table shown, in play, its turn with a deadline. */
export function clockRuns(s) {
  const v = s.table && s.table.view;
  return s.screen === "table" && !!v && v.status === "playing" && !!(v.turn && v.turn.deadline);
}

/** `act`: play.js and tables.js's table actions, attempted; `drafting`: drafting.js. */
export function mountTable({ store, act, drafting }) {
  let shown = {};
  let motionSeq = 0;
  let hintSeq = 0;
  let tickedFor = null;
  let clock = 0; // the interval ticking the clocks: only while a table with a running clock is shown
  const worded = new WeakMap(); // a log line is worded once, with the table as it was then

  $("#btn-start").onclick = act.start;
  $("#btn-continue").onclick = act.resume;
  $("#invite").onclick = act.invite;
  $("#mute").onclick = act.toggleSound;
  $("#btn-leave").onclick = act.leave;
  $("#btn-away").onclick = act.away;
  $("#btn-draw").onclick = act.draw;
  $("#btn-pass").onclick = act.pass;
  $("#btn-lay").onclick = act.lay;
  // Spent hints leave the button tappable: on a phone (no hover for its title) a tap says why it is off.
  $("#btn-hint").onclick = () => {
    const s = store.get();
    const why = whyNot(s.table.view, s.table.draft, s.busy, s.table.hints).hint;
    return why ? store.dispatch({ type: "notice", text: why, kind: "info" }) : act.hint();
  };
  $("#btn-reset").onclick = drafting.reset;
  const kastet = () => store.get().table.view.game === "kastet";
  $("#sort-a").onclick = () => drafting.sort(kastet() ? "series" : "letter");
  $("#sort-b").onclick = () => drafting.sort(kastet() ? "pairs" : "value");
  const shift = (delta) => {
    const sel = drafting.shift(delta);
    const again = sel != null && document.querySelector(`.tile[data-id="${sel}"]`);
    if (again) again.focus();
  };
  $("#sel-left").onclick = () => shift(-1);
  $("#sel-right").onclick = () => shift(1);
  $("#sel-hand").onclick = drafting.backToHand;
  $("#sel-face").onclick = () => drafting.face(store.get().table.sel);
  document.addEventListener("keydown", (ev) => {
    const tb = store.get().table;
    if (ev.key === "Escape" && tb && tb.sel != null && !$("#face-dialog").open) drafting.deselect();
  });
  new ResizeObserver(layoutDock).observe($("#dock"));

  /** Whether any of `deps` changed since `part` was last drawn (and remember them). */
  const changed = (part, deps) => {
    const before = shown[part];
    shown[part] = deps;
    return !before || deps.some((d, i) => d !== before[i]);
  };

  function render(s) {
    const tb = s.table;
    const v = tb && tb.view;
    $("#table").hidden = !(s.ready && s.screen === "table");
    $("#dock").hidden = !dockShown(s);
    $("#ws-state").textContent = t(`ws.${s.ws}`);
    $("#ws-state").className = `ws-state ${s.ws}`;
    keepTicking(clockRuns(s));
    if (s.screen !== "table" || !v || !tb.draft) {
      shown = {};
      return;
    }
    const me = s.me && s.me.playerId;
    if (changed("head", [v, me, s.texts, s.settings.sound])) renderHead(v, me, s);
    if (changed("seats", [v, me, s.texts])) renderSeats(v, me);
    if (changed("board", [v, tb.draft, tb.sel, tb.validity, tb.errMeld, tb.othersLaid, s.texts])) renderBoard(tb);
    if (changed("rack", [v, tb.draft, tb.rack, tb.sel, tb.fresh, s.texts])) renderRack(tb);
    if (changed("actions", [v, tb.draft, s.busy, tb.hints, me, s.texts])) renderActions(tb, s.busy, me);
    if (changed("log", [tb.log, v, s.texts])) renderLog(tb);
    tick();
    layoutDock();
    if (tb.motion && tb.motion.seq !== motionSeq) animate(tb.motion, Settings.animate(s.settings, Motion.reducedMotion()));
    motionSeq = tb.motion ? tb.motion.seq : 0;
    if (tb.hintSeq && tb.hintSeq !== hintSeq) {
      const first = document.querySelector("#series li.meld.changed");
      if (first) first.scrollIntoView({ block: "center", behavior: "smooth" });
    }
    hintSeq = tb.hintSeq || 0;
  }

  function renderHead(v, me, s) {
    const mgr = isManager(v, me);
    $("#table").dataset.version = v.version;
    $("#table").classList.toggle("dealt", v.handNumber > 0 && mySeat(v) != null && v.status !== "finished");
    $("#table-h").textContent = t("table.title", { game: t(`game.${v.game}`) });
    $("#table-status").textContent = statusText(v, me);
    $("#pile").hidden = !(v.handNumber > 0 && v.status !== "finished");
    $("#pile-n").textContent = String(v.pile ?? "");
    $("#pile").setAttribute("aria-label", t("pile.label", { n: v.pile }));
    $("#btn-start").hidden = !(mgr && v.status === "waiting");
    $("#btn-start").disabled = v.seats.some((x) => !x);
    $("#btn-start").title = $("#btn-start").disabled ? t("why.seatsEmpty") : ""; // a reason on a button that is off
    $("#btn-continue").hidden = !(mgr && v.status === "paused");
    $("#btn-leave").textContent = mySeat(v) == null || v.status === "finished" ? t("btn.lobby") : t("btn.leave");
    // a correspondence game waits for days: back to the lobby keeping the seat (the inbox brings it back)
    $("#btn-away").hidden = !(v.pace === "correspondence" && mySeat(v) != null && v.status !== "finished");
    $("#invite").hidden = !(v.private && v.status === "waiting");
    $("#mute").textContent = s.settings.sound ? t("btn.mute") : t("btn.unmute");
    $("#bot-level-box").hidden = !(mgr && (v.status === "waiting" || v.status === "paused"));
    const levels = $("#bot-level");
    if (shown.levelsTexts !== s.texts) levels.replaceChildren(...levelOptions(getBounds().levels, levels.value || getBounds().defaultLevel));
    shown.levelsTexts = s.texts;
  }

  function renderSeats(v, me) {
    const mine = mySeat(v) ?? 0;
    const n = v.seats.length;
    const pos = POSITIONS[n] || POSITIONS[4];
    const names = seatNames(v);
    $("#seats").replaceChildren(...v.seats.map((seat, i) => seatEl(v, seat, i, {
      me: mySeat(v), pos: pos[(i - mine + n) % n] || "top", isManager: isManager(v, me), names,
      onSit: (i) => act.sit(v.tableId, i),
      onBot: (i) => act.addBot(v.tableId, i, $("#bot-level").value),
      onRemove: (i) => act.removeBot(i),
    })));
  }

  function renderBoard(tb) {
    const { view: v, draft, sel, validity, errMeld } = tb;
    const canEdit = editable(v);
    const last = lastTiles(tb);
    const lim = limits(v);
    const active = draft.active;
    const common = (area, mi) => ({
      game: v.game, editable: canEdit, sel, last,
      active: !!(active && active.area === area && active.mi === mi),
      validity: validity[`${area}:${mi}`] ?? (area === "series" && errMeld === mi ? "invalid" : null),
      onTap: drafting.tapTile, onMeld: drafting.tapMeld, onActivate: drafting.activate,
    });
    const series = draft.series.map((m, i) => meldEl("series", i, m, common("series", i)));
    if (canEdit) series.push(newSlot("series", t("btn.newSeries"), draft.series.length >= lim.maxSeries));
    if (!draft.series.length) series.unshift(h("li", { class: "hint" }, v.handNumber > 0 ? t("area.empty") : t("area.waiting")));
    $("#series").replaceChildren(...series);
    $("#series-count").textContent = `${draft.series.filter((m) => m.length).length}/${lim.maxSeries}`;
    $("#draft-flag").hidden = !draft.dirty;
    $("#series").classList.toggle("draft", draft.dirty);
    $("#editor-hint").textContent = canEdit ? (active ? t("draft.active") : t("help.edit")) : "";

    const pairsOpen = draft.series.length >= lim.pairsOpenAt;
    const frozen = v.pairs.map((m, i) => h("li", { class: "meld frozen", "aria-label": `${t("area.pairs")} ${i + 1}` },
      h("span", { class: "idx", "aria-hidden": "true" }, String(i + 1)), m.map((x) => tileEl(x, { face: x.as, last: last.has(x.id) }))));
    const mine = draft.pairs.map((m, i) => meldEl("pairs", i, m, common("pairs", i)));
    if (canEdit && pairsOpen) mine.push(newSlot("pairs", t("btn.newPair"), false));
    $("#pairs").replaceChildren(...frozen, ...mine);
    $("#pairs-section").hidden = !frozen.length && !mine.length && !pairsOpen;
    $("#pairs-count").textContent = pairsOpen ? `(${t("area.pairs.open", { n: lim.pairsOpenAt })})` : "";

    const at = sel != null ? D.locate(draft, sel) : null;
    $("#selection-tools").hidden = !at;
    if (!at) return;
    const meld = draft[at.area][at.mi];
    $("#sel-left").disabled = at.ti === 0;
    $("#sel-right").disabled = at.ti === meld.length - 1;
    $("#sel-hand").disabled = !at.entry.fromHand;
    $("#sel-face").hidden = !(at.entry.tile.joker && at.entry.fromHand);
  }

  function newSlot(area, label, disabled) {
    return h("li", { class: "meld new-meld", dataset: { area } },
      h("button", { type: "button", class: "slot new", disabled, onclick: () => drafting.newMeld(area) }, label));
  }

  function renderRack(tb) {
    const v = tb.view;
    if (mySeat(v) == null || !(v.handNumber > 0)) return;
    const tiles = rackTiles(tb);
    const fresh = new Set(tb.fresh);
    const tap = editable(v) ? drafting.tapTile : null;
    $("#rack").replaceChildren(...tiles.map((x) => tileEl(x, { selected: tb.sel === x.id, fresh: fresh.has(x.id), tap, where: {} })));
    const all = (v.hand || []).length;
    // A phone fits the rack in two rows: the fewer the tiles, the bigger each one (style.css).
    $("#rack").style.setProperty("--per-row", String(Math.max(7, Math.ceil(tiles.length / 2))));
    $("#rack-count").textContent = tiles.length === all ? t("rack.count", { n: all }) : t("rack.countOf", { n: tiles.length, of: all });
    const kastetGame = v.game === "kastet";
    $("#sort-a").textContent = t(kastetGame ? "sort.series" : "sort.letter");
    $("#sort-b").textContent = t(kastetGame ? "sort.pairs" : "sort.value");
  }

  function renderActions(tb, busy, me) {
    const v = tb.view;
    const can = actionsState(v, tb.draft, busy, tb.hints);
    const playing = v.status === "playing";
    $("#actions").hidden = !playing;
    $("#btn-draw").disabled = !can.draw;
    $("#btn-pass").disabled = !can.pass;
    $("#btn-pass").textContent = can.lay ? t("btn.pass.lay") : t("btn.pass"); // "Aç ve pas": one move
    $("#btn-lay").disabled = !can.lay;
    $("#btn-lay").textContent = v.series.length ? t("btn.lay.more") : t("btn.lay");
    $("#btn-reset").disabled = !can.reset;
    $("#btn-hint").hidden = !can.hintShown;
    $("#btn-hint").setAttribute("aria-disabled", String(!can.hint)); // off, yet a tap says why
    $("#btn-hint").textContent = v.hintsLeft != null ? t("hints.left", { n: v.hintsLeft }) : t("btn.hint");
    // every button that is off says why (on hover, and to a screen reader)
    const why = whyNot(v, tb.draft, busy, tb.hints);
    for (const [name, reason] of Object.entries(why)) {
      const b = $(`#btn-${name}`);
      if (reason) { b.title = reason; b.setAttribute("aria-description", reason); } else { b.removeAttribute("title"); b.removeAttribute("aria-description"); }
    }
    $("#turn-line").textContent = turnText(v, me);
    $("#turn-line").classList.toggle("mine", myTurn(v));
    const timer = $("#timer");
    timer.dataset.deadline = (playing && v.turn && v.turn.deadline) || "";
    timer.hidden = !playing;
  }

  // Comings and goings of connections before the deal are noise (joining by invitation makes some).
  function beforeDeal(tb, ev) {
    const start = tb.log.find((x) => x.type === "start");
    return ["disconnect", "reconnect"].includes(ev.type) && (start ? ev.seq < start.seq : !(tb.view.handNumber > 0));
  }

  function renderLog(tb) {
    const v = tb.view;
    const names = seatNames(v);
    const melds = [...v.series, ...v.pairs];
    const items = tb.log.filter((ev) => !beforeDeal(tb, ev)).slice(-LOG_SHOWN).reverse().map((ev) => {
      let line = worded.get(ev);
      if (!line || line.lang !== getLang()) {
        line = { text: logLine(ev, names, { melds, name: (id) => tileName(v, id) }, v.game), lang: getLang() };
        worded.set(ev, line);
      }
      return h("li", { class: `log-${ev.type}` }, line.text);
    });
    $("#log").replaceChildren(...items);
    $("#log-box").hidden = !items.length;
  }

  /** The clocks tick (every TICK_MS) only while they run; any other screen costs no timer. */
  function keepTicking(on) {
    if (on && !clock) clock = setInterval(tick, TICK_MS);
    if (!on && clock) { clearInterval(clock); clock = 0; }
  }

  function tick() {
    const s = store.get();
    for (const el of document.querySelectorAll(".timer")) {
      const deadline = Number(el.dataset.deadline);
      el.classList.toggle("paused", !deadline); // two bars drawn by style.css: no emoji font needed
      if (!deadline) { el.textContent = ""; el.setAttribute("aria-label", t("timer.paused")); continue; }
      el.removeAttribute("aria-label");
      const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
      el.textContent = clockText(left);
      el.classList.toggle("low", left <= LOW_SECONDS);
      if (left <= LOW_SECONDS && left > 0 && el.id === "timer" && s.table && myTurn(s.table.view) && tickedFor !== deadline) {
        tickedFor = deadline; // ten seconds left: once a turn
        act.cue("tick");
      }
    }
  }

  /** After a render: the motion the last change asked for. */
  function animate(motion, on) {
    const pile = $("#pile").getBoundingClientRect();
    const onTable = (id) => document.querySelector(`#series .tile[data-id="${id}"], #pairs .tile[data-id="${id}"]`);
    for (const id of motion.flyIn) {
      const el = document.querySelector(`#rack .tile[data-id="${id}"]`);
      if (el) { el.dataset.from = "pile"; Motion.flyFrom(el, pile, on); }
    }
    motion.settle.forEach((id, i) => Motion.settle(onTable(id), i, on));
    motion.slide.forEach((id, i) => Motion.slideIn(onTable(id), motion.from, i, on));
  }

  store.subscribe(render);
  render(store.get());
}
