"""An echo sweeper for the emulator's own tests: it notes every scheduled event it gets."""

from __future__ import annotations

import json
import os
from typing import Any


def handler(event: dict[str, Any], context: Any) -> None:
    """Append the event's type and source to $ECHO_LOG."""
    with open(os.environ["ECHO_LOG"], "a", encoding="utf-8") as f:
        f.write(json.dumps({"sweep": event["detail-type"], "source": event["source"]}) + "\n")
