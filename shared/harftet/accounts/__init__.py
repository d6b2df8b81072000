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
    return Accounts(
        default_service(),
        AccountStore(client, os.environ["PLAYERS_TABLE"]),
        Limits(LimitStore(client, os.environ["CONNECTIONS_TABLE"]), ACCOUNT_BUDGETS),
        config_from_env(),
    )


__all__ = ["Accounts", "default_accounts"]
