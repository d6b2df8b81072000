// The player's settings (sound, volume, motion, tile size, rack order), kept in localStorage.
// Pure: `normalize` turns anything stored into valid settings; `load`/`save` take the storage.

export const KEY = "harftet.settings";
export const SIZES = ["small", "normal", "large"];
export const SORTS = { harftet: ["letter", "value"], kastet: ["series", "pairs"] };
export const DEFAULTS = Object.freeze({ sound: true, volume: 60, motion: true, tileSize: "normal", sort: "letter" });

/** Valid settings from whatever was stored (unknown keys dropped, bad values defaulted). */
export function normalize(raw) {
  const x = raw && typeof raw === "object" ? raw : {};
  const volume = Number.isFinite(Number(x.volume)) ? Math.min(100, Math.max(0, Math.round(Number(x.volume)))) : DEFAULTS.volume;
  const sorts = [...SORTS.harftet, ...SORTS.kastet];
  return {
    sound: typeof x.sound === "boolean" ? x.sound : DEFAULTS.sound,
    volume,
    motion: typeof x.motion === "boolean" ? x.motion : DEFAULTS.motion,
    tileSize: SIZES.includes(x.tileSize) ? x.tileSize : DEFAULTS.tileSize,
    sort: sorts.includes(x.sort) ? x.sort : DEFAULTS.sort,
  };
}

/** The settings in `storage`; the old mute switch ("harftet.muted") is honoured once. */
export function load(storage) {
  let raw = null;
  try { raw = JSON.parse(storage.getItem(KEY) || "null"); } catch { raw = null; }
  const s = normalize(raw);
  if (!raw && storage.getItem("harftet.muted") === "1") s.sound = false;
  return s;
}

export function save(storage, settings) {
  const s = normalize(settings);
  storage.setItem(KEY, JSON.stringify(s));
  return s;
}

/** The rack order for a game: the stored one where it belongs to that game, else the game's first. */
export function sortFor(settings, game) {
  const modes = SORTS[game] || SORTS.harftet;
  return modes.includes(settings.sort) ? settings.sort : modes[0];
}

/** Whether tiles move: the setting, and never when the system asks for reduced motion. */
export function animate(settings, reducedMotion) {
  return settings.motion && !reducedMotion;
}
