"""Help text wrapped by the terminal cells it fills: Japanese broken between characters, other text as click does."""

from __future__ import annotations

import click._textwrap
import pytest
from click.testing import CliRunner
from rich.cells import cell_len

from planner.cli.elfenland import cli
from planner.cli.wrapping import CellWrapper

JAPANESE = ("局面はファイル（フォルダはその *.toml ファイル、- は標準入力を読む）、コンパクト記法の局面全体"
            "（プランナーが印刷する形）、フラグ、またはその両方（フラグがファイルより優先）から得る。"
            "各パズルをこの SVG ファイル（.svg）に描く。")


@pytest.mark.parametrize("width", [20, 33, 60, 78])
def test_japanese_lines_fit_their_cells_and_keep_every_character(width: int) -> None:
    lines = CellWrapper(width, initial_indent="  ", subsequent_indent="    ").wrap(JAPANESE)
    assert len(lines) > 1
    assert all(cell_len(line) <= width for line in lines)
    assert "".join(line.strip() for line in lines).replace(" ", "") == JAPANESE.replace(" ", "")
    assert not any(line.strip()[0] in "、。）」" for line in lines)  # no line starts with closing punctuation
    assert not any(line.rstrip()[-1] in "（「" for line in lines)  # nor ends with an opening bracket


def test_text_without_wide_characters_wraps_as_click_wraps_it() -> None:
    text = "Seconds per solve before the best route so far is answered unproven (Ctrl-C answers at once). " * 3
    ours = CellWrapper(40, initial_indent="  ", subsequent_indent="    ").wrap(text)
    assert ours == click._textwrap.TextWrapper(40, initial_indent="  ", subsequent_indent="    ").wrap(text)


def test_japanese_help_fits_an_80_column_terminal() -> None:
    output = CliRunner().invoke(cli, ["--lang", "ja", "route", "--help"], terminal_width=80).output
    prose = [line for line in output.splitlines() if not line.lstrip().startswith(("elfenland ", "--visited"))]
    assert max(cell_len(line) for line in prose) <= 80, max(prose, key=cell_len)
