"""Robustness of the Russo-Japanese War orders language: mutated orders files (from the
samples, the orders page's example of every form and the questions' templates) give no
uncaught exception, every error has a line and column inside the text sent, and every
accepted file's receipt reads back to the same orders, empty headings included; a long
line of bad entries costs time in proportion to its length.

By default 100 files, 1,000 with the soaks (ADJUDICATOR_SOAK=1); ``FUZZ_ORDERS=10000 pytest
tests/games/russo_japanese_war/test_fuzz_orders.py`` runs 10,000 (a few minutes)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from adjudicator.orders import OrdersError, parse_orders
from tests.games.russo_japanese_war.test_orders_language import EVERYTHING

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "orders"))
from fuzz_orders import FUZZ_COUNT, mutate, read_back  # noqa: E402  (the mutations and the property of every language)

GAME = "russo-japanese-war"
SAMPLES = Path(__file__).resolve().parents[3] / "samples" / "russo-japanese-war"

INSERTS = [
    "password: my secret words", "move: done", "cards:", "retreat:", "AR:", "chain:", "events:", "attack:",
    "  1214 with Gds, 2 support using 9 if differential <= 2", "  Kodama if attacking and enemy played 4",
    "  S2 to 1313, 1312", "  from 1214 toward 1114", "react: none", "naval: repair Mikasa", "Hi Bob,",
    "BEGIN ORDERS", "END ORDERS", "> quoted", "<p>", "game: tsushima-1905", "turn: 99999999999999999999999",
    "  3. done if hex 1611 ours", "garbage ;; here ::", "\ufeff", "\t\tdone", "  Gds korea-1015-1114-",
    "  rail S1 2417--2316", "  1214 with", "side: Prussia", "forced move:", "naval:", "chain: 2, 12; weakest first",
    # French keywords (grammar/keywords-fr.toml)
    "mot de passe: my secret words", "mouvement forcé:", "  1214 avec Gds, 2 soutien via 9 si différentiel <= 2",
    "  depuis 1214 direction 1114", "réagir: aucun", "  3. fini si hex 1611 nous", "cartes:", "retraite:",
    "pertes: faible d'abord", "chaine: 2, 12; fort d'abord",
]
REPEATED = ["  1214 with Gds, Gds, Gds, Gds, Gds, Gds", "  Gds korea-1015-1114", "cards:", "  1. done",
            "  Kodama if differential < 3", "# c", "", "  Gsd 1015-1115; Gsd 1015-1115; Gsd 1015-1115"]


def sources() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.orders"))] + [EVERYTHING]


def mutated(seed: int, count: int):
    rng = random.Random(seed)
    texts = sources()
    for _ in range(count):
        text = mutate(rng.choice(texts), rng)
        if rng.random() < 0.3:                      # the language's own typical lines
            lines = text.split("\n")
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(INSERTS))
            if rng.random() < 0.1:
                lines.insert(rng.randrange(len(lines) + 1), "\n".join([rng.choice(REPEATED)] * rng.choice([10, 500])))
            text = "\n".join(lines)
        yield text


def check_one(text: str) -> bool:
    return read_back(text, GAME) is not None


@pytest.mark.soak("sized")
def test_mutated_orders_files_are_refused_clearly_or_read_back_the_same():
    accepted = sum(check_one(text) for text in mutated(seed=1905, count=FUZZ_COUNT))
    assert 0 < accepted < FUZZ_COUNT


@pytest.mark.parametrize("heading", ["move", "attack", "events", "retreat", "chain", "AR", "cards", "react",
                                     "naval", "advance", "losses", "replenish", "forced move", "forced attack"])
def test_an_empty_heading_gives_a_receipt_that_reads_back(heading):
    assert check_one(f"campaign: c\nside: Japan\nturn: 2\n{heading}:\n")


def seconds(text: str) -> float:
    """The best of two readings of ``text`` (the time, not the Python calls: the
    cost of a long line was in quoting it again for every problem, inside C code)."""
    import time
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        try:
            parse_orders(text, GAME)
        except OrdersError:
            pass
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize("start,entry,separator", [
    ("move: ", "Gsd 1015-1115", "; "),                   # bad entries on one line
    ("attack: 1214 with ", "Gsd", ", "),                 # a long list of bad names
    ("events: ", "Kodamma", "; "),
])
def test_a_long_line_of_bad_entries_costs_time_in_proportion_to_its_length(start, entry, separator):
    """Eight times the entries: far less than 64 times the time (it was 22 s for 3,000)."""
    header = "campaign: c\nside: Japan\nturn: 2\n"
    parse_orders(header + "move: done\n", GAME)
    small = seconds(header + start + separator.join([entry] * 300) + "\n")
    large = seconds(header + start + separator.join([entry] * 2400) + "\n")
    assert large / small < 24, (small, large)
