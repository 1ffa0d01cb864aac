"""Where the Elfenland map's pieces go on the picture: towns, connections, lakes and the steps of routes.

Pure arithmetic on screen coordinates built on :mod:`planner.common.svg` (curves, boxes, the label placer); it
builds no SVG elements: :mod:`planner.elfenland.svg` turns the results into the picture. :class:`Layout` decides
where every town, connection and lake goes, :func:`route_lines` where a plan's steps run.
"""

from __future__ import annotations

import math

from planner.common.svg import Curve, Point, offset, unit
from planner.elfenland.board import Board, Connection
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position

__all__ = ["TOWN_R", "CAPITAL_R", "PAIR_BEND", "Layout", "route_lines"]

TOWN_R = 15.0
"""Radius of a town's marker circle."""
CAPITAL_R = 19.0
"""Radius of a capital's (Elvenhold's) marker circle."""
PAIR_BEND = 40.0
"""Control-point offset of a road and a water link between the same towns: they pass 20 px apart each way."""


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
