// Looking for opponents (search.js) over the real store and a fake server: the ticket asked
// for, the time waited, the table opened once (by the poll or the push), a cancel, and a
// cancel that comes after the match.
import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../../clients/web/api.js";
import { createSearch, waited, POLL_MS } from "../../clients/web/search.js";
import { settled, storeWith } from "./dom.mjs";

const ME = { token: "tok/1", playerId: "p0", name: "Ayşe" };

function server(answers) {
  const sent = [];
  const api = {
    search: async (body) => { sent.push(["search", body]); return { ticketId: "T1", status: "waiting" }; },
    ticket: async (id) => { sent.push(["ticket", id]); return answers.shift() ?? { ticketId: id, status: "waiting" }; },
    cancelSearch: async (id) => {
      sent.push(["cancel", id]);
      if (answers.refuseCancel) throw new ApiError(409, { error: { code: "wrong_status", message: "matched" } });
      return null;
    },
  };
  return { api, sent };
}

async function searching(answers = []) {
  const store = await storeWith({ me: ME });
  const { api, sent } = server(answers);
  const opened = [];
  const search = createSearch({ store, api, play: { openTable: async (id) => opened.push(id) }, now: () => 5000 });
  return { store, search, sent, opened };
}

test("the time waited reads as minutes and seconds", () => {
  assert.equal(waited(0), "0:00");
  assert.equal(waited(9999), "0:09");
  assert.equal(waited(65_000), "1:05");
  assert.equal(waited(-3), "0:00");
});

test("a search asks for a four-seat ticket, keeps asking, and opens the table once matched", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { store, search, sent, opened } = await searching([
      { ticketId: "T1", status: "waiting" },
      { ticketId: "T1", status: "matched", tableId: "X9" },
    ]);
    await search.start("kastet");
    assert.deepEqual(sent[0], ["search", { game: "kastet", seats: 4 }]);
    assert.deepEqual(store.get().search, { ticketId: "T1", game: "kastet", since: 5000 });
    mock.timers.tick(POLL_MS);
    await settled();
    assert.equal(store.get().search.ticketId, "T1"); // still waiting
    mock.timers.tick(POLL_MS);
    await settled();
    assert.deepEqual(opened, ["X9"]);
    assert.equal(store.get().search, null);
    await search.pushed({ type: "matched", ticketId: "T1", tableId: "X9" }); // the push comes late
    assert.deepEqual(opened, ["X9"]); // opened once
  } finally {
    mock.timers.reset();
  }
});

test("the push opens the table at once; a cancel stops the search", async () => {
  const { store, search, opened, sent } = await searching();
  await search.start("harftet");
  await search.pushed({ type: "matched", ticketId: "other", tableId: "Z" }); // not this search
  assert.deepEqual(opened, []);
  await search.pushed({ type: "matched", ticketId: "T1", tableId: "Y1" });
  assert.deepEqual(opened, ["Y1"]);
  await search.start("harftet");
  await search.cancel();
  assert.deepEqual(sent.at(-1), ["cancel", "T1"]);
  assert.equal(store.get().search, null);
  search.stop();
});

test("a cancel after the match opens the table instead", async () => {
  const answers = [{ ticketId: "T1", status: "matched", tableId: "W2" }];
  answers.refuseCancel = true;
  const { search, opened } = await searching(answers);
  await search.start("kastet");
  await search.cancel();
  assert.deepEqual(opened, ["W2"]);
  search.stop();
});
