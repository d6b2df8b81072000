// Podium badges (API.md v4: the profile's "badges", RULES §8: the top three of a finished
// tournament keep one): a medal drawn by a CSS mask in the place's colour (never an emoji: a
// phone without an emoji font shows an empty box), the tournament's name and the place in words.
import { h } from "./render.js";
import { t } from "./texts.js";

/** The medal of a place (1–3), a picture the words beside it name. */
export function podiumMark(place) {
  return h("span", { class: `medal p${place}`, "aria-hidden": "true" });
}

/** One badge: "Harftet Kupası · Birinci". */
export function badgeEl(b) {
  return h("li", { class: `podium-badge p${b.place}`, dataset: { tournament: b.tournamentId } },
    podiumMark(b.place), h("span", {}, t("tournaments.badge", { name: b.name, place: t(`tournaments.place.${b.place}`) })));
}

/** The profile's badges (none: nothing). */
export function badgesEl(badges) {
  const list = (badges || []).filter((b) => b && b.place >= 1 && b.place <= 3);
  if (!list.length) return null;
  return h("section", { class: "badges", "aria-labelledby": "badges-h" },
    h("h4", { id: "badges-h" }, t("tournaments.badges")), h("ul", { class: "podium-badges" }, ...list.map(badgeEl)));
}
