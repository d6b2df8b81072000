// What this browser keeps across tabs and restarts (localStorage): the player's session, the
// table they sat at (a closed tab comes back to its seat), the language chosen, and the deal
// proofs seen during play (the verify page compares with them). Every function takes the storage.

const SESSION = "harftet.session";
const TABLE = "harftet.table";
export const LANG = "harftet.lang";
export const REFRESH = "harftet.refresh";

const read = (storage, key, fallback) => {
  try { return JSON.parse(storage.getItem(key) || "null") ?? fallback; } catch { return fallback; }
};

/** {token, playerId, name, rating} or null. */
export function loadSession(storage) {
  const s = read(storage, SESSION, null);
  return s && s.token ? { token: s.token, playerId: s.playerId, name: s.name, rating: s.rating } : null;
}

export function saveSession(storage, me) {
  storage.setItem(SESSION, JSON.stringify({ token: me.token, playerId: me.playerId, name: me.name, rating: me.rating }));
}

export function forgetSession(storage) {
  storage.removeItem(SESSION);
  storage.removeItem(TABLE);
}

export function savedTable(storage) { return storage.getItem(TABLE); }
export function saveTable(storage, tableId) { storage.setItem(TABLE, tableId); }
export function forgetTable(storage) { storage.removeItem(TABLE); }

/** The language chosen ("tr" unless English was). */
export function savedLang(storage) {
  try { return storage.getItem(LANG) === "en" ? "en" : "tr"; } catch { return "tr"; }
}
export function saveLang(storage, lang) {
  try { storage.setItem(LANG, lang); } catch { /* no storage: this tab only */ }
}

/** The proofs this browser saw at `tableId`, by hand. */
export function seenProofs(storage, tableId) {
  return read(storage, `harftet.proofs.${tableId}`, {});
}

/** Keep the view's deal proof (its hand's), once. */
export function rememberProof(storage, v) {
  if (!v.dealProof || !v.handNumber) return;
  const seen = seenProofs(storage, v.tableId);
  if (seen[v.handNumber] === v.dealProof) return;
  seen[v.handNumber] = v.dealProof;
  try { storage.setItem(`harftet.proofs.${v.tableId}`, JSON.stringify(seen)); } catch { /* full: the check says "not seen" */ }
}
