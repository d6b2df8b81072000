"""Fixtures shared by every test folder: AWS settings that never reach AWS, a clock the
tests control, and the application over in-process moto with tables built from template.yaml."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
os.environ.setdefault("TOKEN_SECRET", "tests-only-secret-0123456789abcdefghijklmnop")
os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "Harftet")
os.environ.setdefault("POWERTOOLS_SERVICE_NAME", "harftet")

from testkit import TABLE_NAMES, Clock, Outbox, app_over, aws_session

from harftet.localstack.dynamo import moto_as_the_stack_runs_it

# In-process moto as the local stack runs it: a TransactWriteItems backs up the items it names,
# not every table it touches (stock moto deep-copies each table, every item and stream record).
# The same all-or-nothing answer either way: tests/e2e/test_local_transactions.py holds it to
# DynamoDB's. And AttributeValues serialised by key lookups (tests/store/test_moto_speedups.py:
# the same output as moto's own path). And a request's handler methods listed once per class
# (quick_dispatch), and SQS's receivable messages found on one reading of the clock
# (quick_queues): both checked there too.
moto_as_the_stack_runs_it()


# The files that take longest, longest first (wall time on CI's two cores, most of it spent
# waiting: on a local stack, PyPI, a browser, a minute-long soak). `make test` hands whole
# files to its workers in collection order (pytest-xdist's --dist loadfile): these start at
# once and the short files fill in around them, instead of one of them starting last and
# running on alone while the other workers have nothing left.
SLOW_FIRST = (
    "tests/e2e/test_journal.py",
    "tests/e2e/test_web_journeys.py",
    "tests/e2e/test_tournaments_stack.py",
    "tests/e2e/test_web_tournaments.py",
    "tests/e2e/test_web_levels.py",
    "tests/e2e/test_api_fuzz.py",
    "tests/service/test_state_machine.py",
    "tests/e2e/test_soak.py",
    "tests/e2e/test_live_tables.py",
    "tests/test_template.py",
    "tests/web/test_node_units.py",
    "tests/e2e/test_full_games.py",
    "tests/e2e/test_contention.py",
    "tests/store/test_faults.py",
    "tests/e2e/test_web_accounts.py",
    "tests/e2e/test_web_client.py",
    "tests/handlers/test_rest.py",
    "tests/unit/test_bot_levels.py",
    "tests/unit/test_search_kastet_exact.py",
    "tests/unit/test_random_games.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of SLOW_FIRST first, in its order; every other test as collected."""
    rank = {path: i for i, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def outbox() -> Outbox:
    return Outbox()


@pytest.fixture
def dynamodb() -> Iterator[Any]:
    """An in-process moto DynamoDB with the template's tables."""
    from moto import mock_aws

    from harftet.store.schema import create_tables

    with mock_aws():
        client = aws_session().client("dynamodb")
        create_tables(client, TABLE_NAMES)
        yield client


@pytest.fixture
def app(dynamodb: Any, clock: Clock, outbox: Outbox) -> Any:
    """The application over in-process moto, with the test clock and recording sender."""
    return app_over(dynamodb, TABLE_NAMES, clock, send=outbox)
