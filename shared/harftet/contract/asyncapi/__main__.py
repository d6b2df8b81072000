"""`python -m harftet.contract.asyncapi > docs/asyncapi.yaml`: the AsyncAPI document as YAML."""

from __future__ import annotations

import sys

from harftet.contract.asyncapi import document, dump


def main() -> None:
    """Write the document to stdout."""
    sys.stdout.write(dump(document()))


if __name__ == "__main__":
    main()
