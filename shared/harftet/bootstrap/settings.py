"""What a deployment says about itself, read from the environment once (the template's
variables; the local stack sets the same). The one place the application reads
``os.environ``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

TRUE = ("1", "true", "yes", "on")


def _on(value: str | None) -> bool:
    return (value or "").lower() in TRUE


@dataclass(frozen=True)
class Settings:
    """A stack's settings (table names, endpoints, queues, switches)."""

    tables_table: str = ""
    players_table: str = ""
    connections_table: str = ""
    log_table: str | None = None
    mail_table: str | None = None
    match_table: str | None = None  # matchmaking's tickets (None: no matchmaking here)
    ws_endpoint: str | None = None
    test_mode: bool = False
    cell_id: str = ""
    timer_queue_url: str | None = None
    notify_queue_url: str | None = None
    deadline_shards: int = 8
    deadline_step_seconds: float = 0.0
    sweep_window_seconds: float = 0.0
    tracing: bool = False
    fcm_application_arn: str = ""
    apns_application_arn: str = ""
    apns_platform: str = "APNS_SANDBOX"  # the APNs application's: APNS in production
    local_push_prefix: str | None = None
    vapid_subject: str = "mailto:ops@harftet.invalid"
    vapid_public_key: str | None = None
    vapid_private_key: str | None = None
    vapid_private_key_param: str | None = None
    token_secret: str | None = None
    token_secret_param: str | None = None
    token_keys_param: str | None = None  # the rotating signing keys (harftet.identity)
    token_keys_seconds: float = 300.0  # how long a process keeps the keys it read
    # how long a key verifies after it stopped signing: the longest token's life (a guest's
    # 30 days); only a test that makes a month of seconds shortens it
    token_keys_life: float = 30 * 86400.0
    allowed_origins: str = ""
    # the stored tables' codec format written (None: the codec's own, harftet.engine.codec)
    table_write_format: int | None = None
    # a deadline may lean on a timer message asked for before (the template's TimersLean)
    timers_lean: bool = True
    # the log stores an item per change (the template's LogItemPerChange)
    log_per_change: bool = True
    # the kept move answers' format written (the template's AnswerWriteFormat)
    answer_write_format: int = 2
    # the few settings a feature reads in its own words (LIMITS, LIMIT_BUDGETS, PASSKEY_*)
    environ: Mapping[str, str] = field(default_factory=dict, repr=False)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings the environment (by default the process's) gives."""
        env = dict(os.environ if env is None else env)
        get = env.get
        return cls(
            tables_table=get("TABLES_TABLE", ""),
            players_table=get("PLAYERS_TABLE", ""),
            connections_table=get("CONNECTIONS_TABLE", ""),
            log_table=get("LOG_TABLE") or None,
            mail_table=get("MAIL_TABLE") or None,
            match_table=get("MATCH_TABLE") or None,
            ws_endpoint=get("WS_ENDPOINT") or None,
            test_mode=_on(get("TEST_MODE")),
            cell_id=get("CELL_ID", ""),
            timer_queue_url=get("TIMER_QUEUE_URL") or None,
            notify_queue_url=get("NOTIFY_QUEUE_URL") or None,
            deadline_shards=int(get("DEADLINE_SHARDS") or 8),
            deadline_step_seconds=float(get("DEADLINE_STEP_SECONDS") or 0),
            sweep_window_seconds=float(get("SWEEP_WINDOW_SECONDS") or 0),
            tracing=not _on(get("POWERTOOLS_TRACE_DISABLED")),
            fcm_application_arn=get("FCM_APPLICATION_ARN", ""),
            apns_application_arn=get("APNS_APPLICATION_ARN", ""),
            apns_platform=get("APNS_PLATFORM") or "APNS_SANDBOX",
            local_push_prefix=get("LOCAL_PUSH_PREFIX") or None,
            vapid_subject=get("VAPID_SUBJECT") or "mailto:ops@harftet.invalid",
            vapid_public_key=get("VAPID_PUBLIC_KEY") or None,
            vapid_private_key=get("VAPID_PRIVATE_KEY") or None,
            vapid_private_key_param=get("VAPID_PRIVATE_KEY_PARAM") or None,
            token_secret=get("TOKEN_SECRET") or None,
            token_secret_param=get("TOKEN_SECRET_PARAM") or None,
            token_keys_param=get("TOKEN_KEYS_PARAM") or None,
            token_keys_seconds=float(get("TOKEN_KEYS_CACHE_SECONDS") or 300),
            token_keys_life=float(get("TOKEN_KEYS_LIFE_SECONDS") or 30 * 86400),
            allowed_origins=get("ALLOWED_ORIGINS", ""),
            table_write_format=int(get("TABLE_WRITE_FORMAT") or 0) or None,
            timers_lean=(get("TIMERS_LEAN") or "true").lower() != "false",
            log_per_change=(get("LOG_ITEM_PER_CHANGE") or "true").lower() != "false",
            answer_write_format=int(get("ANSWER_WRITE_FORMAT") or 2),
            environ=env,
        )


@cache
def settings() -> Settings:
    """The process's settings (a Lambda container's, read at its cold start)."""
    return Settings.from_env()
