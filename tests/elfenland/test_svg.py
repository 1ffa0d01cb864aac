"""The board picture: parse the SVG as XML and check that every piece of the position and plans is drawn."""

from __future__ import annotations

import builtins
import importlib.util
import math
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from planner.common.svg import write_picture
from planner.elfenland.board import load_board
from planner.elfenland.plan import Plan, parse_route
from planner.elfenland.position import Position, Tile
from planner.elfenland.rules import Transport
from planner.elfenland.svg import render_svg
from planner.errors import IllegalPositionError, PlannerError, UnsupportedError

NS = "{http://www.w3.org/2000/svg}"
SIMPLE = "E@RIV-THR:f,D@JAC-THR:m RIV EDR - 1"
EAST = ("U@ELV-ERG:f,U+X@ERG-TIC:f,D@BEA-ELV:p,D@BEA-STR:p,C@STR-VIR:m,T@ELV-LAP:p,P+X@LAP-VIR:p "
        "ELV PPTRRRRRDDDUUUC LAP,DAG 4 VIR")
EAST_ROUTES = ("riv:r/R tic:r/R erg/UU elv/U str:l/RR vir:m/C", "bea/D str/D vir:l/RR", "lap/T vir/PP")
HAS_CAIROSVG = importlib.util.find_spec("cairosvg") is not None


def plans_for(position: Position, *routes: str) -> list[Plan]:
    return [Plan.of(position, parse_route(position, route)) for route in routes]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def with_class(root: ET.Element, name: str, tag: str = "g") -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if name in e.get("class", "").split()]


def by_id(root: ET.Element, ident: str) -> ET.Element:
    found = [e for e in root.iter() if e.get("id") == ident]
    assert len(found) == 1, f"expected one element with id {ident!r}, found {len(found)}"
    return found[0]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(NS + "text") if "halo" not in t.get("class", "").split()]


def polygon_points(element: ET.Element) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in element.get("points", "").split())]


@pytest.fixture(scope="module")
def east() -> tuple[Position, list[Plan], ET.Element]:
    position = Position.from_str(EAST)
    plans = plans_for(position, *EAST_ROUTES)
    return position, plans, parse(render_svg(position, plans))


# -- the map ------------------------------------------------------------------------------------------------------
def test_picture_is_a_standalone_svg_document() -> None:
    svg = render_svg(Position.from_str(SIMPLE))
    assert svg.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    root = parse(svg)
    assert root.tag == NS + "svg"
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert root.find(NS + "title") is not None


def test_every_town_is_drawn_with_name_and_code() -> None:
    root = parse(render_svg(Position.from_str(SIMPLE)))
    board = load_board()
    towns = with_class(root, "town")
    assert sorted(t.get("data-code", "") for t in towns) == sorted(board.towns)
    for town in board.towns.values():
        group = by_id(root, f"town-{town.code}")
        assert group.get("data-code") == town.code
        assert town.name in texts(group) and town.code in texts(group)
        assert group.find(f"{NS}circle[@class='marker']") is not None


def test_every_connection_is_drawn_with_its_kind() -> None:
    root = parse(render_svg(Position.from_str(SIMPLE)))
    for connection in load_board().connections.values():
        group = by_id(root, "conn-" + connection.id.replace(":", "-"))
        assert group.get("data-connection") == connection.id
        classes = group.get("class", "").split()
        assert connection.kind in classes
        if connection.is_road:
            assert str(connection.terrain) in classes


def test_river_arrows_point_downstream() -> None:
    root = parse(render_svg(Position.from_str(SIMPLE)))
    board = load_board()
    rivers = [c for c in board.connections.values() if c.downstream_to is not None]
    assert len(rivers) == 7
    for river in rivers:
        down = board.towns[river.downstream_to or ""]
        up = board.towns[river.other(down.code)]
        flow = (down.x - up.x, down.y - up.y)
        arrows = with_class(by_id(root, "conn-" + river.id.replace(":", "-")), "flow", "polygon")
        assert len(arrows) >= 2
        for arrow in arrows:
            tip, left, right = polygon_points(arrow)
            base = ((left[0] + right[0]) / 2, (left[1] + right[1]) / 2)
            assert (tip[0] - base[0]) * flow[0] + (tip[1] - base[1]) * flow[1] > 0, river.id


def curve_middle(group: ET.Element) -> tuple[float, float]:
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", group.find(NS + "path").get("d", ""))]  # type: ignore[union-attr]
    (ax, ay, cx, cy, bx, by) = numbers
    return (ax + 2 * cx + bx) / 4, (ay + 2 * cy + by) / 4


def test_road_and_water_between_the_same_towns_are_drawn_apart() -> None:
    root = parse(render_svg(Position.from_str(SIMPLE)))
    board = load_board()
    pairs = {(c.a, c.b) for c in board.connections.values() if len(board.between(c.a, c.b)) > 1}
    assert len(pairs) == 7
    for a, b in pairs:
        middles = [curve_middle(by_id(root, "conn-" + c.id.replace(":", "-"))) for c in board.between(a, b)]
        assert math.dist(*middles) >= 30, (a, b)


def test_both_lakes_are_water_areas_with_their_ferry_links() -> None:
    root = parse(render_svg(Position.from_str(SIMPLE)))
    lakes = {g.get("data-lake") for g in with_class(root, "lake") if g.get("data-lake")}
    assert lakes == {"Mare Magnum", "Mare Nebulae"}
    assert len([g for g in with_class(root, "lake") if g.get("data-connection")]) == 6
    names = {t.text for t in with_class(root, "lake-name", "text")}
    assert names == {"Mare Magnum", "Mare Nebulae"}


# -- the position -----------------------------------------------------------------------------------------------
def test_every_counter_is_a_token_on_its_road(east: tuple[Position, list[Plan], ET.Element]) -> None:
    position, _, root = east
    counters = {g.get("data-road"): g for g in with_class(root, "counter")}
    assert set(counters) == {t.road for t in position.tiles}
    for tile in position.tiles:
        group = counters[tile.road]
        assert tile.transport is not None
        assert group.get("data-transport") == tile.transport.letter
        assert group.get("data-obstacle") == str(tile.obstacle).lower()
        assert tile.transport.letter in texts(group)
        assert bool(with_class(group, "obstacle")) == tile.obstacle


def test_visited_current_and_home_towns_are_marked(east: tuple[Position, list[Plan], ET.Element]) -> None:
    position, _, root = east
    visited = {g.get("data-code") for g in with_class(root, "visited")}
    assert visited == set(position.visited) == {"ELV", "LAP", "DAG"}
    current = with_class(root, "current")
    assert [g.get("data-code") for g in current] == ["ELV"]
    assert with_class(current[0], "current", "circle"), "the current town needs its ring"
    home = with_class(by_id(root, "towns"), "home")
    assert [g.get("data-code") for g in home] == ["VIR"]
    assert with_class(home[0], "home", "path"), "the home town needs its house symbol"
    marker = by_id(root, "town-VIR").find(f"{NS}circle[@class='marker']")
    assert marker is not None and marker.get("fill") != by_id(root, "town-LAP").find(
        f"{NS}circle[@class='marker']").get("fill")  # type: ignore[union-attr]


def test_no_home_symbol_without_a_home_town() -> None:
    towns = by_id(parse(render_svg(Position.from_str(SIMPLE))), "towns")
    assert not with_class(towns, "home") and not with_class(towns, "home", "path")


def test_illegal_position_is_refused() -> None:
    position = Position(at="ELV", tiles=(Tile("ELV-RIV:r", Transport.DRAGON),))
    with pytest.raises(IllegalPositionError, match="water never carries counters"):
        render_svg(position)


# -- plans -------------------------------------------------------------------------------------------------------
def test_route_steps_are_numbered_in_order_with_their_cards() -> None:
    position = Position.from_str(SIMPLE)
    [plan] = plans_for(position, "thr/E jac/D")
    root = parse(render_svg(position, [plan]))
    steps = with_class(root, "step")
    assert [s.get("data-index") for s in steps] == ["1", "2"]
    assert [(s.get("data-from"), s.get("data-to")) for s in steps] == [("RIV", "THR"), ("THR", "JAC")]
    assert [s.get("data-connection") for s in steps] == ["RIV-THR:f", "JAC-THR:m"]
    assert [s.get("data-cards") for s in steps] == ["E", "D"]
    assert all(s.get("data-plan") == "0" for s in steps)
    assert [texts(s) for s in steps] == [["1 E"], ["2 D"]]


def test_every_step_of_every_plan_is_drawn(east: tuple[Position, list[Plan], ET.Element]) -> None:
    _, plans, root = east
    for index, plan in enumerate(plans):
        steps = [s for s in with_class(root, "step") if s.get("data-plan") == str(index)]
        assert [int(s.get("data-index", 0)) for s in steps] == list(range(1, len(plan.steps) + 1))
        assert [(s.get("data-from"), s.get("data-to"), s.get("data-connection"), s.get("data-cards"))
                for s in steps] == [(s.frm, s.to, s.connection, str(s.cards)) for s in plan.steps]


def test_arrows_point_to_the_step_destination(east: tuple[Position, list[Plan], ET.Element]) -> None:
    _, _, root = east
    towns = load_board().towns
    for step in with_class(root, "step"):
        [head] = with_class(step, "arrowhead", "polygon")
        tip = polygon_points(head)[0]
        frm, to = towns[step.get("data-from", "")], towns[step.get("data-to", "")]
        assert math.dist(tip, (to.x, to.y)) < 40 < math.dist(tip, (frm.x, frm.y)), step.get("id")


def test_there_and_back_on_one_connection_draws_two_separate_arrows() -> None:
    position = Position.from_str("- ELV RRR - 1")
    [plan] = plans_for(position, "riv:r/R elv:r/RR")
    root = parse(render_svg(position, [plan]))
    lines = [polygon_points(with_class(s, "arrow", "polyline")[0]) for s in with_class(root, "step")]
    there, back = lines
    assert min(math.dist(p, q) for p in there[len(there) // 3: -len(there) // 3] for q in back) >= 5


def test_without_plans_or_with_an_empty_plan_no_step_is_drawn() -> None:
    position = Position.from_str(SIMPLE)
    bare = parse(render_svg(position))
    assert not with_class(bare, "plan") and "Route" not in texts(by_id(bare, "legend"))
    stay = parse(render_svg(position, [Plan.of(position, ())]))
    [plan] = with_class(stay, "plan")
    assert plan.get("data-route") == "-" and not with_class(stay, "step")


def test_alternatives_are_dashed_and_coloured_differently(east: tuple[Position, list[Plan], ET.Element]) -> None:
    _, plans, root = east
    plan_groups = with_class(root, "plan")
    assert {g.get("data-plan"): g.get("class") for g in plan_groups} == {
        "0": "plan best", "1": "plan alternative", "2": "plan alternative"}
    arrows = {g.get("data-plan"): with_class(g, "arrow", "polyline")[0] for g in plan_groups}
    assert arrows["0"].get("stroke-dasharray") is None
    assert arrows["1"].get("stroke-dasharray") and arrows["2"].get("stroke-dasharray")
    assert len({a.get("stroke") for a in arrows.values()}) == 3
    assert float(arrows["0"].get("stroke-width", 0)) > float(arrows["1"].get("stroke-width", 0))


def test_legend_explains_terrains_transports_markers_and_plans(east: tuple[Position, list[Plan], ET.Element]) -> None:
    _, plans, root = east
    legend = " ".join(texts(by_id(root, "legend")))
    for word in ("plain", "forest", "desert", "mountain", "river", "lake", "obstacle", "visited", "current", "home"):
        assert word in legend
    for transport in Transport:
        assert transport.title in legend
    assert "alternative" in legend
    assert str(plans[0]).split()[0] in legend


def text_box(text: ET.Element) -> tuple[float, float, float, float]:
    """A generous box around a text (town names in DejaVu Sans Bold average at most 0.66 em per character)."""
    size = float(text.get("font-size", 0))
    width = 0.7 * size * len(text.text or "")
    x = float(text.get("x", 0)) - {"start": 0, "middle": width / 2, "end": width}[text.get("text-anchor", "start")]
    return x, float(text.get("y", 0)) - 0.8 * size, width, size


def hits_circle(box: tuple[float, float, float, float], cx: float, cy: float, r: float) -> bool:
    x, y, w, h = box
    return math.hypot(cx - min(max(cx, x), x + w), cy - min(max(cy, y), y + h)) < r


def test_labels_stay_off_town_circles_and_counters(east: tuple[Position, list[Plan], ET.Element]) -> None:
    _, _, root = east
    circles = [(float(c.get("cx", 0)), float(c.get("cy", 0)), float(c.get("r", 0)))
               for c in with_class(root, "marker", "circle")]
    tokens = [(float(r.get("x", 0)), float(r.get("y", 0)), float(r.get("width", 0)), float(r.get("height", 0)))
              for g in with_class(root, "counter") for r in g.iter(NS + "rect")]
    names = [text_box(t) for t in with_class(root, "name", "text")]
    shields = [(float(r.get("x", 0)), float(r.get("y", 0)), float(r.get("width", 0)), float(r.get("height", 0)))
               for g in with_class(root, "label") for r in g.iter(NS + "rect")]
    assert len(names) == 21 and len(shields) == 11
    for box in names + shields:
        assert not any(hits_circle(box, *circle) for circle in circles), box
    for x, y, w, h in shields:
        assert not any(x < tx + tw and tx < x + w and y < ty + th and ty < y + h for tx, ty, tw, th in tokens)


def test_rendering_is_deterministic() -> None:
    position = Position.from_str(EAST)
    plans = plans_for(position, *EAST_ROUTES)
    assert render_svg(position, plans) == render_svg(position, plans)


def test_title_defaults_to_the_position_title() -> None:
    position = Position.from_str(SIMPLE).replace(title="Round 1 & more")
    assert parse(render_svg(position)).findtext(NS + "title") == "Round 1 & more"
    assert parse(render_svg(position, title="Mine")).findtext(NS + "title") == "Mine"


# -- files -------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def simple_svg() -> str:
    position = Position.from_str(SIMPLE)
    return render_svg(position, plans_for(position, "thr/E jac/D"))


def test_write_svg(tmp_path: Path, simple_svg: str) -> None:
    path = write_picture(simple_svg, tmp_path / "route.svg")
    assert path.read_text(encoding="utf-8") == simple_svg


def test_missing_directory_is_a_planner_error(tmp_path: Path, simple_svg: str) -> None:
    with pytest.raises(UnsupportedError, match=r"cannot write picture .*: folder .*nowhere.* does not exist"):
        write_picture(simple_svg, tmp_path / "nowhere" / "route.svg")


def test_unwritable_path_is_a_planner_error(tmp_path: Path, simple_svg: str) -> None:
    (tmp_path / "taken.svg").mkdir()
    with pytest.raises(PlannerError, match=r"cannot write picture .*taken\.svg"):
        write_picture(simple_svg, tmp_path / "taken.svg")


def test_unknown_picture_format_is_a_planner_error(tmp_path: Path, simple_svg: str) -> None:
    with pytest.raises(PlannerError, match=r"unknown format '\.jpg'; use a \.svg or \.png file name"):
        write_picture(simple_svg, tmp_path / "route.jpg")


def test_png_without_converter_says_how_to_install_it(tmp_path: Path, simple_svg: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # makes `import cairosvg` raise ImportError
    with pytest.raises(PlannerError, match=re.escape("pip install 'elfenland-planner[png]'")):
        write_picture(simple_svg, tmp_path / "route.png")
    assert not (tmp_path / "route.png").exists()


def test_png_without_native_cairo_says_what_is_missing(tmp_path: Path, simple_svg: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_cairo(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "cairosvg":  # what cairocffi raises when libcairo cannot be loaded
            raise OSError("no library called \"cairo-2\" was found")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "cairosvg", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_cairo)
    with pytest.raises(PlannerError, match=r"png pictures need the native cairo library .*libcairo2"):
        write_picture(simple_svg, tmp_path / "route.png")


@pytest.mark.skipif(not HAS_CAIROSVG, reason="the optional cairosvg converter is not installed")
def test_write_png(tmp_path: Path, simple_svg: str) -> None:
    path = write_picture(simple_svg, tmp_path / "route.png")
    assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.skipif(not HAS_CAIROSVG, reason="the optional cairosvg converter is not installed")
def test_png_of_broken_svg_is_a_planner_error(tmp_path: Path) -> None:
    with pytest.raises(PlannerError, match="not valid SVG"):
        write_picture("<svg", tmp_path / "route.png")
