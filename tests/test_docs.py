"""The README and the docs tell the truth: their commands exist, their examples run, every CLI command is documented,
and CI runs what the README says it runs."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from planner.cli.elfenland import cli as elfenland
from planner.cli.expedition import cli as expedition
from planner.elfenland.position_file import position_from_toml
from planner.elfenland.solvers import solve

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]
COMMANDS: dict[str, click.Group] = {"elfenland": elfenland, "expedition": expedition}
QUICK_LANE = "python -m pytest -q -n auto"
SLOW_LANE = "python -m pytest -q -n auto --slow -m slow"


def blocks(language: str, page: Path = README) -> list[str]:
    """The fenced blocks of ``language`` in ``page``."""
    return re.findall(rf"```{language}\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL)


def ci_commands() -> list[str]:
    """The command lines of ``.ci/run`` (comments and blank lines left out)."""
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def test_readme_opens_with_install_and_test_commands() -> None:
    first, second = blocks("bash")[:2]
    assert "pip install -e ." in first and "elfenland route scenarios/" in first
    scenario = re.search(r"elfenland route (\S+)", first)
    assert scenario and (ROOT / scenario.group(1)).is_file()
    assert second.strip().endswith(f"pip install -e '.[test]' && {QUICK_LANE}")


def test_ci_runs_the_readme_test_command_then_the_slow_lane_ruff_and_mypy() -> None:
    readme_command = blocks("bash")[1].strip().split("&& ", 2)[-1]  # without the venv, which CI makes elsewhere
    commands = ci_commands()
    assert commands[0] == "set -euo pipefail"  # any failing step fails CI, pytest's exit code 5 included
    steps = [readme_command, SLOW_LANE, "ruff check planner tests", "mypy"]
    assert all(step in commands for step in steps), commands
    assert [commands.index(step) for step in steps] == sorted(commands.index(step) for step in steps)


def test_the_readme_says_how_to_run_the_slow_lane() -> None:
    text = README.read_text(encoding="utf-8")
    assert f"apt-get install chromium-headless-shell && {SLOW_LANE}" in text


@pytest.mark.parametrize("game", COMMANDS)
def test_every_command_documented_with_help(game: str) -> None:
    readme, cli_page = README.read_text(encoding="utf-8"), (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    runner = CliRunner()
    group = COMMANDS[game]
    for name, command in group.commands.items():
        assert f"{game} {name}" in readme, f"README does not mention '{game} {name}'"
        assert f"`{game} {name}" in cli_page, f"docs/cli.md does not document '{game} {name}'"
        result = runner.invoke(group, [name, "--help"])
        assert result.exit_code == 0
        assert command.help
        if game == "elfenland":
            assert "Example" in result.output, f"'{game} {name} --help' has no example"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_python_examples_run_and_print_what_they_say(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    for code in blocks("python", page):
        expected = [line[2:] for line in code.splitlines() if line.startswith("# ")]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, page.name, "exec"), {})
        assert out.getvalue().splitlines() == expected


# -- console examples -----------------------------------------------------------------------------------------------
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "a": "\a", "e": "\x1b", "0": "\0"}


def here_string(word: str) -> str:
    """What bash feeds to standard input for ``<<< word``: the word after quote removal, and a newline.

    ``'a\\nb'`` keeps its backslash (single quotes take everything literally); ``$'a\\nb'`` is ANSI-C quoting, where
    ``\\n`` is a newline.
    """
    if word.startswith("$'") and word.endswith("'") and len(word) >= 3:
        body = word[2:-1]
        text = re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), "\\" + m.group(1)), body)
    else:
        (text,) = shlex.split(word)
    return text + "\n"


@pytest.mark.parametrize(("word", "fed"), [
    ("'hint\\nskip'", "hint\\nskip\n"),
    ("$'hint\\nskip\\nquit'", "hint\nskip\nquit\n"),
    ('"two words"', "two words\n"),
    ("plain", "plain\n"),
    ("$'back\\\\slash'", "back\\slash\n"),
])
def test_here_strings_are_read_as_bash_reads_them(word: str, fed: str) -> None:
    assert here_string(word) == fed
    bash = shutil.which("bash")
    if bash is not None:  # and bash agrees
        assert subprocess.run([bash, "-c", f"cat <<< {word}"], capture_output=True, text=True,
                              check=True).stdout == fed


def console_blocks() -> list[tuple[str, list[str]]]:
    """Every ``console`` block of the README and the docs holding ``$ elfenland`` or ``$ expedition`` lines, as
    (page, its command lines in order): a reader pastes a block whole, so a line may use what one before it wrote."""
    found = []
    prompts = tuple(f"$ {game} " for game in COMMANDS)
    for page in PAGES:
        for block in blocks("console", page):
            lines = [line[2:] for line in block.splitlines() if line.startswith(prompts)]
            if lines:
                found.append((page.name, lines))
    return found


def console_lines() -> list[tuple[str, str]]:
    """Every ``$ elfenland`` and ``$ expedition`` line of the README and the docs, as (page, line)."""
    return [(page, line) for page, lines in console_blocks() for line in lines]


def test_every_page_with_commands_has_them_run() -> None:
    assert {page for page, _ in console_lines()} >= {"README.md", "cli.md", "learning.md", "expedition.md"}


@pytest.mark.parametrize(("page", "lines"), console_blocks(),
                         ids=[f"{page}: {lines[0]}" for page, lines in console_blocks()])
def test_console_examples_run(page: str, lines: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # In a folder of its own, beside the bundled scenarios: a picture or an export lands there, not in the repository.
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    monkeypatch.chdir(tmp_path)
    # The trainer keeps its score in the user's data directory: a test must not write there.
    env = {"NO_COLOR": "1", "ELFENLAND_DATA_DIR": str(tmp_path / "data")}
    for line in lines:  # in order, in one folder, as a reader pastes the block
        command, _, here = line.partition(" <<< ")  # a here-string feeds standard input, as bash would
        stdin = here_string(here) if here else None
        game, *args = shlex.split(command, comments=True)
        result = CliRunner().invoke(COMMANDS[game], args, input=stdin, env=env)
        assert result.exit_code == 0, f"{page}: $ {line}\n{result.output}"


def test_the_trainer_example_answers_each_line_it_is_fed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Pasted into bash, the README's session sends three lines: the trainer hints, shows the answer, and stops.
    (line,) = [line for page, line in console_lines() if page == "README.md" and " <<< " in line]
    command, _, here = line.partition(" <<< ")
    monkeypatch.chdir(tmp_path)
    game, *args = shlex.split(command)
    result = CliRunner().invoke(COMMANDS[game], [*args, "--no-scores"], input=here_string(here), env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    assert "aim for" in result.output and "best:" in result.output

@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_resolves_in_the_repository(page: Path) -> None:
    # A reader of the project has the repository and nothing beside it: every link must stay inside it.
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT) and path.exists(), f"{page.name} links {target!r}, which is not in the repo"


def test_the_readme_stays_a_front_page() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 220


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


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_example_writes_over_a_tracked_file(page: Path) -> None:
    # The picture example once overwrote docs/first-steps.png, a file of the repository.
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"--(?:svg|png|save|export) (\S+)", text):
        assert not (ROOT / target.strip("`")).exists(), f"{page.name}: an example writes over {target}"



def test_the_position_file_examples_are_legal_and_their_answer_holds() -> None:
    # docs/cli.md shows a whole position file, then the round's keys as a fragment to add to one.
    whole, round_keys = blocks("toml", ROOT / "docs" / "cli.md")
    position = position_from_toml(whole, source="docs/cli.md")
    assert position.expect is not None
    # By hand: the only payable ways out are 2 rafts to Virst or Strykhaven across the lake, 1 raft down to
    # Rivinia (visited) and on by the dragons to Lapphalya, or a 4-card caravan to Erg'Eren; one new town at most,
    # and only Virst, the home town, costs no penalty in the last round.
    assert (position.expect.score, position.expect.cards_spent) == (1, 2)
    for solver in ("search", "cpsat"):
        plan = solve(position, solver=solver).plan
        assert (plan.score, plan.cards_spent) == (1, 2), solver
    head, tiles = whole.split("[tiles]")
    tiles = "[tiles]" + tiles.split("[rules]")[0]
    first, opponent = round_keys.split("[[opponent]]")
    with_round = position_from_toml(head + first + tiles + "[[opponent]]" + opponent, source="docs/cli.md")
    assert str(with_round.supply) == "PD" and [o.name for o in with_round.opponents] == ["Anna"]
