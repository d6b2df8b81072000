// The client's small pure modules: settings, avatars, a name's length as the server counts it.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as Settings from "../../clients/web/settings.js";
import { avatar, initials, hue, lightness } from "../../clients/web/avatar.js";
import { nameLength } from "../../clients/web/identity.js";

function memory(init = {}) {
  const data = { ...init };
  return { getItem: (k) => (k in data ? data[k] : null), setItem: (k, v) => { data[k] = String(v); }, data };
}

test("settings survive a reload and anything odd stored falls back to the defaults", () => {
  const store = memory();
  assert.deepEqual(Settings.load(store), Settings.DEFAULTS);
  Settings.save(store, { sound: false, volume: 35, motion: false, tileSize: "large", sort: "pairs" });
  assert.deepEqual(Settings.load(store), { sound: false, volume: 35, motion: false, tileSize: "large", sort: "pairs" });
  const odd = memory({ [Settings.KEY]: JSON.stringify({ sound: "yes", volume: 900, tileSize: "huge", sort: "x", evil: 1 }) });
  assert.deepEqual(Settings.load(odd), { ...Settings.DEFAULTS, volume: 100 });
  assert.deepEqual(Settings.load(memory({ [Settings.KEY]: "{not json" })), Settings.DEFAULTS);
});

test("the old mute switch is honoured and each game gets a rack order of its own", () => {
  assert.equal(Settings.load(memory({ "harftet.muted": "1" })).sound, false);
  const s = { ...Settings.DEFAULTS, sort: "value" };
  assert.equal(Settings.sortFor(s, "harftet"), "value");
  assert.equal(Settings.sortFor(s, "kastet"), "series"); // "value" is not a Kastet order
  assert.equal(Settings.animate({ motion: true }, true), false); // the system's reduced motion wins
  assert.equal(Settings.animate({ motion: true }, false), true);
});

test("avatars: Turkish initials, and the same player always in the same colour", () => {
  assert.equal(initials("işık ılgaz"), "İI");
  assert.equal(initials("Ayşe"), "AY");
  assert.equal(initials("  "), "?");
  assert.equal(hue("p-1"), hue("p-1"));
  assert.notEqual(hue("p-1"), hue("p-2"));
  assert.match(avatar("Ece", "p-9").background, /^hsl\(\d+ 55% \d+%\)$/);
});

// Checked with its own arithmetic (the textbook HSL conversion and WCAG 2 luminance), not avatar.js's.
function whiteContrastOf(css) {
  const [, h, s, l] = css.match(/^hsl\((\d+) (\d+)% (\d+)%\)$/).map(Number);
  const c = (1 - Math.abs((2 * l) / 100 - 1)) * (s / 100);
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l / 100 - c / 2;
  const [r, g, b] = [[c, x, 0], [x, c, 0], [0, c, x], [0, x, c], [x, 0, c], [c, 0, x]][Math.floor(h / 60)];
  const channel = (v) => {
    const v8 = Math.round((v + m) * 255) / 255; // the browser paints 8-bit channels
    return v8 <= 0.03928 ? v8 / 12.92 : ((v8 + 0.055) / 1.055) ** 2.4;
  };
  const lum = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  return 1.05 / (lum + 0.05);
}

test("every avatar colour, whatever the player's id, lets white initials read at 4.5:1 or better", () => {
  const seen = new Set();
  for (let i = 0; seen.size < 360 && i < 200000; i += 1) {
    const key = `p-${i}`;
    const h = hue(key);
    if (seen.has(h)) continue;
    seen.add(h);
    const { background } = avatar("Ece", key);
    assert.ok(whiteContrastOf(background) >= 4.5, `${background} (player ${key}) is ${whiteContrastOf(background).toFixed(2)}:1`);
  }
  assert.equal(seen.size, 360);
  // Still a colour, not a black disc: blues keep the full 32 %, yellows and greens go only as dark as they must.
  assert.equal(lightness(230), 32);
  for (let h = 0; h < 360; h += 1) assert.ok(lightness(h) >= 20, `hue ${h} went down to ${lightness(h)} %`);
});

test("a name is counted as the server counts it: letters with their marks once", () => {
  assert.equal(nameLength("  Ayşe  "), 4);
  assert.equal(nameLength("Ayse\u0301"), 4); // e + combining acute is one letter
  assert.equal(nameLength("a".repeat(25)), 25);
});
