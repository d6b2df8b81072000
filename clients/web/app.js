// The Harftet / Kastet web client, put together: where the APIs are (config.json), the catalogue
// of what a player reads (GET /texts, catalogue.js), the store (state.js: the state changes only
// through `update(state, message)`), the effects that talk to the server and the browser, and the
// screens that draw the state and turn the player's taps into messages and effects. No build step.
import { createApi } from "./api.js";
import { createAttempts } from "./attempts.js";
import { kept, load as loadTexts } from "./catalogue.js";
import { loadConfig } from "./config.js";
import { createContacts } from "./contacts.js";
import { createDrafting } from "./drafting.js";
import { createDryRuns } from "./dryrun.js";
import { createIdentity } from "./identity.js";
import { Live } from "./live.js";
import { createAccount } from "./passkeys.js";
import { createPlay } from "./play.js";
import { createReplays } from "./replays.js";
import { createTourneys, tournamentFromHash, tournamentOf } from "./tourneys.js";
import { createInbox, onPushOpen, tableFromUrl } from "./push.js";
import { LANG, loadSession, rememberProof, savedLang, saveLang, savedTable } from "./session.js";
import * as Settings from "./settings.js";
import * as Sound from "./sound.js";
import { createSearch } from "./search.js";
import { createStore, initialState } from "./state.js";
import { createTables, LOBBY_PAGE } from "./tables.js";
import { registerWorker } from "./updates.js";
import { getLang, install } from "./texts.js";
import { mountAccount } from "./account.js";
import { mountChrome, tabHidden } from "./chrome.js";
import { mountEndDialog, mountFaceDialog } from "./dialogs.js";
import { mountDrag } from "./drag.js";
import { mountFriends } from "./friends.js";
import { mountInbox } from "./inbox.js";
import { mountLobby, mountSearch } from "./lobby.js";
import { mountLogin } from "./login.js";
import { initLeagues } from "./leagues.js";
import { initPeople } from "./people.js";
import { mountPhrases } from "./phrases.js";
import { mountReplay } from "./replay.js";
import { mountTable } from "./table.js";
import { mountTournament } from "./tournament.js";
import { mountTournaments } from "./tournaments.js";
import { initWordCard } from "./wordcard.js";

const NOTICE_MS = 6000; // a notice that is not a refusal goes after this long
const TEXTS_RETRY_MS = 5000; // no catalogue at all yet: ask again after this long
const storage = window.localStorage; // kept across tabs and restarts: a closed tab comes back to its seat
const config = { rest: "", ws: "" };
const configured = loadConfig().then((c) => Object.assign(config, c));
const hashTable = () => (/(?:^#|&)t=([\w-]+)/.exec(location.hash) || [])[1] || null;
let wanted = tableFromUrl(location.href) || hashTable() || savedTable(storage); // where a sign-in goes

const store = createStore(initialState({ settings: Settings.load(storage), lang: savedLang(storage), me: loadSession(storage) }), run);
const dispatch = (message) => store.dispatch(message);

// ---------------------------------------------------------------- effects
const api = createApi({
  token: () => store.get().me && store.get().me.token, lang: getLang, base: () => config.rest, ready: configured,
  onUnauthorized: () => (account.hasSession() ? account.refresh() : identity.signOut("notice.session")),
});
const live = new Live({
  base: () => config.ws,
  onView: (view) => dispatch({ type: "view", view }),
  onState: (state) => dispatch({ type: "ws", state }),
  resync: () => play.resync(),
  onMessage: (msg) => (msg.type === "tournament" ? tourneys.pushed(msg) : phrases.onMessage(msg)),
});
const tries = createAttempts({ store, retry: () => (store.get().table ? play.resync() : store.get().screen === "lobby" && tables.loadLobby()) });
const { attempt, guarded } = tries;
const identity = createIdentity({ store, api, storage, live, enter });
const dryRuns = createDryRuns({ store, api });
const confirm = (question) => window.confirm(question);
const contacts = createContacts({
  store, api, wsBase: () => config.ws, openTable: (id) => attempt(() => play.openTable(id)), confirm,
  onMatched: (m) => attempt(() => search.pushed(m)), onTournament: (m) => tourneys.pushed(m),
});
const inbox = createInbox({ store, api });
const askFace = mountFaceDialog({ store });
const play = createPlay({
  store, api, live, storage, tries, dryRuns, askFace, confirm, openLobby: () => tables.openLobby(), beforeTable: () => contacts.close(),
});
const tables = createTables({ store, api, live, storage, play, contacts, inbox, identity, tries, hidden: tabHidden });
const search = createSearch({ store, api, play });
const account = createAccount({ store, api, storage, identity, confirm, hidden: tabHidden });
const drafting = createDrafting({ store, askFace, changeSettings });
const replays = createReplays({ store, api, storage, refusal: tries.refusal });
const tourneys = createTourneys({
  store, api, storage, refusal: tries.refusal, hidden: tabHidden, listen: () => contacts.listen(),
  openTable: (id) => attempt(() => play.openTable(id)), openReplay: (id) => attempt(() => replays.open(id, store.get().tournament && store.get().tournament.id)),
  leave: () => { live.close(); dispatch({ type: "tableLeft" }); },
});
store.subscribe((s) => { if (!s.me) contacts.close(); }); // signed out (or the session gone): no socket left open as them

/** What a change of state asked for (state.js lists them as data). */
function run(effect) {
  const handlers = {
    adopt: () => live.adopt(effect.view),
    cue: () => cue(effect.name),
    dryRun: () => dryRuns.schedule(),
    cancelDryRun: () => dryRuns.cancel(),
    refreshMe: () => identity.refresh(),
    loadLog: () => play.loadLog(),
    proof: () => rememberProof(storage, effect.view),
    turnCame: () => tabHidden() && dispatch({ type: "attention", on: true }),
    noticeTimer: () => setTimeout(() => dispatch({ type: "noticeCleared", seq: effect.seq }), NOTICE_MS),
  };
  if (handlers[effect.fx]) handlers[effect.fx]();
}

/** Plays one of sound.js's sounds, unless the player turned sound off. */
function cue(name) {
  const { sound, volume } = store.get().settings;
  if (sound) Sound.play(name, volume);
}

function changeSettings(patch) {
  const before = store.get().settings;
  const settings = Settings.save(storage, { ...before, ...patch });
  dispatch({ type: "settings", settings });
  if (store.get().table && store.get().table.view && settings.sort !== before.sort) dispatch({ type: "rackSorted" });
}

/** Where a signed-in player goes: the tournament or table asked for (a link, the last seat), else the lobby. */
function enter() {
  const id = wanted;
  wanted = null;
  const cup = tournamentFromHash(location.hash);
  if (cup) return tourneys.open(cup);
  return id ? play.openTable(id) : tables.openLobby();
}

// ---------------------------------------------------------------- the catalogue
let textsLang = null;
function useCatalogue(catalogue) {
  install(catalogue);
  saveLang(storage, catalogue.lang);
  dispatch({ type: "catalogue", lang: catalogue.lang });
}

/** The catalogue of `lang`: the one kept shows at once, the server's replaces it when it differs.
 * Resolves once there is one (null: none kept and the server out of reach). */
function texts(lang) {
  textsLang = lang;
  const have = kept(storage, lang);
  if (have) useCatalogue(have);
  const fresh = configured.then(() => loadTexts(lang, { storage, base: config.rest })).then((c) => {
    if (c && !(have && c.etag && c.etag === have.etag) && textsLang === lang) useCatalogue(c); // a 304: the one in use
    return c;
  });
  return have ? Promise.resolve(have) : fresh;
}

function switchLang(lang) {
  if (lang !== getLang()) texts(lang);
}

// ---------------------------------------------------------------- the screens
function mount() {
  mountInbox({ store, screen: document.querySelector("#lobby"),
    act: { openTable: (id) => play.openTable(id), more: () => inbox.load(true), enablePush: inbox.enablePush } });
  phrases = mountPhrases({ store, api, openTable: (id) => play.openTable(id), refusal: tries.refusal });
  initWordCard({ api, store }); // tap a word's "?" on the table: what the game knows of it
  mountAccount({ store, act: account });
  const people = initPeople(api, document.querySelector("#lobby"), { store, openReplay: (id) => attempt(() => replays.open(id)) }); // profiles and leaderboards
  mountReplay({ store, act: { step: replays.step, lobby: () => tables.openLobby(), tournament: (id) => tourneys.open(id) } });
  initLeagues(api, document.querySelector("#lobby"), () => store.get().me && store.get().me.playerId, { store }); // the week's league
  mountTournaments({ store, act: { ...tourneys, page: tourneys.loadList, lobby: () => tables.openLobby() } }); // the list, the round's call
  mountTournament({ store, act: { ...tourneys, list: () => tourneys.openList(), profile: (pid) => people.profile(pid) } });
  mountFriends({ store, act: contacts, host: document.querySelector("#lobby") });
  mountChrome({ store, act: {
    switchLang, changeSettings, openSettings: (open) => dispatch({ type: "settingsOpen", open }),
    signOut: () => account.signOut().then(() => identity.signOut()), clearNotice: () => dispatch({ type: "noticeCleared" }),
  } });
  mountLogin({ store, act: { signIn: (name) => attempt(() => identity.signIn(name)) } });
  mountLobby({ store, pageSize: LOBBY_PAGE, act: {
    tab: tables.setTab, page: tables.loadLobby, quickPlay: (game, level) => attempt(() => tables.quickPlay(game, level)),
    search: (game) => attempt(() => search.start(game)),
    createTable: (fields) => attempt(() => tables.createTable(fields)), sit: (id, seat) => attempt(() => tables.sit(id, seat)),
    openTable: (id) => attempt(() => play.openTable(id)),
  } });
  mountSearch({ store, act: { cancel: () => attempt(search.cancel) } });
  mountTable({ store, drafting, act: {
    start: () => attempt(play.start), resume: () => attempt(play.resume), invite: () => attempt(play.invite),
    leave: () => attempt(play.leave), away: () => tables.openLobby(), toggleSound: () => changeSettings({ sound: !store.get().settings.sound }),
    draw: () => guarded(play.draw), pass: () => guarded(play.pass), lay: () => guarded(play.lay), hint: () => guarded(play.hint),
    sit: (id, seat) => attempt(() => tables.sit(id, seat)), addBot: (id, seat, level) => attempt(() => tables.addBot(id, seat, level)),
    removeBot: (seat) => attempt(() => play.removeBot(seat)), cue,
  } });
  mountEndDialog({ store, act: {
    rematch: () => attempt(tables.rematch), ready: () => attempt(play.ready), closeEnd: () => dispatch({ type: "endClosed" }),
    lobby: () => { dispatch({ type: "endClosed" }); tables.openLobby(); },
    tournamentOf: (id) => tournamentOf(store.get(), id), tournament: (id) => { dispatch({ type: "endClosed" }); tourneys.open(id); },
  } });
  mountDrag({ store, drafting });
}
let phrases;

function wire() {
  // An invitation link pasted into an open tab changes only the hash: open that table.
  window.addEventListener("hashchange", () => {
    const id = hashTable();
    const { table, me } = store.get();
    if (id && id !== (table && table.id) && me) attempt(() => play.openTable(id));
  });
  window.addEventListener("online", () => { tries.setOffline(false); if (store.get().table) play.resync(); });
  window.addEventListener("offline", () => tries.setOffline(true));
  // The language switched in another tab: this one follows.
  window.addEventListener("storage", (ev) => { if (ev.key === LANG && ev.newValue) switchLang(ev.newValue); });
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) return;
    dispatch({ type: "attention", on: false });
    live.wake();
    if (store.get().table) play.resync();
    account.wake(); // back after a while: a fresh token
  });
  onPushOpen((id) => play.openTable(id)); // a notification clicked while the client is open
}

/** A new task of the event loop (a message, not a timer: a background tab's timers wait). */
const nextTask = () => new Promise((resolve) => {
  const { port1, port2 } = new MessageChannel();
  port1.onmessage = () => { port1.close(); resolve(); };
  port2.postMessage(null);
});

let onMounted;
/** Resolves once the screens are mounted and listening (boot.js waits for it). */
export const mounted = new Promise((resolve) => { onMounted = resolve; });

async function boot() {
  // The service worker (sw.js) keeps the shell for return visits and offline starts; a new
  // version reloads the page, but never at a table: it waits until the player leaves it.
  registerWorker({ busy: () => store.get().screen === "table", subscribe: store.subscribe });
  if (!navigator.onLine) tries.setOffline(true);
  // Nothing shows before the catalogue: no label is ever seen as its key. A kept one is in use
  // before the screens mount: the login boot.js drew from it stays as it is (the name typed, the focus).
  let catalogue = texts(savedLang(storage));
  if (store.get().ready && !store.get().me) dispatch({ type: "screen", screen: "login" });
  await nextTask(); // the modules' evaluation, then the mounting: two short tasks, not one long
  mount();
  wire();
  onMounted(); // boot.js replays the taps it held
  while (!(await catalogue)) {
    tries.setOffline(true);
    await new Promise((resolve) => setTimeout(resolve, TEXTS_RETRY_MS));
    catalogue = texts(savedLang(storage));
  }
  if (store.get().offline && navigator.onLine) tries.setOffline(false);
  if (!store.get().me) return dispatch({ type: "screen", screen: "login" }); // the first screen before any request
  await configured;
  await account.refresh(); // a session's access token lives 15 minutes
  identity.refresh();
  await enter();
}

boot();
