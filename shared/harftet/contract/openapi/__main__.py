"""`python -m harftet.contract.openapi > docs/openapi.json`: the OpenAPI document as JSON."""

from __future__ import annotations

import json

from harftet.contract.openapi import document


def main() -> None:
    """Print the document."""
    print(json.dumps(document(), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
