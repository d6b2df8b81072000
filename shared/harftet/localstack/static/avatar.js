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

/** An avatar's look: text and a dark background colour that white text reads well on. */
export function avatar(name, key) {
  return { text: initials(name), background: `hsl(${hue(key || name)} 55% 32%)` };
}
