"""Geometry and layout for the board picture: curves, boxes, polylines and greedy label placement.

Everything here is pure arithmetic on screen coordinates (x to the right, y down) and builds no SVG elements;
:mod:`planner.elfenland.svg` turns the results into the picture. :class:`Layout` decides where every town,
connection and lake goes, :func:`route_lines` where a plan's steps run, and :class:`Placer` where labels fit
without covering town circles, counters, other labels or, where it can, lines.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from planner.elfenland.board import Board, Connection
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position

__all__ = ["Point", "TOWN_R", "CAPITAL_R", "PAIR_BEND", "Curve", "Box", "unit", "fmt", "points_attr", "offset",
           "trim", "along", "closed_smooth_path", "text_width", "wrap", "Layout", "Placer", "route_lines"]

Point = tuple[float, float]
"""A point in screen coordinates: x to the right, y down."""

TOWN_R = 15.0
"""Radius of a town's marker circle."""
CAPITAL_R = 19.0
"""Radius of a capital's (Elvenhold's) marker circle."""
PAIR_BEND = 40.0
"""Control-point offset of a road and a water link between the same towns: they pass 20 px apart each way."""


# -- geometry -------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Curve:
    """A quadratic Bezier from ``start`` to ``end``."""

    start: Point
    control: Point
    end: Point

    def at(self, t: float) -> Point:
        """The point at parameter ``t`` (0 is ``start``, 1 is ``end``)."""
        u = 1 - t
        return (u * u * self.start[0] + 2 * u * t * self.control[0] + t * t * self.end[0],
                u * u * self.start[1] + 2 * u * t * self.control[1] + t * t * self.end[1])

    def reversed(self) -> Curve:
        """The same curve, run from ``end`` to ``start``."""
        return Curve(self.end, self.control, self.start)

    def points(self, n: int = 48) -> list[Point]:
        """The curve sampled as a polyline of ``n`` segments."""
        return [self.at(i / n) for i in range(n + 1)]

    def d(self) -> str:
        """The curve as an SVG path ``d`` attribute."""
        return f"M{fmt(self.start[0])},{fmt(self.start[1])} Q{fmt(self.control[0])},{fmt(self.control[1])} " \
               f"{fmt(self.end[0])},{fmt(self.end[1])}"


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle (a label, a counter) used for collision tests."""

    x: float
    y: float
    w: float
    h: float

    def overlap(self, other: Box) -> float:
        """The area shared with ``other`` (0 when they do not overlap)."""
        dx = min(self.x + self.w, other.x + other.w) - max(self.x, other.x)
        dy = min(self.y + self.h, other.y + other.h) - max(self.y, other.y)
        return dx * dy if dx > 0 and dy > 0 else 0.0

    def hits_circle(self, cx: float, cy: float, r: float) -> bool:
        """Whether the box reaches into the circle of radius ``r`` around (cx, cy)."""
        nx = min(max(cx, self.x), self.x + self.w)
        ny = min(max(cy, self.y), self.y + self.h)
        return math.hypot(cx - nx, cy - ny) < r

    def contains(self, p: Point) -> bool:
        """Whether ``p`` lies in the box (edges included)."""
        return self.x <= p[0] <= self.x + self.w and self.y <= p[1] <= self.y + self.h

    def inside(self, other: Box) -> bool:
        """Whether the box lies wholly within ``other``."""
        return other.x <= self.x <= self.x + self.w <= other.x + other.w and \
            other.y <= self.y <= self.y + self.h <= other.y + other.h


def unit(v: Point) -> Point:
    """``v`` scaled to length 1 (a zero vector stays zero)."""
    length = math.hypot(v[0], v[1]) or 1.0
    return (v[0] / length, v[1] / length)


def fmt(value: float) -> str:
    """A coordinate with at most one decimal."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def points_attr(points: Iterable[Point]) -> str:
    """The points as an SVG ``points`` attribute, e.g. ``1,2 3.5,4``."""
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in points)


def offset(points: list[Point], by: float) -> list[Point]:
    """The polyline moved ``by`` px to the right of its direction of travel (screen coordinates)."""
    moved = []
    for i, (x, y) in enumerate(points):
        a, b = points[max(i - 1, 0)], points[min(i + 1, len(points) - 1)]
        dx, dy = unit((b[0] - a[0], b[1] - a[1]))
        moved.append((x - dy * by, y + dx * by))
    return moved


def trim(points: list[Point], centre: Point, radius: float) -> list[Point]:
    """The polyline from where it leaves the circle around ``centre`` (cut exactly on the circle)."""
    for i in range(1, len(points)):
        if math.dist(points[i], centre) >= radius:
            a, b = points[i - 1], points[i]
            lo, hi = 0.0, 1.0
            for _ in range(20):
                mid = (lo + hi) / 2
                p = (a[0] + (b[0] - a[0]) * mid, a[1] + (b[1] - a[1]) * mid)
                lo, hi = (mid, hi) if math.dist(p, centre) < radius else (lo, mid)
            return [(a[0] + (b[0] - a[0]) * hi, a[1] + (b[1] - a[1]) * hi), *points[i:]]
    return points[-1:]


def along(points: list[Point], fraction: float) -> tuple[Point, Point]:
    """The point at ``fraction`` of the polyline's length and the unit direction there."""
    lengths = [math.dist(a, b) for a, b in zip(points, points[1:], strict=False)]
    goal = sum(lengths) * fraction
    for (a, b), length in zip(zip(points, points[1:], strict=False), lengths, strict=True):
        if goal <= length and length > 0:
            f = goal / length
            return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f), unit((b[0] - a[0], b[1] - a[1]))
        goal -= length
    return points[-1], unit((points[-1][0] - points[-2][0], points[-1][1] - points[-2][1]))


def closed_smooth_path(points: list[Point]) -> str:
    """A smooth closed curve through ``points`` (Catmull-Rom turned into cubic Beziers)."""
    n = len(points)
    parts = [f"M{fmt(points[0][0])},{fmt(points[0][1])}"]
    for i in range(n):
        p0, p1, p2, p3 = points[i - 1], points[i], points[(i + 1) % n], points[(i + 2) % n]
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        parts.append(f"C{fmt(c1[0])},{fmt(c1[1])} {fmt(c2[0])},{fmt(c2[1])} {fmt(p2[0])},{fmt(p2[1])}")
    return " ".join(parts) + " Z"


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """Estimated advance of ``text`` in DejaVu Sans (close enough to keep labels apart)."""
    em = sum(0.72 if ch.isupper() else 0.64 if ch.isdigit() else 0.34 if ch in "ijlt'.,:;!|" else
             0.9 if ch in "mw" else 0.6 if ch.isalpha() else 0.36 for ch in text)
    return em * size * (1.1 if bold else 1.0)


def wrap(text: str, width: int) -> list[str]:
    """Lines of at most about ``width`` characters, broken at spaces or after the commas of a notation."""
    lines = [""]
    for word in text.split():
        for i, piece in enumerate(re.findall(r"[^,]*,|[^,]+", word)):
            sep = "" if i or not lines[-1] else " "
            if lines[-1] and len(lines[-1]) + len(sep) + len(piece) > width:
                lines.append(piece)
            else:
                lines[-1] += sep + piece
    return lines


# -- the map's shapes -----------------------------------------------------------------------------------------
class Layout:
    """Where every town, connection and lake of the board goes on the picture."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.centres: dict[str, Point] = {t.code: (float(t.x), float(t.y)) for t in board.towns.values()}
        lakes: dict[str, set[str]] = {}
        for c in board.connections.values():
            if c.lake is not None:
                lakes.setdefault(c.lake, set()).update((c.a, c.b))
        self.lakes = {name: sorted(towns) for name, towns in sorted(lakes.items())}
        self.curves = {c.id: self._curve(c) for c in board.connections.values()}

    def radius(self, town: str) -> float:
        """The radius of the town's marker circle."""
        return CAPITAL_R if self.board.towns[town].capital else TOWN_R

    def outer(self, town: str, position: Position) -> float:
        """The radius of everything drawn around a town (its capital ring or current-town ring)."""
        return self.radius(town) + (8.5 if town == position.at else 4.5 if self.board.towns[town].capital else 1.5)

    def lake_centre(self, lake: str) -> Point:
        """The mean of the lake's ferry towns."""
        pts = [self.centres[t] for t in self.lakes[lake]]
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))

    def _curve(self, c: Connection) -> Curve:
        a, b = self.centres[c.a], self.centres[c.b]
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        if len(self.board.between(c.a, c.b)) == 1:
            return Curve(a, mid, b)
        # A road and a water link share these towns: bow them apart. Lake water bows into its lake, river
        # water to the left of a -> b, and the road the other way.
        nx, ny = unit((a[1] - b[1], b[0] - a[0]))
        water = next(w for w in self.board.between(c.a, c.b) if not w.is_road)
        side = 1.0
        if water.lake is not None:
            centre = self.lake_centre(water.lake)
            side = 1.0 if (centre[0] - mid[0]) * nx + (centre[1] - mid[1]) * ny > 0 else -1.0
        if c.is_road:
            side = -side
        return Curve(a, (mid[0] + nx * PAIR_BEND * side, mid[1] + ny * PAIR_BEND * side), b)

    def lake_outline(self, lake: str) -> list[Point]:
        """Shore points: near each ferry town, and bulging out between them unless a road runs along that shore."""
        towns = self.lakes[lake]
        cx, cy = self.lake_centre(lake)
        shore: list[Point] = []
        ring = sorted(towns, key=lambda t: math.atan2(self.centres[t][1] - cy, self.centres[t][0] - cx))
        for i, town in enumerate(ring):
            x, y = self.centres[town]
            shore.append((x + (cx - x) * 0.16, y + (cy - y) * 0.16))
            nxt = ring[(i + 1) % len(ring)]
            mx, my = (x + self.centres[nxt][0]) / 2, (y + self.centres[nxt][1]) / 2
            has_road = self.board.road(town, nxt) is not None
            bulge = -0.1 if has_road else 0.22
            shore.append((mx + (mx - cx) * bulge, my + (my - cy) * bulge))
        return shore


class Placer:
    """Greedy label placement: each label takes the cheapest of its candidate boxes."""

    def __init__(self, bounds: Box) -> None:
        self.bounds = bounds
        self.boxes: list[Box] = []
        self.circles: list[tuple[float, float, float]] = []
        self.lines: dict[tuple[int, int], list[tuple[str, Point]]] = {}
        """Sampled points of lines (each named by its owner) in 32 px grid cells, so a box checks only a few."""

    def add_line(self, owner: str, points: Iterable[Point]) -> None:
        """Record a line's sampled points, so labels keep off it unless they ignore ``owner``."""
        for p in points:
            self.lines.setdefault((int(p[0] // 32), int(p[1] // 32)), []).append((owner, p))

    def _line_points(self, box: Box) -> Iterable[tuple[str, Point]]:
        for ix in range(int(box.x // 32), int((box.x + box.w) // 32) + 1):
            for iy in range(int(box.y // 32), int((box.y + box.h) // 32) + 1):
                yield from self.lines.get((ix, iy), ())

    def cost(self, box: Box, ignore: frozenset[str]) -> float:
        """The penalty for taking ``box``: off the frame, on boxes, on circles, then on lines not in ``ignore``."""
        cost = 0.0 if box.inside(self.bounds) else 1e6
        cost += sum(1e4 + 10 * box.overlap(b) for b in self.boxes if box.overlap(b) > 0)
        cost += sum(1e5 for x, y, r in self.circles if box.hits_circle(x, y, r))
        cost += sum(6.0 for owner, p in self._line_points(box) if owner not in ignore and box.contains(p))
        return cost

    def place(self, candidates: Sequence[Box], *, ignore: frozenset[str] = frozenset()) -> Box:
        """The cheapest candidate (earlier ones win ties), now taken."""
        best = min(range(len(candidates)), key=lambda i: self.cost(candidates[i], ignore) + i * 0.5)
        self.boxes.append(candidates[best])
        return candidates[best]


# -- routes ---------------------------------------------------------------------------------------------------
def route_lines(layout: Layout, plan: Plan, index: int) -> list[list[Point]]:
    """Each step's path: the connection's curve, oriented the way the boot goes, shifted right of travel.

    The best plan keeps to the right, so there-and-back arrows stay apart. Alternatives sit further out, but on a
    road bowed away from its water twin they shift away from the twin, never onto it.
    """
    lines = []
    for step in plan.steps:
        curve = layout.curves[step.connection]
        if layout.centres[step.frm] != curve.start:
            curve = curve.reversed()
        shift = 4.0 + 5.0 * min(index, 3)
        (ax, ay), (cx, cy), (bx, by) = curve.start, curve.control, curve.end
        right = (ay - by, bx - ax)  # right of travel, screen coordinates
        if index and right[0] * (cx - (ax + bx) / 2) + right[1] * (cy - (ay + by) / 2) < 0:
            shift = -shift
        lines.append(offset(curve.points(48), shift))
    return lines
