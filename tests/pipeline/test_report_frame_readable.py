"""The generic frame of every HTML report is readable by everyone: its text colours keep
a contrast of at least 4.5:1 (WCAG AA) against their backgrounds, also as seen with
each common colour-vision deficiency (simulated with the Vienot-Brettel-Mollon
matrices for protanopia and deuteranopia, and Brettel's for tritanopia). How every
game's mailed report lays out at 360 and 1000 px is tested in test_report_phone_layout.py."""

from __future__ import annotations

import re

from adjudicator.resources import data_dir

#: Linear-RGB simulation matrices (rows: R, G, B out).
DEFICIENCIES = {
    "protanopia": ((0.11238, 0.88762, 0.0), (0.11238, 0.88762, 0.0), (0.00401, -0.00401, 1.0)),
    "deuteranopia": ((0.29275, 0.70725, 0.0), (0.29275, 0.70725, 0.0), (-0.02234, 0.02234, 1.0)),
    "tritanopia": ((1.0, 0.14461, -0.14461), (0.0, 0.85924, 0.14076), (0.0, 0.85924, 0.14076)),
}


def linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def rgb(colour: str) -> tuple[float, float, float]:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return tuple(linear(int(digits[i:i + 2], 16)) for i in (0, 2, 4))


def seen_with(matrix, colour):
    return tuple(min(1.0, max(0.0, sum(m * c for m, c in zip(row, colour)))) for row in matrix)


def luminance(colour) -> float:
    return 0.2126 * colour[0] + 0.7152 * colour[1] + 0.0722 * colour[2]


def contrast(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def frame_colours() -> dict[str, dict[str, str]]:
    style = (data_dir("templates") / "report.html.j2").read_text().split("<style>", 1)[1].split("</style>", 1)[0]
    rules = {}
    for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", style):
        for name, value in re.findall(r"(color|background)\s*:\s*(#[0-9a-fA-F]{3,6})", body):
            for one in selector.split(","):
                rules.setdefault(one.strip(), {})[name] = value
    return rules


def test_the_frames_text_stays_readable_for_every_common_colour_vision_deficiency():
    rules = frame_colours()
    text = rgb(rules["body"]["color"])
    backgrounds = {"page": rgb("#ffffff"), **{name: rgb(rules[name]["background"]) for name in ("th", "pre")}}
    for where, background in backgrounds.items():
        assert contrast(text, background) >= 4.5, where
        for deficiency, matrix in DEFICIENCIES.items():
            assert contrast(seen_with(matrix, text), seen_with(matrix, background)) >= 4.5, (where, deficiency)


def test_a_colour_pair_that_only_hue_tells_apart_fails_the_check():
    red, green = rgb("#d03030"), rgb("#30a030")  # the check must be able to fail
    assert contrast(seen_with(DEFICIENCIES["deuteranopia"], red), seen_with(DEFICIENCIES["deuteranopia"], green)) < 1.5
