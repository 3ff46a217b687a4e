"""Every mail of a tournament, read as a mail program reads it: no text line the
adjudicator writes (the opening, pairings, byes, results, standings, reminders, rulings,
answers to registrations and withdrawals by mail, and in the games the receipts,
refusals and opening mails) is wider than 78 columns; a long sentence breaks at a space,
and the standings table keeps its columns, the tie-breaks that do not fit going on in a
table of their own. A game's reports are the game's own and held to their width by its
templates (tests/pipeline/test_demo_mail_width.py). The whole tournament by email runs
with the soaks (ADJUDICATOR_SOAK=1); the notices, rulings and answers in the default run."""

from __future__ import annotations

import mailbox
from datetime import timedelta
from email.message import EmailMessage

import pytest

from adjudicator.mail.plain import WIDTH
from adjudicator.tournament.charter import DEFAULT_TIEBREAKS, charter_from_toml
from adjudicator.tournament.demo import run_tournament_demo
from adjudicator.tournament.ladder import render_ladder
from adjudicator.tournament.mailin import take_mail
from adjudicator.tournament.service import standings_text
from adjudicator.tournament.standings import Line, render
from tests.pipeline.pipeline_helpers import parse_eml
from tests.pipeline.test_demo_mail_width import generic_lines

from .conftest import T0

#: names as long as players choose them (a club's full names)
NAMES = ("heihachiro-togo-combined-fleet", "stepan-makarov", "hikonojo-kamimura", "wilgelm-witgeft", "uriu")


def too_wide(messages) -> list[tuple[str, str]]:
    return [(str(m["Subject"]), line) for m in messages for line in generic_lines(m) if len(line) > WIDTH]


def outbox(tournaments, name: str = "cup") -> list:
    return [parse_eml(m.eml) for m in tournaments.store.outbox(name)]


def email(text: str, sender: str, number: int) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "referee@localhost", "entry"
    message["Message-ID"] = f"<width-{number}@fleet.example>"
    message.set_content(text)
    return bytes(message)


@pytest.mark.soak   # two rounds of whole games by email: about 40 seconds
def test_a_tournament_by_email_sends_no_line_wider_than_78_columns(tmp_path):
    summary = run_tournament_demo(tmp_path / "demo", 7, {}, rounds=2, entrants=3)   # three players: a bye
    assert summary.verified
    mails = [parse_eml(p.read_bytes()) for p in sorted((tmp_path / "demo" / "outbox").glob("*.eml"))]
    subjects = " | ".join(str(m["Subject"]) for m in mails)
    for kind in ("Tournament opened", "Round 1: a bye", "Round 2: demo-cup-r2-1", "Result of", "Final standings",
                 "Orders accepted", "report for"):
        assert kind in subjects
    assert too_wide(mails) == []
    standings = next(m for m in mails if "Final standings" in str(m["Subject"])).get_body(("plain",)).get_content()
    assert "  #  player" in standings and "W-D-L" in standings
    assert "docs/tournaments.md explains every column." in " ".join(standings.split())


def test_notices_rulings_and_answers_by_mail_fit_78_columns(tmp_path, tournaments, referee_key):
    data = {"tournament": {"name": "cup", "game": "port-arthur", "format": "round-robin",
                           "referee_address": "referee@fleet.example"},
            "clocks": {"deadline_hours": 72, "reminders": 2, "silent_days": 7, "round_days": 60},
            "player": [{"name": n, "address": f"p{i}@fleet.example", "password": f"pw-{i}"}
                       for i, n in enumerate(NAMES[:4])],
            "standby": [{"name": NAMES[4], "address": "reserve@fleet.example", "password": "pw-r"}]}
    tournaments.create(charter_from_toml(data), referee_key, T0)
    box = mailbox.Maildir(tmp_path / "in", create=True)
    box.add(email("tournament: cup\nplayer: heihachiro-togo-combined-fleet\npassword: wrong\nabsent 3\n",
                  "p0@fleet.example", 1))
    box.add(email("tournament: cupp\nplayer: stepan-makarov\npassword: pw-1\nabsent 3\n", "p1@fleet.example", 2))
    box.add(email("tournament: cup\nplayer: stepan-makarov\npassword: pw-1\nabsent three days\n",
                  "p1@fleet.example", 3))
    assert [h.outcome for h in take_mail(tournaments, tmp_path / "in", referee_key, T0)] == ["refused"] * 3
    games = tournaments.pair("cup", referee_key, T0)["games"]
    tournaments.clock("cup", referee_key, T0 + timedelta(days=4))                 # defaults, reminder 1
    tournaments.clock("cup", referee_key, T0 + timedelta(days=5))                 # reminder 2
    tournaments.rule("cup", games[0]["game"], "replace", "the player left the club, said so by mail to the "
                     "referee after the first reminder", referee_key, T0 + timedelta(days=5), silent="japan")
    tournaments.rule("cup", games[1]["game"], "forfeit", "a second account of the same player, found by the "
                     "club's secretary", referee_key, T0 + timedelta(days=5), silent="russia")
    tournaments.withdraw("cup", NAMES[3], "moving abroad for the season and cannot keep to the deadlines",
                         referee_key)
    tournaments.queue_standings("cup")

    mails = outbox(tournaments)
    subjects = " | ".join(str(m["Subject"]) for m in mails)
    for kind in ("Tournament opened", "Round 1:", "Reminder 1", "Reminder 2", "You take over", "Ruling in",
                 "Result of", "Withdrawal", "Standings"):
        assert kind in subjects, kind
    assert too_wide(mails) == []
    assert len([m for m in mails if m["In-Reply-To"]]) == 3     # the three mails answered
    ruling = next(m for m in mails if "Ruling in" in str(m["Subject"])).get_body(("plain",)).get_content()
    assert "the player left the club, said so by mail to the referee after the first reminder" in \
        " ".join(ruling.split())                                 # broken at spaces, every word kept


def lines_of(players: int, withdrawn: str = "") -> list[Line]:
    values = {c: 10.5 for c in DEFAULT_TIEBREAKS}
    return [Line(rank, name, 3.5, 6, 3, 1, 2, values, f"buchholz {rank + 3} against {rank + 2}",
                 name == withdrawn) for rank, name in enumerate(NAMES[:players], start=1)]


def test_the_standings_table_keeps_its_columns_within_78_columns():
    text = render(lines_of(5, withdrawn=NAMES[1]), DEFAULT_TIEBREAKS)
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    first, second = text.split("\n\n")
    header = first.splitlines()[0]
    assert header.split()[:6] == ["#", "player", "pts", "games", "W-D-L", "SB"]
    continued = second.splitlines()[0].split()
    assert continued[:2] == ["#", "player"] and header.split()[5:] + continued[2:] == \
        ["SB", "Buch", "MBuch", "H2H", "Cum", "SideW"]                # every tie-break, in the chain's order
    rows = first.splitlines()
    at = rows.index(next(r for r in rows if NAMES[1] in r))
    assert rows[at + 1] == "       ahead on buchholz 5 against 4; withdrawn"
    assert len(second.splitlines()) == 1 + 5                          # every player again
    short = render(lines_of(2), ["buchholz"])
    assert "\n\n" not in short and short.splitlines()[0].split() == ["#", "player", "pts", "games", "W-D-L", "Buch"]


def test_a_long_ladder_line_goes_on_under_the_players_name(tournaments, referee_key):
    data = {"tournament": {"name": "cup", "game": "port-arthur", "format": "ladder", "sides": "alternate",
                           "challenge_reach": 4},
            "player": [{"name": n, "address": f"p{i}@fleet.example", "password": "pw"} for i, n in enumerate(NAMES)]}
    tournaments.create(charter_from_toml(data), referee_key, T0)
    state = tournaments.state("cup")
    text = render_ladder(state)
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    last = text.split(f"  5  {NAMES[4]}", 1)[1]
    assert " ".join(last.split()) == "may challenge " + ", ".join(NAMES[:4])
    assert text in standings_text(state, tournaments.standings("cup"))
