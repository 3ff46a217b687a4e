"""Counting in words for Tsushima 1905's narrative and reports: "1 die", "3 dice",
"a fire", "2 floods" -- never "1 dice" or "hit(s)"."""

from __future__ import annotations

from typing import Iterable

IRREGULAR = {"die": "dice", "dice": "dice", "CP": "CPs"}


def plural(word: str) -> str:
    return IRREGULAR.get(word, word + "s")


def counted(count: int, word: str) -> str:
    """``count`` and ``word``, its plural unless the count is 1: "1 die", "0 dice"."""
    return f"{count} {word if count == 1 else plural(word)}"


def some(count: int, word: str) -> str:
    """Like :func:`counted`, but "a fire" for one and "no fire" for none."""
    if count == 0:
        return f"no {word}"
    return f"a {word}" if count == 1 else counted(count, word)


def spaced(values: Iterable[int]) -> str:
    """Dice as they are read aloud: "6 1 2"."""
    return " ".join(str(v) for v in values)


def listed(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
