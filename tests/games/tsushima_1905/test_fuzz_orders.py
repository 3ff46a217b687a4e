"""Fuzzing mutated Tsushima 1905 orders files (from the samples, the templates of every
kind of question, and lines of every kind of block): nothing but OrdersError escapes, every error is located inside the
text sent, and every accepted file's canonical receipt reads back to the same orders.

By default 100 files, 1,000 with the soaks (ADJUDICATOR_SOAK=1);
``FUZZ_ORDERS=10000 pytest tests/games/tsushima_1905/test_fuzz_orders.py`` runs 10,000."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "orders"))

from fuzz_orders import FUZZ_COUNT, mutate, read_back  # noqa: E402

from adjudicator.engine.requests import Decision  # noqa: E402
from adjudicator.games.tsushima_1905.template import answer_template  # noqa: E402


GAME = "tsushima-1905"
SAMPLES = Path(__file__).resolve().parents[3] / "samples" / "tsushima-1905"
LINES = [
    "torpedo:", "prime:", "collision:", "concede:", "concede: yes", "armour:", "repairs:", "counter-torpedo:",
    "torpedo targets:", "order:", "move:", "fire:", "  Mikasa: ahead 99999999999999999999999999999",
    "  Fuji: P90, P90, P90", "  Orel: starboard 30, port 30, ahead", "  Iwate: ahead 5", "  Shikishma: ahead",
    "  Mikasa: steer 1" + "0" * 4400, "prime: stop after 1" + "0" * 4400, "  all: at Borodno",
    "  Mikasa: station on Orel bearing 90 distance 9" + "9" * 50, "armour: 9 against 99 dice",
    "  Mikasa: ahead 1" + "1" * 4400 + ".5", "turn: 1" + "2" * 4400, "  Kasuga: hold fire if cp <= 2 and turn > 3",
    "  Tokiwa: ram Kniaz Suvorov if Kniaz Suvorov cp <= 2, else follow Idzumo", "game: port-arthur",
    "  1st Division: follow Mikasa", "  \"2nd and 3rd Divisions\": follow Osliabia", "fire: ; ; ;", "move: ;;",
    "  Idzumo: steer 135, ahead max", "counter-torpedo: 99", "repairs: 99 dice, fire first",
    "order: Mikasa, Mikasa, others", "  Admiral: ahead", "side: Russia", "password: my secret words",
    "  Mikasa: auto", "  Fuji: close Orel if cp > 2, else auto", "  all: auto; dice 2; keep 1 for repairs",
    "  Asahi: at nearest; auto", "carry on: yes", "carry on:", "torpedo targets: fewest cp first, Orel",
    # French keywords (grammar/keywords-fr.toml)
    "mot de passe: my secret words", "cibles:", "amorcer: arrêter après 1", "  tous: sur Borodno",
    "  Mikasa: poste auprès Orel relèvement 90 distance 9", "blindage: 9 contre 99 dés", "  Amiral: avant",
    "  Kasuga: cesser feu si pc <= 2 et tour > 3", "concéder: oui", "  Fuji: avant, avant, avant",
]
KINDS = {"activate": {"ships": ["Mikasa", "Fuji"]}, "orders": {"mark": None, "stop": "turn"},
         "armor": {"ship": "Mikasa", "max": 2}, "counter-torpedo": {"ship": "Mikasa", "max": 1},
         "torpedo": {"attacks": 2}, "torpedo-targets": {"attacks": 2, "ships": ["Orel", "Navarin"]},
         "repair": {"ship": "Mikasa", "max": 3, "fires": 1, "floods": 1}}


def templates() -> list[str]:
    """Each kind of question's template as a player sends it back (the stop's twice:
    before any orders have carried play, and after)."""
    asked = [Decision("japan", kind, options, "", lambda answer: answer) for kind, options in KINDS.items()]
    asked.append(Decision("russia", "orders", {"mark": "0" * 32, "stop": "prime"}, "", lambda answer: answer))
    return ["\n".join(["BEGIN ORDERS", "campaign: c", f"side: {d.side}", "turn: 2", "password: x",
                       *answer_template(d), "END ORDERS", ""]) for d in asked]


def sources() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*-orders*.txt"))] + templates()


def mutated(seed: int, count: int):
    rng, texts = random.Random(seed), sources()
    for _ in range(count):
        text = rng.choice(texts)
        if rng.random() < 0.5:
            lines = text.split("\n")
            for _ in range(rng.randint(1, 4)):
                lines.insert(rng.randrange(len(lines)), rng.choice(LINES))
            text = "\n".join(lines)
        yield mutate(text, rng)


def check_one(text: str) -> bool:
    return read_back(text, GAME) is not None


@pytest.mark.soak("sized")
def test_mutated_tsushima_orders_are_refused_clearly_or_read_back_the_same():
    accepted = sum(check_one(text) for text in mutated(1905, FUZZ_COUNT))
    assert 0 < accepted < FUZZ_COUNT
