// The frame around the screens (chrome.js) on the real page: every label in the language
// chosen, the offline banner, notices, the player's name, the settings dialog, the tab's title.
import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { dockShown, mountChrome } from "../../clients/web/chrome.js";
import { install } from "../../clients/web/texts.js";
import { catalogue } from "./catalogue.mjs";
import { page, read, storeWith } from "./dom.mjs";
import { kastetView } from "./fixtures.mjs";

function mounted(store) {
  page("index.html");
  const asked = [];
  const act = {
    switchLang: (lang) => asked.push(["lang", lang]), changeSettings: (patch) => asked.push(["settings", patch]),
    openSettings: (open) => asked.push(["open", open]), signOut: () => asked.push(["signOut"]), clearNotice: () => asked.push(["clear"]),
  };
  mountChrome({ store, act });
  return { asked, $: (sel) => document.querySelector(sel) };
}

test("every label on the page reads the catalogue's words, and follows a switch to English", async () => {
  const store = await storeWith({ me: { token: "t", playerId: "p1", name: "Ayşe", rating: 1512 } });
  const { $ } = mounted(store);
  assert.equal(read($("#logout")), "Çıkış");
  assert.equal(read($("#login-h")), "Kim oynuyor?");
  assert.equal($("#notice-close").getAttribute("aria-label"), "Kapat");
  assert.equal($("#rules-link").getAttribute("href"), "rules.html");
  assert.equal(read($("#brand-sub")), "okey ve harf masası");
  const unlabelled = [...document.querySelectorAll("[data-t]")].filter((el) => !el.textContent.trim());
  assert.deepEqual(unlabelled.map((el) => el.dataset.t), []);
  install(catalogue("en"));
  store.dispatch({ type: "catalogue", lang: "en" });
  assert.equal(document.documentElement.lang, "en");
  assert.equal(read($("#logout")), "Sign out");
  assert.equal(read($("#lang")), "Türkçe");
  assert.equal($("#lang").getAttribute("lang"), "tr"); // the switch's word is read in its own language
  assert.match($('meta[name="description"]').content, /^Harftet and Kastet/);
  assert.equal($("#rules-link").getAttribute("href"), "rules.html?lang=en");
  install(catalogue("tr"));
  store.dispatch({ type: "catalogue", lang: "tr" });
  assert.equal($("#lang").getAttribute("lang"), "en");
  assert.match($('meta[name="description"]').content, /^Harftet ve Kastet/);
});

test("the player's name and rating show once signed in; the switches send what was tapped", async () => {
  const store = await storeWith();
  const { $, asked } = mounted(store);
  assert.equal($("#me").hidden, true);
  store.dispatch({ type: "signedIn", player: { token: "t", playerId: "p1", name: "Ayşe", rating: 1512 } });
  assert.equal($("#me").hidden, false);
  assert.equal(read($("#me-name")), "Ayşe");
  assert.equal(read($("#me-rating")), "1512");
  $("#lang").click();
  $("#logout").click();
  $("#settings").click();
  assert.deepEqual(asked, [["lang", "en"], ["signOut"], ["open", true]]);
});

test("the offline banner shows at once, before any catalogue is there", async () => {
  const { createStore, initialState } = await import("../../clients/web/state.js");
  const store = createStore(initialState({}));
  const { $ } = mounted(store);
  assert.equal($("#offline").hidden, true);
  store.dispatch({ type: "offline", on: true });
  assert.equal($("#offline").hidden, false);
  store.dispatch({ type: "offline", on: false });
  assert.equal($("#offline").hidden, true);
});

test("a notice reads its key's sentence (or the sentence given) above the screen; ✕ clears it", async () => {
  const store = await storeWith();
  const { $, asked } = mounted(store);
  assert.equal($("#notice").hidden, true);
  store.dispatch({ type: "notice", key: "notice.network" });
  assert.equal($("#notice").hidden, false);
  assert.equal(read($("#notice-text")), "Sunucuya ulaşılamıyor");
  assert.equal($("#notice").className, "notice error");
  assert.equal($("#notice").parentElement, $("main"));
  store.dispatch({ type: "notice", text: "Olmadı: iptal", kind: "info" });
  assert.equal(read($("#notice-text")), "Olmadı: iptal");
  assert.equal($("#notice").className, "notice info");
  $("#notice-close").click();
  assert.deepEqual(asked, [["clear"]]);
  store.dispatch({ type: "noticeCleared" });
  assert.equal($("#notice").hidden, true);
});

test("at a table the player is playing, the dock shows and a notice sits in it, above the rack", async () => {
  const store = await storeWith({ me: { token: "t", playerId: "p0" } });
  const { $ } = mounted(store);
  store.dispatch({ type: "tableOpened", view: kastetView() });
  assert.equal(dockShown(store.get()), true);
  assert.equal(read($("#brand-sub")), "Kastet masası · okey taşlarıyla");
  store.dispatch({ type: "notice", key: "notice.yourTurn", kind: "info" });
  assert.equal($("#notice").parentElement, $("#dock"));
  const watching = { ...store.get(), table: { ...store.get().table, view: kastetView({ seat: null }) } };
  assert.equal(dockShown(watching), false); // a watcher has no rack
  const waiting = { ...store.get(), table: { ...store.get().table, view: kastetView({ handNumber: 0 }) } };
  assert.equal(dockShown(waiting), false);
  assert.equal(dockShown({ ...store.get(), screen: "lobby" }), false);
});

test("the settings dialog shows the player's settings and sends every change", async () => {
  const store = await storeWith();
  const { $, asked } = mounted(store);
  store.dispatch({ type: "settings", settings: { sound: false, volume: 35, motion: false, tileSize: "large", sort: "pairs" } });
  store.dispatch({ type: "settingsOpen", open: true });
  assert.equal($("#settings-dialog").open, true);
  assert.equal($("#set-sound").checked, false);
  assert.equal($("#set-volume").value, "35");
  assert.equal($("#set-volume").disabled, true); // no volume without sound
  assert.equal($("#set-size").value, "large");
  assert.equal(document.documentElement.dataset.tiles, "large");
  assert.ok(document.documentElement.classList.contains("still"));
  $("#set-sound").checked = true;
  $("#set-sound").dispatchEvent(new window.Event("input", { bubbles: true }));
  $("#set-lang").value = "en";
  $("#set-lang").dispatchEvent(new window.Event("input", { bubbles: true }));
  assert.deepEqual(asked, [["settings", { sound: true, volume: 35, motion: false, tileSize: "large", sort: "pairs" }], ["lang", "en"]]);
  $("#settings-dialog").close();
  assert.deepEqual(asked.at(-1), ["open", false]);
  store.dispatch({ type: "settingsOpen", open: false });
  assert.equal($("#settings-dialog").open, false);
});

test("the lobby's title counts the tables waiting for the player; a hidden tab blinks at their turn", async (t) => {
  t.mock.timers.enable({ apis: ["setInterval"] });
  const store = await storeWith({ me: { token: "t", playerId: "p0" } });
  mounted(store);
  const base = document.title;
  store.dispatch({ type: "screen", screen: "lobby" });
  store.dispatch({ type: "inbox", tables: [], cursor: null });
  assert.equal(document.title, "Harftet");
  store.dispatch({ type: "inbox", tables: [{ tableId: "a", yourTurn: true }, { tableId: "b", yourTurn: false }, { tableId: "c", yourTurn: true }], cursor: null });
  assert.equal(document.title, "(2) Harftet");
  store.dispatch({ type: "screen", screen: "table" });
  assert.equal(document.title, base);
  store.dispatch({ type: "attention", on: true });
  t.mock.timers.tick(900);
  assert.equal(document.title, "● Sıra sende!");
  t.mock.timers.tick(900);
  assert.equal(document.title, base);
  t.mock.timers.tick(900);
  store.dispatch({ type: "attention", on: false });
  assert.equal(document.title, base);
  t.mock.timers.tick(5000);
  assert.equal(document.title, base); // the blinking stopped
});

test("the leaderboard, the league and the word card each have a language switch of their own: the open one is drawn again in English, the focus stays on it, and back", async () => {
  const { initPeople } = await import("../../clients/web/people.js");
  const { initLeagues } = await import("../../clients/web/leagues.js");
  const { initWordCard, wordButton } = await import("../../clients/web/wordcard.js");
  const { settled } = await import("./dom.mjs");
  const store = await storeWith({ me: { token: "t", playerId: "p0", name: "Ayşe", rating: 1500 } });
  page("index.html");
  const switchLang = (lang) => { install(catalogue(lang)); store.dispatch({ type: "catalogue", lang }); };
  mountChrome({ store, act: { switchLang, changeSettings() {}, openSettings() {}, signOut() {}, clearNotice() {} } });
  const asked = [];
  const answers = {
    "/leaderboards/harftet?period=week&limit=100": { entries: [{ rank: 1, playerId: "p0", name: "Ayşe", score: 40 }], me: null },
    "/leagues/harftet/me": { division: "gumus-3", endsAt: 2e9, rolled: false, promote: 5, relegate: 5,
      standings: [{ rank: 1, playerId: "p0", name: "Ayşe", points: 40, games: 2, move: "up" }] },
    "/words/EV": { word: "EV", known: true, kinds: ["isim"], sources: ["TDK"] },
  };
  const api = { request: async (method, path) => { asked.push(path); return answers[path]; } };
  const lobby = document.querySelector("#lobby");
  initPeople(api, lobby, { store });
  initLeagues(api, lobby, () => "p0", { store });
  initWordCard({ api, store });
  const meld = document.createElement("li");
  meld.append(wordButton("EV"));
  document.body.append(meld);
  const dialogs = [
    { name: "leaderboard", open: () => document.querySelector(".people-open").click(), host: "dialog.people", tr: /Sıralama.*Bu hafta/, en: /Leaderboard.*This week/ },
    { name: "league", open: () => document.querySelector(".league-open").click(), host: "dialog.league", tr: /Haftalık lig.*Gümüş · 3\. grup.*Yükseliyor/, en: /Weekly league.*Silver · division 3.*Going up/ },
    { name: "word card", open: () => document.querySelector("button.word-info").click(), host: "#word-card", tr: /EV.*Sözlükte var.*Türü: isim/, en: /EV.*In the dictionary.*Kind: noun/ },
  ];
  for (const d of dialogs) {
    d.open();
    await settled();
    const host = document.querySelector(d.host);
    const inside = host.querySelector(".dialog-head .lang-switch");
    assert.ok(inside, `${d.name}: a switch of its own`);
    assert.equal(read(inside), "English", d.name);
    assert.equal(inside.getAttribute("lang"), "en", d.name); // named in the language it switches to
    assert.match(read(host), d.tr, d.name);
    inside.focus();
    inside.click();
    await settled();
    assert.equal(store.get().lang, "en", d.name);
    assert.match(read(host), d.en, d.name);
    assert.doesNotMatch(read(host), /Kapat|Sözlükte|Haftalık|Sıralama/, d.name);
    assert.equal(read(inside), "Türkçe", d.name);
    assert.equal(inside.getAttribute("lang"), "tr", d.name);
    assert.equal(document.activeElement, inside, `${d.name}: the focus stays on the switch`);
    assert.equal(read(document.querySelector("#lang")), "Türkçe", `${d.name}: the top bar's follows`);
    inside.click();
    await settled();
    assert.equal(store.get().lang, "tr", d.name);
    assert.match(read(host), d.tr, d.name);
    if (host.close) host.close(); else host.querySelector(".wc-close").click();
  }
  // the league and the leaderboard are drawn again from the answers they hold: a switch asks
  // the server nothing
  assert.equal(asked.filter((p) => p.startsWith("/leagues")).length, 1);
  assert.equal(asked.filter((p) => p.startsWith("/leaderboards")).length, 1);
});
