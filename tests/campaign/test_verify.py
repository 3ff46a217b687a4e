"""Fair dice, end to end: a campaign's public record verifies, and every kind of
tampering is caught (docs/dice.md; DESIGN §5)."""

from __future__ import annotations

import base64
import json

import pytest
from cryptography.hazmat.primitives import serialization
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.campaign.verify import UnusableRecord, verify_text
from adjudicator.fairdice import SeedChain, generate_keypair, records_from_jsonl, records_to_jsonl, sign_record
from tests.campaign.conftest import PLAYERS, play_campaign, confirm
from tests.campaign.tampering import resign


@pytest.fixture
def finished(campaigns, referee_key, auto_orders):
    step = play_campaign(campaigns, referee_key)
    return campaigns.export_public("test-1"), step


def first_batch_with_dice(pairs):
    return next(i for i, (kind, body) in enumerate(pairs)
                if kind == "batch" and any("dice" in e for e in body["entries"]))


def test_a_complete_game_verifies_with_its_result_and_dice_table(finished):
    text, last = finished
    verdict = verify_text(text)
    assert verdict.verified, verdict.reason
    assert verdict.result == last.result and verdict.result in ("japan", "russia", "draw")
    assert verdict.batches > 6 and verdict.dice > 50
    assert set(verdict.stats) <= {"japan", "russia"} and sum(s.total for s in verdict.stats.values()) == verdict.dice
    for stats in verdict.stats.values():
        assert 0.0 <= stats.p_value <= 1.0 and 1.0 <= stats.mean <= 6.0


def test_a_running_campaign_verifies_up_to_its_last_reveal(campaigns, referee_key, auto_orders):
    campaigns.create("running", "port-arthur", PLAYERS,
                     referee_key)
    for _ in range(4):
        campaigns.adjudicate("running", referee_key)
    verdict = verify_text(campaigns.export_public("running"))
    assert verdict.verified and verdict.result is None and verdict.waiting is not None


def test_a_changed_die_is_caught_even_when_the_referee_signs_it_again(finished, referee_key):
    text, _ = finished

    def change(pairs):
        i = first_batch_with_dice(pairs)
        entry = next(e for e in pairs[i][1]["entries"] if "dice" in e)
        entry["dice"][0] = entry["dice"][0] % 6 + 1
        return pairs

    verdict = verify_text(resign(records_from_jsonl(text), referee_key, change))
    assert not verdict.verified and "the seed gives" in verdict.reason


def test_a_changed_seed_is_caught(finished, referee_key):
    text, _ = finished

    def change(pairs):
        i = first_batch_with_dice(pairs)
        pairs[i][1]["seed"] = "00" * 32
        return pairs

    verdict = verify_text(resign(records_from_jsonl(text), referee_key, change))
    assert not verdict.verified and "committed chain" in verdict.reason


@pytest.mark.parametrize("how", ["removed", "reordered", "repeated"])
def test_a_record_removed_reordered_or_repeated_is_caught(finished, how):
    lines = finished[0].splitlines(keepends=True)
    if how == "removed":
        del lines[3]
    elif how == "reordered":
        lines[3], lines[4] = lines[4], lines[3]
    else:
        lines.insert(4, lines[3])
    verdict = verify_text("".join(lines))
    assert not verdict.verified and verdict.bad_record is not None


def test_a_batch_skipped_in_a_consistently_signed_record_is_caught(finished, referee_key):
    def change(pairs):
        i = first_batch_with_dice(pairs)
        return pairs[:i] + pairs[i + 1:]

    verdict = verify_text(resign(records_from_jsonl(finished[0]), referee_key, change))
    assert not verdict.verified and "skipped or reused" in verdict.reason


def test_a_record_signed_by_another_key_is_caught(finished):
    records = records_from_jsonl(finished[0])
    other = generate_keypair()[0]
    forged = sign_record(other, records[2].seq, records[2].kind, records[2].body, records[2].prev)
    records[2] = forged
    verdict = verify_text(records_to_jsonl(records))
    assert not verdict.verified and verdict.bad_record == 2


def test_orders_recorded_after_the_reveal_of_their_step_are_caught(campaigns, referee_key, auto_orders):
    campaigns.create("late", "port-arthur", PLAYERS,
                     referee_key)
    for _ in range(3):
        campaigns.adjudicate("late", referee_key)

    def change(pairs):
        batch = first_batch_with_dice(pairs)
        step = pairs[batch][1]["batch"]
        late = ("orders", {"side": "japan", "step": step, "orders_hash": "ab" * 32, "entropy_hash": None})
        return pairs[: batch + 1] + [late] + pairs[batch + 1:]

    verdict = verify_text(resign(records_from_jsonl(campaigns.export_public("late")), referee_key, change))
    assert not verdict.verified and "must precede its reveal" in verdict.reason


def test_two_different_charters_for_one_campaign_are_caught(finished, referee_key):
    def change(pairs):
        second = json.loads(json.dumps(pairs[0]))
        second[1]["options"] = {"mines": True}
        return [pairs[0], tuple(second)] + pairs[1:]

    verdict = verify_text(resign(records_from_jsonl(finished[0]), referee_key, change))
    assert not verdict.verified and "second charter" in verdict.reason


def test_a_cut_off_end_is_caught_with_the_head_from_a_report(finished):
    text = finished[0]
    head = verify_text(text).head
    shorter = "".join(text.splitlines(keepends=True)[:-1])
    assert verify_text(shorter).verified
    assert not verify_text(shorter, expected_head=head).verified


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_changing_any_byte_of_a_public_record_makes_verify_fail(finished, data):
    raw = bytearray(finished[0].encode("utf-8"))
    position = data.draw(st.integers(0, len(raw) - 1))
    replacement = data.draw(st.integers(0, 255).filter(lambda b: b != raw[position]))
    raw[position] = replacement
    try:
        verdict = verify_text(bytes(raw))
    except UnusableRecord:
        return
    assert not verdict.verified


def test_no_secret_appears_in_the_public_record(campaigns, store, referee_key, auto_orders):
    campaigns.create("secret", "port-arthur", PLAYERS,
                     referee_key)
    campaigns.adjudicate("secret", referee_key)
    campaigns.adjudicate("secret", referee_key)
    text = campaigns.export_public("secret")
    with store.transaction("secret") as tx:
        chain = SeedChain.from_secret_dict(tx.get_secret("referee-chain")[0])
        password = tx.get_secret("password:japan")
    revealed = verify_text(text).batches
    for k in range(revealed + 1, revealed + 20):
        assert chain.reveal(k).hex() not in text
    assert "Togo1904" not in text and "Makarov1904" not in text and password["hash"] not in text
    raw = referee_key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                    serialization.NoEncryption())
    assert raw.hex() not in text and base64.b64encode(raw).decode() not in text


def test_a_chain_that_runs_out_is_extended_by_a_signed_record_and_still_verifies(campaigns, referee_key,
                                                                                  auto_orders):
    campaigns.create("short", "port-arthur", PLAYERS, referee_key, chain_length=3)
    for _ in range(8):
        campaigns.adjudicate("short", referee_key)
    log = campaigns.log("short")
    assert [r.body["first_batch"] for r in log.of_kind("chain")] == [4, 7]
    verdict = verify_text(campaigns.export_public("short"))
    assert verdict.verified and verdict.batches == len(log.batches) >= 7


def test_an_undo_is_public_voids_the_batches_after_it_and_the_replay_follows(campaigns, referee_key,
                                                                              auto_orders):
    campaigns.create("undo", "port-arthur", PLAYERS, referee_key)
    for _ in range(4):
        campaigns.adjudicate("undo", referee_key)
    before = campaigns.log("undo")
    back_to = campaigns.undo("undo", referee_key, "a player's email was lost")
    log, match = campaigns.match("undo")
    assert log.of_kind("undo")[0].body == {"back_to": back_to, "reason": "a player's email was lost"}
    kept = [r for r in before.batches if r.body["batch"] <= back_to]
    assert match.history_json() == [{k: v for k, v in e.items() if k != "at"} for r in kept for e in r.body["entries"]]
    confirm(campaigns, referee_key, "undo")
    campaigns.adjudicate("undo", referee_key, reuse_orders=True)
    redo = campaigns.log("undo").batches[-1].body
    assert redo["batch"] == len(before.batches) + 1  # never reused
    assert len(redo["orders"]) == 2 and len(redo["contributions"]) == 2  # a fresh contribution from each side
    assert verify_text(campaigns.export_public("undo")).verified


def test_a_signed_but_malformed_record_is_not_verified_and_raises_nothing(finished, referee_key):
    def change(pairs):
        i = first_batch_with_dice(pairs)
        pairs[i][1]["entries"] = [{"dice": "six"}, 7, None]
        return pairs

    verdict = verify_text(resign(records_from_jsonl(finished[0]), referee_key, change))
    assert not verdict.verified and verdict.bad_record is not None
