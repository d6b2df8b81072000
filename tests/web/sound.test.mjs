// The table's sounds (sound.js): each cue the state asks for exists, is played at the player's
// volume, and stays silent when sound is off or the browser has no audio.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as Settings from "../../clients/web/settings.js";
import { SOUNDS, cue, play } from "../../clients/web/sound.js";

/** A WebAudio stand-in: every oscillator made, with its note, start, stop and peak gain. */
const made = [];
let contexts = 0;
let state = "running";
const resumed = [];
class FakeAudio {
  constructor() { contexts += 1; this.currentTime = 10; this.destination = {}; }
  get state() { return state; }
  resume() { resumed.push(1); return Promise.resolve(); }
  createOscillator() {
    const osc = { frequency: {}, connect: (g) => { osc.gain = g; return g; }, start: (at) => { osc.at = at; }, stop: (at) => { osc.until = at; } };
    made.push(osc);
    return osc;
  }
  createGain() {
    const ramps = [];
    return { ramps, gain: { setValueAtTime() {}, exponentialRampToValueAtTime: (v) => ramps.push(v) }, connect: (d) => d };
  }
}
globalThis.AudioContext = FakeAudio;
const fresh = () => made.splice(0);

test("every sound the table asks for exists (a cue with no sound would play nothing)", () => {
  const web = (f) => readFileSync(new URL(`../../clients/web/${f}`, import.meta.url), "utf8");
  const asked = [...web("state.js").matchAll(/fx: "cue", name: (?:"(\w+)"|[^)]*\? "(\w+)" : "(\w+)")/g)]
    .flatMap((m) => m.slice(1).filter(Boolean));
  const ticked = [...web("table.js").matchAll(/act\.cue\("(\w+)"\)/g)].map((m) => m[1]);
  assert.deepEqual([...new Set([...asked, ...ticked])].sort(), ["draw", "lost", "place", "tick", "turn", "won"]);
  for (const name of [...asked, ...ticked]) assert.ok(SOUNDS.includes(name), name);
});

test("the turn's sound is two rising notes at the volume chosen", () => {
  fresh();
  assert.equal(play("turn", 50), true);
  const notes = fresh();
  assert.deepEqual(notes.map((o) => [o.frequency.value, o.type, o.at]), [[660, "sine", 10], [880, "sine", 10.14]]);
  assert.equal(notes[0].gain.ramps[0], 0.1); // half of the loudest (0.2)
  assert.ok(notes[1].until > notes[1].at);
  play("turn", 100);
  assert.equal(fresh()[0].gain.ramps[0], 0.2);
  assert.equal(contexts, 1); // one audio context for the page
});

test("volume zero or an unknown sound plays nothing; a suspended context is woken", () => {
  fresh();
  assert.equal(play("turn", 0), false);
  assert.equal(play("nope", 60), false);
  assert.equal(fresh().length, 0);
  state = "suspended";
  play("tick", 60);
  assert.equal(resumed.length, 1);
  state = "running";
});

test("a cue follows the player's settings: silent with sound off, at their volume with it on", () => {
  const data = {};
  globalThis.localStorage = { getItem: (k) => data[k] ?? null, setItem: (k, v) => { data[k] = String(v); } };
  Settings.save(globalThis.localStorage, { ...Settings.DEFAULTS, sound: false });
  fresh();
  assert.equal(cue("won"), false);
  assert.equal(fresh().length, 0);
  Settings.save(globalThis.localStorage, { ...Settings.DEFAULTS, sound: true, volume: 35 });
  assert.equal(cue("won"), true);
  const notes = fresh();
  assert.equal(notes.length, 4);
  assert.equal(notes[0].gain.ramps[0], 0.2 * 0.35);
  globalThis.localStorage = { getItem() { throw new Error("denied"); } };
  assert.equal(cue("won"), false); // storage refused (a private window): no sound, no error
});
