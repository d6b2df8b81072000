"""The handlers' environment on the local stack: template.yaml's Globals pointed at the local
services, and where those services are (the DynamoDB port, the queues' URLs).

Both ways of running the handlers read it: the stack itself (stack.py) and `sam local`
(sam_local.py, which writes it into events/env.local.json).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping

ACCOUNT = "123456789012"
REGION = "us-east-1"
# Mobile push: platform (as the API names it) → (SNS platform, application name); the APNs
# application is a development one, as the template's ApnsPlatform default
APNS_PLATFORM = "APNS_SANDBOX"
MOBILE_APPLICATIONS = {
    "fcm": ("GCM", "harftet-local-fcm"),
    "apns": (APNS_PLATFORM, "harftet-local-apns"),
}
# The template's queues, by logical id, as the local stack names them.
QUEUE_NAMES = {
    "TimerQueue": "harftet-timers",
    "TimerDeadLetterQueue": "harftet-timers-dlq",
    "FanoutFailureQueue": "harftet-fanout-failures",
    "NotifyQueue": "harftet-notify",
    "NotifyDeadLetterQueue": "harftet-notify-dlq",
}


def dynamodb_port(port: int) -> int:
    """The port of the stack's DynamoDB for an API on ``port``: the next one (0: any free one)."""
    return port + 1 if port else 0


def queue_url(endpoint: str, logical_id: str) -> str:
    """The URL moto gives a template queue."""
    return f"{endpoint}/{ACCOUNT}/{QUEUE_NAMES[logical_id]}"


def handler_env(
    *, port: int, dynamodb_endpoint: str, tables: Mapping[str, str], overrides: Mapping[str, str]
) -> dict[str, str]:
    """The handlers' environment: template.yaml's Globals, pointed at the local services."""
    keep = os.environ.get
    env = {
        "TABLES_TABLE": tables["TablesTable"],
        "PLAYERS_TABLE": tables["PlayersTable"],
        "CONNECTIONS_TABLE": tables["ConnectionsTable"],
        "LOG_TABLE": tables["LogTable"],
        "AWS_ENDPOINT_URL_DYNAMODB": dynamodb_endpoint,  # boto3 reads it for every DynamoDB client
        "AWS_ENDPOINT_URL_SQS": dynamodb_endpoint,  # moto's server serves SQS too
        "TIMER_QUEUE_URL": queue_url(dynamodb_endpoint, "TimerQueue"),
        # The inbox and notifications: the mail table, the notify queue, a VAPID key pair
        # made at start, and the stack's own push receiver (allowed in test mode only).
        "MAIL_TABLE": tables["MailTable"],
        "MATCH_TABLE": tables["MatchTable"],  # matchmaking's tickets
        "NOTIFY_QUEUE_URL": queue_url(dynamodb_endpoint, "NotifyQueue"),
        "VAPID_PRIVATE_KEY": keep("VAPID_PRIVATE_KEY") or _vapid_key(),
        "VAPID_SUBJECT": "mailto:push@harftet.invalid",
        "LOCAL_PUSH_PREFIX": f"http://127.0.0.1:{port}/push-receiver/",
        # Mobile push: moto's SNS, with the platform applications the stack creates at start.
        "AWS_ENDPOINT_URL_SNS": dynamodb_endpoint,
        **{name: keep(name) or arn for name, arn in application_arns().items()},
        "APNS_PLATFORM": keep("APNS_PLATFORM") or APNS_PLATFORM,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_REGION": REGION,
        "AWS_ACCESS_KEY_ID": "local",
        "AWS_SECRET_ACCESS_KEY": "local",
        # The Management API is served on our own port, at the root (no stage path).
        "WS_ENDPOINT": f"http://127.0.0.1:{port}",
        # The public APIs as the synthetic game reaches them (functions/synthetic).
        "REST_URL": f"http://127.0.0.1:{port}",
        "WS_URL": f"ws://127.0.0.1:{port}/ws",
        "TOKEN_SECRET": keep("TOKEN_SECRET") or secrets.token_urlsafe(32),
        "TEST_MODE": keep("TEST_MODE", "1"),
        "LIMITS": keep("LIMITS", "off"),  # per-player budgets: off unless asked (API.md)
        "LIMIT_BUDGETS": keep("LIMIT_BUDGETS", ""),
        "ALLOWED_ORIGINS": keep("ALLOWED_ORIGINS", ""),  # CORS: none unless asked
        # Passkeys: browsers refuse an IP address as relying party, so open localhost.
        "PASSKEY_RP_ID": keep("PASSKEY_RP_ID", "localhost"),
        "PASSKEY_ORIGINS": keep("PASSKEY_ORIGINS", f"http://localhost:{port}"),
        "POWERTOOLS_SERVICE_NAME": "harftet",
        "POWERTOOLS_METRICS_NAMESPACE": "Harftet",
        "POWERTOOLS_TRACE_DISABLED": "true",
        # EMF blobs would interleave with the logs; set it to false to see them on stdout.
        "POWERTOOLS_METRICS_DISABLED": keep("POWERTOOLS_METRICS_DISABLED", "true"),
        "LOG_LEVEL": keep("LOG_LEVEL", "INFO"),
    }
    env.update(overrides)
    return env


def application_arns() -> dict[str, str]:
    """The functions' FCM_APPLICATION_ARN and APNS_APPLICATION_ARN on the local stack: the
    SNS platform applications it creates in moto at start (localstack.mobile_push)."""
    return {
        f"{platform.upper()}_APPLICATION_ARN": f"arn:aws:sns:{REGION}:{ACCOUNT}:app/{kind}/{name}"
        for platform, (kind, name) in MOBILE_APPLICATIONS.items()
    }


def _vapid_key() -> str:
    from harftet.notify.vapid import generate

    return generate()
