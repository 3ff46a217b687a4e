"""Mutated orders files for fuzz tests: seeded, so that a failure can be replayed.

``mutated_files(seed, count)`` yields orders texts made from the sample orders files
(English and French) by the mistakes real senders make and by hostile edits: characters deleted, doubled,
swapped or replaced; lines deleted, doubled, swapped; lines inserted from a list of
typical mistakes (a mistyped password line, two answers on one line, a greeting, an
empty heading, quoted text, HTML); and a line repeated hundreds or thousands of times
(to reach the size limits, where the stored form may be longer than the file sent).

``read_back(text, game)`` is the property every language's fuzz test checks of one
file: refused with every problem located inside the text sent (and no password quoted
back), or accepted with a receipt that reads back to the same orders.
"""

from __future__ import annotations

import random
from pathlib import Path

from adjudicator.orders import OrdersError, Receipt, parse_orders
from adjudicator.orders.text import clean
from tests.conftest import soak_size

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "port-arthur"

#: How many files the fuzz tests try: 100 by default, 1,000 with ADJUDICATOR_SOAK=1;
#: FUZZ_ORDERS=10000 for the full run.
FUZZ_COUNT = soak_size(100, 1000, "FUZZ_ORDERS")

INSERTS = [
    "password: my secret words", "passwrod: my secret words", "reroll: no; yes", "dice: auto; ask",
    "seize: perhaps", "hits:", "sortie:", "Hi Bob,", "BEGIN ORDERS", "END ORDERS", "> quoted report",
    "-- ", "<p>", "<html><body>", "dice: 9", "operations:", "  battle in ECS, else pass, else pass",
    "  move Yakumo, Azuma from Japan to Tsushima if weaker in Tsushima", "land in Yellow Sea, Tsushima",
    "criticals: Tses, Retv, Pobeda", "hits: protect Mikasa; sink damaged first", "step: 2", "turn: 7",
    "entropy: 00ff", "mines: auto", "return: Retvizan to Port Arthur; others to Dalny", "  3) pass",
    "campaign: other", "side: Russia", "garbage ;; here ::", "\ufeff", "\t\tpass", "blockade: keep",
    '  Tokiwa to "Tsushima Strait"', "attack: ask", "  1. battle anywhere unless slower there",
    # French keywords (grammar/keywords-fr.toml)
    "mot de passe: my secret words", "mot de pase: my secret words", "campagne: other", "camp: Russie",
    "dés: auto; demander", "  1. bataille partout sauf lent là",
    "coups: protéger Mikasa; couler endommagés d'abord",
    "opératoins:", "  Tokiwa vres Tsushima", "relance: oui si tour < 4", "retour: Retvizan vers Port Arthur",
]
REPEATED = ["  pass, else pass, else pass", "  battle in ECS if enemy in ECS and stronger in ECS", "hits:",
            "  1. pass", "dice: auto", "  Mikasa to Tsushima", "# a comment", ""]


def samples() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.orders"))]


def mutate(text: str, rng: random.Random) -> str:
    """``text`` with a few random mistakes (see the module docstring)."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 6)):
        action = rng.choice(["char", "char", "char", "line", "insert", "insert", "repeat"])
        i = rng.randrange(len(lines))
        if action == "char" and lines[i]:
            chars = list(lines[i])
            j = rng.randrange(len(chars))
            edit = rng.choice(["delete", "double", "swap", "replace"])
            if edit == "delete":
                del chars[j]
            elif edit == "double":
                chars.insert(j, chars[j])
            elif edit == "swap" and j + 1 < len(chars):
                chars[j], chars[j + 1] = chars[j + 1], chars[j]
            else:
                chars[j] = rng.choice(":;,#>\"x 9-é\t")
            lines[i] = "".join(chars)
        elif action == "line":
            edit = rng.choice(["delete", "double", "swap"])
            if edit == "delete" and len(lines) > 1:
                del lines[i]
            elif edit == "double":
                lines.insert(i, lines[i])
            elif i + 1 < len(lines):
                lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif action == "insert":
            lines.insert(i, rng.choice(INSERTS))
        else:
            lines[i:i] = [rng.choice(REPEATED)] * rng.choice([10, 300, 2500, 4990, 6000])
    return "\n".join(lines)


def mutated_files(seed: int, count: int = FUZZ_COUNT):
    """``count`` mutated orders files, the same for the same ``seed``."""
    rng = random.Random(seed)
    sources = samples()
    for _ in range(count):
        yield mutate(rng.choice(sources), rng)


def assert_located(text: str, err: OrdersError) -> None:
    """Every problem (but the E900 summary) has a line and column inside the text."""
    try:
        lines = clean(text).lines
    except OrdersError:  # the file as a whole is refused: places are in the text as sent
        lines = tuple(text.split("\n"))
    for problem in err.problems:
        if problem.code == "E900":
            continue
        assert 1 <= problem.line <= len(lines), (problem, len(lines))
        assert 1 <= problem.column <= len(lines[problem.line - 1]) + 1, (problem, lines[problem.line - 1])


def read_back(text: str, game: str) -> Receipt | None:
    """The fuzz property for one file of ``game``'s language; the receipt when accepted."""
    try:
        orders = parse_orders(text, game)
    except OrdersError as err:
        assert err.problems
        assert_located(text, err)
        assert "my secret words" not in err.render() + repr([p.to_json() for p in err.problems])
        return None
    receipt = Receipt.of(orders)
    again = parse_orders(receipt.text, game)
    assert again == orders, receipt.text
    assert Receipt.of(again).text == receipt.text
    return receipt
