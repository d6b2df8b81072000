// The page's side of the service worker (sw.js): registers it, and when a new version takes over
// (a deploy changed the shell, so the worker's stamped VERSION changed), moves this page to it: at
// once when a reload interrupts nothing, else as soon as the player leaves the table, never in
// the middle of a hand. A first visit's worker taking over changes nothing: the page already is
// the current version. Where no worker can run, nothing changes.

/**
 * `busy()`: whether a reload now would interrupt a game; `subscribe(fn)`: fn after each change of
 * state. Returns whether a worker was registered.
 */
export function registerWorker({
  busy, subscribe, reload = () => location.reload(),
  container = globalThis.navigator && navigator.serviceWorker, secure = globalThis.isSecureContext,
}) {
  if (!container || !secure) return false;
  const updating = Boolean(container.controller); // a worker already ran this page: a takeover is a new version
  container.register("sw.js").catch(() => { /* the page works without it */ });
  let moved = false;
  const move = () => {
    if (moved || busy()) return;
    moved = true;
    reload();
  };
  container.addEventListener("controllerchange", () => {
    if (!updating) return;
    move();
    if (!moved) subscribe(move);
  });
  return true;
}
