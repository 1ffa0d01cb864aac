"""planner.common.svg: the geometry, label placement, elements and picture files both games' maps are drawn with.

Every expected number is worked out by hand from the definitions (a quadratic Bezier, axis-aligned boxes).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from planner.common.svg import (
    INK,
    Box,
    Curve,
    Placer,
    Point,
    add,
    along,
    check_picture_path,
    chevron,
    fmt,
    label,
    offset,
    points_attr,
    text_colour,
    trim,
    unit,
    wrap,
    write_picture,
)
from planner.errors import UnsupportedError


def test_a_curve_runs_from_start_through_its_midpoint_to_end() -> None:
    curve = Curve((0, 0), (10, 20), (20, 0))
    assert curve.at(0) == (0, 0) and curve.at(1) == (20, 0)
    assert curve.at(0.5) == (10, 10)  # (1/4)*start + (1/2)*control + (1/4)*end
    assert curve.reversed().at(0.25) == curve.at(0.75)
    assert curve.points(2) == [(0, 0), (10, 10), (20, 0)]
    assert curve.d() == "M0,0 Q10,20 20,0"


def test_boxes_overlap_contain_and_touch_circles() -> None:
    a, b = Box(0, 0, 10, 10), Box(5, 5, 10, 10)
    assert a.overlap(b) == 25 and b.overlap(a) == 25
    assert a.overlap(Box(10, 0, 5, 5)) == 0  # sharing an edge is no overlap
    assert a.contains((10, 10)) and not a.contains((10.1, 5))
    assert Box(2, 2, 3, 3).inside(a) and not b.inside(a)
    assert a.hits_circle(13, 5, 4) and not a.hits_circle(14, 5, 4)  # nearest point (10, 5): 3 < 4, 4 is not < 4


def test_unit_fmt_and_points() -> None:
    assert unit((3, 4)) == (0.6, 0.8) and unit((0, 0)) == (0, 0)
    assert [fmt(v) for v in (2.0, 2.25, -0.04, 1234.56)] == ["2", "2.2", "-0", "1234.6"]
    assert points_attr([(1, 2), (3.5, 4)]) == "1,2 3.5,4"


def test_offset_moves_a_line_to_the_right_of_its_travel() -> None:
    # Travelling right (+x) on screen (y down), the right-hand side is +y.
    assert offset([(0, 0), (10, 0)], 2) == [(0, 2), (10, 2)]
    assert offset([(0, 0), (0, 10)], 2) == [(-2, 0), (-2, 10)]  # travelling down, the right is -x


def test_trim_cuts_a_line_where_it_leaves_a_circle() -> None:
    start, *rest = trim([(0, 0), (10, 0), (20, 0)], (0, 0), 5)
    assert math.isclose(start[0], 5, abs_tol=1e-4) and start[1] == 0
    assert rest == [(10, 0), (20, 0)]
    assert trim([(0, 0), (1, 0)], (0, 0), 5) == [(1, 0)]  # all inside: only the end is left


def test_along_finds_a_fraction_of_the_length_and_the_direction_there() -> None:
    line: list[Point] = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]
    assert along(line, 0.25) == ((5, 0), (1, 0))
    assert along(line, 0.75) == ((10, 5), (0, 1))
    assert along(line, 1.5) == ((10, 10), (0, 1))  # past the end: the end


def test_wrap_breaks_at_spaces_and_after_a_notations_commas() -> None:
    assert wrap("one two three", 7) == ["one two", "three"]
    assert wrap("E@RIV-THR:f,D@JAC-THR:m RIV", 12) == ["E@RIV-THR:f,", "D@JAC-THR:m", "RIV"]
    assert wrap("", 10) == [""]


def test_text_colour_reads_on_light_and_dark_fills() -> None:
    assert text_colour("#ffffff") == INK
    assert text_colour("#000000") == "#ffffff"
    # Luma 0.299*r + 0.587*g + 0.114*b: pure green is 149.7, just dark enough for white.
    assert text_colour("#00ff00") == "#ffffff"


def test_add_names_attributes_the_svg_way_and_leaves_out_none() -> None:
    root = ET.Element("svg")
    element = add(root, "text", "Rivinia", class_="town", stroke_width=1.25, font_weight=None, x=3)
    assert element.attrib == {"class": "town", "stroke-width": "1.2", "x": "3"} and element.text == "Rivinia"


def test_a_label_is_drawn_twice_halo_first() -> None:
    root = ET.Element("g")
    label(root, 1, 2, "Tichih", size=7, bold=True)
    halo, text = list(root)
    assert halo.get("class") == "halo" and halo.get("stroke-width") == "2"  # 7 / 3.5
    assert text.get("fill") == INK and text.get("font-weight") == "bold" and text.text == halo.text == "Tichih"
    plain = ET.Element("g")
    label(plain, 1, 2, "Tichih", size=7, halo=None)
    assert len(plain) == 1


def test_a_chevron_points_its_tip_along_the_direction() -> None:
    root = ET.Element("g")
    arrow = chevron(root, (10, 0), (1, 0), size=4, fill="#000000")
    # The base is 4 back along the direction, the wings 0.55 * 4 to either side of it.
    assert arrow.get("points") == "10,0 6,2.2 6,-2.2"


def test_the_placer_keeps_labels_off_each_other_circles_and_lines() -> None:
    placer = Placer(Box(0, 0, 100, 100))
    first = placer.place([Box(10, 10, 20, 10)])
    assert first == Box(10, 10, 20, 10)
    # The first candidate overlaps the label placed: the second, free one is taken.
    assert placer.place([Box(15, 12, 20, 10), Box(50, 50, 20, 10)]) == Box(50, 50, 20, 10)
    placer.circles.append((80, 20, 5))
    assert placer.place([Box(75, 15, 10, 10), Box(40, 80, 10, 10)]) == Box(40, 80, 10, 10)
    placer.add_line("road", [(5, 40), (15, 40)])
    assert placer.place([Box(0, 35, 20, 10), Box(60, 30, 10, 10)]) == Box(60, 30, 10, 10)
    # A label may sit on its own line: the first candidate, cheapest by order, wins.
    assert placer.place([Box(0, 35, 20, 10), Box(60, 65, 10, 10)], ignore=frozenset({"road"})) == Box(0, 35, 20, 10)
    # Off the frame costs most: a box crossing it loses to one overlapping a label.
    assert placer.place([Box(95, 90, 10, 20), Box(55, 55, 5, 5)]) == Box(55, 55, 5, 5)


def test_picture_paths_are_checked_before_any_work(tmp_path: Path) -> None:
    assert check_picture_path(tmp_path / "map.SVG") == tmp_path / "map.SVG"
    with pytest.raises(UnsupportedError, match=r"unknown format '\.jpg'; use a \.svg or \.png file name"):
        check_picture_path(tmp_path / "map.jpg")
    with pytest.raises(UnsupportedError, match="unknown format '\\(none\\)'"):
        check_picture_path(tmp_path / "map")
    with pytest.raises(UnsupportedError, match="folder .* does not exist"):
        check_picture_path(tmp_path / "gone" / "map.svg")


def test_write_picture_writes_svg_as_is(tmp_path: Path) -> None:
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'
    path = write_picture(svg, tmp_path / "map.svg")
    assert path.read_text(encoding="utf-8") == svg


def test_write_picture_writes_png_through_the_converter(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg", reason="PNG needs the optional cairosvg: pip install -e '.[png]'")
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'
    assert write_picture(svg, tmp_path / "map.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
