"""The orders language: every form reads as intended."""

from __future__ import annotations

import pytest
from conftest import HEADER_RUSSIA, problems, read, sample_texts

from functools import partial

from adjudicator.orders import Header, parse_orders as any_parse_orders
parse_orders = partial(any_parse_orders, game="port-arthur")
from adjudicator.orders.grammar import keyword_of, lalr_parser
from adjudicator.games.port_arthur.language.model import (
    AUTO_PREFERENCE,
    FLIP_INTACT_FIRST,
    SINK_DAMAGED_FIRST,
    Ask,
    Battle,
    Clause,
    Condition,
    Move,
    Pass,
    PlanStep,
)


def test_header_fields():
    orders = parse_orders(
        "Campaign: club-7\nSIDE: russian\nturn 3, step 12\ngame: port-arthur\n"
        "password: s3cr#t\nentropy: 00ff\n"
    )
    assert orders.header == Header("club-7", "russia", 3, "12", "port-arthur", "00ff")
    assert orders.credentials.password == "s3cr#t"
    assert "s3cr" not in repr(orders)


def test_signature_is_kept_but_not_compared():
    a = read("dice: auto\n", header="campaign: c\nside: Japan\nturn: 1\nsignature: QUJD+/==\n")
    b = read("dice: auto\n", header="campaign: c\nside: Japan\nturn: 1\n")
    assert a.credentials.signature == "QUJD+/=="
    assert a == b


def test_sortie_forms():
    block = read(
        "sortie:\n  Mikasa, Asahi and Fuji to East China Sea\n  Yashima to shipyard; land on Yellow Sea, Tsu\n"
        "  all to Pacific\n"
    ).block("sortie")
    assert block.moves == (("Mikasa", "East China Sea"), ("Asahi", "East China Sea"),
                           ("Fuji", "East China Sea"), ("Yashima", "shipyard"))
    assert block.land == ("Yellow Sea", "Tsushima")
    assert block.everyone == "Pacific Ocean"


def test_sortie_none():
    block = read("sortie: none\n").block("sortie")
    assert block.moves == () and block.land == () and block.everyone is None


def test_operations_plan_with_conditions_and_else():
    plan = read(
        "operations:\n"
        "  1. battle in Yellow Sea if enemy there, else move Tsushima squadron to Yellow Sea\n"
        "  2) move Mikasa, Asahi from Japan to Tsushima unless turn >= 4 and no enemy in Tsushima\n"
        "  battle anywhere if stronger and faster there\n"
        "  move from East China Sea to Japan if weaker\n"
        "  pass if score > 1\n"
        "  ask\n"
    ).block("navo")
    assert plan.steps == (
        PlanStep(Battle("Yellow Sea"), Condition((Clause("enemy"),))),
        PlanStep(Move("Tsushima", "Yellow Sea")),
        PlanStep(Move("Japan", "Tsushima", ("Mikasa", "Asahi")),
                 Condition((Clause("turn", op=">=", value=4), Clause("no enemy", "Tsushima")), negated=True)),
        PlanStep(Battle(None), Condition((Clause("stronger"), Clause("faster")))),
        PlanStep(Move("East China Sea", "Japan"), Condition((Clause("weaker"),))),
        PlanStep(Pass(), Condition((Clause("score", op=">", value=1),))),
        PlanStep(Ask()),
    )


@pytest.mark.parametrize("heading", ["operations", "Plan", "NAVO"])
def test_operations_heading_aliases(heading):
    assert read(f"{heading}: pass\n").block("navo").steps == (PlanStep(Pass()),)


def test_policies():
    orders = read(
        "reroll: yes if turn < 4\nseize: never\nblockade: keep\ndice: 5\ncriticals: Tses, Retvizan\n"
        "hits: protect Mikasa; sink damaged first\nmines: auto\nattack: ask\n"
    )
    assert orders.block("reroll").choice == "yes"
    assert orders.block("reroll").condition == Condition((Clause("turn", op="<", value=4),))
    assert orders.block("seize").choice == "no"
    assert orders.block("blockade").choice == "keep"
    assert orders.block("dice").count == 5
    assert orders.block("criticals").priority == ("Tsesarevich", "Retvizan")
    assert orders.block("hits").protect == ("Mikasa",)
    assert orders.block("hits").prefer == SINK_DAMAGED_FIRST
    assert orders.block("mines").priority == () and not orders.block("mines").ask
    assert orders.block("attack").ask


def test_hits_forms():
    assert read("hits: auto\n").block("hits").prefer == AUTO_PREFERENCE
    assert read("hits:\n  flip first\n").block("hits").prefer == FLIP_INTACT_FIRST
    assert read("hits: ask\n").block("hits").ask


def test_return_block():
    block = read("return:\n  Retvizan, Pobeda to Port Arthur\n  others to Diego\n",
                 header=HEADER_RUSSIA).block("return")
    assert block.ports == (("Retvizan", "Port Arthur"), ("Pobeda", "Port Arthur"))
    assert block.others == "Diego Suarez"


def test_keywords_any_case_and_blocks_any_order():
    a = read("DICE: AUTO\nSortie:\n  MIKASA TO yellow sea\n")
    b = read("sortie: Mikasa to Yellow Sea\ndice: auto\n")
    assert a == b
    assert a.kinds == ("sortie", "dice")


def test_aliases_prefixes_and_quotes():
    orders = read('sortie:\n  Shiki to "Tsushima Strait"\n  Hastuse to ECS\n  Asam to Pacific\n')
    assert orders.block("sortie").moves == (
        ("Shikishima", "Tsushima"), ("Hatsuse", "East China Sea"), ("Asama", "Pacific Ocean"))


def test_multiword_ship_names():
    block = read("criticals: Imperator Nikolai I, Sissoi, Admiral Nakhimov\n").block("criticals")
    assert block.priority == ("Nikolai I", "Sissoi Veliky", "Admiral Nakhimov")


def test_comments_and_blank_lines_anywhere():
    orders = read("\n\n# a comment\nsortie:   # heading comment\n\n  # entry comment\n"
                  "  Mikasa to Yellow Sea # trailing\n\n\ndice: auto\n")
    assert orders.block("sortie").moves == (("Mikasa", "Yellow Sea"),)


def test_email_artefacts():
    text = (
        "\ufeffHello, text before the marker: sortie: nonsense\r\n"
        "BEGIN ORDERS\r\n"
        "campaign: test\r\nside:\tJapan\r\nturn: 2\r\n"
        "> dice: 3  (quoted from the last report)\r\n"
        "dice:\tauto\r\n"
        "END ORDERS\r\n"
        "dice: 6 after the end marker\r\n"
    )
    orders = parse_orders(text.encode("utf-8"))
    assert orders.block("dice").count is None


def test_signature_separator_ends_the_orders():
    orders = read("dice: auto\n-- \nAdmiral Togo\nsortie: whatever\n")
    assert orders.kinds == ("dice",)


def test_html_only_message():
    html = ("<html><body><p>campaign: test<br>side: Japan<br>turn: 2</p>"
            "<p>dice: 4</p><blockquote>dice: 6</blockquote></body></html>")
    assert parse_orders(html).block("dice").count == 4


def test_state_ships_are_names_too():
    class State:  # a case may bring ships of its own
        ships = {"Kamikaze": type("S", (), {"name": "Kamikaze", "side": "japan"})()}

    orders = read("sortie: Kami to Tsushima\n", state=State())
    assert orders.block("sortie").moves == (("Kamikaze", "Tsushima"),)


def test_every_keyword_is_reserved_from_names():
    """A keyword may never be read as (the start of) a name: the NAME terminal excludes them."""
    parser = lalr_parser("port-arthur")
    name = parser.get_terminal("NAME").pattern.to_regexp()
    import re

    pattern = re.compile(name)
    keywords = {keyword_of(parser, t.name) for t in parser.terminals} - {None}
    assert keywords
    for keyword in keywords:
        assert not pattern.match(keyword), keyword


@pytest.mark.parametrize("name", sorted(sample_texts()))
def test_samples_are_valid(name):
    parse_orders(sample_texts()[name])


def test_samples_use_every_block():
    kinds = set()
    for text in sample_texts().values():
        kinds |= set(parse_orders(text).kinds)
    assert kinds == {"attack", "sortie", "navo", "reroll", "seize", "dice", "criticals", "hits",
                     "blockade", "return", "mines"}


def test_wrong_side_and_places():
    codes = [p.code for p in problems("sortie: Retvizan to Port Arthur\nreturn: Mikasa to Japan\n")]
    assert codes == ["E205", "E206", "E208"]
