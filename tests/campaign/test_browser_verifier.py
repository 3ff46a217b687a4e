"""The verifier in the browser (adjudicator/campaign/verifier.html), run in the real
headless chromium: it verifies every worked example of docs/dice.md from its addresses
alone, and rejects tampered copies, each for what was changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.campaign.examples import EXAMPLES, example_key
from tests.campaign.browser_verifier import browser_verdict, browser_verdicts
from tests.campaign.tampering import drop_russias_first_orders, first_draw, resign
from tests.campaign.test_sealed import chains, sealed  # noqa: F401 (fixtures)
from tests.campaign.test_secrets import toy_campaigns  # noqa: F401 (fixture)
from tests.campaign.test_verify_fingerprint import example_log

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "examples"
FINGERPRINT = "24f6 ed6a cbfe 1009 c030 d7ca 567c 33ca"
REVEAL_LOG = "the reveal log of docs/dice.md §10.5"
#: the referee chain's s_2 of docs/dice.md §10.2: it hashes to the s_1 the reveal log reveals
S_2 = "b1bf2c552d50133db5ea677ae6d622e27f3f5b5fa78c1e5ee6dc9aa3c32a3b6e"


def example(name: str) -> str:
    if name == REVEAL_LOG:
        return example_log()
    return (FOLDER / name).read_text(encoding="utf-8")


def resigned(text: str, change, key=None) -> str:
    """The record changed by ``change(pairs)`` and signed again with ``key`` (else the
    examples' key, published in docs/dice.md): what a dishonest referee could publish."""
    return resign(text, key or example_key(), change)


def most_dice(pairs):
    """The roll with the most dice: a changed address then gives the same dice by chance
    at most once in 6**n (a one-die roll would pass one time in six)."""
    rolls = [e for kind, body in pairs if kind == "batch" for e in body["entries"] if "dice" in e]
    return max(rolls, key=lambda entry: len(entry["dice"]))


def change_die(pairs):
    entry = first_draw(pairs, "dice")
    entry["dice"][0] = entry["dice"][0] % 6 + 1
    return pairs


def relabel_phase(pairs):
    most_dice(pairs)["at"]["phase"] = "bogus"
    return pairs


def shift_index(pairs):
    most_dice(pairs)["at"]["index"] += 1
    return pairs


def change_card(pairs):
    entry = first_draw(pairs, "draw")
    entry["draw"][0] = (entry["draw"][0] + 1) % entry["at"]["n"]
    return pairs


def change_seed(pairs):
    body = next(body for kind, body in pairs if kind == "batch" and body["batch"] == 2)
    body["seed"] = "00" * 32
    return pairs


def change_entropy(pairs):
    body = next(body for kind, body in pairs if kind == "batch" and body["contributions"])
    side = next(iter(body["contributions"]))
    body["contributions"][side] += "0"
    return pairs


def change_opening(pairs):
    opening = next(body for kind, body in pairs if kind == "opening")
    opened = opening["openings"][0]["open"]
    opened["answer"] = {**opened["answer"], "changed": True}
    return pairs


def algorithm_v2(pairs):
    """A charter of an algorithm this page does not know: refused, not read as a reveal log."""
    pairs[0][1]["algorithm"] = "adjudicator-campaign/v2"
    return pairs


def reveal_of_another_owner(pairs):
    pairs[1][1]["owner"] = "japan"
    return pairs


def batch_2_revealed_first(pairs):
    """s_2 in place of s_1: it hashes to the chain, but batch 1 comes first."""
    pairs[1][1].update(batch=2, seed=S_2)
    return pairs


def the_same_reveal_twice(pairs):
    return pairs + [pairs[1]]


TAMPERED = {
    "die changed": ("port-arthur.jsonl", change_die, "the seed gives"),
    "phase relabelled": ("port-arthur.jsonl", relabel_phase, "the seed gives"),
    "address index shifted": ("tsushima-1905.jsonl", shift_index, "is not where batch"),
    "card changed": ("tsushima-1905.jsonl", change_card, "the seed gives"),
    "seed changed": ("port-arthur.jsonl", change_seed, "does not hash to the committed chain"),
    "entropy changed": ("tsushima-1905.jsonl", change_entropy, "entropy does not match its hash"),
    "batch 1 without russia": ("russo-japanese-war.jsonl", drop_russias_first_orders, "without a contribution from russia"),
    "opening changed": ("port-arthur-fog-of-war.jsonl", change_opening, "does not match its seal"),
    "a campaign's charter of algorithm v2": ("port-arthur.jsonl", algorithm_v2, "is not adjudicator-campaign/v1"),
    "a reveal log's charter of algorithm v2": (REVEAL_LOG, algorithm_v2, "is not adjudicator-campaign/v1"),
    "a reveal of another owner": (REVEAL_LOG, reveal_of_another_owner,
                                  'record 1: a reveal of batch 1 by "japan" where batch 1 of "referee" comes next'),
    "batch 2 revealed first": (REVEAL_LOG, batch_2_revealed_first, "a reveal of batch 2 by"),
    "the same reveal twice": (REVEAL_LOG, the_same_reveal_twice, "record 2: a reveal of batch 1 by"),
}


def other_signature(line: str) -> str:
    """The line with the first character of its signature changed (still canonical base64)."""
    head, sig = line.split('"signature":"', 1)
    return head + '"signature":"' + ("B" if sig[0] == "A" else "A") + sig[1:]


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    records = [(name, example(name), FINGERPRINT) for name in [*EXAMPLES, REVEAL_LOG]]
    for label, (name, change, _) in TAMPERED.items():
        records.append((label, resigned(example(name), change), ""))
    text = example("port-arthur.jsonl")
    lines = text.splitlines(keepends=True)
    records += [("a byte changed", text.replace('"seq":3,', '"seq":3 ,', 1), ""),
                ("a signature's byte changed", "".join(lines[:2]) + other_signature(lines[2]) + "".join(lines[3:]), ""),
                ("a record removed", "".join(lines[:3] + lines[4:]), ""),
                ("another referee's fingerprint", text, "0000 1111 2222 3333 4444 5555 6666 7777")]
    return browser_verdicts(records, tmp_path_factory.mktemp("browser"))


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_browser_verifies_each_worked_example_with_its_referees_fingerprint(verdicts, name):
    found = verdicts[name]
    assert found["status"] == "verified", found
    assert found["batches"] >= 3 and found["draws"] > 0


def test_the_browser_verifies_the_reveal_log_of_the_spec_with_its_referees_fingerprint(verdicts):
    found = verdicts[REVEAL_LOG]
    assert found["status"] == "verified" and found["batches"] == 1 and found["draws"] == 0, found


@pytest.mark.parametrize("label", sorted(TAMPERED))
def test_the_browser_rejects_a_tampered_copy_signed_again_for_what_was_changed(verdicts, label):
    found = verdicts[label]
    assert found["status"] == "failed" and TAMPERED[label][2] in found["reason"], found


@pytest.mark.parametrize("label, reason", [("a byte changed", "not canonical"),
                                           ("a signature's byte changed", "record 2: the signature"),
                                           ("a record removed", "record 3: seq is 4"),
                                           ("another referee's fingerprint", "fingerprint is 24f6")])
def test_the_browser_rejects_a_changed_record_or_another_key(verdicts, label, reason):
    found = verdicts[label]
    assert found["status"] == "failed" and reason in found["reason"], found


def test_the_page_shows_verified_for_the_record_written_inside_it(tmp_path):
    shown = browser_verdict(example("port-arthur.jsonl"), tmp_path, fingerprint=FINGERPRINT)
    assert shown["status"] == "verified" and shown["verdict"].startswith("VERIFIED")
    assert FINGERPRINT in shown["details"]
    shown = browser_verdict(resigned(example("port-arthur.jsonl"), change_die), tmp_path / "tampered")
    assert shown["status"] == "failed" and shown["verdict"].startswith("NOT VERIFIED: record")


def test_the_page_loads_nothing_from_anywhere():
    page = (Path(__file__).resolve().parents[2] / "adjudicator" / "campaign" / "verifier.html").read_text()
    for needle in ("src=", "href=", "http:", "https:", "import(", "fetch(", "XMLHttpRequest"):
        assert needle not in page, needle


def test_export_writes_the_browser_verifier_beside_the_record_with_the_record_inside(tmp_path, referee_key):
    import base64
    import re

    from adjudicator.campaign import Campaigns
    from adjudicator.store import Store
    from tests.campaign.conftest import PLAYERS
    from tests.pipeline.test_pipeline_cli import invoke

    with Store.open(tmp_path / "campaigns.sqlite3") as store:
        Campaigns(store).create("c1", "port-arthur", PLAYERS, referee_key)
    store_args = ["--store", tmp_path / "campaigns.sqlite3"]
    refused = invoke("export", "c1", *store_args, "--verifier")
    assert refused.exit_code == 2 and "--output" in refused.stderr
    (tmp_path / "out").mkdir()
    done = invoke("export", "c1", *store_args, "-o", tmp_path / "out" / "record.jsonl", "--verifier")
    assert done.exit_code == 0, done.output
    page = (tmp_path / "out" / "verify.html").read_text(encoding="utf-8")
    inside = re.search(r'<script id="embedded-record" type="text/plain">([^<]+)</script>', page).group(1)
    assert base64.b64decode(inside).decode("utf-8") == (tmp_path / "out" / "record.jsonl").read_text(encoding="utf-8")


def test_the_browser_recomputes_opened_hidden_shuffles_and_draws_of_a_finished_card_game(toy_campaigns,
                                                                                         referee_key, tmp_path):
    from adjudicator.campaign import Player
    from adjudicator.fairdice import fingerprint
    from tests.campaign.conftest import confirm

    players = [Player("red", "r@example.org", "pw-red-1"), Player("blue", "b@example.org", "pw-blue-1")]
    toy_campaigns.create("toy-b", "toy-hand", players, referee_key)
    confirm(toy_campaigns, referee_key, "toy-b", passwords={p.side: p.password for p in players})
    assert toy_campaigns.adjudicate("toy-b", referee_key).result is not None
    text = toy_campaigns.export_public("toy-b")
    assert '"what":"shuffle"' in text and '"what":"draw"' in text and '"kind":"opening"' in text

    def swap_hidden_seed(pairs):
        opening = next(body for kind, body in pairs if kind == "opening")
        opening["hidden_seeds"]["1"] = "00" * 32
        return pairs

    changed = resigned(text, swap_hidden_seed, referee_key)
    found = browser_verdicts([("toy", text, fingerprint(referee_key.public_key())),
                              ("toy, hidden seed changed", changed, "")], tmp_path)
    assert found["toy"]["status"] == "verified" and found["toy"]["sealed"] == 0, found["toy"]
    assert found["toy"]["draws"] >= 2
    changed = found["toy, hidden seed changed"]
    assert changed["status"] == "failed" and "hidden seed of batch 1" in changed["reason"], changed


def test_the_browser_checks_a_sealed_campaigns_reveals_against_the_players_chains(sealed, referee_key, chains,
                                                                                   tmp_path):
    from datetime import timedelta

    from tests.campaign.test_sealed import JAPAN_SORTIE, START, orders

    sealed.submit("sealed", orders("japan", 1, chains, JAPAN_SORTIE), referee_key)
    sealed.submit("sealed", orders("russia", 1, chains), referee_key)
    sealed.adjudicate("sealed", referee_key, now=START + timedelta(hours=1))
    text = sealed.export_public("sealed")

    def other_reveal(pairs):
        batch = next(body for kind, body in pairs if kind == "batch")
        batch["reveals"]["russia"] = chains["russia"].reveal(2).hex()
        return pairs

    changed = resigned(text, other_reveal, referee_key)
    found = browser_verdicts([("sealed", text, ""), ("another reveal", changed, "")], tmp_path)
    assert found["sealed"]["status"] == "verified", found["sealed"]
    assert found["another reveal"]["status"] == "failed" and "russia's sealed reveal" in found["another reveal"]["reason"]


def test_the_browser_accepts_a_first_draw_without_a_side_silent_past_the_deadline_only_when_it_is_named(
        campaigns, referee_key, tmp_path):
    from tests.campaign.test_every_side_speaks import first_step_with_russia_silent

    first_step_with_russia_silent(campaigns, referee_key)
    text = campaigns.export_public("late")

    def unnamed(pairs):
        next(body for kind, body in pairs if kind == "batch")["defaults"].remove("russia")
        return pairs

    changed = resigned(text, unnamed, referee_key)
    found = browser_verdicts([("late", text, ""), ("late, unnamed", changed, "")], tmp_path)
    assert found["late"]["status"] == "verified" and found["late"]["draws"] + found["late"]["sealed"] > 0, found["late"]
    changed = found["late, unnamed"]
    assert changed["status"] == "failed" and "without a contribution from russia" in changed["reason"], changed


def test_the_browser_checks_the_dice_of_a_campaign_with_an_undo_and_refuses_an_undo_that_voids_nothing(
        campaigns, referee_key, auto_orders, tmp_path):
    from tests.campaign.conftest import PLAYERS, confirm

    campaigns.create("u1", "port-arthur", PLAYERS, referee_key)
    for _ in range(3):
        confirm(campaigns, referee_key, "u1")
        campaigns.adjudicate("u1", referee_key)
    campaigns.undo("u1", referee_key, "a lost email")
    confirm(campaigns, referee_key, "u1")
    campaigns.adjudicate("u1", referee_key, reuse_orders=True)
    text = campaigns.export_public("u1")

    def undo_to_the_last_batch(pairs):
        undo = next(body for kind, body in pairs if kind == "undo")
        undo["back_to"] = max(body["batch"] for kind, body in pairs if kind == "batch")
        return pairs

    found = browser_verdicts([("undo", text, ""), ("undo, nothing voided", resigned(text, undo_to_the_last_batch,
                                                                                    referee_key), "")], tmp_path)
    assert found["undo"]["status"] == "verified" and found["undo"]["voided"] == 1 and found["undo"]["batches"] == 4
    nothing = found["undo, nothing voided"]
    assert nothing["status"] == "failed" and "an undo that voids nothing" in nothing["reason"], nothing
