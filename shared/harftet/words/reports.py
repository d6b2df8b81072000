"""Players' reports on words (`POST /words/{word}/reports`), kept for operators.

One item per word in the players table (`word#<WORD>`: a count per kind, ``wrong`` and
``missing``, and the total), added to atomically. A player counts once per word and kind: the
same transaction writes a marker (`wordreport#<WORD>#<kind>#<hash of the player id>`, gone
after a year: TTL), so a retried request or a second tap is answered 202 and counted once; the
marker holds no player id, only its SHA-256.

A player may send 10 reports an hour (429 `rate_limited` with Retry-After beyond), counted as
the other budgets are (harftet.limits, fixed windows in the connections table); unlike them
this budget is always on: reports are read by people.
"""

from __future__ import annotations

import hashlib
from typing import Any

from botocore.exceptions import ClientError

from harftet.limits import Budget, Limits
from harftet.words.info import normalise_word

__all__ = ["KINDS", "REPORT_BUDGET", "WordReports"]

KINDS = ("wrong", "missing")
REPORT_BUDGET = Budget(10, 3600)
MARKER_SECONDS = 365 * 24 * 3600


class WordReports:
    def __init__(self, client: Any, players_table: str, limits: Limits) -> None:
        self._client = client
        self._table = players_table
        self._limits = limits

    @classmethod
    def over(cls, client: Any, players_table: str, connections_table: str) -> WordReports:
        """Reports in ``players_table``, the budget counted in ``connections_table``."""
        from harftet.store.limits import LimitStore

        limits = Limits(LimitStore(client, connections_table), {"wordReport": REPORT_BUDGET})
        return cls(client, players_table, limits)

    def report(self, player_id: str, raw_word: str, kind: str, now: float) -> dict[str, Any]:
        """Count ``player_id``'s report; `WordInputError`/ValueError on bad input (nothing
        stored), `RateLimitedError` past the budget."""
        word = normalise_word(raw_word)
        if kind not in KINDS:
            raise ValueError(f"kind: one of {', '.join(KINDS)}")
        self._limits.check("wordReport", player_id, now)
        who = hashlib.sha256(player_id.encode("utf-8")).hexdigest()
        marker = {
            "playerId": {"S": f"wordreport#{word}#{kind}#{who}"},
            "expiresAt": {"N": str(int(now) + MARKER_SECONDS)},
        }
        try:
            self._client.transact_write_items(
                TransactItems=[
                    {
                        "Put": {
                            "TableName": self._table,
                            "Item": marker,
                            "ConditionExpression": "attribute_not_exists(playerId)",
                        }
                    },
                    {
                        "Update": {
                            "TableName": self._table,
                            "Key": {"playerId": {"S": f"word#{word}"}},
                            "UpdateExpression": "ADD #kind :one, reports :one "
                            "SET word = :word, lastReportAt = :now",
                            "ExpressionAttributeNames": {"#kind": kind},
                            "ExpressionAttributeValues": {
                                ":one": {"N": "1"},
                                ":word": {"S": word},
                                ":now": {"N": str(int(now))},
                            },
                        }
                    },
                ]
            )
        except ClientError as error:
            reasons = error.response.get("CancellationReasons") or []
            first = reasons[0].get("Code") if reasons else None
            if error.response.get("Error", {}).get("Code") != "TransactionCanceledException" or (
                first != "ConditionalCheckFailed"
            ):
                raise
            # Already counted: this player reported this word so before (or this is a retry).
        return {"word": word, "kind": kind}

    def counts(self, raw_word: str) -> dict[str, int]:
        """For operators: ``{"wrong": n, "missing": n, "reports": n}`` of a word."""
        word = normalise_word(raw_word)
        item = self._client.get_item(
            TableName=self._table, Key={"playerId": {"S": f"word#{word}"}}, ConsistentRead=True
        ).get("Item", {})
        return {k: int(item[k]["N"]) if k in item else 0 for k in (*KINDS, "reports")}
