// The table's sounds, made with WebAudio on the spot (no audio files): a tile placed, your turn,
// ten seconds left, a hand won or lost, a phrase arriving. `cue(name)` plays one as the player's
// settings say (any module may call it: a phrase arriving, say); `play(name, volume 0–100)`.
import { load } from "./settings.js";

const NOTES = {
  // [frequency Hz, start s, length s, waveform], played together
  place: [[220, 0, 0.06, "square"], [140, 0, 0.08, "triangle"]],
  turn: [[660, 0, 0.18, "sine"], [880, 0.14, 0.28, "sine"]],
  tick: [[1200, 0, 0.05, "square"], [1200, 0.25, 0.05, "square"]],
  won: [[523, 0, 0.18, "triangle"], [659, 0.14, 0.18, "triangle"], [784, 0.28, 0.2, "triangle"], [1047, 0.42, 0.4, "triangle"]],
  lost: [[392, 0, 0.25, "sine"], [330, 0.2, 0.25, "sine"], [262, 0.4, 0.5, "sine"]],
  phrase: [[988, 0, 0.08, "sine"], [1319, 0.07, 0.12, "sine"]],
  draw: [[330, 0, 0.05, "triangle"]],
};

export const SOUNDS = Object.keys(NOTES);

let ctx = null;

export function play(name, volume = 60) {
  const notes = NOTES[name];
  if (!notes || volume <= 0) return false;
  try {
    ctx = ctx || new AudioContext();
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    const peak = 0.2 * (volume / 100);
    for (const [freq, at, len, type] of notes) {
      const start = ctx.currentTime + at;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(peak, start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + len + 0.02);
    }
    return true;
  } catch {
    return false; // no audio here
  }
}

/** Plays a sound at the player's volume, unless they turned sound off (settings.js). */
export function cue(name) {
  let settings;
  try { settings = load(globalThis.localStorage); } catch { return false; }
  return settings.sound ? play(name, settings.volume) : false;
}
