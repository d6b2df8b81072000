"""The house's budgets (issue 34), measured from the code as it is (tests/house.py).

Each test names what broke a budget, so a change that grows a module past 500 lines, a
function past 60, the web client's bootstrap past 300, writes a block twice in production
code, reads the environment outside the composition root or handles DynamoDB's raw values
outside the store fails here with the place to look."""

from __future__ import annotations

import house


def test_no_module_is_over_the_budget() -> None:
    assert house.long_modules() == []


def test_no_function_is_over_the_budget() -> None:
    assert house.long_functions() == []


def test_the_web_client_bootstrap_stays_small() -> None:
    assert house.lines_of(house.WEB / "app.js") <= house.APP_JS_LINES


def test_production_code_writes_no_block_twice() -> None:
    assert house.duplicated_runs() == []


def test_only_the_composition_root_reads_the_environment() -> None:
    assert house.environ_readers() == []


def test_only_the_store_handles_dynamodb_values() -> None:
    assert house.raw_dynamodb_readers() == []


def test_the_files_the_suite_starts_first_are_there() -> None:
    """tests/conftest.py's SLOW_FIRST (the longest files, started first): one renamed or
    moved would silently start wherever it falls again, perhaps last."""
    import ast

    tree = ast.parse((house.ROOT / "tests" / "conftest.py").read_text())
    [listed] = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "SLOW_FIRST"
    ]
    assert listed and [p for p in listed if not (house.ROOT / p).is_file()] == []


def test_the_measures_find_what_they_look_for(tmp_path, monkeypatch) -> None:
    """The budgets are not blind: a long function, a repeated block, an environment reader
    and a raw DynamoDB value planted in a copy of the layout are each found."""
    package = tmp_path / "shared" / "harftet" / "feature"
    package.mkdir(parents=True)
    (tmp_path / "functions").mkdir()
    web = tmp_path / "clients" / "web"
    web.mkdir(parents=True)
    (web / "app.js").write_text("\n" * 301)
    block = "".join(f"    total = total + {n} * weight\n" for n in range(8))
    (package / "one.py").write_text(
        "import os\n\ndef long(weight):\n    total = 0\n"
        + block * 8
        + "    return total, os.environ['X']\n"
    )
    (package / "two.py").write_text(
        "def other(weight):\n    total = 0\n" + block + "    return item['n']['N']\n"
    )
    monkeypatch.setattr(house, "ROOT", tmp_path)
    monkeypatch.setattr(house, "PYTHON", (tmp_path / "shared" / "harftet", tmp_path / "functions"))
    monkeypatch.setattr(house, "WEB", web)
    assert [name for _, name, _ in house.long_functions()] == ["long"]
    assert any("two.py" in b for _, b in house.duplicated_runs())
    assert house.environ_readers() == ["shared/harftet/feature/one.py"]
    assert house.raw_dynamodb_readers() == ["shared/harftet/feature/two.py"]
    assert house.lines_of(web / "app.js") > house.APP_JS_LINES
