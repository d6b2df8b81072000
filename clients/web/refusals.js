// What a refusal says to a player, from the catalogue as the server says it (API.md v4): the
// sentence of its reason (`reason.<reason>.<kind>`, `reason.<reason>`), of the client's own draft
// check (`draft.<code>`) or of its code (`error.<code>`), after the meld or pair it is about
// (`where.meld`), its {name} placeholders filled from the refusal's params. Never the API's
// `message`, except for a reason this client does not know yet.
import { getBounds, has, t } from "./texts.js";

const PARAMS = ["meld", "pair", "word", "tile", "kind", "max", "count", "field", "seconds"];

/**
 * A player's sentence for an API error (api.js's ApiError), a DraftError (draft.js) or any
 * `{code, reason, params}`. `tileName(id)` says a tile as players see it ("K", "mavi 7");
 * `limits` are the view's rule limits, the numbers a rule's sentence quotes when the refusal
 * does not say them.
 */
export function errorText(e, tileName = (id) => `#${id}`, limits = {}) {
  if (e.code === "network") return t("notice.network");
  if (e.code === "bad_request") {
    const own = badRequestText(e);
    if (own) return own;
  }
  const params = { min: limits.minSeries, hand: limits.handLimit, max: ruleMax(e, limits), ...(e.params || {}) };
  for (const k of PARAMS) if (e[k] != null && (e.params || {})[k] == null) params[k] = e[k];
  if (params.seconds == null && params.retryAfter != null) params.seconds = params.retryAfter;
  if (e.code === "rate_limited" && params.seconds == null) return t("notice.rateLimited"); // never "? saniye"
  if (params.tile != null) params.tile = tileName(params.tile);
  const where = whereText(params);
  const reason = e.reason;
  if ((reason || e.code) === "not_a_word" && !params.word) return where + t("notice.notAWord");
  const keys = reason
    ? [params.kind && `reason.${reason}.${params.kind}`, `reason.${reason}`]
    : [`draft.${e.code}`, `reason.${e.code}`]; // a DraftError's code names a rule, as a reason does
  const key = [...keys, `error.${e.code}`].find((k) => k && has(k));
  if (reason && e.message && !keys.some((k) => k && has(k))) return e.message; // a reason this client does not know yet
  return where + t(key || "error.illegal_move", params);
}

/** The most a refusal's {max} quotes when the refusal does not say it: the bound it is about. */
function ruleMax(e, limits) {
  const bounds = getBounds();
  if (e.reason === "too_many_correspondence") return bounds.correspondenceTablesMax;
  if (e.code === "too_many_tables") return bounds.waitingTablesMax;
  if (e.reason === "hand_full") return limits.handLimit;
  return limits.maxSeries;
}

/** "3. seri: " before a refusal about the meld (or else the pair) at that index. */
export function whereText(params) {
  for (const k of ["meld", "pair"]) {
    if (Number.isInteger(params[k]) && params[k] >= 0) return t(`where.${k}`, { [k]: params[k] + 1 });
  }
  return "";
}

/** A 400's sentence from the field it names (the server's own message is a developer's). */
function badRequestText(e) {
  const p = e.params || {};
  const nameMax = getBounds().nameMax;
  if (p.field === "name" && p.n) return t("err.name_long", { max: p.max ?? nameMax, n: p.n });
  const msg = String(e.message || "");
  if (/partner/i.test(msg) || p.field === "partners") return t("err.partners4");
  const field = p.field || (/'(\w+)'/.exec(msg) || [])[1];
  if (!field || field === "body") return null;
  if (field === "name") return /at most|long/i.test(msg) ? t("err.name_max", { max: nameMax }) : t("err.name_bad");
  if (!has(`field.${field}`)) return null;
  const [min, max] = (getBounds().options || {})[field] || [];
  const range = has(`range.${field}`) && min != null ? t(`range.${field}`, { min, max }) : t("range.default");
  return t("err.field", { field: t(`field.${field}`), range });
}
