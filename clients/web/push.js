// The player's tables (GET /players/me/tables, the inbox) and this browser's push subscription
// (Web Push: sw-push.js shows what arrives, and a notification clicked opens its table).

/** The table a notification or a shared link asks for: `?table=ID`. */
export function tableFromUrl(href) {
  const id = new URL(href).searchParams.get("table");
  return id && /^[\w-]{1,64}$/.test(id) ? id : null;
}

function urlKey(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

export function createInbox({ store, api }) {
  /** The first page again, or (`next`) the page after the last one read. */
  async function load(next = false) {
    const cursor = store.get().inbox.cursor;
    let data;
    try { data = await api.request("GET", `/players/me/tables${next && cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`); } catch { return; }
    store.dispatch({ type: "inbox", tables: data.tables, cursor: data.cursor, append: next });
  }

  /** Subscribe this browser (the app's service worker, else sw-push.js on its own). */
  async function enablePush() {
    try {
      const { publicKey } = await api.request("GET", "/push/key");
      if (!publicKey) throw new Error("push is off");
      const reg = (await navigator.serviceWorker.getRegistration()) || (await navigator.serviceWorker.register("sw-push.js"));
      await navigator.serviceWorker.ready;
      const sub = (await reg.pushManager.getSubscription())
        || (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlKey(publicKey) }));
      await api.request("POST", "/players/me/push-subscriptions", sub.toJSON());
      store.dispatch({ type: "push", state: "on" });
    } catch { store.dispatch({ type: "push", state: "off" }); }
  }

  return { load, enablePush };
}

/** Tables a notification click asks to open (sw-push.js posts them). */
export function onPushOpen(handler) {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", (event) => {
    const d = event.data || {};
    if (d.type === "open-table" && typeof d.tableId === "string") handler(d.tableId);
  });
}
