"""docs/designers.md works as written: its edition file validates, compiles, builds and diffs."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "designers.md"


def blackpoker(*args: str, cwd: Path) -> str:
    exe = shutil.which("blackpoker")
    if exe is None:
        pytest.skip("the blackpoker console script is not installed (pip install .)")
    result = subprocess.run([exe, *args], capture_output=True, text=True, cwd=cwd, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_guides_edition_file_goes_through_every_step(tmp_path: Path) -> None:
    found = re.search(r"```yaml\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    assert found is not None, "the guide shows its edition file in a yaml block"
    data = yaml.safe_load(found.group(1))
    name = f"{data['id']}.yaml"
    (tmp_path / name).write_text(found.group(1), encoding="utf-8")
    new_format = data["formats"]["add"][0]["id"]
    blackpoker("validate", name, cwd=tmp_path)
    compiled = blackpoker("compile", "--edition", name, "--format", new_format, cwd=tmp_path)
    assert f'"format": "{new_format}"' in compiled
    build = ("build", "--edition", name, "--format", new_format, "--html-only", "--out", "site")
    blackpoker(*build, cwd=tmp_path)
    assert (tmp_path / "site" / data["id"] / f"{new_format}.html").is_file()
    changes = blackpoker("diff", data["base"], name, cwd=tmp_path)
    assert f"+ {new_format}" in changes
    for action in data["actions"]["change"]:  # each changed action is listed as changed
        assert re.search(rf"~ {re.escape(action)} ", changes), changes
