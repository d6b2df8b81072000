// The service worker's Web Push handler (RFC 8030): shows the notification the server sent
// (title and body already in the player's language, Turkish by default) and opens its table.
// A classic script: the app's service worker loads it with importScripts("sw-push.js"); on
// its own it is a complete (tiny) service worker too.
/* global self, clients */
"use strict";

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { body: event.data && event.data.text() }; }
  const title = data.title || "Harftet";
  const options = {
    body: data.body || "",
    tag: data.tag || data.tableId || "harftet", // a newer notice of a table replaces the older
    renotify: Boolean(data.tag),
    lang: data.lang || "tr",
    data: { url: data.url || "/play/", tableId: data.tableId || null, kind: data.kind || null },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const { url, tableId } = event.notification.data || {};
  event.waitUntil((async () => {
    const open = await clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of open) {
      if (new URL(client.url).pathname.startsWith("/play")) {
        client.postMessage({ type: "open-table", tableId }); // switch without a page load
        return client.focus();
      }
    }
    return clients.openWindow(url || "/play/");
  })());
});
