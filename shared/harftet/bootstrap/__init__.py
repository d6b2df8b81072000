"""The composition root: the one place that reads the settings, makes the AWS clients and
stores, and builds the application (`App`), once per process (a Lambda container).

Only the handlers (functions/*, `harftet.rest`) and the local stack import it; every feature
is handed its ports here and imports no other feature. A test builds its own `App` (over
fakes or moto, with its clock and sender) and `install`s it for the handlers.
"""

from __future__ import annotations

import threading
from typing import Any

from .app import App
from .aws import DYNAMODB_CONFIG, DynamoStores, LazyClient, dynamodb
from .settings import Settings, settings

__all__ = [
    "DYNAMODB_CONFIG",
    "App",
    "DynamoStores",
    "LazyClient",
    "Settings",
    "app",
    "dynamodb",
    "install",
    "reset",
    "settings",
]

_app: App | None = None
_lock = threading.Lock()


def app() -> App:
    """The process's application, built on first use from the environment's settings."""
    global _app
    built = _app
    if built is None:
        with _lock:
            if _app is None:
                s = settings()
                sender = _sender(s)
                hangup = sender.close if sender is not None else None
                _app = App(s, DynamoStores(dynamodb(), s), send=sender, hangup=hangup)
            built = _app
    return built


def install(built: App | None) -> None:
    """Make ``built`` the process's application (tests; None: build it again on next use)."""
    global _app
    _app = built


def reset() -> None:
    """Forget the settings and the application: the next use reads the environment again."""
    settings.cache_clear()
    install(None)


def _sender(s: Settings) -> Any:
    """The WebSocket sender through the Management API at WS_ENDPOINT (None without one)."""
    if not s.ws_endpoint:
        return None
    from harftet.push import ManagementApiSender

    return ManagementApiSender(s.ws_endpoint)
