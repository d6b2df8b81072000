"""What DynamoDB lets a fake store, and how it gives it back.

An adapter's write goes through boto3's serializer and DynamoDB's validation: a float is a
TypeError before any request, an empty set a ValidationException. The fakes refuse the same
values (a feature that writes one fails on the fakes as it would in production), keep tuples
as lists, and answer a refused condition with the ClientError the adapters see.
"""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

from botocore.exceptions import ClientError


def refused(code: str, operation: str, message: str = "") -> ClientError:
    """The ClientError DynamoDB answers with ``code`` (e.g. ConditionalCheckFailedException)."""
    return ClientError({"Error": {"Code": code, "Message": message or code}}, operation)


def condition_failed(operation: str) -> ClientError:
    return refused("ConditionalCheckFailedException", operation, "The conditional request failed")


def stored(value: Any) -> Any:
    """``value`` as DynamoDB would keep it (a deep copy; tuples become lists); TypeError or a
    ValidationException for what it cannot keep."""
    if isinstance(value, float):
        raise TypeError("Float types are not supported. Use Decimal types instead.")
    if isinstance(value, dict):
        return {str(k): stored(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [stored(v) for v in value]
    if isinstance(value, set | frozenset):
        if not value:
            raise refused("ValidationException", "UpdateItem", "a set may not be empty")
        return {stored(v) for v in value}
    if isinstance(value, bytearray):
        return bytes(value)
    return copy.copy(value)


def plain(value: Any) -> Any:
    """A stored value as ``harftet.store.accounts.plain`` gives it: numbers as int or float,
    sets as sorted lists, all the way down (a copy)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(plain(v) for v in value)
    if isinstance(value, Decimal):
        return int(value) if value == int(value) else float(value)
    return value
