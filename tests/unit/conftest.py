"""Fixtures for the engine's unit tests (helpers live in engine_helpers)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from engine_helpers import WORDS, make_table

from harftet.engine.state import Table


@pytest.fixture(scope="session")
def words() -> frozenset[str]:
    """The small test dictionary."""
    return WORDS


@pytest.fixture(scope="session")
def table_factory() -> Callable[..., Table]:
    """``make_table`` for tests that prefer fixtures."""
    return make_table
