"""The board picture: the Elfenland map as a standalone SVG, with counters, markers and planned routes.

The picture is plain SVG 1.1 built with :mod:`xml.etree.ElementTree` and the primitives of
:mod:`planner.common.svg` (no dependency); files are written by :func:`planner.common.svg.write_picture`, whose PNG
output needs the optional ``cairosvg`` package (``pip install 'elfenland-planner[png]'``).

Every piece carries a stable id, class or ``data-*`` attribute so that tests and scripts can find it:
``<g class="town" id="town-ELV" data-code="ELV">``, ``<g class="connection road forest" id="conn-LAP-RIV-f"
data-connection="LAP-RIV:f">`` (ids swap ``:`` for ``-``), ``<g class="counter" data-road="LAP-RIV:f"
data-transport="D" data-obstacle="false">``, ``<g class="step" data-plan="0" data-index="1" data-from="RIV"
data-to="THR" data-connection="RIV-THR:f" data-cards="E">`` and ``<g id="legend">``.

Layout: every connection is a quadratic curve between town centres. It is straight, except where a road and a
water link join the same two towns; there the two bow apart so that both stay visible. Labels (town names, step
numbers with their cards) are placed by a small greedy search that keeps them off town circles, counters, other
labels and, where it can, off lines; every text has a light halo drawn under it. The geometry and the label
placement live in :mod:`planner.elfenland.svg_layout`; this module builds the SVG elements and writes files.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from planner.common.i18n import language
from planner.common.svg import (
    HALO,
    INK,
    Box,
    Placer,
    Point,
    add,
    along,
    chevron,
    closed_smooth_path,
    fmt,
    font_for,
    label,
    points_attr,
    text_colour,
    text_width,
    trim,
    wrap,
)
from planner.elfenland.board import Terrain, load_board
from planner.elfenland.plan import Plan, Step
from planner.elfenland.position import Position
from planner.elfenland.rules import COUNTER_TRANSPORTS, Transport
from planner.elfenland.svg_layout import Layout, route_lines

__all__ = ["BOARD_CROP", "board_layout", "render_svg"]

MAP_W, MAP_H = 1000, 700
PAD = 40
"""Room around the 1000 x 700 board frame for labels of towns near the edge."""
HEADER = 44
"""Height of the title line; each line of the position's notation below it adds 14 px."""
LEGEND_W = 290
WIDTH = PAD + MAP_W + PAD + LEGEND_W + 10
PAPER = "#f7f0dc"

TERRAIN_COLOURS = {Terrain.PLAIN: "#a5d15a", Terrain.FOREST: "#2e7d32", Terrain.DESERT: "#e8b64c",
                   Terrain.MOUNTAIN: "#8a8580"}
RIVER = "#1e78d8"
LAKE_FILL = "#b9dcf5"
LAKE_LINE = "#2a6fb0"
TRANSPORT_COLOURS = {Transport.PIG: "#f7a8c4", Transport.ELFCYCLE: "#ff9f1c", Transport.CLOUD: "#f4f6f8",
                     Transport.UNICORN: "#7b52c7", Transport.TROLL: "#6b4a35", Transport.DRAGON: "#c62828",
                     Transport.RAFT: "#1e78d8"}
BEST = "#e0007a"
ALTERNATIVES = ("#00897b", "#3f51b5", "#ef6c00", "#6d4c41")
OBSTACLE = "#d50000"
CURRENT = "#ff6d00"
HOME = "#fdd835"
VISITED_FILL = "#c4c4c4"


BOARD_CROP = Box(-8.0, 18.0, 1050.0, 632.0)
"""The part of the board frame that :func:`render_svg` keeps with ``board_only``: every town, name and label, and
little else (the towns span x 75..930, y 61..597)."""


@functools.cache
def board_layout() -> Layout:
    """The board's layout, computed once (it never changes)."""
    return Layout(load_board())


def _safe_id(text: str) -> str:
    return text.replace(":", "-")


def _token(parent: ET.Element, x: float, y: float, transport: Transport, *, obstacle: bool) -> Box:
    """A counter token centred on (x, y); returns its box (obstacle badge included)."""
    w, h = 26.0, 20.0
    fill = TRANSPORT_COLOURS[transport]
    add(parent, "rect", x=x - w / 2, y=y - h / 2, width=w, height=h, rx=4.0, fill=fill, stroke=INK,
         stroke_width=1.5)
    label(parent, x, y + 5.0, transport.letter, size=14, bold=True, anchor="middle", fill=text_colour(fill),
           halo=None)
    if obstacle:
        badge = add(parent, "g", class_="obstacle")
        bx, by = x + w / 2, y - h / 2
        add(badge, "circle", cx=bx, cy=by, r=7.5, fill=OBSTACLE, stroke="#ffffff", stroke_width=1.5)
        add(badge, "path", d=f"M{fmt(bx - 3.5)},{fmt(by - 3.5)} L{fmt(bx + 3.5)},{fmt(by + 3.5)} "
                              f"M{fmt(bx + 3.5)},{fmt(by - 3.5)} L{fmt(bx - 3.5)},{fmt(by + 3.5)}",
             stroke="#ffffff", stroke_width=2.2, stroke_linecap="round")
        return Box(x - w / 2, by - 8, w / 2 + 16, h + (y - h / 2 - by) + 8)
    return Box(x - w / 2, y - h / 2, w, h)


def _house(parent: ET.Element, x: float, y: float, *, size: float = 15.0) -> ET.Element:
    """The home-town symbol: a small house whose bottom-centre is (x, y)."""
    s = size
    return add(parent, "path", class_="home", fill=HOME, stroke=INK, stroke_width=1.4, stroke_linejoin="round",
                d=f"M{fmt(x - s / 2)},{fmt(y)} V{fmt(y - s * 0.55)} L{fmt(x)},{fmt(y - s)} L{fmt(x + s / 2)},"
                  f"{fmt(y - s * 0.55)} V{fmt(y)} Z")


# -- the picture ----------------------------------------------------------------------------------------------
def render_svg(position: Position, plans: Sequence[Plan] = (), *, title: str | None = None,
               board_only: bool = False) -> str:
    """The Elfenland map with the position's counters and markers, and the plans' routes, as a standalone SVG.

    ``plans[0]`` is drawn as the best route (numbered arrows with the cards paid per step); any further plans
    are drawn as dashed alternatives. The title defaults to the position's title. ``board_only`` draws the map
    alone, cropped to :data:`BOARD_CROP` in board coordinates (no title, notation or legend): the table page shows
    the rest as HTML, and a phone has no room to spare.

    Raises:
        IllegalPositionError: the position breaks the rules (e.g. a counter on water).
    """
    position.check()
    board = position.board
    layout = board_layout()
    if board_only:
        crop = BOARD_CROP
        root = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "version": "1.1", "width": fmt(crop.w),
                                  "height": fmt(crop.h), "viewBox": f"{fmt(crop.x)} {fmt(crop.y)} {fmt(crop.w)} "
                                  f"{fmt(crop.h)}", "font-family": font_for(language()),
                                  "xml:lang": language()})
        add(root, "title", title or position.title or "Elfenland board")
        board_g = add(root, "g", id="board")
        add(board_g, "rect", x=crop.x, y=crop.y, width=crop.w, height=crop.h, fill="#efe4c4")
        placer = Placer(Box(crop.x + 2, crop.y + 2, crop.w - 4, crop.h - 4))
    else:
        notation = wrap(f"position: {position}", 190)
        top = HEADER + 14 * len(notation) + 8
        height = top + MAP_H + PAD + 10
        root = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "version": "1.1", "width": str(WIDTH),
                                  "height": str(height), "viewBox": f"0 0 {WIDTH} {height}",
                                  "font-family": font_for(language()), "xml:lang": language()})
        add(root, "title", title or position.title or "Elfenland route")
        add(root, "rect", x=0, y=0, width=WIDTH, height=height, fill=PAPER)
        label(root, PAD, 28.0, title or position.title or "Elfenland", size=20, bold=True, halo=None)
        for number, line in enumerate(notation):
            label(root, PAD, HEADER + 3 + 14 * number, line, size=11, fill="#5a4a3a", halo=None, cls="notation")
        board_g = add(root, "g", id="board", transform=f"translate({PAD},{top})")
        add(board_g, "rect", x=-PAD + 8, y=-8, width=MAP_W + 2 * PAD - 16, height=MAP_H + PAD - 8, rx=10,
             fill="#efe4c4", stroke="#c9b88f", stroke_width=1.5)
        placer = Placer(Box(-PAD + 10, -6, MAP_W + 2 * PAD - 20, MAP_H + PAD - 12))

    for town in board.towns:
        placer.circles.append((*layout.centres[town], layout.outer(town, position) + 1.5))

    lakes_g = add(board_g, "g", id="lakes")
    _draw_connections(board_g, layout, placer)
    lake_names_g = add(board_g, "g", id="lake-names")
    routes_g = add(board_g, "g", id="routes")
    counters_g = add(board_g, "g", id="counters")
    for tile in position.tiles:
        if tile.transport is None:
            continue
        x, y = layout.curves[tile.road].at(0.5)
        group = add(counters_g, "g", class_="counter", id=f"counter-{_safe_id(tile.road)}", data_road=tile.road,
                     data_transport=tile.transport.letter, data_obstacle=str(tile.obstacle).lower())
        add(group, "title", f"{tile.transport.title} counter{' and obstacle' if tile.obstacle else ''} on {tile.road}")
        placer.boxes.append(_token(group, x, y, tile.transport, obstacle=tile.obstacle))

    drawn = [route_lines(layout, plan, index) for index, plan in enumerate(plans)]
    for index, lines in enumerate(drawn):
        for number, points in enumerate(lines, 1):
            placer.add_line(f"step-{index}-{number}", points)
    _draw_lakes(lakes_g, lake_names_g, layout, placer)
    towns_g = add(board_g, "g", id="towns")
    _draw_towns(towns_g, layout, position, placer)
    groups = {index: add(routes_g, "g") for index in reversed(range(len(plans)))}  # the best plan on top
    for index, plan in enumerate(plans):  # and its labels get the first pick of places
        _draw_route(groups[index], layout, position, plan, index, drawn[index], placer)
    if not board_only:
        _draw_legend(root, top, position, plans)
    ET.indent(root, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _draw_lakes(parent: ET.Element, names: ET.Element, layout: Layout, placer: Placer) -> None:
    """Each lake's water, and its name where no line or route crosses it (names go in their own layer)."""
    for lake in layout.lakes:
        group = add(parent, "g", class_="lake", id=f"lake-{lake.replace(' ', '-')}", data_lake=lake)
        add(group, "path", d=closed_smooth_path(layout.lake_outline(lake)), fill=LAKE_FILL, stroke=LAKE_LINE,
             stroke_width=1.5)
        cx, cy = layout.lake_centre(lake)
        size = 11.5
        w, h = text_width(lake, size) + 4, size * 1.3
        spots = [(cx + dx, cy + dy) for dy in (0, -14, 14, -28, 28) for dx in (0, -14, 14)]
        box = placer.place([Box(x - w / 2, y - h / 2, w, h) for x, y in spots])
        label(names, box.x + w / 2, box.y + h / 2 + size * 0.36, lake, size=size, fill=LAKE_LINE, italic=True,
               anchor="middle", halo=LAKE_FILL, cls="lake-name")


def _draw_connections(parent: ET.Element, layout: Layout, placer: Placer) -> None:
    group = add(parent, "g", id="connections")
    for c in sorted(layout.board.connections.values(), key=lambda c: (c.is_road, c.id)):
        curve = layout.curves[c.id]
        kind = f"road {c.terrain}" if c.is_road else c.kind
        g = add(group, "g", class_=f"connection {kind}", id=f"conn-{_safe_id(c.id)}", data_connection=c.id)
        add(g, "title", f"{c.id}: {layout.board.towns[c.a].name} - {layout.board.towns[c.b].name}, {c.terrain}")
        placer.add_line(c.id, curve.points(40))
        if c.is_road:
            add(g, "path", d=curve.d(), fill="none", stroke=INK, stroke_width=9, stroke_linecap="round")
            add(g, "path", d=curve.d(), fill="none", stroke=TERRAIN_COLOURS[c.terrain], stroke_width=6,
                 stroke_linecap="round")
        elif c.terrain is Terrain.RIVER:
            add(g, "path", d=curve.d(), fill="none", stroke=RIVER, stroke_width=6, stroke_linecap="round")
            flow = (curve if c.downstream_to == c.b else curve.reversed()).points(48)
            for t in (0.34, 0.54, 0.74):
                chevron(g, *along(flow, t), size=11, fill="#0b3d91", cls="flow")
        else:
            add(g, "path", d=curve.d(), fill="none", stroke=LAKE_LINE, stroke_width=2.5,
                 stroke_dasharray="7 5", class_="ferry")


def _draw_towns(parent: ET.Element, layout: Layout, position: Position, placer: Placer) -> None:
    board = layout.board
    # Home symbol first, so names avoid it.
    icons: dict[str, Point] = {}
    if position.home is not None:
        x, y = layout.centres[position.home]
        d = layout.outer(position.home, position) * 0.71 + 9
        spots = [(x - d, y - d), (x + d, y - d), (x - d, y + d), (x + d, y + d)]
        box = placer.place([Box(sx - 9, sy - 9, 18, 18) for sx, sy in spots])
        icons[position.home] = (box.x + 9, box.y + 9 + 7.5)
    for town in board.towns.values():
        code = town.code
        x, y = layout.centres[code]
        r = layout.radius(code)
        visited = code in position.visited
        classes = ["town"] + [c for c, on in (("capital", town.capital), ("visited", visited),
                                               ("current", code == position.at), ("home", code == position.home))
                              if on]
        g = add(parent, "g", class_=" ".join(classes), id=f"town-{code}", data_code=code, data_name=town.name,
                 data_visited=str(visited).lower())
        add(g, "title", f"{town.name} ({code}){' - marker collected' if visited else ''}")
        if code == position.at:
            add(g, "circle", class_="current", cx=x, cy=y, r=r + 6, fill="none", stroke=CURRENT, stroke_width=4.5)
        if town.capital:
            add(g, "circle", cx=x, cy=y, r=r + 3, fill="none", stroke=INK, stroke_width=1.5)
        add(g, "circle", class_="marker", cx=x, cy=y, r=r, fill=VISITED_FILL if visited else "#fffdf3",
             stroke="#7a7a7a" if visited else INK, stroke_width=2.2)
        label(g, x, y + 3.5, code, size=10, bold=True, anchor="middle", fill="#666666" if visited else INK,
               halo=None, cls="code")
        if code in icons:
            _house(g, *icons[code])
        _town_name(g, x, y, layout.outer(code, position) + 1.5, town.name, visited, placer)


def _town_name(parent: ET.Element, x: float, y: float, r: float, name: str, visited: bool, placer: Placer) -> None:
    size = 13.0
    w, h = text_width(name, size, bold=True) * 1.05 + 6, size * 1.2
    gap = 2.0
    diag = (r + gap) * 0.75
    candidates = [
        Box(x - w / 2, y + r + gap, w, h),  # below
        Box(x - w / 2, y - r - gap - h, w, h),  # above
        Box(x + r + gap + 2, y - h / 2, w, h),  # right
        Box(x - r - gap - 2 - w, y - h / 2, w, h),  # left
        Box(x + diag, y + diag - 2, w, h),  # below right
        Box(x - diag - w, y + diag - 2, w, h),  # below left
        Box(x + diag, y - diag - h + 2, w, h),  # above right
        Box(x - diag - w, y - diag - h + 2, w, h),  # above left
    ]
    for dy in (10.0, 20.0):  # further out, if everything near is taken
        candidates += [Box(b.x, b.y + (dy if b.y > y else -dy), b.w, b.h) for b in candidates[:2]]
    box = placer.place(candidates)
    label(parent, box.x + 3, box.y + size * 0.93, name, size=size, bold=True, fill="#555555" if visited else INK,
           cls="name")


def _draw_route(group: ET.Element, layout: Layout, position: Position, plan: Plan, index: int,
                lines: list[list[Point]], placer: Placer) -> None:
    best = index == 0
    colour = _plan_colour(index)
    group.attrib.update({"class": "plan best" if best else "plan alternative", "id": f"plan-{index}",
                         "data-plan": str(index), "data-route": str(plan), "data-score": str(plan.score)})
    for number, (step, points) in enumerate(zip(plan.steps, lines, strict=True), 1):
        g = add(group, "g", class_="step", id=f"step-{index}-{number}", data_plan=index, data_index=number,
                 data_from=step.frm, data_to=step.to, data_connection=step.connection, data_cards=str(step.cards),
                 data_pay=str(step.pay))
        add(g, "title", f"step {number}: {step.frm} to {step.to} on {step.connection}, pay {step.cards} ({step.pay})")
        shaft = trim(points, layout.centres[step.frm], layout.outer(step.frm, position) + 2)
        shaft = trim(shaft[::-1], layout.centres[step.to], layout.outer(step.to, position) + 2.5)[::-1]
        size = 15.0 if best else 12.0
        tip = shaft[-1]
        _, direction = along(shaft, 1.0)
        base = trim(shaft[::-1], tip, size - 2)[::-1]
        style: dict[str, object] = {"fill": "none", "stroke_linecap": "round", "stroke_linejoin": "round"}
        if best:
            add(g, "polyline", points=points_attr(base), stroke=HALO, stroke_width=9, **style)
            add(g, "polyline", class_="arrow", points=points_attr(base), stroke=colour, stroke_width=5, **style)
        else:
            add(g, "polyline", class_="arrow", points=points_attr(base), stroke=colour, stroke_width=3.5,
                 stroke_dasharray="9 6", opacity=0.85, **style)
        chevron(g, tip, direction, size=size, fill=colour, cls="arrowhead")
        _step_label(g, step, number, shaft, colour, best, index, placer)


def _step_label(parent: ET.Element, step: Step, number: int, points: list[Point], colour: str, best: bool,
                plan_index: int, placer: Placer) -> None:
    """The step's shield, e.g. ``1 DD``: on its own line if free, else beside it; never on towns or counters."""
    text = f"{number} {step.cards}" if best else f"{number}"
    size = 12.5 if best else 10.5
    w, h = text_width(text, size, bold=True) + 10, size + 7
    candidates = []
    for side in (0.0, 1.0, -1.0):
        for f in (0.28, 0.22, 0.34, 0.16, 0.4, 0.72, 0.66, 0.78, 0.1, 0.6, 0.84, 0.46):
            (x, y), (dx, dy) = along(points, f)
            away = side * (abs(dx) * h / 2 + abs(dy) * w / 2 + 5)
            cx, cy = x - dy * away, y + dx * away
            candidates.append(Box(cx - w / 2, cy - h / 2, w, h))
    box = placer.place(candidates, ignore=frozenset({f"step-{plan_index}-{number}", step.connection}))
    shield = add(parent, "g", class_="label")
    add(shield, "rect", x=box.x, y=box.y, width=w, height=h, rx=h / 2, fill=colour if best else "#ffffff",
         stroke=HALO if best else colour, stroke_width=1.5, stroke_dasharray=None if best else "3 2")
    label(shield, box.x + w / 2, box.y + h / 2 + size * 0.36, text, size=size, bold=True, anchor="middle",
           fill="#ffffff" if best else colour, halo=None)


# -- legend ---------------------------------------------------------------------------------------------------
def _draw_legend(root: ET.Element, top: float, position: Position, plans: Sequence[Plan]) -> None:
    g = add(root, "g", id="legend", transform=f"translate({PAD + MAP_W + PAD - 10},{fmt(top - 8)})")
    add(g, "rect", x=0, y=0, width=LEGEND_W, height=MAP_H + PAD - 8, rx=10, fill=HALO, stroke="#c9b88f",
         stroke_width=1.5)
    y = 24.0

    def heading(text: str) -> None:
        nonlocal y
        label(g, 14, y, text, size=13, bold=True, halo=None)
        y += 18

    def row(text: str, *, gap: float = 19) -> None:
        nonlocal y
        label(g, 44, y + 4, text, size=11.5, halo=None)
        y += gap

    heading("Roads (terrain)")
    for terrain, colour in TERRAIN_COLOURS.items():
        for stroke, width in ((INK, 9), (colour, 6)):
            add(g, "line", x1=14, y1=y, x2=36, y2=y, stroke=stroke, stroke_width=width, stroke_linecap="round")
        row(str(terrain))
    add(g, "line", x1=12, y1=y, x2=38, y2=y, stroke=RIVER, stroke_width=6)
    chevron(g, (33, y), (1, 0), size=11, fill="#0b3d91")
    row("river, arrows point downstream")
    add(g, "rect", x=12, y=y - 8, width=26, height=16, rx=6, fill=LAKE_FILL, stroke=LAKE_LINE)
    add(g, "line", x1=14, y1=y, x2=36, y2=y, stroke=LAKE_LINE, stroke_width=2.5, stroke_dasharray="7 5")
    row("lake with ferry links", gap=25)
    heading("Counters and cards")
    for transport in COUNTER_TRANSPORTS:
        _token(g, 25, y, transport, obstacle=False)
        row(f"{transport.letter}  {transport.title}", gap=26 if transport is COUNTER_TRANSPORTS[-1] else 19)
    _token(g, 25, y, Transport.DRAGON, obstacle=True)
    row("obstacle: the road costs 1 more card", gap=22)
    add(g, "rect", x=17, y=y - 11, width=16, height=22, rx=3, fill=TRANSPORT_COLOURS[Transport.RAFT], stroke=INK)
    label(g, 25, y + 5, "R", size=13, bold=True, anchor="middle", fill="#ffffff", halo=None)
    row("R  raft card: rivers and lakes", gap=25)
    heading("Towns")
    for fill, stroke, text in (("#fffdf3", INK, "marker still to collect"), (VISITED_FILL, "#7a7a7a", "visited "
                               "(marker taken)"), (VISITED_FILL, "#7a7a7a", "current town (the boot)")):
        add(g, "circle", cx=25, cy=y, r=9, fill=fill, stroke=stroke, stroke_width=2)
        row(text)
    add(g, "circle", cx=25, cy=y - 19, r=13, fill="none", stroke=CURRENT, stroke_width=3.5)
    _house(g, 25, y + 7)
    row("home town" + (f": {position.board.towns[position.home].name}" if position.home else " (none)"), gap=25)
    if plans:
        heading("Route")
        add(g, "line", x1=12, y1=y, x2=30, y2=y, stroke=BEST, stroke_width=5)
        chevron(g, (40, y), (1, 0), size=12, fill=BEST)
        row("best plan, step by step")
        add(g, "rect", x=10, y=y - 9, width=32, height=18, rx=9, fill=BEST)
        label(g, 26, y + 4, "1 DD", size=10, bold=True, anchor="middle", fill="#ffffff", halo=None)
        row("step 1 pays 2 dragon cards")
        add(g, "rect", x=10, y=y - 9, width=32, height=18, rx=9, fill=BEST)
        label(g, 26, y + 4, "PPP", size=10, bold=True, anchor="middle", fill="#ffffff", halo=None)
        row("unlike the counter: a caravan")
        if len(plans) > 1:
            add(g, "line", x1=12, y1=y, x2=40, y2=y, stroke=ALTERNATIVES[0], stroke_width=3.5,
                 stroke_dasharray="9 6")
            row("alternative plans (dashed)")
        for index, plan in enumerate(plans):
            name = "best" if index == 0 else f"alt {index}"
            summary = f"{name}: {plan} (score {plan.score}, {plan.cards_spent} cards{', proven' * plan.proven})"
            for line in wrap(summary, 38)[:3]:
                label(g, 14, y + 4, line, size=10.5, fill=_plan_colour(index), halo=None, cls="plan-summary")
                y += 14
            if y > MAP_H - 40:
                break
        y += 10
    heading(f"Round {position.round}")
    label(g, 14, y, f"hand: {position.hand}", size=11.5, halo=None)


def _plan_colour(index: int) -> str:
    return BEST if index == 0 else ALTERNATIVES[(index - 1) % len(ALTERNATIVES)]
