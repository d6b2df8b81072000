"""The document's schemas, gathered as its operations refer to them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class Components:
    """Each model's JSON schema under its class name (`#/components/schemas/Name`)."""

    def __init__(self) -> None:
        self.schemas: dict[str, Any] = {}

    def ref(self, model: type[BaseModel]) -> dict[str, str]:
        """A reference to ``model``'s schema, which joins the others with the models it holds."""
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}", by_alias=True)
        self.schemas.update(schema.pop("$defs", {}))
        self.schemas[model.__name__] = schema
        return {"$ref": f"#/components/schemas/{model.__name__}"}
