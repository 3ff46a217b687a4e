"""The worked examples of docs/dice.md (docs/examples/*.jsonl) are records of short
campaigns made by the code as it is: each verifies, each record follows the JSON
Schema of its kind, and the page names every example and every schema. When the rules
or the game data change, make the examples again (the failure says how)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from adjudicator.campaign.examples import EXAMPLES
from adjudicator.campaign.record_schema import KINDS, SCHEMAS, schema
from adjudicator.campaign.verify import verify_text

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "docs" / "examples"
PAGE = (ROOT / "docs" / "dice.md").read_text(encoding="utf-8")
REMAKE = "make the examples again: python -m adjudicator.campaign.examples docs/examples"


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_each_worked_example_verifies_with_the_pages_referee_key(name):
    verdict = verify_text((FOLDER / name).read_bytes())
    assert verdict.verified, f"{name}: record {verdict.bad_record}: {verdict.reason} ({REMAKE})"
    assert verdict.fingerprint == "24f6 ed6a cbfe 1009 c030 d7ca 567c 33ca"
    assert verdict.batches >= 3
    assert f"examples/{name}" in PAGE


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_record_of_each_example_follows_the_schema_of_its_kind(name):
    envelope = Draft202012Validator(schema("record"))
    for line in (FOLDER / name).read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        envelope.validate(record)
        Draft202012Validator(schema(record["kind"])).validate(record["body"])


def test_every_schema_is_a_valid_json_schema_and_named_on_the_page():
    for kind in (*KINDS, "record"):
        Draft202012Validator.check_schema(schema(kind))
        assert f"schemas/{kind}.schema.json" in PAGE
    assert sorted(p.name for p in SCHEMAS.glob("*.json")) == sorted(f"{k}.schema.json" for k in (*KINDS, "record"))
    # an opening opens what a batch sealed: its copies of the batch's definitions must stay the same
    # (each schema file stands alone: the compiled checks resolve no reference to another file)
    opened, batch = schema("opening")["$defs"], schema("batch")["$defs"]
    for name in ("answer", "dice", "shuffle", "draw", "address"):
        assert opened[name] == batch[name], f"opening.schema.json's $defs/{name} differs from batch.schema.json's"


def test_the_examples_show_each_kind_of_draw_and_a_finished_game_with_its_opening():
    text = "".join((FOLDER / name).read_text(encoding="utf-8") for name in EXAMPLES)
    for needle in ('"dice":[', '"draw":[', '"what":"shuffle"', '"kind":"opening"', '"kind":"orders"',
                   '"stream":"public"'):
        assert needle in text, needle
