"""Absences by mail: 'away: FROM to TO' with the side and its password records an
absence within the budget, the player gets a receipt, the opponent a notice of the
dates only, 'status' shows it, and a deadline inside it moves past it."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from adjudicator.campaign.absence import ABSENCES
from adjudicator.campaign.roster import BadRoster, create_roster, read_roster
from adjudicator.cli.campaign_cmds import players_absence_budget
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    CAMPAIGN,
    DEADLINE_HOURS,
    PLAYERS,
    REFEREE,
    assert_no_traceback,
    cli,
    command_env,
)
from tests.pipeline.test_mail_desk import answers, ask, command


def today() -> date:
    return datetime.now(timezone.utc).date()


def away(first: date | str, last: date | str, side: str = "japan", campaign: str = CAMPAIGN) -> str:
    return command(f"away: {first} to {last}", side, campaign=campaign)


def to(store, side: str, campaign: str = CAMPAIGN):
    return [m for m in answers(store, campaign) if m.recipient == ADDRESSES[side]]


def test_an_absence_is_receipted_told_to_the_opponent_and_shown_by_status(
        campaign, store, store_location, mailroom, referee_key, inbox):
    first, last = today() + timedelta(days=20), today() + timedelta(days=27)
    taken = ask(mailroom, referee_key, inbox, away(first, last), 1)
    assert taken.outcome == "answered", taken.detail
    (receipt,) = to(store, "japan")
    assert "Absence recorded" in receipt.subject
    assert f"away from {first} to {last}" in receipt.words and "8 days" in receipt.words
    assert f"6 of 14 days left in {first.year}" in receipt.words
    (notice,) = to(store, "russia")
    assert "Japan will be away" in notice.subject and f"away from {first} to {last}" in notice.words
    assert ADDRESSES["japan"] not in notice.message.as_string() and "password" not in notice.text.lower()
    for mail in (receipt, notice):
        assert all(len(line) <= 78 for line in mail.text.splitlines())

    assert ask(mailroom, referee_key, inbox, command("status", "russia"), 2,
               sender=ADDRESSES["russia"]).outcome == "answered"
    assert f"Away: japan, {first} to {last} (UTC)." in to(store, "russia")[-1].words
    store_path = store_location if isinstance(store_location, str) else str(store_location)
    shown = cli("status", CAMPAIGN, "--store", store_path, env=command_env())
    assert_no_traceback(shown)
    assert f"away: japan from {first} to {last} (UTC)" in shown.stdout
    with Store.open(store_location) as reopened:  # kept with the campaign, without any address
        kept = reopened.campaign(CAMPAIGN).meta[ABSENCES]
    assert kept == {"japan": [{"from": str(first), "to": str(last)}]}


def test_a_deadline_inside_an_absence_moves_past_it_by_the_time_left_and_reminders_follow(
        campaigns, store, mailroom, referee_key, inbox):
    opened = datetime.now(timezone.utc) - timedelta(hours=1)
    campaigns.create("c2", "port-arthur", PLAYERS, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=opened)
    before = campaigns.deadline("c2")
    first, last = today() + timedelta(days=1), today() + timedelta(days=5)
    start = datetime.combine(first, datetime.min.time(), timezone.utc)
    end = datetime.combine(last + timedelta(days=1), datetime.min.time(), timezone.utc)
    assert start <= before < end
    assert ask(mailroom, referee_key, inbox, away(first, last, campaign="c2"), 1).outcome == "answered"
    moved = campaigns.deadline("c2")
    assert moved == end + (before - start)
    (receipt,) = to(store, "japan", "c2")
    assert f"deadline of the open step is {moved.strftime('%Y-%m-%d %H:%M UTC')}" in receipt.words
    assert mailroom.remind("c2", 24, now=before - timedelta(hours=12)) is None  # not due then any more
    assert mailroom.remind("c2", 24, now=moved - timedelta(hours=12)) is not None
    waiting = campaigns.adjudicate("c2", referee_key, now=before + timedelta(hours=1))
    assert waiting.batch is None and waiting.defaults == ()  # no default before the moved deadline
    assert "japan" in " ".join(campaigns.adjudicate("c2", referee_key, now=moved).defaults)


def test_an_absence_over_the_budget_is_refused_with_the_budget_left(
        campaign, store, mailroom, referee_key, inbox):
    first = today() + timedelta(days=30)
    taken = ask(mailroom, referee_key, inbox, away(first, first + timedelta(days=10)), 1)
    assert taken.outcome == "refused"
    assert "over the longest absence of 10 days" in to(store, "japan")[-1].words
    assert ask(mailroom, referee_key, inbox, away(first, first + timedelta(days=7)), 2).outcome == "answered"
    later = first + timedelta(days=10)
    if later.year != first.year:  # another year's budget is whole: ask within the same year
        first, later = first - timedelta(days=40), first - timedelta(days=20)
    taken = ask(mailroom, referee_key, inbox, away(later, later + timedelta(days=6)), 3)
    assert taken.outcome == "refused", taken.detail
    refusal = to(store, "japan")[-1]
    assert "over your budget" in refusal.words and "6 of 14 days left" in refusal.words
    assert "nothing was recorded" in refusal.words
    assert len(store.campaign(CAMPAIGN).meta[ABSENCES]["japan"]) == 1
    assert len(to(store, "russia")) == 1  # told of the recorded absence only


def test_a_malformed_date_is_refused_quoting_the_line(campaign, store, mailroom, referee_key, inbox):
    taken = ask(mailroom, referee_key, inbox, away("2026-13-01", "2026-12-27"), 1)
    assert taken.outcome == "refused"
    words = to(store, "japan")[-1].words
    assert "'away: 2026-13-01 to 2026-12-27'" in words and "'2026-13-01' is not a date" in words
    taken = ask(mailroom, referee_key, inbox, command("away: next week"), 2)
    assert taken.outcome == "refused" and "'away: next week' is not an absence" in to(store, "japan")[-1].words
    assert ABSENCES not in store.campaign(CAMPAIGN).meta and not to(store, "russia")


def test_away_none_ends_the_absence_in_force_and_withdraws_one_to_come(
        campaign, store, mailroom, referee_key, inbox):
    now, soon = today(), today() + timedelta(days=40)
    assert ask(mailroom, referee_key, inbox, away(now, now + timedelta(days=3)), 1).outcome == "answered"
    assert ask(mailroom, referee_key, inbox, away(soon, soon + timedelta(days=1)), 2).outcome == "answered"
    taken = ask(mailroom, referee_key, inbox, command("away: none"), 3)
    assert taken.outcome == "answered", taken.detail
    receipt = to(store, "japan")[-1]
    assert "Absence ended" in receipt.subject and f"ends today ({now})" in receipt.words
    assert f"{soon} to {soon + timedelta(days=1)} is withdrawn" in receipt.words
    assert "Japan is back" in to(store, "russia")[-1].subject
    assert store.campaign(CAMPAIGN).meta[ABSENCES] == {"japan": [{"from": str(now), "to": str(now)}]}
    taken = ask(mailroom, referee_key, inbox, command("away: none"), 4)
    assert taken.outcome == "refused" and "ends no absence" in to(store, "japan")[-1].words


ROSTER = """
[[player]]
name = "togo"
address = "togo@japan.test"
password = "{japan}"

[[player]]
name = "makarov"
address = "makarov@russia.test"
password = "{russia}"

[[campaign]]
id = "c3"
players = {{ japan = "togo", russia = "makarov" }}
absence_days_a_year = 3
absence_days_at_most = 2
"""


def test_a_campaigns_own_budget_from_its_roster_is_the_one_an_absence_is_held_to(
        campaigns, store, mailroom, referee_key, inbox):
    from tests.pipeline.pipeline_helpers import PASSWORDS

    roster = read_roster(ROSTER.format(**PASSWORDS), "players.toml", ("japan", "russia"))
    create_roster(campaigns, roster, "port-arthur", referee_key, referee_address=REFEREE)
    first = today() + timedelta(days=3)
    assert ask(mailroom, referee_key, inbox, away(first, first + timedelta(days=2), campaign="c3"),
               1).outcome == "refused"
    words = to(store, "japan", "c3")[-1].words
    assert "over the longest absence of 2 days" in words and f"3 of 3 days left in {first.year}" in words
    assert ask(mailroom, referee_key, inbox, away(first, first + timedelta(days=1), campaign="c3"),
               2).outcome == "answered"
    assert f"1 of 3 days left in {first.year}" in to(store, "japan", "c3")[-1].words


def test_a_budget_that_is_not_a_whole_number_of_days_is_refused_quoting_it(tmp_path):
    with pytest.raises(BadRoster, match="absence_days_a_year = 'many'"):
        read_roster(ROSTER.format(japan="a", russia="b").replace("= 3", "= 'many'"), "players.toml",
                    ("japan", "russia"))
    players = tmp_path / "players.toml"
    players.write_text("absence_days_a_year = 7\nabsence_days_at_most = 9\n", encoding="utf-8")
    with pytest.raises(BadRoster, match="absence_days_at_most = 9 is more than the 7 days a year"):
        players_absence_budget(players)
    players.write_text("absence_days_a_year = 21\n", encoding="utf-8")
    assert players_absence_budget(players) == {"days_a_year": 21}


def test_a_status_with_the_help_text_copied_below_it_records_no_absence(campaign, store, mailroom, referee_key,
                                                                       inbox):
    from adjudicator.campaign.mail_desk import help_text

    assert ask(mailroom, referee_key, inbox, f"campaign: {CAMPAIGN}\nhelp\n", 1).outcome == "answered"
    listed = help_text(CAMPAIGN, ["japan", "russia"])
    copied = listed[listed.index("The commands:"):listed.index("ends it")]  # the list of commands, unquoted
    assert "away: FIRST-DAY to LAST-DAY" in copied  # an example that is not an absence
    taken = ask(mailroom, referee_key, inbox, command("status") + "\n" + copied + "\n", 2)
    assert taken.outcome == "answered", taken.detail
    reply = to(store, "japan")[-1]
    assert "Deadline:" in reply.words and "Absence recorded" not in reply.subject
    with Store.open(store.path) as reopened:
        assert not reopened.campaign(CAMPAIGN).meta.get(ABSENCES)


def test_an_away_line_before_a_command_word_is_the_command(campaign, store, mailroom, referee_key, inbox):
    first, last = today() + timedelta(days=20), today() + timedelta(days=21)
    taken = ask(mailroom, referee_key, inbox, away(first, last) + "status\n", 1)
    assert taken.outcome == "answered", taken.detail
    assert "Absence recorded" in to(store, "japan")[-1].subject
