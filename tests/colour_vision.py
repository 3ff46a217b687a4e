"""How a colour is seen with each common colour-vision deficiency, for the tests of the
pictures' palettes: full protanopia, deuteranopia and tritanopia simulated with the
matrices of Machado, Oliveira and Fernandes (2009, severity 1), and the CIELAB distance
between two colours as seen (about 20 or more: told apart at a glance)."""

from __future__ import annotations

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
    """``colour`` (#rgb or #rrggbb) in CIELAB as seen with ``deficiency``."""
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    rgb = [linear(int(digits[i:i + 2], 16) / 255) for i in (0, 2, 4)]
    matrix = DEFICIENCIES[deficiency]
    return lab(tuple(sum(m * c for m, c in zip(row, rgb)) for row in matrix))


def distance(a: str, b: str, deficiency: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(seen(a, deficiency), seen(b, deficiency))) ** 0.5
