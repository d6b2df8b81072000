// The account's screens: on the login screen a passkey or a transfer code from the old device;
// from the header the account dialog (passkeys, a transfer code, the player's data, deletion).
// passkeys.js does the work.
import { h } from "./render.js";
import { getBounds, getLang, t } from "./texts.js";

const $ = (sel) => document.querySelector(sel);

/** A label that follows the language switch (chrome.js relabels every [data-t]). */
const label = (key) => ({ dataset: { t: key } });

/** The browser saves `data` as a JSON file named `name`. */
function saveJson(name, data) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
  h("a", { href: url, download: name }).click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** `act`: passkeys.js's account. */
export function mountAccount({ store, act }) {
  // -- the login screen: a passkey, or a code from the old device
  const codeInput = h("input", { id: "acc-code-input", autocomplete: "one-time-code", autocapitalize: "characters", placeholder: "ABCD2345" });
  $("#login").append(h("div", { class: "account-login" },
    h("button", { type: "button", id: "acc-passkey-signin", onclick: act.passkeySignIn, ...label("acc.passkey.signin") }, t("acc.passkey.signin")),
    h("form", { id: "acc-code-form", onsubmit: (ev) => { ev.preventDefault(); act.codeSignIn(codeInput.value.trim()); } },
      h("label", { for: "acc-code-input", ...label("acc.code.label") }, t("acc.code.label")), codeInput,
      h("button", { type: "submit", ...label("acc.code.signin") }, t("acc.code.signin")))));

  // -- the account dialog, opened from the header
  const list = h("ul", { id: "acc-passkeys" });
  const none = h("p", { id: "acc-passkeys-none", class: "hint", hidden: true });
  const code = h("p", { id: "acc-code", hidden: true });
  const download = async () => {
    const data = await act.exportData();
    if (data) saveJson(t("acc.export.file"), data);
  };
  const dialog = h("dialog", { id: "account-dialog", class: "card" },
    h("h2", label("acc.h"), t("acc.h")),
    h("button", { type: "button", id: "acc-passkey-add", onclick: act.addPasskey, ...label("acc.passkey.add") }, t("acc.passkey.add")),
    h("h3", label("acc.passkeys"), t("acc.passkeys")), list, none,
    h("button", { type: "button", id: "acc-code-make", onclick: act.makeCode, ...label("acc.code.make") }, t("acc.code.make")),
    code,
    h("button", { type: "button", id: "acc-export", onclick: download, ...label("acc.export") }, t("acc.export")),
    h("button", { type: "button", id: "acc-delete", class: "danger", onclick: act.deleteMe, ...label("acc.delete") }, t("acc.delete")),
    h("button", { type: "button", id: "acc-close", onclick: act.close, ...label("btn.close") }, t("btn.close")));
  dialog.addEventListener("close", () => { if (store.get().account.open) act.close(); });
  document.body.append(dialog);
  $("#me").prepend(h("button", { type: "button", id: "acc-open", class: "link", onclick: act.open, ...label("acc.open") }, t("acc.open")));

  let shown = {};
  function render(s) {
    const a = s.account;
    if (s.texts !== shown.texts) {
      // Codes are typed with spaces or dashes too (the server drops them): room for one between any two.
      const max = getBounds().codeLength;
      if (max) codeInput.maxLength = 2 * max;
    }
    if (a.open && !dialog.open) dialog.showModal();
    if (!a.open && dialog.open) dialog.close();
    if (a.passkeys !== shown.passkeys || s.texts !== shown.texts) {
      list.replaceChildren(...(a.passkeys || []).map((p) => h("li", { dataset: { passkey: p.id } },
        `${new Date(p.createdAt * 1000).toLocaleDateString(getLang())} `,
        h("button", { type: "button", class: "link", onclick: () => act.removePasskey(p.id) }, t("acc.passkey.remove")))));
      none.hidden = !(a.passkeys && !a.passkeys.length); // the list is known, and empty
      none.textContent = t("acc.passkeys.none");
    }
    if (a.code !== shown.code || s.texts !== shown.texts) {
      code.replaceChildren(...(a.code ? [t("acc.code.shown"), " ", h("strong", { id: "acc-code-value" }, a.code)] : []));
      code.hidden = !a.code;
    }
    shown = { texts: s.texts, passkeys: a.passkeys, code: a.code };
  }
  store.subscribe(render);
  render(store.get());
}
