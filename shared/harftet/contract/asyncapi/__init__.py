"""The AsyncAPI 3.0 document of the WebSocket protocol, with the OpenAPI document's schemas.

Run ``python -m harftet.contract.asyncapi > docs/asyncapi.yaml``; a test keeps the committed
copy current, has the AsyncAPI parser (npm ``@asyncapi/parser``) validate it, and checks the
messages the local stack sends against it.

The schemas (the table view, the errors, the move bodies) are those of ``docs/openapi.json``,
copied under the same ``#/components/schemas/`` names, so one definition serves both APIs.
"""

from __future__ import annotations

from typing import Any

from harftet.contract.asyncapi.channels import channels, operations, servers
from harftet.contract.asyncapi.messages import notification, table_messages
from harftet.contract.openapi import document as openapi_document


def document() -> dict[str, Any]:
    """The whole AsyncAPI 3.0 document."""
    schemas = openapi_document()["components"]["schemas"]
    messages = table_messages(schemas)
    on_the_table = {name: {"$ref": f"#/components/messages/{name}"} for name in messages}
    messages["notification"] = notification()
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Harftet WebSocket API",
            "version": "1.0.0",
            "description": "Live tables of Kastet and Harftet. A connection watches one table: "
            "after every change to it the server pushes each connection what changed in its own "
            "player's view (a delta from the version before), or the whole view where the "
            "connection may not hold that version. Clients send ping, sync (the whole view, "
            "on opening and after a missed push) and move. The REST API (docs/openapi.json) "
            "does everything else; the schemas are shared with it.",
        },
        "defaultContentType": "application/json",
        "servers": servers(),
        "channels": channels(on_the_table),
        "operations": operations(),
        "components": {"messages": messages, "schemas": schemas},
    }


def dump(doc: dict[str, Any]) -> str:
    """The document as YAML (keys in the order written, long lines kept whole)."""
    import yaml

    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=1_000_000)
