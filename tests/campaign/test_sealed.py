"""Sealed mode: every side commits a seed chain of its own and reveals its value for
each step with its orders, so no one -- the referee included -- can compute a batch's
dice before every side's orders are locked (DESIGN §5)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from adjudicator.campaign.errors import BadReveal, SealedRevealMissing
from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice import SeedChain, records_from_jsonl
from tests.campaign.conftest import PLAYERS
from tests.campaign.test_verify import resign

START = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
PASSWORDS = {p.side: p.password for p in PLAYERS}


@pytest.fixture
def chains():
    return {side: SeedChain.generate("sealed", 20, owner=side) for side in PASSWORDS}


@pytest.fixture
def sealed(campaigns, referee_key, chains):
    campaigns.create("sealed", "port-arthur", PLAYERS, referee_key, now=START,
                     player_chains={side: chain.commitment().to_dict() for side, chain in chains.items()})
    return campaigns


def orders(side, step, chains, body="", reveal=True, turn=1):
    lines = ["campaign: sealed", f"side: {side}", f"turn: {turn}", f"step: {step}",
             f"password: {PASSWORDS[side]}"]
    if reveal:
        lines.append(f"reveal: {chains[side].reveal(step).hex()}")
    return "\n".join(lines) + "\n" + body


JAPAN_SORTIE = "sortie:\n  Mikasa to Tsushima\n"


def test_the_charter_commits_every_sides_chain(sealed, chains):
    charter = sealed.log("sealed").charter
    assert charter["sealed"] is True
    assert {s: c["anchor"] for s, c in charter["player_chains"].items()} == {
        s: chain.anchor.hex() for s, chain in chains.items()}


def test_a_step_waits_for_every_sides_reveal_before_its_deadline(sealed, referee_key, chains):
    sealed.submit("sealed", orders("japan", 1, chains, JAPAN_SORTIE), referee_key)
    with pytest.raises(SealedRevealMissing, match="russia"):
        sealed.adjudicate("sealed", referee_key, now=START + timedelta(hours=1))


def test_with_every_reveal_in_the_step_runs_and_the_record_verifies(sealed, referee_key, chains):
    sealed.submit("sealed", orders("japan", 1, chains, JAPAN_SORTIE), referee_key)
    sealed.submit("sealed", orders("russia", 1, chains), referee_key)
    step = sealed.adjudicate("sealed", referee_key, now=START + timedelta(hours=1))
    assert step.batch == 1
    batch = sealed.log("sealed").batches[-1].body
    assert batch["reveals"] == {side: chains[side].reveal(1).hex() for side in PASSWORDS}
    assert verify_text(sealed.export_public("sealed")).verified


def test_a_reveal_that_is_not_the_committed_value_is_refused(sealed, referee_key, chains):
    other = SeedChain.generate("sealed", 20, owner="japan")
    text = orders("japan", 1, chains, JAPAN_SORTIE, reveal=False) + f"reveal: {other.reveal(1).hex()}\n"
    with pytest.raises(BadReveal, match="does not match"):
        sealed.submit("sealed", text, referee_key)
    with pytest.raises(BadReveal, match="step 1"):
        sealed.submit("sealed", orders("japan", 1, chains, JAPAN_SORTIE, reveal=False)
                      + f"reveal: {chains['japan'].reveal(2).hex()}\n", referee_key)


def test_a_side_that_stalls_past_the_deadline_forfeits(sealed, referee_key, chains):
    sealed.submit("sealed", orders("japan", 1, chains, JAPAN_SORTIE), referee_key)
    late = START + timedelta(hours=73)
    step = sealed.adjudicate("sealed", referee_key, now=late)
    assert step.result == "japan"
    verdict = verify_text(sealed.export_public("sealed"))
    assert verdict.verified and verdict.result == "japan"


def test_a_changed_reveal_in_the_record_is_caught(sealed, referee_key, chains):
    sealed.submit("sealed", orders("japan", 1, chains, JAPAN_SORTIE), referee_key)
    sealed.submit("sealed", orders("russia", 1, chains), referee_key)
    sealed.adjudicate("sealed", referee_key, now=START + timedelta(hours=1))

    def change(pairs):
        batch = next(body for kind, body in pairs if kind == "batch")
        batch["reveals"]["russia"] = chains["russia"].reveal(2).hex()
        return pairs

    verdict = verify_text(resign(records_from_jsonl(sealed.export_public("sealed")), referee_key, change))
    assert not verdict.verified and "sealed reveal" in verdict.reason


def test_a_reveal_in_a_campaign_that_is_not_sealed_is_refused(campaigns, referee_key, chains):
    campaigns.create("sealed", "port-arthur", PLAYERS, referee_key)
    with pytest.raises(BadReveal, match="not sealed"):
        campaigns.submit("sealed", orders("japan", 1, chains, JAPAN_SORTIE), referee_key)


def test_the_sealed_commands_make_a_chain_and_its_reveal_lines(tmp_path):
    from typer.testing import CliRunner

    from adjudicator.cli import campaign_cmds  # noqa: F401  (registers the commands)
    from adjudicator.cli.app import app
    from adjudicator.fairdice import ChainCommitment

    runner = CliRunner()
    chain_file = tmp_path / "japan.chain"
    made = runner.invoke(app, ["sealed", "new-chain", "sealed", "japan", "-o", str(chain_file), "--length", "5"])
    assert made.exit_code == 0, made.output
    commitment = json.loads(made.stdout[: made.stdout.rindex("}") + 1])
    assert (chain_file.stat().st_mode & 0o777) == 0o600
    revealed = runner.invoke(app, ["sealed", "reveal", str(chain_file), "3"])
    value = bytes.fromhex(revealed.stdout.split("reveal:")[1].strip())
    assert ChainCommitment.from_dict(commitment).verify_reveal(3, value)
    again = runner.invoke(app, ["sealed", "new-chain", "sealed", "japan", "-o", str(chain_file)])
    assert again.exit_code == 2
