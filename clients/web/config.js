// config.json: where the APIs are when the client is served from elsewhere (CloudFront, written
// by `make web-deploy`); "" for this host.

/** {rest, ws}: the REST API's URL without a trailing slash, the WebSocket's; "" = this host. */
export async function loadConfig(fetch = globalThis.fetch) {
  const config = { rest: "", ws: "" };
  try {
    const res = await fetch("config.json"); // served no-cache: revalidated, and the page's preload is used
    if (res.ok) Object.assign(config, await res.json());
  } catch { /* offline or absent: this host */ }
  config.rest = String(config.rest || "").replace(/\/$/, "");
  config.ws = String(config.ws || "");
  return config;
}
