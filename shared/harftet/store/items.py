"""Plain Python values <-> DynamoDB attribute values (the low-level client's format), and the
items of a Query, page after page."""

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


def query_items(
    client: Any, query: dict[str, Any], most: int | None = None
) -> list[dict[str, Any]]:
    """The items (attribute values) a Query finds, page after page (``query``: its parameters);
    with ``most``, only the pages until ``most`` are found (the last may bring more)."""
    kwargs = dict(query)
    items: list[dict[str, Any]] = []
    while most is None or len(items) < most:
        page = client.query(**kwargs)
        items += page.get("Items", [])
        if "LastEvaluatedKey" not in page:
            break
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    return items
