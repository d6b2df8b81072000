// The frame around the screens: the top bar (the player, the links, the language switch), the
// notice and the offline banner, the settings dialog, the page's title (it blinks when the turn
// comes to a hidden tab) and every label the page names by key (data-t, data-t-label).
import { mySeat } from "./game.js";
import { getLang, t } from "./texts.js";

const $ = (sel) => document.querySelector(sel);
const BLINK_MS = 900;
const NOTICE_TIMEOUT_MS = 6000;

/** Whether the tab is in the background now (the turn's sound and the title's blink ask). */
export function tabHidden() { return document.hidden; }

/** A seated player's hand is being played: the dock (rack, buttons, timer) shows. */
export function dockShown(s) {
  const v = s.table && s.table.view;
  return s.screen === "table" && !!v && mySeat(v) != null && v.handNumber !== 0;
}

/** The dock's height as a CSS variable: the page leaves room for it. */
export function layoutDock() {
  const dock = $("#dock");
  const height = dock.hidden ? 0 : dock.getBoundingClientRect().height;
  document.documentElement.style.setProperty("--dock-h", `${Math.ceil(height)}px`);
}

/** The switch to the other language, named in it ("English" on a Turkish page); mountChrome
 * makes every one of them switch, those made later too. */
export function langSwitch() {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "link lang-switch";
  b.lang = getLang() === "tr" ? "en" : "tr";
  b.dataset.t = "lang.switch";
  b.textContent = t("lang.switch");
  return b;
}

/** A dialog's head and body (leaderboard, league, word card; the end of a hand's is in
 * index.html): `heading` with a language switch of its own beside it (a modal dialog leaves the
 * top bar's switch inert behind it), and the body, which returns: drawn again in place while the
 * head stays, so the focus stays on the switch. */
export function dialogFrame(host, heading) {
  const head = document.createElement("div");
  head.className = "dialog-head";
  head.append(heading, langSwitch());
  const body = document.createElement("div");
  body.className = "dialog-body";
  host.replaceChildren(head, body);
  return body;
}

/** `act`: { switchLang(lang), changeSettings(patch), openSettings(open), signOut(), clearNotice() }. */
export function mountChrome({ store, act }) {
  const baseTitle = document.title;
  let blink = 0;
  let shown = {};

  $("#notice-close").onclick = act.clearNotice;
  $("#logout").onclick = act.signOut;
  // the top bar's switch, and one in each dialog (a modal dialog leaves the page behind it inert),
  // those drawn later too (render.js dialogFrame)
  document.addEventListener("click", (ev) => {
    if (ev.target.closest && ev.target.closest(".lang-switch")) act.switchLang(getLang() === "tr" ? "en" : "tr");
  });
  $("#settings").onclick = () => act.openSettings(true);
  $("#settings-dialog").addEventListener("close", () => act.openSettings(false));
  $("#settings-form").oninput = (ev) => {
    if (ev.target.id === "set-lang") return act.switchLang(ev.target.value);
    act.changeSettings({
      sound: $("#set-sound").checked, volume: Number($("#set-volume").value), motion: $("#set-motion").checked,
      tileSize: $("#set-size").value, sort: $("#set-sort").value,
    });
  };

  function relabel() {
    document.documentElement.lang = getLang();
    for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
    for (const el of document.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", t(el.dataset.tLabel));
    $("#rules-link").href = t("rules.href");
    for (const b of document.querySelectorAll(".lang-switch")) b.lang = getLang() === "tr" ? "en" : "tr"; // the switch names the other language, in it
    const description = document.querySelector('meta[name="description"]');
    if (description) description.content = t("app.description");
  }

  function renderNotice(s) {
    const el = $("#notice");
    const n = s.notice;
    el.hidden = !n;
    if (n) {
      el.className = `notice ${n.kind}`;
      $("#notice-text").textContent = n.text ?? t(n.key, n.params);
    }
    // In the page's flow (in the dock at the table, above the screen elsewhere): it covers nothing.
    const home = dockShown(s) ? $("#dock") : $("main");
    const moved = el.parentElement !== home;
    if (moved) home.prepend(el);
    const fresh = (n && n.seq) !== shown.noticeSeq;
    if (n && fresh && !dockShown(s)) el.scrollIntoView({ block: "nearest" });
    shown.noticeSeq = n && n.seq;
    if (moved || fresh) layoutDock();
  }

  function renderSettings(s) {
    const x = s.settings;
    document.documentElement.dataset.tiles = x.tileSize;
    document.documentElement.classList.toggle("still", !x.motion);
    $("#set-lang").value = getLang();
    $("#set-sound").checked = x.sound;
    $("#set-volume").value = String(x.volume);
    $("#set-volume").disabled = !x.sound;
    $("#set-motion").checked = x.motion;
    $("#set-size").value = x.tileSize;
    $("#set-sort").value = x.sort;
    const dialog = $("#settings-dialog");
    if (s.settingsOpen && !dialog.open) dialog.showModal();
    if (!s.settingsOpen && dialog.open) dialog.close();
  }

  function renderTitle(s) {
    if (s.attention && !blink) {
      let on = false;
      blink = setInterval(() => { on = !on; document.title = on ? t("title.turn") : baseTitle; }, BLINK_MS);
      return;
    }
    if (s.attention) return;
    clearInterval(blink);
    blink = 0;
    const waiting = s.inbox.tables.filter((x) => x.yourTurn).length;
    if (s.screen === "lobby" && shown.inbox !== s.inbox) document.title = waiting ? `(${waiting}) Harftet` : "Harftet"; // the inbox's count
    else if (s.screen !== "lobby") document.title = baseTitle;
    shown.inbox = s.inbox;
  }

  function render(s) {
    $("#offline").hidden = !s.offline; // before the catalogue too: the banner shows even with no words yet
    if (!s.ready) return;
    if (s.texts !== shown.texts) relabel();
    const v = s.table && s.table.view;
    $("#brand-sub").textContent = s.screen === "table" && v ? t(`app.sub.${v.game}`) : t("app.sub");
    $("#me").hidden = !s.me;
    $("#me-name").textContent = (s.me && s.me.name) || "";
    $("#me-rating").textContent = (s.me && s.me.rating) ?? "–";
    renderNotice(s);
    if (s.settings !== shown.settings || s.settingsOpen !== shown.settingsOpen || s.texts !== shown.texts) renderSettings(s);
    renderTitle(s);
    shown = { ...shown, texts: s.texts, settings: s.settings, settingsOpen: s.settingsOpen };
  }

  store.subscribe(render);
  render(store.get());
  return { noticeTimeout: NOTICE_TIMEOUT_MS };
}
