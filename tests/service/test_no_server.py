"""tests/service runs on the in-memory stores (tests/fakes) and starts no server: none of its
modules imports moto, boto3 or botocore, asks for the ``dynamodb`` fixture, or starts moto's
server. What only DynamoDB can show belongs in tests/store (or tests/handlers)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

HERE = Path(__file__).parent
AWS = ("moto", "boto3", "botocore")
SERVERS = {"moto_server", "MotoDynamo", "TableStream", "app_over", "mock_aws"}


def _modules() -> list[Path]:
    return sorted(HERE.glob("*.py"))


def _offences(path: Path) -> list[str]:
    """What in ``path`` would reach DynamoDB or start a server, by line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            found += [
                f"{where} imports {a.name}" for a in node.names if a.name.split(".")[0] in AWS
            ]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.split(".")[0] in AWS:
                found.append(f"{where} imports from {module}")
            found += [f"{where} imports {a.name}" for a in node.names if a.name in SERVERS]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names = [a.arg for a in [*node.args.args, *node.args.kwonlyargs]]
            is_fixture = node.name == "dynamodb" and path.name == "conftest.py"
            if "dynamodb" in names and not is_fixture:
                found.append(f"{where} {node.name} asks for the dynamodb fixture")
        elif isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name in SERVERS:
                found.append(f"{where} uses {name}")
    return found


def test_the_service_tests_are_all_looked_at() -> None:
    names = {p.name for p in _modules()}
    assert {"conftest.py", "test_tables.py", "test_live.py", "test_no_server.py"} <= names


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_no_service_module_reaches_dynamodb_or_starts_a_server(path: Path) -> None:
    assert _offences(path) == []


def test_the_guard_sees_what_it_guards_against(tmp_path: Path) -> None:
    bad = tmp_path / "test_bad.py"
    bad.write_text(
        "import boto3\nfrom moto import mock_aws\nfrom testkit import moto_server\n"
        "def test_x(app, dynamodb):\n    with moto_server():\n        pass\n"
    )
    found = _offences(bad)
    assert {f.split()[0] for f in found} == {f"test_bad.py:{n}" for n in range(1, 6)}
    assert "test_bad.py:4 test_x asks for the dynamodb fixture" in found


def test_the_dynamodb_fixture_fails_here(request: pytest.FixtureRequest) -> None:
    with pytest.raises(pytest.fail.Exception, match="tests/service runs on the fakes"):
        request.getfixturevalue("dynamodb")


def test_the_app_here_is_over_the_fakes(app: object) -> None:
    from fakes import FakeStores

    assert isinstance(app.stores, FakeStores)  # type: ignore[attr-defined]
