"""Errors: all at once, located, quoted, with stable codes; golden files for the text."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import GOLDEN, problems

from functools import partial

from adjudicator.orders import CODES, MAX_BYTES, OrdersError, parse_orders as any_parse_orders
parse_orders = partial(any_parse_orders, game="port-arthur")

DOCS = Path(__file__).resolve().parents[2] / "docs" / "orders.md"


def render(path: Path) -> str:
    try:
        parse_orders(path.read_bytes())
    except OrdersError as err:
        return err.render() + "\n"
    return "(no problems)\n"


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.orders")), ids=lambda p: p.stem)
def test_golden_messages(path):
    """The messages for each golden file; UPDATE_GOLDEN=1 rewrites the expected files."""
    expected = path.with_suffix(".expected")
    got = render(path)
    if os.environ.get("UPDATE_GOLDEN") or not expected.exists():
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8")


def test_five_mistakes_give_five_precise_messages():
    found = problems("", header=(GOLDEN / "five-mistakes.orders").read_text())
    assert [(p.code, p.line, p.column) for p in found] == [
        ("E201", 6, 3),   # unknown ship, did you mean Mikasa
        ("E103", 7, 10),  # the line ends after "to"
        ("E104", 8, 1),   # misspelt heading, its lines skipped
        ("E301", 10, 7),  # nine dice
        ("E202", 11, 12),  # "P" is ambiguous
    ]
    assert found[0].suggestions == ("Mikasa",)
    assert found[2].suggestions == ("operations",)
    assert "Pobeda" in found[4].message
    assert all(p.source and "^" in p.render() for p in found)


def test_expected_is_said():
    (found,) = problems("sortie:\n  Fuji Yellow Sea\n")
    assert found.code == "E103"
    assert '"to"' in found.expected


def test_every_code_is_documented():
    """Generic codes in docs/orders.md; a game's codes there or in its own
    docs/games/<game>/orders.md."""
    from adjudicator import games

    generic = DOCS.read_text(encoding="utf-8")
    for code in CODES:
        assert re.search(rf"\b{code}\b", generic), f"{code} is not in docs/orders.md"
    for name in games.names():
        own = DOCS.parent / "games" / name / "orders.md"
        text = generic + (own.read_text(encoding="utf-8") if own.exists() else "")
        for code in games.get(name).language.CODES:
            assert re.search(rf"\b{code}\b", text), f"{name}'s {code} is not in docs/orders.md nor in {own}"


def test_size_limit():
    with pytest.raises(OrdersError) as caught:
        parse_orders(b"#" * (MAX_BYTES + 1))
    assert [p.code for p in caught.value.problems] == ["E100"]
    assert caught.value.unusable
    assert "256 KiB" in caught.value.render()


@pytest.mark.parametrize("data", [b"\xff\xfe\x00d\x00i", b"dice: auto\n\xc3\x28\n"])
def test_not_text(data):
    with pytest.raises(OrdersError) as caught:
        parse_orders(data)
    assert caught.value.unusable
    assert caught.value.problems[0].code == "E105"


def test_empty_file():
    with pytest.raises(OrdersError) as caught:
        parse_orders("\n\n# nothing\n")
    assert [p.code for p in caught.value.problems] == ["E106"]


def test_missing_header_lines():
    codes = [p.code for p in problems("dice: auto\n", header="")]
    assert codes == ["E112", "E112", "E112"]


def test_wrong_campaign():
    found = problems("dice: auto\n", campaign="another")
    assert [p.code for p in found] == ["E114"]


def test_past_the_most_problems_shown_a_problem_is_only_counted_without_quoting_its_line():
    from adjudicator.orders.problems import MAX_PROBLEMS, ProblemLog
    log = ProblemLog(["x" * 100_000] * (MAX_PROBLEMS + 2))
    for line in range(1, MAX_PROBLEMS + 1):
        log.add("E301", f"problem {line}", line, 1)
    assert log.full
    log.add("E301", "one too many", MAX_PROBLEMS + 1, 1)
    assert log.problems[-1].message == "(not shown)" and log.problems[-1].source == ""


def test_a_problem_only_counted_is_never_shown_though_it_comes_first_in_the_file():
    from adjudicator.orders.problems import MAX_PROBLEMS, ProblemLog
    log = ProblemLog(["bad"] * 200)
    for line in range(100, 100 + MAX_PROBLEMS):
        log.add("E301", f"problem {line}", line, 1)
    log.add("E301", "found later, on line 1", 1, 1)
    shown = OrdersError(log.problems).problems
    assert [p.line for p in shown[:-1]] == list(range(100, 100 + MAX_PROBLEMS))
    assert shown[-1].code == "E900" and shown[-1].message == "1 more problem not shown; fix these first"


def test_duplicates_and_conflicts():
    codes = [p.code for p in problems(
        "sortie: Mikasa to Tsushima; Mikasa to Yellow Sea\ndice: auto\ndice: 3\n"
        "hits: ask; protect Mikasa\nsortie: none\nside: Japan\n")]
    assert sorted(codes) == ["E110", "E110", "E111", "E115", "E207"]


def test_too_many_errors_are_summed_up():
    with pytest.raises(OrdersError) as caught:
        parse_orders("campaign: c\nside: Japan\nturn: 1\n" + "sortie:\n" + "  ! ! !\n" * 200)
    found = caught.value.problems
    assert len(found) == 51 and found[-1].code == "E900"
