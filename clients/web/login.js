// The login screen: a name makes a guest player (identity.js); account.js adds the passkey and
// the transfer code below. The name field takes as many characters as the server does.
import { getBounds } from "./texts.js";

const $ = (sel) => document.querySelector(sel);

/** `act`: { signIn(name) } (attempted: a refusal shows as a notice). */
export function mountLogin({ store, act }) {
  $("#login-form").onsubmit = (ev) => {
    ev.preventDefault();
    const name = $("#login-name").value.trim();
    if (name) act.signIn(name);
  };
  let texts = null;
  const render = (s) => {
    $("#login").hidden = !(s.ready && s.screen === "login");
    // once the player exists the name lives in the session: a signed-out or deleted player's
    // name is not left in the form for the next person at this browser
    if (s.me && $("#login-name").value) $("#login-name").value = "";
    if (s.texts === texts) return;
    texts = s.texts;
    const max = getBounds().nameMax;
    if (max != null) $("#login-name").maxLength = max;
  };
  store.subscribe(render);
  render(store.get());
}
