"""Create the DynamoDB tables exactly as template.yaml declares them (local stack and tests).

template.yaml is the single source of the key schemas and indexes; this module reads it so
that emulators (moto, dynalite) get the same tables as AWS. It is not used in Lambda: the
template is not in the layer, and PyYAML is imported only when a template is read.
"""

from __future__ import annotations

import copy
import functools
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

TEMPLATE_ENV = "HARFTET_TEMPLATE"
"""Environment variable naming template.yaml, for installs that are not the repo checkout."""

# create_table arguments taken from the template; PITR, SSE, TTL and tags are left out
# because emulators reject or ignore them (TTL is set afterwards where supported).
_CREATE_KEYS = (
    "KeySchema",
    "AttributeDefinitions",
    "BillingMode",
    "GlobalSecondaryIndexes",
    "LocalSecondaryIndexes",
    "ProvisionedThroughput",
)
_UNSUPPORTED = {"UnknownOperationException", "UnknownOperation", "NotImplemented"}


def default_template_path() -> Path:
    """template.yaml of this checkout (shared/harftet/store/ → repo root), or $HARFTET_TEMPLATE."""
    override = os.environ.get(TEMPLATE_ENV)
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[3] / "template.yaml"


@functools.cache
def _cfn_loader() -> type:
    """A safe YAML loader that reads CloudFormation short tags (!Ref, !Sub, ...) as intrinsics."""
    import yaml

    # libyaml's parser when PyYAML has it (its wheels do): the same documents, read about
    # ten times faster than the pure-Python one (0.05 against 0.45 s for template.yaml).
    base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class CfnLoader(base):  # type: ignore[valid-type,misc]
        pass

    def intrinsic(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> dict[str, Any]:
        value: Any
        if isinstance(node, yaml.ScalarNode):
            value = loader.construct_scalar(node)
        elif isinstance(node, yaml.SequenceNode):
            value = loader.construct_sequence(node, deep=True)
        elif isinstance(node, yaml.MappingNode):
            value = loader.construct_mapping(node, deep=True)
        else:  # pragma: no cover - YAML has no other node kinds
            raise TypeError(f"unexpected YAML node {node!r}")
        if suffix == "Ref":
            return {"Ref": value}
        if suffix == "GetAtt" and isinstance(value, str):
            value = value.split(".", 1)
        return {f"Fn::{suffix}": value}

    CfnLoader.add_multi_constructor("!", intrinsic)
    return CfnLoader


def load_template(template_path: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """template.yaml as a dict, short tags turned into their long form ({"Ref": ...})."""
    path = Path(template_path) if template_path is not None else default_template_path()
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found: pass template_path or set ${TEMPLATE_ENV}")
    stat = path.stat()
    # Each caller gets its own copy: the parse is kept while the file is unchanged (every
    # test's tables come from it), and nothing a caller does to its dict reaches the next.
    return copy.deepcopy(_parsed(str(path.resolve()), stat.st_mtime_ns, stat.st_size))


@functools.lru_cache(maxsize=8)
def _parsed(path: str, mtime_ns: int, size: int) -> dict[str, Any]:
    """The template at ``path`` as it was at ``mtime_ns``/``size`` (the cache's key)."""
    import yaml

    with open(path, encoding="utf-8") as f:
        template: dict[str, Any] = yaml.load(f, Loader=_cfn_loader())  # a safe loader
    return template


def table_definitions(template_path: str | os.PathLike[str] | None = None) -> dict[str, dict]:
    """The Properties of every AWS::DynamoDB::Table in the template, by logical id."""
    return _tables(load_template(template_path))


def _tables(template: dict[str, Any]) -> dict[str, dict]:
    return {
        logical_id: resource.get("Properties", {})
        for logical_id, resource in template.get("Resources", {}).items()
        if resource.get("Type") == "AWS::DynamoDB::Table"
    }


def table_env_vars(template_path: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """Environment variable → table logical id, from the functions' Globals (TABLES_TABLE → ...)."""
    template = load_template(template_path)
    tables = _tables(template)
    variables = (
        template.get("Globals", {}).get("Function", {}).get("Environment", {}).get("Variables", {})
    )
    return {
        name: value["Ref"]
        for name, value in variables.items()
        if isinstance(value, dict) and value.get("Ref") in tables
    }


def create_table_kwargs(definition: dict[str, Any], table_name: str) -> dict[str, Any]:
    """client.create_table arguments for one template definition."""
    kwargs: dict[str, Any] = {"TableName": table_name}
    kwargs.update({key: definition[key] for key in _CREATE_KEYS if key in definition})
    if "StreamSpecification" in definition:  # CloudFormation's form lacks StreamEnabled
        kwargs["StreamSpecification"] = {"StreamEnabled": True, **definition["StreamSpecification"]}
    return kwargs


def create_tables(
    client: DynamoDBClient,
    names: dict[str, str],
    template_path: str | os.PathLike[str] | None = None,
    *,
    exist_ok: bool = True,
    wait_seconds: float = 30.0,
) -> None:
    """Create the tables named in ``names`` (logical id → physical name) as the template says.

    Waits until each table and its indexes are ACTIVE (dynalite takes a moment). An existing
    table is left as it is when ``exist_ok``. TTL is enabled where the emulator supports it.
    """
    definitions = table_definitions(template_path)
    unknown = set(names) - set(definitions)
    if unknown:
        raise KeyError(f"not DynamoDB tables in the template: {sorted(unknown)}")
    created: list[str] = []
    for logical_id, table_name in names.items():
        definition = definitions[logical_id]
        try:
            client.create_table(**create_table_kwargs(definition, table_name))
        except ClientError as e:
            if not (exist_ok and e.response["Error"]["Code"] == "ResourceInUseException"):
                raise
        else:
            created.append(logical_id)
    for logical_id in names:
        _wait_active(client, names[logical_id], wait_seconds)
    for logical_id in created:
        _enable_ttl(client, names[logical_id], definitions[logical_id])


def _wait_active(client: DynamoDBClient, table_name: str, timeout: float) -> None:
    """Poll (quickly: the boto3 waiter sleeps 20 s) until the table and its GSIs are ACTIVE."""
    deadline = time.monotonic() + timeout
    while True:
        table = client.describe_table(TableName=table_name)["Table"]
        statuses = [table.get("TableStatus")]
        statuses += [gsi.get("IndexStatus") for gsi in table.get("GlobalSecondaryIndexes", [])]
        if all(status in (None, "ACTIVE") for status in statuses):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"table {table_name} not ACTIVE after {timeout} s: {statuses}")
        time.sleep(0.05)


def _enable_ttl(client: DynamoDBClient, table_name: str, definition: dict[str, Any]) -> None:
    spec = definition.get("TimeToLiveSpecification")
    if not spec or not spec.get("Enabled"):
        return
    try:
        client.update_time_to_live(
            TableName=table_name,
            TimeToLiveSpecification={"Enabled": True, "AttributeName": spec["AttributeName"]},
        )
    except ClientError as e:
        if e.response["Error"]["Code"] not in _UNSUPPORTED:
            raise
