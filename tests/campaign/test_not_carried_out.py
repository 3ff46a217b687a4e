"""What a report says was not carried out is located in the order sets in force only:
not in orders since replaced, nor in one-off orders of an earlier turn, nor in the
orders of a voided step; receipt and report word the line the same way."""

from __future__ import annotations

from types import SimpleNamespace

from adjudicator.campaign.log import AcceptedOrders, CampaignLog
from adjudicator.campaign.running import NotCarriedOut, at_line, sets_in_force

NOVIK_ON_TOP = AcceptedOrders("russia", 1, "a", "side: russia\ntop:\n  Novik\n", None, None, 1, turn=1,
                              blocks=(("top", True),))
NOVIK_SORTIES = AcceptedOrders("russia", 2, "b", "side: russia\nstep: 2\nsortie:\n  Novik to Yellow Sea\n", None,
                               None, 2, turn=1, blocks=(("sortie", False),))
ASKOLD_SORTIES = AcceptedOrders("russia", 3, "c", "side: russia\nsortie:\n  Askold to Yellow Sea\n", None, None, 3,
                                turn=2, blocks=(("sortie", False),))
LOG = CampaignLog("c1", [], [NOVIK_ON_TOP, NOVIK_SORTIES, ASKOLD_SORTIES])


class NovikCannotSail:
    """A game's answers whose ``why_not`` finds Novik's order impossible."""

    @staticmethod
    def why_not(decision, state, orders):
        return [("Novik", "Novik cannot sail")]


def noted(skip=()):
    undone = NotCarriedOut(NovikCannotSail, lambda turn: sets_in_force(LOG, 3, turn, "port-arthur", skip), 3)
    undone(SimpleNamespace(side="russia"), SimpleNamespace(turn=2), None)
    return undone.by_side()["russia"]


def test_the_sets_in_force_leave_out_one_off_orders_of_an_earlier_turn():
    assert sets_in_force(LOG, 3, 2, "port-arthur", ()) == {"russia": [ASKOLD_SORTIES, NOVIK_ON_TOP]}
    assert sets_in_force(LOG, 3, 1, "port-arthur", ()) == {"russia": [NOVIK_ON_TOP]}  # (as orders_in_force)
    assert sets_in_force(LOG, 2, 1, "port-arthur", ()) == {"russia": [NOVIK_SORTIES, NOVIK_ON_TOP]}


def test_the_sets_in_force_leave_out_the_orders_skipped_as_voided():
    assert sets_in_force(LOG, 3, 2, "port-arthur", {3}) == {"russia": [NOVIK_ON_TOP]}


def test_a_note_names_the_line_of_the_set_in_force_not_of_a_sortie_of_an_earlier_turn():
    assert noted() == ("line 3 of your orders for step 1: Novik cannot sail",)


def test_a_note_of_the_step_adjudicated_names_its_line_alone():
    undone = NotCarriedOut(NovikCannotSail, lambda turn: sets_in_force(LOG, 2, turn, "port-arthur", ()), 2)
    undone(SimpleNamespace(side="russia"), SimpleNamespace(turn=1), None)
    assert undone.by_side() == {"russia": ("line 4: Novik cannot sail",)}


def test_receipt_and_report_word_a_line_the_same_way():
    assert at_line("Novik cannot sail", 4) == "line 4: Novik cannot sail"
    assert at_line("Novik cannot sail", 4, 1) == "line 4 of your orders for step 1: Novik cannot sail"
    assert at_line("Novik cannot sail", None, 1) == "Novik cannot sail"
