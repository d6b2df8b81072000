"""Plain Python values <-> DynamoDB attribute values (the low-level client's format)."""

from __future__ import annotations

from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

_serializer = TypeSerializer()
_deserializer = TypeDeserializer()


def serialize(item: dict[str, Any]) -> dict[str, Any]:
    """A dict of Python values as DynamoDB attribute values."""
    return {k: _serializer.serialize(v) for k, v in item.items()}


def deserialize(item: dict[str, Any]) -> dict[str, Any]:
    """DynamoDB attribute values as plain Python values (numbers become Decimal)."""
    return {k: _deserializer.deserialize(v) for k, v in item.items()}
