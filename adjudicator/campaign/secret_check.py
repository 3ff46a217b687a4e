"""Whether a campaign's stored secrets agree with what its history published about
them: each referee seed chain must hash to its stored anchor and match the commitment
in the charter or in its chain record, and so must the hidden seed chain. ``store
copy`` runs this before it copies a campaign (a damaged seed would only show when a
later step's dice could not be verified)."""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.campaign.campaign import CHAIN_SECRET
from adjudicator.campaign.log import read_log
from adjudicator.campaign.record_kinds import CHAIN, CHARTER
from adjudicator.campaign.secrets import HIDDEN_CHAIN_SECRET
from adjudicator.fairdice import ChainCommitment, FairDiceError, SeedChain


def secret_problems(campaign: str, entries: list[Any], secrets: Mapping[str, Any]) -> list[str]:
    """What is wrong with the campaign's seed chain secrets (names, never values)."""
    if not entries or entries[0].kind != CHARTER or CHAIN_SECRET not in secrets:
        return []
    log = read_log(campaign, entries)
    published = [log.charter["chain"], *(record.body["chain"] for record in log.of_kind(CHAIN))]
    stored = secrets[CHAIN_SECRET]
    if not isinstance(stored, list) or len(stored) < len(published):
        return [f"the secret {CHAIN_SECRET!r} lacks chains the history published"]
    problems = [f"the secret {CHAIN_SECRET!r}, chain {number}: {problem}"
                for number, (data, commitment) in enumerate(zip(stored, published), start=1)
                if (problem := _chain_problem(data, commitment))]
    hidden = log.charter.get("hidden_chain")
    if hidden is not None:
        problem = _chain_problem(secrets.get(HIDDEN_CHAIN_SECRET), hidden)
        if problem:
            problems.append(f"the secret {HIDDEN_CHAIN_SECRET!r}: {problem}")
    return problems


def _chain_problem(data: Any, published: Mapping[str, Any]) -> str | None:
    try:
        chain = SeedChain.from_secret_dict(data)
    except (FairDiceError, TypeError, ValueError, KeyError, AttributeError):  # (its message may quote the seed)
        return "missing, unreadable, or its seed does not hash to its anchor"
    if chain.commitment() != ChainCommitment.from_dict(published):
        return "does not match the commitment the history published"
    return None
