// Fetches the catalogue (GET /texts?lang=, API.md v4) and keeps the last one of each language in
// localStorage with its version and ETag: a start shows the kept one at once (offline too) and
// asks the server whether it is still current (If-None-Match: a 304 keeps it).

const KEY = "harftet.texts";

/** The catalogue of `lang` kept in `storage`, or null. */
export function kept(storage, lang) {
  try {
    const c = JSON.parse(storage.getItem(`${KEY}.${lang}`) || "null");
    return c && c.lang === lang && c.texts && typeof c.texts === "object" ? c : null;
  } catch {
    return null;
  }
}

/** Keeps `c` ({lang, version, etag, texts, bounds}) as its language's; returns it, or null when
 * it is not a catalogue (boot.js keeps the shell's copy this way). */
export function keep(storage, c) {
  if (!c || typeof c.lang !== "string" || !c.texts || typeof c.texts !== "object") return null;
  const got = { lang: c.lang, version: c.version, etag: c.etag || null, texts: c.texts, bounds: c.bounds || {} };
  try { storage.setItem(`${KEY}.${got.lang}`, JSON.stringify(got)); } catch { /* storage full: fetched again next time */ }
  return got;
}

/**
 * The current catalogue of `lang` ({lang, version, etag, texts, bounds}): the server's, or the
 * kept one when the server says it is current or cannot be reached; null when there is neither.
 * `base` is the REST API's URL ("" for this host). Another origin's ETag is not readable (CORS):
 * the browser's own cache revalidates it then (`cache: "no-cache"`).
 */
export async function load(lang, { storage, base = "", fetch = globalThis.fetch } = {}) {
  const have = kept(storage, lang);
  const headers = have && have.etag ? { "If-None-Match": have.etag } : {};
  let res;
  try {
    res = await fetch(`${base}/texts?lang=${encodeURIComponent(lang)}`, { headers, cache: "no-cache" });
  } catch {
    return have; // offline: the last one we had
  }
  if (res.status === 304 || !res.ok) return have;
  let body;
  try { body = await res.json(); } catch { return have; }
  if (!body || !body.texts || typeof body.texts !== "object") return have;
  return keep(storage, { lang, version: body.version, etag: res.headers.get("ETag"), texts: body.texts, bounds: body.bounds });
}
