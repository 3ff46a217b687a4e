"""The map's colours stay apart for the common colour-vision deficiencies: each pair a
player must tell apart (the two sides; a river and an all-sea hexside; a road and the
railway; the two kinds of harbour; clear and wasteland) is simulated for full protanopia,
deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, severity 1) and must
still differ by a CIELAB distance a reader sees at a glance."""

from __future__ import annotations

import pytest

from adjudicator.games.russo_japanese_war.picture import COLOURS

#: The simulation matrices of Machado et al. (2009), severity 1.0, for linear RGB.
DEFICIENCIES = {
    "none": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
PAIRS = [("japan", "russia"), ("river", "sea-hexside"), ("road", "railway"), ("southern-harbour", "harbour"),
         ("clear", "wasteland"), ("japan", "clear"), ("russia", "river"), ("zoc", "clear")]


def linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, c)) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen(colour: str, deficiency: str) -> tuple[float, float, float]:
    rgb = [linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5)]
    matrix = DEFICIENCIES[deficiency]
    return lab(tuple(sum(m * c for m, c in zip(row, rgb)) for row in matrix))


def distance(a: str, b: str, deficiency: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(seen(a, deficiency), seen(b, deficiency))) ** 0.5


@pytest.mark.parametrize("deficiency", sorted(DEFICIENCIES))
def test_the_pairs_a_player_tells_apart_stay_apart_for_colour_vision_deficiencies(deficiency):
    close = {f"{a}/{b}": round(distance(COLOURS[a], COLOURS[b], deficiency), 1) for a, b in PAIRS
             if distance(COLOURS[a], COLOURS[b], deficiency) < 20}
    assert close == {}


def test_the_simulation_merges_red_and_green_for_protanopia_as_it_should():
    assert distance("#D00000", "#508000", "none") > 60
    assert distance("#D00000", "#508000", "protanopia") < 25
