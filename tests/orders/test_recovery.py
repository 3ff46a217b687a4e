"""Error recovery reports only true errors, each located in the text the player sent,
and never quotes a password."""

from __future__ import annotations

import pytest
from conftest import problems, read


def located(found) -> list[tuple[str, int, int]]:
    return [(p.code, p.line, p.column) for p in found]


def test_lines_before_a_syntax_error_are_not_reported_again():
    """A bad line must not make the correct lines above it look given twice."""
    found = problems("step: 3\nsortie:\n  Mikasa to Yellow Sea\n  Asahi to Tsushima\n"
                     "  garbage ;; here\n  Fuji to Sea of Japan\nhits: $$\n")
    assert [p.code for p in found] == ["E101", "E101"]
    assert not any("second" in p.message or "two sortie orders" in p.message for p in found)


def test_a_bad_line_in_a_block_is_the_only_error():
    found = problems("sortie:\n  Mikasa to Yellow Sea\n  ! bad\n  Asahi to Tsushima\ndice: auto\n")
    assert located(found) == [("E101", 6, 3)]


def test_three_mistakes_give_exactly_three_errors():
    """A misspelt zone, "seize: perhaps" and one garbage line: three errors, no more."""
    found = problems("password: Togo1904\nsortie:\n  Mikasa to Yelow Sea\n  Asahi to Tsushima\n"
                     "seize: perhaps\nblah blah ::\ndice: auto\n")
    assert located(found) == [("E203", 6, 13), ("E101", 8, 8), ("E101", 9, 11)]


def test_a_password_with_spaces_is_a_password():
    orders = read("password: my secret words   # a comment\n")
    assert orders.credentials.password == "my secret words"
    assert read("password: s3cr#t\n").credentials.password == "s3cr#t"


@pytest.mark.parametrize("line", ["password: my secret words", "passwrod: my secret words",
                                  "Pasword my secret words", "passwd: my secret words"])
def test_an_error_quoting_a_password_line_masks_the_value(line):
    found = problems(f"{line}\nsortie: Mikasa to Yelow Sea\npassword: other words\n")
    rendered = "\n".join(p.render() + repr(p.to_json()) for p in found)
    assert "secret" not in rendered and "words" not in rendered
    assert "********" in rendered


def test_a_password_line_error_message_masks_the_quoted_value():
    found = problems("password: tiger\npassword: a secret phrase\n")
    assert [p.code for p in found] == ["E111"]
    assert "secret" not in found[0].render()


@pytest.mark.parametrize("block, column", [("reroll: no; yes", 13), ("dice: auto; ask", 13),
                                           ("seize: yes; no", 13), ("blockade: keep; no", 17)])
def test_two_answers_are_located(block, column):
    (found,) = problems(block + "\n")
    assert located([found]) == [("E115", 4, column)]


def test_missing_header_lines_are_located_where_the_orders_begin():
    found = problems("\n# my orders\ndice: auto\n", header="")
    assert located(found) == [("E112", 3, 1)] * 3


def test_orders_for_another_campaign_point_at_the_campaign_line():
    found = problems("dice: auto\n", campaign="another")
    assert located(found) == [("E114", 1, 1)]


def test_html_mail_errors_are_within_its_text():
    html = ("<html><body><p>campaign: test</p><p>side: Japan</p><p>turn: 2</p>"
            "<p>sortie: Mikasa to</p><p></p><br><br><br></body></html>")
    found = problems(html, header="")
    from adjudicator.orders.text import clean

    lines = clean(html).lines
    assert found
    for problem in found:
        assert 1 <= problem.line <= len(lines)
        assert 1 <= problem.column <= len(lines[problem.line - 1]) + 1
