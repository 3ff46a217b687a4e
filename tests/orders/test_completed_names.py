"""A name completed from a unique prefix is read, and the receipt says how, with its
line, in every orders language: nothing is rewritten without a line that says so. A
name written whole, or one of its aliases, gets no such line."""

from __future__ import annotations

from adjudicator.orders import check_orders
from adjudicator.orders.names import Catalog


def test_a_catalog_says_a_prefix_was_completed_and_a_whole_name_or_alias_was_not():
    ships = Catalog.of("ship", {"Tsesarevich": ("Tsarevich",), "Retvizan": ()})
    assert ships.lookup("Tses").reading("Tses") == "'Tses' read as Tsesarevich"
    assert ships.lookup("tsesarevich").reading("tsesarevich") is None
    assert ships.lookup("Tsarevich").reading("Tsarevich") is None
    assert ships.lookup("Nowhere").reading("Nowhere") is None


PORT_ARTHUR = """campaign: club
side: Jap
turn: 1
sortie:
  Mikasa, Shiki to East China
  Fuji to East China Sea
"""


def test_port_arthur_notes_a_ship_a_zone_and_a_side_completed_from_a_prefix():
    receipt = check_orders(PORT_ARTHUR, "port-arthur")
    assert sorted(receipt.notes) == ["line 2: 'Jap' read as japan", "line 5: 'East China' read as East China Sea",
                                     "line 5: 'Shiki' read as Shikishima"]


TSUSHIMA = """campaign: club
side: Japan
turn: 3
move:
  Shikish: ahead
  Mikasa: ahead
"""


def test_tsushima_notes_a_ship_completed_from_a_prefix():
    receipt = check_orders(TSUSHIMA, "tsushima-1905")
    assert receipt.notes == ("line 5: 'Shikish' read as Shikishima",)


def test_russo_japanese_war_notes_a_card_completed_from_a_prefix():
    text = "campaign: club\nside: Japan\nturn: 1\nevents: Hotch\n"
    receipt = check_orders(text, "russo-japanese-war")
    assert receipt.notes == ("line 4: 'Hotch' read as #02 Hotchkiss Machine Guns",)
