"""Secrets after a whole campaign (the demo): no player password, no byte of the
referee's private key and no unrevealed seed in any mail sent, in the public record or
in what the command printed."""

from __future__ import annotations

import base64
import mailbox
import re

import pytest

from adjudicator.campaign.log import read_log
from adjudicator.fairdice import SeedChain, load_private_key
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import decoded_text

HEX64 = re.compile(r"[0-9a-f]{64}")


@pytest.fixture(scope="module")
def places(demo_run):
    """Every place a secret must not reach, as text: each outbox .eml (raw, with soft
    line breaks joined, and decoded), the public record, and the command's output."""
    folder = demo_run.folder
    texts = {}
    for path in sorted((folder / "outbox").glob("*.eml")):
        raw = path.read_bytes()
        texts[f"{path.name} (raw)"] = raw.decode("ascii", "replace").replace("=\r\n", "").replace("=\n", "")
        texts[f"{path.name} (decoded)"] = decoded_text(raw)
    texts["public record"] = (folder / "public-record.jsonl").read_text(encoding="utf-8")
    texts["demo output"] = demo_run.done.stdout + demo_run.done.stderr
    assert len(texts) > 10
    return texts


@pytest.fixture(scope="module")
def passwords(demo_run):
    """The players' passwords, from the 'password:' lines of the orders emails in the inbox."""
    found = set()
    for message in mailbox.Maildir(demo_run.folder / "inbox", create=False):
        body = message.get_payload(decode=True).decode("utf-8")
        found |= set(re.findall(r"^password: (\S+)$", body, re.MULTILINE))
    assert len(found) == 2
    return found


def test_no_player_password_appears_in_mail_record_or_output(places, passwords):
    for where, text in places.items():
        for password in passwords:
            assert password not in text, f"a password appears in {where}"


def test_no_player_password_is_stored_in_clear(demo_run, passwords):
    folder = demo_run.folder
    stored = b"".join(p.read_bytes() for p in folder.glob("campaigns.sqlite3*"))
    for password in passwords:
        assert password.encode() not in stored
    with Store.open(folder / "campaigns.sqlite3") as store, store.transaction("demo") as tx:
        hashes = [tx.get_secret(f"password:{side}") for side in ("japan", "russia")]
    assert all(h["scheme"] == "argon2id" and h["salt"] and h["hash"] for h in hashes)


def test_no_byte_of_the_referee_private_key_appears_in_mail_record_or_output(demo_run, places):
    key_file = demo_run.folder / "referee.key"
    raw = load_private_key(key_file, None).private_bytes_raw()
    pem_body = "".join(line for line in key_file.read_text().splitlines() if not line.startswith("-----"))
    forms = {raw.hex(), base64.b64encode(raw).decode().rstrip("="), pem_body}
    for where, text in places.items():
        for form in forms:
            assert form not in text, f"the referee's private key appears in {where}"


def test_no_unrevealed_seed_appears_in_mail_record_or_output(demo_run, places):
    with Store.open(demo_run.folder / "campaigns.sqlite3") as store, store.transaction("demo") as tx:
        chains = [SeedChain.from_secret_dict(data) for data in tx.get_secret("referee-chain")]
        log = read_log("demo", tx.entries())
    last_revealed = max(record.body["batch"] for record in log.batches)
    revealed, unrevealed = set(), set()
    first = 1  # the batch a chain's first seed serves
    for chain in chains:
        for k in range(1, chain.length + 1):
            (revealed if first + k - 1 <= last_revealed else unrevealed).add(chain.seeds[k].hex())
        first += chain.length
    published = {record.body["seed"] for record in log.batches}
    assert published == revealed
    assert chains[-1].seeds[-1].hex() in unrevealed and len(unrevealed) >= 1

    seen = {where: set(HEX64.findall(text)) for where, text in places.items()}
    for where, tokens in seen.items():
        assert not tokens & unrevealed, f"an unrevealed seed appears in {where}"
    assert published <= seen["public record"]  # the search finds seeds where they are
    last_seed = log.batches[-1].body["seed"]
    assert any(last_seed in tokens for where, tokens in seen.items() if where.endswith("(decoded)"))
