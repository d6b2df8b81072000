"""A stored table version as the wire shows it to one viewer: the engine's allow-list view
(`harftet.engine.view.table_view`) stamped with the version."""

from __future__ import annotations

from typing import Any

from harftet.engine.view import table_view
from harftet.store.table_items import StoredTable


def stored_view(stored: StoredTable, viewer: str | None) -> dict[str, Any]:
    """``stored`` as ``viewer`` (a player id; None: a spectator) may see it."""
    view = table_view(stored.table, viewer)
    view["version"] = stored.version
    if isinstance(view.get("last"), dict):
        view["last"]["version"] = stored.version  # as the log's events carry it
    return view
