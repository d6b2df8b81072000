"""The real REST handler, killed right after it stores a move (fault injection).

A move whose moveId starts with "die-" is written to DynamoDB and then the execution
environment exits before anything else happens — no answer, no push from this function.
Every other request is served by functions/rest/app.py unchanged.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from harftet.bootstrap import app
from harftet.store.writes import NO_COMMIT, Commit

_APP = Path(__file__).resolve().parents[3] / "functions" / "rest" / "app.py"
_spec = importlib.util.spec_from_file_location("harftet_real_rest_app", _APP)
assert _spec is not None and _spec.loader is not None
_real = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _real
_spec.loader.exec_module(_real)

_tables = app().stores.tables  # the application's table store (made on first use)
_save = _tables.save


def _save_then_die(stored: Any, table: Any, commit: Commit = NO_COMMIT) -> Any:
    written = _save(stored, table, commit)
    if str(commit.move_id or "").split(":", 1)[-1].startswith("die-"):
        os._exit(1)  # killed between the write and anything after it
    return written


_tables.save = _save_then_die


def handler(event: dict[str, Any], context: Any) -> Any:
    return _real.handler(event, context)
