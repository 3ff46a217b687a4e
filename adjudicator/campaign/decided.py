"""A campaign decided from outside the game: a tournament's ruling (a forfeit, an
adjudication, no result) ends the game for the tournament, and from then on the
campaign takes no orders and steps no further -- its record stops at the head the
ruling names, so the audit can hold the two together. The ruling itself is the
tournament's signed record; the campaign keeps only the note, in its private meta."""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.campaign.errors import CampaignOver

DECIDED = "decided_by_ruling"


def decided_note(ruling: str, reason: str, head: str) -> dict[str, Any]:
    """What a campaign keeps of the ruling that decided it."""
    return {DECIDED: {"ruling": ruling, "reason": reason, "head": head}}


def refuse_if_decided(meta: Mapping[str, Any], campaign: str) -> None:
    """CampaignOver, naming the ruling, when a ruling has decided ``campaign``."""
    note = meta.get(DECIDED)
    if note:
        raise CampaignOver(f"campaign {campaign!r} was decided by a ruling ({note['ruling']}: {note['reason']}); "
                           "it takes no more orders")
