"""The stores of one world, the DynamoDB adapters over in-process moto or the in-memory fakes
(tests/fakes): tests/store/test_fakes*.py run each body on both."""

from __future__ import annotations

from typing import Any

import pytest
from fakes import FakeStores
from testkit import TABLE_NAMES, test_settings, with_mail


@pytest.fixture(params=["moto", "fakes"])
def stores(request: pytest.FixtureRequest) -> Any:
    """Every store (``harftet.bootstrap.DynamoStores`` or ``FakeStores``), with the log and
    the mail table."""
    if request.param == "fakes":
        return FakeStores(log=True, mail=True)
    from harftet.bootstrap import DynamoStores

    client = request.getfixturevalue("dynamodb")
    names = with_mail(client, TABLE_NAMES)
    return DynamoStores(client, test_settings(names, log=True, mail=True))
