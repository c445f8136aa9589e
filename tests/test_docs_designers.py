"""docs/designers.md works as written: its edition file validates, compiles, builds, diffs, is
compared with its base, plays, and its games replay."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from blackpoker.cli.main import main
from blackpoker.compiler.environment import Environment
from click.testing import CliRunner

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
    compare = re.search(
        r"^blackpoker simulate --compare (\S+) (\S+)", GUIDE.read_text(encoding="utf-8"), re.M
    )
    assert compare is not None and compare.group(2) == name, "the guide compares its file with the base"
    report = blackpoker("simulate", "--compare", *compare.groups(), "-n", "2", cwd=tmp_path)
    assert f"A: {data['base']} " in report and f"B: {data['id']} " in report
    # play it: the guide's games (recorded as logs), its play command, and the replay of the logs
    text = GUIDE.read_text(encoding="utf-8")
    simulate = re.search(r"^blackpoker simulate (--edition \S+ --format \S+)", text, re.M)
    assert simulate is not None and name in simulate.group(1), "the guide simulates its file"
    games = ("-n", "2", "--seed", "1", "--logs", "logs")
    blackpoker("simulate", *simulate.group(1).split(), *games, cwd=tmp_path)
    assert len(list((tmp_path / "logs").iterdir())) == 2
    play = re.search(r"^blackpoker play +(--edition \S+ --format \S+)", text, re.M)
    assert play is not None and name in play.group(1), "the guide plays its file"
    exe = shutil.which("blackpoker")
    assert exe is not None
    session = subprocess.run(
        [exe, "play", *play.group(1).split(), "--seed", "1"],
        input="q\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        timeout=120,
    )
    printed = data["formats"]["add"][0]["name"]  # the table names the format as its sheet does
    assert session.returncode == 0 and printed in session.stdout + session.stderr, session.stderr
    replay = re.search(r"`blackpoker replay (--edition \S+) LOGS/`", text)
    assert replay is not None and name in replay.group(1), "the guide replays its file's logs"
    replayed = blackpoker("replay", *replay.group(1).split(), "logs", cwd=tmp_path)
    assert "2 replayed, 0 failed" in replayed and replayed.count("matches") == 2


def test_the_worked_example_shows_the_built_in_based_editions_and_their_diffs() -> None:
    """The guide's worked example quotes built-in based editions as they are (a file's block,
    and the fields it leaves out each quoted in a block of its own: the inherited lists'
    and regulations' edits), and the output of `blackpoker diff` on them as the command
    prints it now."""
    text = GUIDE.read_text(encoding="utf-8")
    env = Environment()
    shown = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", text, re.S)]
    built_in = [data for data in shown if data.get("id") in env.builtin_editions()]
    fragments = [data for data in shown if "kind" not in data]
    assert len(built_in) >= 2 and all("base" in data for data in built_in)
    for data in built_in:
        whole = yaml.safe_load(env.builtin_path(data["id"]).read_text(encoding="utf-8"))
        assert data == {key: whole[key] for key in data}
        for key in whole.keys() - data.keys():
            assert any(part.get(key) == whole[key] for part in fragments), (data["id"], key)
    runs = re.findall(r"^\$ blackpoker (diff \S+ \S+)\n(.*?)(?=^\$ |^```)", text, re.S | re.M)
    assert len(runs) >= 2
    for command, output in runs:
        result = CliRunner().invoke(main, command.split())
        assert result.exit_code == 0 and result.output == output, command
