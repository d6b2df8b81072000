// Avatars drawn from a name: initials on a colour picked from the player's id (no images).

/** Up to two initials, uppercased the Turkish way (" işık ılgaz" → "İI"). */
export function initials(name) {
  const words = String(name || "").trim().split(/\s+/).filter(Boolean);
  if (!words.length) return "?";
  const first = (w) => [...w][0] || "";
  const pick = words.length > 1 ? first(words[0]) + first(words[words.length - 1]) : [...words[0]].slice(0, 2).join("");
  return pick.toLocaleUpperCase("tr-TR");
}

/** A stable hue (0–359) for a key: the same player always gets the same colour. */
export function hue(key) {
  let h = 2166136261;
  for (const ch of String(key || "")) h = Math.imul(h ^ ch.codePointAt(0), 16777619) >>> 0;
  return h % 360;
}

/** sRGB channels (0–1) of hsl(h s% l%), as CSS computes them. */
export function hslToRgb(h, s, l) {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n) => {
    const k = (n + h / 30) % 12;
    return l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)];
}

/** WCAG contrast ratio of white text on an sRGB colour. */
export function contrastWithWhite([r, g, b]) {
  const lin = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return 1.05 / (luminance + 0.05);
}

const SATURATION = 55;
const LIGHTEST = 32;
/** WCAG AA asks 4.5:1 for the initials' size; a little over it, so rounding never drops below. */
const MIN_CONTRAST = 4.8;

/** The lightest lightness (≤ 32 %) at which white initials still read at MIN_CONTRAST on this hue:
 * yellows and greens are bright at the same lightness, so they get a darker shade than blues. */
export function lightness(h) {
  let l = LIGHTEST;
  while (l > 10 && contrastWithWhite(hslToRgb(h, SATURATION, l)) < MIN_CONTRAST) l -= 1;
  return l;
}

/** An avatar's look: text and a dark background colour that white text reads well on. */
export function avatar(name, key) {
  const h = hue(key || name);
  return { text: initials(name), background: `hsl(${h} ${SATURATION}% ${lightness(h)}%)` };
}
