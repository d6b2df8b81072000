"""SnapStart is one operator switch for the REST function, off by default; the API invokes the
published version through its alias whatever the switch says (docs/DEPLOY.md, "SnapStart")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harftet.store.schema import load_template

ROOT = Path(__file__).resolve().parents[1]


def test_snapstart_is_an_off_by_default_switch_on_the_rest_functions_published_versions() -> None:
    template: dict[str, Any] = load_template(ROOT / "template.yaml")
    parameter = template["Parameters"]["SnapStart"]
    assert parameter["Default"] == "Disabled"
    assert sorted(parameter["AllowedValues"]) == ["Disabled", "Enabled"]
    on = {"Fn::Equals": [{"Ref": "SnapStart"}, "Enabled"]}
    assert template["Conditions"]["SnapStartOn"] == on
    functions = {
        name: r["Properties"]
        for name, r in template["Resources"].items()
        if r["Type"] == "AWS::Serverless::Function"
    }
    rest = functions.pop("RestFunction")
    assert rest["SnapStart"] == {
        "Fn::If": ["SnapStartOn", {"ApplyOn": "PublishedVersions"}, {"Ref": "AWS::NoValue"}]
    }
    # Snapshots exist for published versions only: SAM publishes one per deploy and points
    # every Api event (and its invoke permission) at the alias.
    assert rest["AutoPublishAlias"] == "live"
    assert all("SnapStart" not in props for props in functions.values())
    assert "SnapStart" not in template.get("Globals", {}).get("Function", {})


def test_deploy_md_says_what_snapstart_costs_and_how_to_read_its_restore_time() -> None:
    text = (ROOT / "docs" / "DEPLOY.md").read_text(encoding="utf-8")
    section = text[text.index("## SnapStart") :]
    section = section[: section.find("\n## ", 1)]
    for needed in ("SnapStart=Enabled", "Restore Duration", "per GB", "register_before_snapshot"):
        assert needed in section, needed
