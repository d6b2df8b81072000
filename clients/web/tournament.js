// A tournament's page (GET /tournaments/{id}, API.md v4, RULES §8): its name, game, tables,
// hands, rounds, start time and entries, when the next round is scheduled (nextRoundAt);
// register or withdraw (before the start); "Masama git"
// while a round seats me; the standings (rank, name, points, penalty, tables), live; every
// round's tables to watch or replay; the deal proof of every finished table, checked in the
// browser; the podium once it is over (everyone tied for a place on it); a deleted player
// as the catalogue's "Silinmiş oyuncu". tourneys.js loads and acts; the state is `tournament`.
import { podiumMark } from "./badges.js";
import { h } from "./render.js";
import { getLang, t } from "./texts.js";
import { entered } from "./tourneys.js";
import { facts, when } from "./tournaments.js";

const $ = (sel) => document.querySelector(sel);
const DELETED = /^deleted-/; // a deleted player's anonymous entrant (its stored name is the server's Turkish one)

/** Points as the language writes them (a shared place gives halves: "1,5"). */
export const num = (n) => new Intl.NumberFormat(getLang() === "en" ? "en-GB" : "tr-TR").format(Number(n) || 0);

/** The standings' rows for the page: each with whether it is mine. */
export function rows(doc, me) {
  return (doc.standings || []).map((x) => ({ ...x, mine: x.playerId === me }));
}

/** The tables, round by round (1 first): [[round, [tables]]]. */
export function rounds(doc) {
  const by = new Map();
  for (const x of doc.tables || []) by.set(x.round, [...(by.get(x.round) || []), x]);
  return [...by.entries()].sort((a, b) => a[0] - b[0]);
}

/** `act`: { list(), register(), withdraw(), table(id), replay(id), checkProofs(), profile(playerId) } */
export function mountTournament({ store, act }) {
  const section = $("#tournament");
  const button = (label, onclick, cls = null) => h("button", { type: "button", class: cls, onclick }, label);

  function factsList(doc) {
    const fact = (key, value, cls) => [h("dt", {}, t(key)), h("dd", { class: cls }, value)];
    return h("dl", { class: "tourney-facts" },
      fact("tournaments.game", t(`game.${doc.game}`)),
      fact("tournaments.tables", `${facts(doc)}`),
      fact("tournaments.startsAt", when(doc.startsAt), "tourney-when"),
      fact("tournaments.entriesH", t("tournaments.entries", { entries: doc.entries ?? 0, capacity: doc.capacity }), "tourney-entries"),
      fact("tournaments.stateH", doc.status === "running" ? t("tournaments.round", { n: doc.round, of: doc.rounds }) : t(`tournaments.status.${doc.status}`), "tourney-status"),
      doc.status === "running" && doc.nextRoundAt ? fact("tournaments.nextRoundH", when(doc.nextRoundAt), "tourney-next") : []);
  }

  function actions(s, doc) {
    const x = s.tournament;
    const mine = entered(doc, s.me && s.me.playerId);
    const kids = [];
    if (doc.status === "registering") kids.push(mine ? button(t("tournaments.withdraw"), act.withdraw, "tourney-withdraw") : button(t("tournaments.register"), act.register, "primary tourney-register"));
    if (doc.status === "registering" && mine) kids.push(h("p", { class: "hint" }, t("tournaments.in")));
    if (doc.status === "running" && doc.nextRoundAt) kids.push(h("p", { class: "hint tourney-next-about" }, t("tournaments.nextRound.about")));
    if (doc.status === "running" && x.myTable) {
      kids.push(h("p", { class: "tourney-mine" }, t("tournaments.myTableNow", { n: x.myTable.round })), button(t("tournaments.myTable"), () => act.table(x.myTable.tableId), "primary tourney-go"));
    }
    const said = x.said ? h("p", { class: `tourney-said ${x.said.kind}`, role: "status" }, x.said.text ?? t(x.said.key)) : null;
    return h("div", { class: "row tourney-actions" }, ...kids, said);
  }

  function nameButton(x) {
    if (DELETED.test(x.playerId || "")) return h("span", { class: "deleted" }, t("player.deleted")); // nobody's profile to open
    const name = x.mine ? t("tournaments.you", { name: x.name }) : x.name;
    return h("button", { type: "button", class: "link", onclick: () => act.profile(x.playerId) }, name);
  }

  function podium(doc, me) {
    const top = rows(doc, me).filter((x) => x.rank <= 3);
    if (doc.status !== "finished" || !top.length) return null;
    return h("section", { class: "tourney-podium", "aria-labelledby": "podium-h" },
      h("h3", { id: "podium-h" }, t("tournaments.podium")),
      h("ol", { class: "podium" }, ...top.map((x) => h("li", { class: `p${x.rank}${x.mine ? " mine" : ""}` },
        podiumMark(x.rank), h("span", { class: "podium-place" }, t(`tournaments.place.${x.rank}`)), " ", nameButton(x), " ",
        h("span", { class: "muted" }, t("tournaments.points", { n: Number.isInteger(x.points) ? x.points : num(x.points) }))))));
  }

  function standings(doc, me) {
    const list = rows(doc, me);
    if (doc.status === "registering") { // before the start: who has entered, no ranks yet
      return h("section", { "aria-labelledby": "standings-h" }, h("h3", { id: "standings-h" }, t("tournaments.entrants")),
        list.length ? h("ul", { class: "tourney-entrants" }, ...list.map((x) => h("li", { class: x.mine ? "mine" : null }, nameButton(x))))
          : h("p", { class: "hint" }, t("tournaments.noEntrants")));
    }
    const head = ["rank", "name", "points", "penalty", "tables"].map((k) => h("th", { scope: "col" }, t(`tournaments.col.${k}`)));
    return h("section", { "aria-labelledby": "standings-h" },
      h("h3", { id: "standings-h" }, t("tournaments.standings")),
      list.length ? h("table", { class: "tourney-standings" }, h("thead", {}, h("tr", {}, ...head)),
        h("tbody", {}, ...list.map((x) => h("tr", { class: x.mine ? "mine" : null },
          h("td", {}, t("end.place", { n: x.rank })), h("th", { scope: "row" }, nameButton(x)),
          h("td", {}, num(x.points)), h("td", {}, String(x.penalty)), h("td", {}, String(x.tables))))))
        : h("p", { class: "hint" }, t("tournaments.noStandings")));
  }

  function tables(doc, mineNow) {
    const all = rounds(doc);
    if (!all.length) return null;
    return h("section", { "aria-labelledby": "rounds-h" }, h("h3", { id: "rounds-h" }, t("tournaments.rounds")),
      ...all.map(([round, list]) => h("div", { class: "tourney-round" }, h("h4", {}, t("tournaments.roundH", { n: round })),
        h("ul", { class: "tourney-tables" }, ...list.map((x, i) => h("li", { class: `row spread${mineNow && mineNow.tableId === x.tableId ? " mine" : ""}` },
          h("span", {}, t("tournaments.table", { n: i + 1 }), " · ", h("span", { class: "muted" }, t(`tournaments.table.${x.status}`))), " ",
          x.status === "finished" ? button(t("tournaments.replay"), () => act.replay(x.tableId))
            : button(t("tournaments.watch"), () => act.table(x.tableId))))))));
  }

  function proofs(s, doc) {
    const done = rounds(doc).flatMap(([round, list]) => list.map((x, i) => ({ ...x, round, n: i + 1 }))).filter((x) => x.status === "finished");
    const checked = s.tournament.proofs || {};
    const line = (x) => {
      const c = checked[x.tableId];
      const verdict = c ? h("span", { class: `verdict ${c.state}` }, t(`tournaments.proofs.${c.state}`)) : null;
      return h("li", { class: "tourney-proof" },
        h("span", {}, t("tournaments.proofs.table", { round: x.round, n: x.n })), " ", verdict, " ",
        h("a", { href: `verify.html#t=${encodeURIComponent(x.tableId)}`, target: "_blank", rel: "noopener" }, t("tournaments.proofs.page")),
        x.dealProof ? h("p", { class: "proof-listed" }, t("tournaments.proofs.first"), " ", h("code", {}, x.dealProof)) : null,
        c && c.hands ? h("ul", { class: "proof-hands" }, ...c.hands.map((hd) => h("li", {}, t("tournaments.proofs.hand", { n: hd.hand }), " ", h("code", {}, hd.proof)))) : null);
    };
    return h("section", { "aria-labelledby": "proofs-h" }, h("h3", { id: "proofs-h" }, t("tournaments.proofs")),
      h("p", { class: "hint" }, t("tournaments.proofs.about")),
      done.length ? [button(t("tournaments.proofs.check"), act.checkProofs, "tourney-check"), h("ul", { class: "tourney-proofs" }, ...done.map(line))]
        : h("p", { class: "hint" }, t("tournaments.proofs.none")));
  }

  function draw(s) {
    const x = s.tournament;
    const back = button(t("tournaments.toList"), act.list);
    if (!x.doc) {
      section.replaceChildren(h("div", { class: "row spread" }, h("h2", { id: "tournament-h" }, t("tournaments.title")), back),
        h("p", { class: "hint", role: "status" }, t(x.failed ? "tournaments.failedOne" : "tournaments.loading")));
      return;
    }
    const doc = x.doc;
    const me = s.me && s.me.playerId;
    section.replaceChildren(...[
      h("div", { class: "row spread" }, h("h2", { id: "tournament-h" }, doc.name), back),
      factsList(doc),
      h("p", { class: "hint" }, t("tournaments.fair")),
      actions(s, doc),
      podium(doc, me),
      standings(doc, me),
      tables(doc, doc.status === "running" ? x.myTable : null),
      proofs(s, doc)].filter(Boolean));
  }

  let shown = {};
  function render(s) {
    section.hidden = !(s.ready && s.screen === "tournament" && s.tournament);
    if (section.hidden || (s.tournament === shown.tournament && s.texts === shown.texts)) return;
    shown = { tournament: s.tournament, texts: s.texts };
    draw(s);
  }
  store.subscribe(render);
  render(store.get());
}
