"""Properties: nothing but OrdersError ever escapes; the canonical echo reads back the same."""

from __future__ import annotations

import random

from conftest import sample_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from functools import partial

from adjudicator.games.port_arthur.data import load_board
from adjudicator.orders import Header, OrderSet, OrdersError, Receipt, parse_orders as any_parse_orders
parse_orders = partial(any_parse_orders, game="port-arthur")
from adjudicator.orders.model import order_blocks
from adjudicator.games.port_arthur.language.model import (
    AUTO_PREFERENCE,
    BLOCK_ORDER,
    FLIP_INTACT_FIRST,
    SINK_DAMAGED_FIRST,
    Ask,
    AttackOrders,
    Battle,
    BlockadePolicy,
    Clause,
    Condition,
    CriticalsPolicy,
    DicePolicy,
    HitsPolicy,
    MinesPolicy,
    Move,
    OperationsPlan,
    Pass,
    PlanStep,
    RerollPolicy,
    ReturnOrders,
    SeizePolicy,
    SortieOrders,
)

BOARD = load_board()
ZONES = sorted(BOARD.zones)
SHIPS = {side: sorted(c.name for c in BOARD.counters if c.side == side) for side in ("japan", "russia")}
SAMPLES = sample_texts()
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def parses_or_refuses(data) -> None:
    try:
        orders = parse_orders(data)
    except OrdersError as err:
        assert err.problems
        err.render()
    else:
        Receipt.of(orders).render()


# -- nothing but OrdersError --------------------------------------------------------------

WORDS = ["sortie:", "operations:", "dice:", "hits:", "to", "from", "if", "else", "battle", "move",
         "pass", "Mikasa", "Yellow Sea", "Tsu", ",", ";", ":", "#", "\n", "\n  ", ">", "-- \n",
         "BEGIN ORDERS\n", "END ORDERS", '"', "squadron", "enemy there", "1.", "6", "auto", "protect",
         "campaign: x\n", "side: Japan\n", "turn: 1\n", "\t", "\r\n", "\ufeff", "<p>", "é", "\x00"]


@FUZZ
@given(st.text(max_size=400))
def test_random_text(text):
    parses_or_refuses(text)


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes(data):
    parses_or_refuses(data)


@FUZZ
@given(st.lists(st.sampled_from(WORDS), max_size=80).map(" ".join))
def test_random_words(text):
    parses_or_refuses(text)


@FUZZ
@given(st.sampled_from(sorted(SAMPLES)), st.integers(0, 2**32 - 1), st.integers(1, 12))
def test_mutated_samples(name, seed, count):
    """Samples with characters deleted, doubled, swapped or replaced."""
    rng = random.Random(seed)
    text = list(SAMPLES[name])
    for _ in range(count):
        i = rng.randrange(len(text))
        action = rng.choice(["delete", "double", "swap", "replace", "newline"])
        if action == "delete":
            del text[i]
        elif action == "double":
            text.insert(i, text[i])
        elif action == "swap" and i + 1 < len(text):
            text[i], text[i + 1] = text[i + 1], text[i]
        elif action == "replace":
            text[i] = rng.choice(":;,#>\"x 9\n-")
        else:
            text.insert(i, "\n")
    parses_or_refuses("".join(text))


# -- the canonical echo reads back the same orders ------------------------------------------

own, enemy = SHIPS["japan"], SHIPS["russia"]
zones = st.sampled_from(ZONES)
ops = st.sampled_from(["<", "<=", "=", ">=", ">"])
clauses = st.one_of(
    st.builds(Clause, st.sampled_from(["enemy", "no enemy", "stronger", "weaker", "faster", "slower"]),
              st.none() | zones),
    st.builds(lambda t, op, v: Clause(t, op=op, value=v), st.sampled_from(["turn", "score"]), ops,
              st.integers(0, 9)),
)
conditions = st.none() | st.builds(Condition, st.lists(clauses, min_size=1, max_size=3).map(tuple), st.booleans())
unique = lambda names, **kw: st.lists(st.sampled_from(names), unique=True, **kw).map(tuple)  # noqa: E731
actions = st.one_of(
    st.builds(Battle, st.none() | zones),
    st.builds(Move, zones, st.sampled_from(ZONES + ["Japan"])),
    st.builds(lambda d, s: Move("Japan", d, s), zones, unique(own, min_size=1, max_size=3)),
    st.just(Pass()),
    st.just(Ask()),
)
sorties = st.builds(
    SortieOrders,
    st.lists(st.tuples(st.sampled_from(own), st.sampled_from(ZONES + ["shipyard"])),
             unique_by=lambda m: m[0], max_size=5).map(tuple),
    st.none() | st.sampled_from(ZONES + ["shipyard"]),
    unique(list(BOARD.landing_spaces)),
)
flags = lambda cls, choices: st.builds(cls, st.sampled_from(choices), st.none())  # noqa: E731
japan_blocks = [
    sorties,
    st.builds(OperationsPlan, st.lists(st.builds(PlanStep, actions, conditions), min_size=1, max_size=5).map(tuple)),
    st.builds(RerollPolicy, st.just("yes"), conditions) | flags(RerollPolicy, ["no", "ask"]),
    flags(SeizePolicy, ["yes", "no", "ask"]),
    flags(BlockadePolicy, ["yes", "no", "keep", "ask"]),
    st.builds(DicePolicy, st.none() | st.integers(1, 6)) | st.just(DicePolicy(ask=True)),
    st.builds(CriticalsPolicy, unique(enemy, max_size=4)),
    st.builds(HitsPolicy, unique(own, max_size=3), st.sampled_from([AUTO_PREFERENCE, SINK_DAMAGED_FIRST,
                                                                       FLIP_INTACT_FIRST])),
    st.builds(MinesPolicy, unique(own, max_size=3)) | st.just(MinesPolicy(ask=True)),
    st.builds(AttackOrders, unique(enemy, max_size=3)),
]


@st.composite
def order_sets(draw):
    header = Header(draw(st.sampled_from(["c1", "club-7", "pa.2024"])), "japan", draw(st.integers(1, 6)),
                    draw(st.none() | st.integers(1, 99).map(str)), draw(st.none() | st.just("port-arthur")),
                    draw(st.none() | st.sampled_from(["00ff", "f00d1e"])))
    blocks = [draw(strategy) for strategy in japan_blocks if draw(st.booleans())]
    return OrderSet(header, order_blocks(blocks, BLOCK_ORDER))


@settings(max_examples=200, deadline=None)
@given(order_sets())
def test_canonical_text_reads_back_the_same(orders):
    text = orders.canonical_text()
    again = parse_orders(text)
    assert again == orders, text
    assert again.canonical_text() == text


def test_russian_return_orders_read_back():
    orders = parse_orders("campaign: c\nside: Russia\nturn: 3\nreturn: Retvizan to Port Arthur; others to Diego\n")
    assert orders.block("return") == ReturnOrders((("Retvizan", "Port Arthur"),), "Diego Suarez")
    assert parse_orders(orders.canonical_text()) == orders


def test_samples_read_back_and_hash_is_stable():
    for text in SAMPLES.values():
        receipt = Receipt.of(parse_orders(text))
        again = Receipt.of(parse_orders(receipt.text))
        assert again.orders == receipt.orders
        assert again.sha256 == receipt.sha256 and len(receipt.sha256) == 64
        assert "password" not in receipt.text
