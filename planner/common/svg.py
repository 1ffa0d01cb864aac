"""SVG primitives both games draw with: geometry, greedy label placement, elements with halos, picture files.

Pure arithmetic on screen coordinates (x to the right, y down) and :mod:`xml.etree.ElementTree` elements; no game
knowledge. PNG output needs the optional ``cairosvg`` package, imported only inside :func:`to_png`.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from pathlib import Path

from planner.common.files import write_atomically
from planner.common.values import frozen
from planner.errors import PlannerError, UnsupportedError

PNG_INSTALL_HINT = "pip install 'elfenland-planner[png]'"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
CJK_FONT = "Noto Sans CJK JP, " + FONT
"""For a Japanese picture: cairosvg draws with the first family only (no fallback per glyph), so the CJK font,
which has Latin and Cyrillic letters too, goes first (Debian's ``fonts-noto-cjk``)."""


def font_for(lang: str) -> str:
    """The font-family of a picture in ``lang``: :data:`CJK_FONT` for Japanese, else :data:`FONT`."""
    return CJK_FONT if lang == "ja" else FONT

INK = "#2b2118"
HALO = "#fffaf0"


# -- geometry -------------------------------------------------------------------------------------------------
Point = tuple[float, float]
"""A point in screen coordinates: x to the right, y down."""


@frozen
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


@frozen
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


class Placer:
    """Greedy label placement: each label takes the cheapest of its candidate boxes.

    ``boxes`` and ``circles`` are plain lists that callers append to; each cost looks only at the few of them in
    the 32 px grid cells the candidate touches (indexed as they arrive), and :meth:`place` stops at the first
    candidate that no later one can beat. The choice is the same as scoring every candidate against everything.
    """

    CELL = 32

    def __init__(self, bounds: Box) -> None:
        self.bounds = bounds
        self.boxes: list[Box] = []
        self.circles: list[tuple[float, float, float]] = []
        self.lines: dict[tuple[int, int], list[tuple[str, Point]]] = {}
        """Sampled points of lines (each named by its owner) in 32 px grid cells, so a box checks only a few."""
        self._box_cells: dict[tuple[int, int], list[int]] = {}
        self._circle_cells: dict[tuple[int, int], list[int]] = {}
        self._indexed = [0, 0]  # how many boxes and circles are in their grids

    def add_line(self, owner: str, points: Iterable[Point]) -> None:
        """Record a line's sampled points, so labels keep off it unless they ignore ``owner``."""
        for p in points:
            self.lines.setdefault((int(p[0] // 32), int(p[1] // 32)), []).append((owner, p))

    def _cells(self, x: float, y: float, w: float, h: float) -> Iterable[tuple[int, int]]:
        size = self.CELL
        for ix in range(int(x // size), int((x + w) // size) + 1):
            for iy in range(int(y // size), int((y + h) // size) + 1):
                yield ix, iy

    def _line_points(self, box: Box) -> Iterable[tuple[str, Point]]:
        for cell in self._cells(box.x, box.y, box.w, box.h):
            yield from self.lines.get(cell, ())

    def _index(self) -> None:
        """Put the boxes and circles appended since the last look into their grid cells."""
        for i in range(self._indexed[0], len(self.boxes)):
            b = self.boxes[i]
            for cell in self._cells(b.x, b.y, b.w, b.h):
                self._box_cells.setdefault(cell, []).append(i)
        for i in range(self._indexed[1], len(self.circles)):
            x, y, r = self.circles[i]
            for cell in self._cells(x - r, y - r, 2 * r, 2 * r):
                self._circle_cells.setdefault(cell, []).append(i)
        self._indexed = [len(self.boxes), len(self.circles)]

    def _near(self, cells: dict[tuple[int, int], list[int]], box: Box) -> list[int]:
        """Indices of the items sharing a grid cell with ``box``, in the order they were added."""
        found: set[int] = set()
        for cell in self._cells(box.x, box.y, box.w, box.h):
            found.update(cells.get(cell, ()))
        return sorted(found)

    def cost(self, box: Box, ignore: frozenset[str]) -> float:
        """The penalty for taking ``box``: off the frame, on boxes, on circles, then on lines not in ``ignore``."""
        self._index()
        cost = 0.0 if box.inside(self.bounds) else 1e6
        boxes = [self.boxes[i] for i in self._near(self._box_cells, box)]
        cost += sum(1e4 + 10 * box.overlap(b) for b in boxes if box.overlap(b) > 0)
        circles = [self.circles[i] for i in self._near(self._circle_cells, box)]
        cost += sum(1e5 for x, y, r in circles if box.hits_circle(x, y, r))
        cost += sum(6.0 for owner, p in self._line_points(box) if owner not in ignore and box.contains(p))
        return cost

    def place(self, candidates: Sequence[Box], *, ignore: frozenset[str] = frozenset()) -> Box:
        """The cheapest candidate (earlier ones win ties), now taken."""
        best, best_cost = 0, math.inf
        for i, candidate in enumerate(candidates):
            if i * 0.5 >= best_cost:
                break  # costs are never negative: no later candidate can beat the best
            cost = self.cost(candidate, ignore) + i * 0.5
            if cost < best_cost:
                best, best_cost = i, cost
        self.boxes.append(candidates[best])
        return candidates[best]


# -- elements -------------------------------------------------------------------------------------------------
def add(parent: ET.Element, tag: str, text: str | None = None, /, **attrs: object) -> ET.Element:
    """A child element; ``class_`` becomes ``class`` and ``stroke_width`` becomes ``stroke-width``."""
    element = ET.SubElement(parent, tag, {
        k.rstrip("_").replace("_", "-"): fmt(v) if isinstance(v, float) else str(v)
        for k, v in attrs.items() if v is not None
    })
    if text is not None:
        element.text = text
    return element


def label(parent: ET.Element, x: float, y: float, text: str, *, size: float, fill: str = INK,
          bold: bool = False, anchor: str = "start", italic: bool = False, halo: str | None = HALO,
          cls: str | None = None) -> None:
    """Text, by default with a halo: the same text stroked in a light colour first, so it reads over lines."""
    common: dict[str, object] = {"x": x, "y": y, "font_size": size, "text_anchor": anchor,
                                 "font_weight": "bold" if bold else None, "font_style": "italic" if italic else None}
    if halo is not None:
        add(parent, "text", text, class_="halo", fill=halo, stroke=halo, stroke_width=size / 3.5,
            stroke_linejoin="round", **common)
    add(parent, "text", text, class_=cls, fill=fill, **common)


def text_colour(fill: str) -> str:
    """Dark ink or white, whichever reads better on the ``#rrggbb`` colour ``fill``."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def chevron(parent: ET.Element, at: Point, direction: Point, *, size: float, fill: str,
            cls: str | None = None) -> ET.Element:
    """A filled arrowhead whose tip is at ``at``, pointing along ``direction``."""
    dx, dy = direction
    base = (at[0] - dx * size, at[1] - dy * size)
    wing = size * 0.55
    return add(parent, "polygon", class_=cls, fill=fill, stroke=HALO, stroke_width=0.8, points=points_attr(
        [at, (base[0] - dy * wing, base[1] + dx * wing), (base[0] + dy * wing, base[1] - dx * wing)]))


# -- files ------------------------------------------------------------------------------------------------------
def check_picture_path(path: str | Path) -> Path:
    """``path`` if a picture can be written there (``.svg`` or ``.png`` in an existing folder).

    Raises:
        UnsupportedError: an unsupported extension or a missing directory.
    """
    path = Path(path)
    if path.suffix.lower() not in (".svg", ".png"):
        raise UnsupportedError(f"cannot write picture {str(path)!r}: unknown format "
                               f"{path.suffix or '(none)'!r}; use a .svg or .png file name")
    if not path.parent.is_dir():
        raise UnsupportedError(f"cannot write picture {str(path)!r}: folder {str(path.parent)!r} does not exist")
    return path


def write_picture(svg_text: str, path: str | Path, *, scale: float = 1.0) -> Path:
    """Write the picture to ``path``: ``.svg`` as is, ``.png`` through the optional cairosvg converter; whole or
    not at all (a full disk leaves no half picture behind).

    Raises:
        UnsupportedError: an unsupported extension, a missing directory, an unwritable file, or PNG output without
            the converter installed (the message says how to install it).
    """
    path = check_picture_path(path)
    data = svg_text.encode("utf-8") if path.suffix.lower() == ".svg" else to_png(svg_text, scale)
    try:
        write_atomically(path, data)
    except OSError as exc:
        raise UnsupportedError(f"cannot write picture {str(path)!r}: {exc.strerror or exc}") from None
    return path


def to_png(svg_text: str, scale: float = 1.0) -> bytes:
    """The picture rendered as PNG by the optional cairosvg package.

    Raises:
        UnsupportedError: cairosvg or the native cairo library is missing (the message says how to install it).
        PlannerError: the text is not valid SVG (a bug of the drawing code).
    """
    try:
        import cairosvg  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        raise UnsupportedError(f"png pictures need the optional cairosvg package: {PNG_INSTALL_HINT} "
                               "(or write a .svg file instead)") from None
    except OSError as exc:  # cairocffi is installed but cannot load the native cairo library
        raise UnsupportedError(f"png pictures need the native cairo library ({exc}); install it, e.g. 'apt-get "
                               "install libcairo2' or 'brew install cairo', or write a .svg file instead") from None
    try:
        ET.fromstring(svg_text)
    except ET.ParseError as exc:
        raise PlannerError(f"cannot convert the picture to png: it is not valid SVG ({exc})") from None
    png: bytes = cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), scale=scale)
    return png
