"""In-memory stores with the DynamoDB adapters' semantics (``harftet.store.ports``), each held
against its adapter over moto by tests/store/test_fakes*.py, and the application over them
(``fake_app``): tests/service runs on these and starts no server.

Each store keeps plain dicts: what a test may look at, and what it may change to play
another writer (a test reaching into ``items`` stands for a write the app did not make)."""

from __future__ import annotations

import os
from typing import Any

from .accounts import FakeAccounts, FakeWordReports
from .aws import FakeAws, FakeSns, FakeSqs
from .connections import FakeConnections, FakeLimits
from .leagues import FakeLeagues
from .log import FakeLog
from .mail import FakeAnswers, FakeInbox, FakeMail, FakeMailTable
from .matchmaking import FakeMatches
from .players import FakePlayers
from .profiles import FakeProfiles
from .stream import FakeStream
from .tables import FakeTables
from .tournaments import FakeTournaments

__all__ = [
    "FakeAccounts",
    "FakeAnswers",
    "FakeAws",
    "FakeConnections",
    "FakeInbox",
    "FakeLeagues",
    "FakeLimits",
    "FakeLog",
    "FakeMail",
    "FakeMailTable",
    "FakeMatches",
    "FakePlayers",
    "FakeProfiles",
    "FakeSns",
    "FakeSqs",
    "FakeStores",
    "FakeStream",
    "FakeTables",
    "FakeTournaments",
    "FakeWordReports",
    "fake_app",
]

TIMER_QUEUE = "https://sqs.us-east-1.amazonaws.com/123456789012/harftet-timers"
NOTIFY_QUEUE = "https://sqs.us-east-1.amazonaws.com/123456789012/harftet-notify"


class FakeStores:
    """Every store in memory, as ``harftet.bootstrap.DynamoStores`` holds the real ones; as
    there, a stack without a log table has no ``log`` and one without a mail table no
    ``inbox`` and no ``mail``."""

    def __init__(self, *, log: bool = True, mail: bool = True) -> None:
        self.players = FakePlayers()
        self.profiles = FakeProfiles(self.players)
        self.leagues = FakeLeagues()
        self.tournaments = FakeTournaments()
        self.tables = FakeTables(self.players, self.profiles, self.leagues, self.tournaments)
        self.connections = FakeConnections()
        self.log: FakeLog | None = FakeLog() if log else None
        self.accounts = FakeAccounts(self.players)
        self.counters = FakeLimits()
        self.word_reports = FakeWordReports()
        self.mail_table = FakeMailTable()
        self.inbox: FakeInbox | None = FakeInbox(self.mail_table) if mail else None
        self.mail: FakeMail | None = FakeMail(self.mail_table) if mail else None
        self.answers: FakeAnswers | None = FakeAnswers(self.mail_table) if mail else None
        self.matches = FakeMatches()


def fake_app(
    clock: Any,
    send: Any = None,
    *,
    log: bool = True,
    mail: bool = False,
    queues: bool = False,
    environ: dict[str, str] | None = None,
    **options: Any,
) -> Any:
    """The application (test mode) over the in-memory stores, with the test's clock and
    sender; ``queues``: with the timer and notify queues, on ``app.aws.sqs`` (``FakeAws``,
    which every AWS client of the app is, queues or not)."""
    from harftet.bootstrap import App, Settings
    from harftet.identity import Tokens

    aws = FakeAws(clock)
    settings = Settings(
        test_mode=True,
        environ=dict(environ or {}),
        timer_queue_url=TIMER_QUEUE if queues else None,
        notify_queue_url=NOTIFY_QUEUE if queues else None,
    )
    app = App(
        settings,
        FakeStores(log=log, mail=mail),
        clock=clock,
        send=send,
        signer=Tokens(os.environ["TOKEN_SECRET"]),
        aws=aws,
        **options,
    )
    app.aws = aws  # type: ignore[attr-defined]
    return app
