"""The world map as a dot-and-line picture (no publisher art): the links, the spots by kind, the three paths with
their arrowheads, my cards, tokens and the common objectives, the opponents' tokens, and a suggested move dashed.

Coordinates are the map file's (``x``, ``y`` as fractions of the board picture); a wrap star is drawn on the edge
nearer the other end of each of its links.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable

from planner.common.i18n import language
from planner.common.svg import HALO, INK, Point, add, chevron, font_for, label, unit
from planner.expedition.board import PIXELS, SpotKind, load_board
from planner.expedition.notation import Action, ActionKind
from planner.expedition.position import Position

__all__ = ["render_svg"]

SCALE = 0.6
INKS = {"yellow": "#e0a800", "blue": "#1f5fd1", "red": "#c8302a"}
KIND_FILL = {SpotKind.START: INK, SpotKind.GREEN: "#3f8f3a", SpotKind.RED: "#c8302a", SpotKind.BLUE: "#1f5fd1"}
OFFSET = {"yellow": -3.0, "blue": 0.0, "red": 3.0}
"""Each colour's arrows are drawn a little apart, so that three arrows on one link stay visible."""


def _at(spot: str, toward: str | None = None) -> Point:
    x, y = load_board().pixel(spot, toward=toward)
    return x * SCALE, y * SCALE


def _shifted(a: Point, b: Point, by: float) -> tuple[Point, Point]:
    dx, dy = unit((b[0] - a[0], b[1] - a[1]))
    return (a[0] - dy * by, a[1] + dx * by), (b[0] - dy * by, b[1] + dx * by)


def _arrow(parent: ET.Element, frm: str, to: str, colour: str, *, dashed: bool = False) -> None:
    a, b = _shifted(_at(frm, to), _at(to, frm), OFFSET[colour])
    add(parent, "line", x1=a[0], y1=a[1], x2=b[0], y2=b[1], stroke=INKS[colour], stroke_width=4.0 if dashed else 2.6,
        stroke_dasharray="7 4" if dashed else None, stroke_linecap="round")
    direction = unit((b[0] - a[0], b[1] - a[1]))
    tip = (b[0] - direction[0] * 6, b[1] - direction[1] * 6)
    chevron(parent, tip, direction, size=9.0, fill=INKS[colour])


def render_svg(position: Position, *, move: Iterable[Action] = (), title: str | None = None) -> str:
    """The map with ``position``'s paths and targets, and the arrows of ``move`` dashed on top."""
    board = load_board()
    width, height = PIXELS[0] * SCALE, PIXELS[1] * SCALE + 30
    svg = ET.Element("svg", {"font-family": font_for(language()), "xml:lang": language()},
                     xmlns="http://www.w3.org/2000/svg", width=f"{width:.0f}", height=f"{height:.0f}",
                     viewBox=f"0 0 {width:.0f} {height:.0f}")
    add(svg, "rect", x=0.0, y=0.0, width=width, height=height, fill="#f4efe4")
    links = add(svg, "g", class_="links", stroke="#b9ad97", stroke_width=1.2)
    for link in board.links:
        a, b = _at(link.a, link.b), _at(link.b, link.a)
        add(links, "line", x1=a[0], y1=a[1], x2=b[0], y2=b[1])
    paths = add(svg, "g", class_="paths")
    for expedition in position.expeditions:
        for frm, to in expedition.arrows:
            _arrow(paths, frm, to, expedition.colour.value)
    hand, mine, common = set(position.hand), set(position.mine.tokens), set(position.common)
    theirs = {t for s in position.opponents for t in s.tokens}
    spots = add(svg, "g", class_="spots")
    for spot in board.order:
        x, y = _at(spot.key)
        fill = KIND_FILL[spot.kind]
        if spot.kind is SpotKind.BLUE:
            add(spots, "rect", x=x - 5, y=y - 5, width=10.0, height=10.0, fill=fill, stroke=HALO)
        else:
            add(spots, "circle", cx=x, cy=y, r=7.0 if spot.kind is SpotKind.START else 5.0, fill=fill, stroke=HALO)
        ring = ("#7a3db8" if spot.key in common else "#e0a800" if spot.key in hand else
                "#6b6b6b" if spot.key in theirs else None)
        if ring:
            add(spots, "circle", cx=x, cy=y, r=10.0, fill="none", stroke=ring,
                stroke_width=3.5 if spot.key in mine or spot.key in theirs else 2.0)
        if spot.key in hand or spot.key in common or spot.key in theirs:
            label(spots, x + 12, y + 4, spot.name, size=11.0, bold=spot.key in hand)
    suggested = add(svg, "g", class_="move")
    for action in move:
        if action.kind is ActionKind.ARROW and action.frm and action.to and action.colour:
            _arrow(suggested, action.frm, action.to, action.colour.value, dashed=True)
    legend = "gold ring: my card (thick: my token) · purple: common · grey: an opponent's token · dashed: the move"
    label(svg, 10, height - 10, (f"{title} — " if title else "") + legend, size=13.0)
    return ET.tostring(svg, encoding="unicode")
