"""Russo-Japanese War: the receipt of orders checked against a campaign names each line
that cannot be carried out and why (an unreachable move, an attack by a unit that will
not be adjacent), through the campaign's own check as ``check --store --campaign`` does."""

from __future__ import annotations

from tests.pipeline.pipeline_helpers import CAMPAIGN, DEADLINE_HOURS, HOUR, PLAYERS, REFEREE, T0, orders_text


def test_an_unreachable_move_and_an_attack_by_a_unit_not_adjacent_are_both_named(campaigns, referee_key):
    campaigns.create(CAMPAIGN, "russo-japanese-war", PLAYERS, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0)
    for side in ("japan", "russia"):   # step 1 draws the set-up once every side has confirmed
        campaigns.submit(CAMPAIGN, orders_text(side, step=1, body="", entropy=f"confirm-{side}"), referee_key)
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    assert (step.waiting.side, step.waiting.kind) == ("japan", "move")
    body = ("move:\n"
            "  Gds korea-1015-1114\n"
            "  12 korea-1015-1115-1215-1216\n"
            "attack:\n"
            "  1214 with Gds, 12\n")
    text = orders_text("japan", step=2, body=body)          # the step the first report asks for
    _receipt, problems = campaigns.check(CAMPAIGN, text)
    lines = text.splitlines()
    move, attack = lines.index("  12 korea-1015-1115-1215-1216") + 1, lines.index("  1214 with Gds, 12") + 1
    assert f"line {move}: 12 cannot reach 1216: 4 hexes, movement allowance 3 (8.0), " \
           "so 12 does not move" in problems
    assert f"line {attack}: 12 cannot attack 1214: it is in the korea box, not adjacent (9.1, A10)" in problems


def test_a_unit_written_as_a_prefix_is_read_and_the_receipt_says_how(campaigns, referee_key):
    campaigns.create(CAMPAIGN, "russo-japanese-war", PLAYERS, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0)
    for side in ("japan", "russia"):
        campaigns.submit(CAMPAIGN, orders_text(side, step=1, body="", entropy=f"confirm-{side}"), referee_key)
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    text = orders_text("japan", step=2, body="move:\n  Gd korea-1015-1114\n")
    line = text.splitlines().index("  Gd korea-1015-1114") + 1
    receipt, problems = campaigns.check(CAMPAIGN, text)
    assert "Gds korea-1015-1114" in receipt.text and problems == []
    assert receipt.notes == (f"line {line}: 'Gd' read as Gds",)
    receipt = campaigns.submit(CAMPAIGN, text, referee_key)
    assert f"Note: line {line}: 'Gd' read as Gds" in receipt.render()
