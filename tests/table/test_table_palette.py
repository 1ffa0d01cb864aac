"""The table page's palette (planner/table/static/palette.css) stays readable to colour-blind players.

Every pair of colours that must differ (the terrains of the links, and the best route against each terrain and the
map) is simulated under protanopia, deuteranopia and tritanopia with the matrices of Machado, Oliveira and
Fernandes (2009, severity 1, applied to linear sRGB), and their CIEDE2000 difference (Sharma, Wu and Dalal 2005)
must be at least :data:`LEAST`, in the light and the dark palette. The CIEDE2000 code is checked against the 34 test
pairs that paper publishes; the colour science is written out here so the test depends on nothing but the file.
"""

from __future__ import annotations

import itertools
import math
import re
from importlib import resources

import pytest

LEAST = 20.0
TERRAINS = ("road-plain", "road-forest", "road-desert", "road-mountain", "river")
VISIONS = ("normal", "protanopia", "deuteranopia", "tritanopia")

Matrix = tuple[tuple[float, float, float], ...]
MACHADO: dict[str, Matrix] = {  # Machado et al. 2009, table 1, severity 1.0
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}

# Sharma, Wu and Dalal (2005), table 1: (L1, a1, b1), (L2, a2, b2), the published CIEDE2000 difference.
SHARMA = [
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
    ((50.0000, 2.8361, -74.0200), (50.0000, 0.0000, -82.7485), 3.4412),
    ((50.0000, -1.3802, -84.2814), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -1.1848, -84.8006), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -0.9009, -85.5211), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, -1.0000, 2.0000), (50.0000, 0.0000, 0.0000), 2.3669),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0010), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0012), 7.2195),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0009, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0010, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0011, -2.4900), 4.7461),
    ((50.0000, 2.5000, 0.0000), (50.0000, 0.0000, -2.5000), 4.3065),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
    ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
    ((50.0000, 2.5000, 0.0000), (58.0000, 24.0000, 15.0000), 19.4535),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.1736, 0.5854), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2972, 0.0000), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 1.8634, 0.5757), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2592, 0.3350), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
    ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]

Lab = tuple[float, float, float]
RGB = tuple[float, float, float]


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def linear_rgb(hex_colour: str) -> RGB:
    r, g, b = (_linear(int(hex_colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return r, g, b


def simulate(rgb: RGB, vision: str) -> RGB:
    """The colour as a dichromat of ``vision`` sees it (linear sRGB in, clipped to the gamut)."""
    if vision == "normal":
        return rgb
    m = MACHADO[vision]
    r, g, b = (min(1.0, max(0.0, sum(m[row][col] * rgb[col] for col in range(3)))) for row in range(3))
    return r, g, b


def lab(rgb: RGB) -> Lab:
    """CIELAB (D65) of a linear sRGB colour."""
    r, g, b = rgb
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(first: Lab, second: Lab) -> float:
    """The CIEDE2000 colour difference (kL = kC = kH = 1), following Sharma, Wu and Dalal (2005) step by step."""
    l1, a1, b1 = first
    l2, a2, b2 = second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p - h1p > 180 else h2p - h1p + 360
    d_big_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (d_big_h / s_h) ** 2 + r_t * (dc / s_c) * (d_big_h / s_h))


def palettes() -> dict[str, dict[str, str]]:
    """The light palette (the first ``:root``) and the dark one (the ``:root`` inside prefers-color-scheme: dark)."""
    text = resources.files("planner.table").joinpath("static", "palette.css").read_text(encoding="utf-8")
    dark_at = text.index("prefers-color-scheme: dark")
    found = {}
    for name, part in (("light", text[:dark_at]), ("dark", text[dark_at:])):
        found[name] = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})\s*;", part))
    return found


def must_differ() -> list[tuple[str, str]]:
    pairs = list(itertools.combinations(TERRAINS, 2))
    return pairs + [("route", other) for other in (*TERRAINS, "map")]


@pytest.mark.parametrize(("first", "second", "expected"), SHARMA)
def test_ciede2000_matches_the_published_test_pairs(first: Lab, second: Lab, expected: float) -> None:
    assert ciede2000(first, second) == pytest.approx(expected, abs=5e-5)
    assert ciede2000(second, first) == pytest.approx(expected, abs=5e-5)


def test_the_simulation_keeps_greys_grey_and_white_white() -> None:
    for vision in MACHADO:  # each matrix's rows sum to 1: a grey stays that grey
        for grey in (0.0, 0.2, 1.0):
            assert simulate((grey, grey, grey), vision) == pytest.approx((grey, grey, grey), abs=1e-5)
    assert lab(linear_rgb("#ffffff")) == pytest.approx((100.0, 0.0, 0.0), abs=1e-3)


def test_the_old_palette_fails_as_the_table_found() -> None:
    """The check can fail: the map's first colours (plain and desert roads) merged under protanopia."""
    plain, desert = lab(simulate(linear_rgb("#a5d15a"), "protanopia")), lab(simulate(linear_rgb("#e8b64c"),
                                                                                       "protanopia"))
    assert ciede2000(plain, desert) < LEAST


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("vision", VISIONS)
def test_every_pair_that_must_differ_does_for_every_vision(scheme: str, vision: str) -> None:
    colours = palettes()[scheme]
    assert set(colours) >= {*TERRAINS, "route", "map"}
    close = []
    for first, second in must_differ():
        distance = ciede2000(lab(simulate(linear_rgb(colours[first]), vision)),
                             lab(simulate(linear_rgb(colours[second]), vision)))
        if distance < LEAST:
            close.append(f"{first} {colours[first]} ~ {second} {colours[second]}: {distance:.1f}")
    assert not close, f"{scheme} palette under {vision}: " + "; ".join(close)
