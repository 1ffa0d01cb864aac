"""The README tells the truth: its commands exist, its examples run, every CLI command is documented."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from planner.cli import cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.DOTALL)


def test_readme_opens_with_install_and_test_commands() -> None:
    first, second = blocks("bash")[:2]
    assert "pip install -e ." in first and "elfenland route scenarios/" in first
    scenario = re.search(r"elfenland route (\S+)", first)
    assert scenario and (ROOT / scenario.group(1)).is_file()
    assert "pip install -e '.[test]'" in second and "python -m pytest -q --slow" in second
    ci = (ROOT / ".ci" / "run").read_text()
    assert second.strip().split("&& ", 2)[-1] in ci  # CI runs exactly the README's test command


def test_every_command_documented_with_help() -> None:
    runner = CliRunner()
    for name, command in cli.commands.items():
        assert f"elfenland {name}" in README, f"README does not document 'elfenland {name}'"
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0
        assert "Example" in result.output, f"'elfenland {name} --help' has no example"
        assert command.help


def test_python_examples_run_and_print_what_they_say() -> None:
    for code in blocks("python"):
        expected = [line[2:] for line in code.splitlines() if line.startswith("# ")]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
        assert out.getvalue().splitlines() == expected


@pytest.mark.parametrize("line", [line for block in blocks("console") for line in block.splitlines()
                                  if line.startswith("$ elfenland")])
def test_console_examples_run(line: str, tmp_path: Path) -> None:
    command, _, here = line[2:].partition(" <<< ")  # a here-string feeds standard input, as a shell would
    stdin = shlex.split(here)[0].replace("\\n", "\n") + "\n" if here else None
    # The trainer keeps its score in the user's data directory: a test must not write there.
    env = {"NO_COLOR": "1", "ELFENLAND_DATA_DIR": str(tmp_path)}
    result = CliRunner().invoke(cli, shlex.split(command)[1:], input=stdin, env=env)
    assert result.exit_code == 0, result.output


DOCS = sorted((ROOT / "docs").glob("*.md"))


@pytest.mark.parametrize("page", [ROOT / "README.md", *DOCS], ids=lambda p: p.name)
def test_every_relative_link_resolves_in_the_repository(page: Path) -> None:
    # A reader of the project has the repository and nothing beside it: every link must stay inside it.
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT) and path.exists(), f"{page.name} links {target!r}, which is not in the repo"


def _markdown_table(text: str, header: str) -> list[list[str]]:
    """The rows of the Markdown table whose header row starts with ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {header}"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_rules_document_states_the_cost_table_the_code_uses() -> None:
    from planner.elfenland.rules import COSTS, Terrain, Transport

    rows = _markdown_table((ROOT / "docs" / "RULES.md").read_text(encoding="utf-8"), "transport |")
    terrains = [Terrain.PLAIN, Terrain.FOREST, Terrain.DESERT, Terrain.MOUNTAIN]
    by_title = {t.title: t for t in Transport}
    table = {by_title[name]: cells for name, *cells in rows}
    assert set(table) == set(COSTS)
    for transport, cells in table.items():
        for terrain, cell in zip(terrains, cells, strict=True):
            assert COSTS[transport].get(terrain) == (None if cell == "—" else int(cell)), (transport, terrain)


def test_the_rules_document_lists_every_rule_option_with_its_values() -> None:
    from planner.elfenland.rules import RULE_OPTIONS

    rows = _markdown_table((ROOT / "docs" / "RULES.md").read_text(encoding="utf-8"), "option |")
    documented = {name.strip("`"): [v.strip(" `") for v in values.split(",")] for name, values, _ in rows}
    assert documented == {name: list(option.texts) for name, option in RULE_OPTIONS.items()}


def test_no_readme_example_writes_over_a_tracked_file() -> None:
    # The picture example once overwrote docs/first-steps.png, a file of the repository.
    for block in blocks("bash") + blocks("console") + [README]:
        for target in re.findall(r"--(?:svg|png) (\S+)", block):
            assert not (ROOT / target).exists(), f"README example writes over {target}"
