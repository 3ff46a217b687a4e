"""Whole reports of Russo-Japanese War positions, as a campaign mails them: games played
between reasonable players from a seed, with fixed stand-ins for everything random in a
campaign (seeds, hashes, dates)."""

from __future__ import annotations

import random
from datetime import datetime, timezone
from types import SimpleNamespace

from adjudicator.engine import Match
from adjudicator.games import get as support
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.players import ReasonablePlayer, dice_from
from adjudicator.reports.render import Report, render
from adjudicator.reports.context import report_context

GAME = RussoJapaneseWar()


def played(answers: int, seed: int = 1, naval: bool = False) -> Match:
    """A game between reasonable players after ``answers`` answers (or its end)."""
    match = Match(GAME, options={"naval": True} if naval else {})
    players = {"japan": ReasonablePlayer(GAME, seed), "russia": ReasonablePlayer(GAME, seed + 7)}
    dice = dice_from(random.Random(seed))
    given = 0
    while not match.finished and given < answers:
        if match.decision is not None:
            match.answer(match.decision.side, players[match.decision.side](match.decision, match.state))
            given += 1
        else:
            match.supply(dice(match.chance))
    return match


def full_report(match: Match, side: str, since: int = 0) -> Report:
    """``side``'s whole report of ``match`` (the events from ``since`` on)."""
    records = [SimpleNamespace(hash="c0" * 32)]
    log = SimpleNamespace(campaign="club-1905", next_batch=3, records=records,
                          record_hash=lambda index: records[index].hash,
                          charter={"options": dict(match.options), "chain": {"anchor": "a0" * 32}})
    batch = SimpleNamespace(body={"batch": 2, "seed": "5e" * 32, "contributions": {}, "entries": []})
    context = report_context(log=log, match=match, events=match.events[since:], side=side,
                             player=f"{side.capitalize()} player <{side}@club.test>",
                             deadline=datetime(1905, 5, 28, 12, 0, tzinfo=timezone.utc),
                             game_support=support("russo-japanese-war"), batch=batch)
    return render(context)
