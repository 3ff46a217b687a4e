"""``verify --fingerprint`` pins the referee's key, and ``verify`` accepts the example
log of docs/dice.md §10.5 as it is printed there."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from adjudicator.campaign.verify import UnusableRecord, render_verdict, verify_text
from adjudicator.cli.verify_cmd import verify as verify_command
from adjudicator.fairdice import fingerprint
from tests.campaign.test_verify import finished  # noqa: F401 (fixture)

DICE_MD = Path(__file__).resolve().parents[2] / "docs" / "dice.md"


def example_log() -> str:
    """The JSON Lines of the page's two-record example log, as printed."""
    lines = [line for line in DICE_MD.read_text(encoding="utf-8").splitlines() if line.startswith('{"body":')]
    return "".join(line + "\n" for line in lines[:2])


def test_the_pages_own_example_log_verifies():
    verdict = verify_text(example_log())
    assert verdict.verified, verdict.reason
    assert verdict.reveals_only and verdict.batches == 1
    assert verdict.head == "3b46d59519330b2433c6cca0b8bcbc77d1f353917ceb4502c8538b96bfd4824c"
    assert verdict.fingerprint == "24f6 ed6a cbfe 1009 c030 d7ca 567c 33ca"
    assert "VERIFIED" in render_verdict(verdict)


def test_the_pages_example_log_with_a_changed_seed_is_caught():
    text = example_log().replace("4990ad57", "4990ad58")
    assert not verify_text(text).verified


def test_a_record_verifies_with_its_referees_fingerprint_typed_in_any_spacing(finished, referee_key):
    text, _ = finished
    given = fingerprint(referee_key.public_key()).replace(" ", "").upper()
    verdict = verify_text(text, fingerprint=given)
    assert verdict.verified and verdict.fingerprint_checked
    assert "matches the one given" in render_verdict(verdict)


def test_a_record_signed_by_another_key_fails_against_the_pinned_fingerprint(finished):
    text, _ = finished
    verdict = verify_text(text, fingerprint="24f6 ed6a cbfe 1009 c030 d7ca 567c 33ca")
    assert not verdict.verified and verdict.bad_record == 0 and "fingerprint" in verdict.reason


def test_a_fingerprint_that_is_not_32_hex_digits_is_refused_with_what_to_do(finished):
    text, _ = finished
    with pytest.raises(UnusableRecord, match="32 hex digits"):
        verify_text(text, fingerprint="24f6 ed6a")


def test_the_verify_command_takes_the_fingerprint(tmp_path, finished, referee_key):
    text, _ = finished
    record = tmp_path / "public.jsonl"
    record.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = verify_command(str(record), None, "text", out, err, fingerprint(referee_key.public_key()))
    assert code == 0 and re.search(r"Referee key fingerprint: [0-9a-f ]{39} \(matches", out.getvalue())
    code = verify_command(str(record), None, "text", out, err, "0" * 32)
    assert code == 1
