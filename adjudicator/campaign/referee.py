"""The referee's key: checking it is the charter's, and signing the campaign's next public record."""

from __future__ import annotations

from typing import Any, Mapping

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.campaign.errors import RefereeKeyMismatch
from adjudicator.campaign.log import CampaignLog
from adjudicator.fairdice import public_key_to_text, sign_record


def sign_next(key: Ed25519PrivateKey, log: CampaignLog | None, kind: str, body: Mapping[str, Any]):
    seq = 0 if log is None else len(log.records)
    prev = "0" * 64 if log is None else log.records[-1].hash
    return sign_record(key, seq, kind, dict(body), prev)


def check_referee_key(key: Ed25519PrivateKey, log: CampaignLog) -> None:
    if public_key_to_text(key.public_key()) != log.charter["referee_key"]:
        raise RefereeKeyMismatch(
            f"the referee key given is not the one in campaign {log.campaign!r}'s charter "
            f"({log.charter['referee_key']}); use the key the campaign was created with"
        )
