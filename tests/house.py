"""The house's budgets, measured from the code as it is: module and function sizes, the web
client's bootstrap, runs of lines written twice in production code, and who reads the
environment or DynamoDB's raw values. tests/test_house.py holds them; `make test` prints them
(``python tests/house.py``), so every CI log shows where the house stands."""

from __future__ import annotations

import ast
import itertools
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = (ROOT / "shared" / "harftet", ROOT / "functions")
WEB = ROOT / "clients" / "web"
MODULE_LINES = 500
FUNCTION_LINES = 60
APP_JS_LINES = 300
RUN = 6  # lines: a run this long written twice is a duplicated block
# Who may read os.environ: the composition root's settings, the local stack (a developer's
# process), the router's own Lambda handler, and the template's location for the local stack.
ENVIRON_READERS = ("bootstrap/settings.py", "localstack/", "router.py", "store/schema.py")
ENVIRON = re.compile(r"os\.environ|os\.getenv|getenv\(")
# DynamoDB's attribute values, read or built: item["x"]["S"], {"N": ...}
RAW_DYNAMODB = re.compile(
    r"""\]\[\s*["'](?:S|N|B|SS|NS|L|M|BOOL)["']\s*\]|\{\s*["'](?:S|N|SS|NS)["']\s*:"""
)


def python_modules() -> Iterator[Path]:
    """Every production Python module (shared/harftet and functions)."""
    for root in PYTHON:
        yield from (p for p in sorted(root.rglob("*.py")) if "__pycache__" not in p.parts)


def web_modules() -> list[Path]:
    """The web client's modules."""
    return sorted(WEB.glob("*.js"))


def lines_of(path: Path) -> int:
    return path.read_text(encoding="utf-8").count("\n")


def long_modules() -> list[tuple[str, int]]:
    """Modules over MODULE_LINES lines, Python and the web client's."""
    found = [(p, lines_of(p)) for p in [*python_modules(), *web_modules()]]
    return [(str(p.relative_to(ROOT)), n) for p, n in found if n > MODULE_LINES]


def long_functions() -> list[tuple[str, str, int]]:
    """Python functions over FUNCTION_LINES lines."""
    found = []
    for path in python_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > FUNCTION_LINES:
                    found.append((str(path.relative_to(ROOT)), node.name, length))
    return found


def _significant(line: str) -> str | None:
    """A line as the duplicate count compares it (None: not worth comparing)."""
    text = " ".join(line.split())
    if not text or text.startswith(("#", "//", "import ", "from ")) or len(text) < 4:
        return None
    return text


def _declarations(path: Path) -> set[int]:
    """A Python module's lines that declare rather than do: its imports and its functions'
    signatures (a port's method and the adapter's repeat one signature by design)."""
    if path.suffix != ".py":
        return set()
    skipped: set[int] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import | ast.ImportFrom):
            skipped.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            skipped.update(range(node.lineno, node.body[0].lineno))
    return skipped


def duplicated_runs() -> list[tuple[str, str]]:
    """Pairs of places in production code (Python and the web client) sharing a run of RUN
    significant lines, identical after folding white space (a longer shared run counts once:
    its last window). Imports and signatures are not compared."""
    seen: dict[tuple[str, ...], list[tuple[str, int]]] = defaultdict(list)
    for path in [*python_modules(), *web_modules()]:
        declared = _declarations(path)
        lines = [
            (n, text)
            for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if n not in declared and (text := _significant(raw)) is not None
        ]
        where = str(path.relative_to(ROOT))
        for i in range(len(lines) - RUN + 1):
            seen[tuple(text for _, text in lines[i : i + RUN])].append((where, lines[i][0]))
    pairs: dict[tuple[str, str], None] = {}
    for places in seen.values():
        for (f1, l1), (f2, l2) in itertools.pairwise(places):
            if f1 != f2 or abs(l2 - l1) >= RUN:
                pairs.setdefault((f"{f1}:{l1}", f"{f2}:{l2}"), None)
    return _first_of_each_run(list(pairs))


def _first_of_each_run(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """One pair per shared run: a run of N lines shows as N - RUN + 1 windows, one line apart."""
    kept: list[tuple[str, str]] = []
    for a, b in sorted(pairs, key=lambda p: (p[0].rsplit(":", 1)[0], int(p[0].rsplit(":", 1)[1]))):
        if kept:
            (ka, kb) = kept[-1]
            if _next_line(ka, a) and _next_line(kb, b):
                kept[-1] = (a, b)  # the same run, one window on: keep walking it
                continue
        kept.append((a, b))
    return kept


def _next_line(before: str, after: str) -> bool:
    (f1, l1), (f2, l2) = before.rsplit(":", 1), after.rsplit(":", 1)
    return f1 == f2 and 0 < int(l2) - int(l1) <= RUN


def environ_readers() -> list[str]:
    """Production modules that read the environment, the allowed ones aside."""
    found = []
    package = ROOT / "shared" / "harftet"
    for path in python_modules():
        if not ENVIRON.search(path.read_text(encoding="utf-8")):
            continue
        inside = path.relative_to(package).as_posix() if path.is_relative_to(package) else ""
        if not inside.startswith(ENVIRON_READERS) or not inside:
            found.append(path.relative_to(ROOT).as_posix())
    return found


def raw_dynamodb_readers() -> list[str]:
    """Modules outside store/ (and the local stack, which emulates DynamoDB) that read or build
    DynamoDB's attribute values."""
    found = []
    for path in python_modules():
        inside = path.relative_to(ROOT).as_posix()
        if "/store/" in inside or "/localstack/" in inside:
            continue
        if RAW_DYNAMODB.search(path.read_text(encoding="utf-8")):
            found.append(inside)
    return found


def report() -> str:
    """The budgets, one line each."""
    app_js = lines_of(WEB / "app.js")
    runs = duplicated_runs()
    rows = [
        f"modules over {MODULE_LINES} lines: {len(long_modules())} {long_modules() or ''}",
        f"functions over {FUNCTION_LINES} lines: {len(long_functions())} {long_functions() or ''}",
        f"clients/web/app.js: {app_js} lines (budget {APP_JS_LINES})",
        f"production places sharing {RUN} lines: {len(runs)} {runs or ''}",
        f"os.environ outside the composition root: {environ_readers() or 'none'}",
        f"DynamoDB values outside store/: {raw_dynamodb_readers() or 'none'}",
    ]
    return "\n".join(f"house: {row}" for row in rows)


if __name__ == "__main__":
    print(report())
