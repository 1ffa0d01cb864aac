"""PNG pictures draw Cyrillic, Czech and Polish letters and Japanese (with fonts-noto-cjk, as .ci/run installs).

A font that lacks a script draws every letter of it as the same empty box, so two different letters would give
the same picture: each pair below must differ, and must put ink on the page.
"""

from __future__ import annotations

import os

import pytest

from planner.common.svg import font_for

cairosvg = pytest.importorskip("cairosvg", reason="PNG needs the optional cairosvg: pip install -e '.[png]'")


def _png(text: str, lang: str) -> bytes:
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40" font-family="{font_for(lang)}">'
           f'<rect width="60" height="40" fill="#fff"/><text x="8" y="30" font-size="28">{text}</text></svg>')
    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    return png


@pytest.mark.parametrize(("lang", "one", "other"), [("ja", "エ", "ル"), ("ja", "町", "森"), ("ja", "Ж", "ř"),
                                                     ("uk", "Ж", "Щ"), ("cs", "ř", "ů"), ("pl", "ł", "ż")])
def test_each_script_is_drawn_letter_by_letter(lang: str, one: str, other: str) -> None:
    blank = _png("", lang)
    first, second = _png(one, lang), _png(other, lang)
    if first == second and not os.environ.get("CI"):
        pytest.skip("no font for this script here: apt-get install fonts-noto-cjk")
    assert first != second
    assert blank not in (first, second)
