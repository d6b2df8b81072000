"""Accounts: passkeys, transfer codes, sessions, export and deletion (harftet.accounts.service)."""

from __future__ import annotations

import os
from functools import cache

from harftet.accounts.service import ACCOUNT_BUDGETS, Accounts


@cache
def default_accounts() -> Accounts:
    """The handlers' accounts over the service's players table (PLAYERS_TABLE), with the
    always-on code budgets counted in CONNECTIONS_TABLE and the relying party of
    PASSKEY_RP_ID / PASSKEY_ORIGINS."""
    from harftet.accounts.passkeys import config_from_env
    from harftet.limits import Limits
    from harftet.store.accounts import AccountStore
    from harftet.store.limits import LimitStore
    from harftet.wiring import default_service, dynamodb

    client = dynamodb()
    service = default_service()
    players = getattr(service.players, "table_name", None) or os.environ["PLAYERS_TABLE"]
    connections = (
        getattr(service.connections, "table_name", None) or os.environ["CONNECTIONS_TABLE"]
    )
    return Accounts(
        service,
        AccountStore(client, players),
        Limits(LimitStore(client, connections), ACCOUNT_BUDGETS),
        config_from_env(),
    )


__all__ = ["Accounts", "default_accounts"]
