"""Ratings and reliability across everything a store holds, kept apart.

- Ratings: Glicko-2 (:mod:`.glicko`) over every finished two-player campaign of the
  store, players known by their address. A tournament's games are rated in one
  period per round; other campaigns in one period per week of their creation. As a
  tournament game a standby took over, a campaign in which the referee gave a side a
  new player (``adjudicator replace``) is not rated: its result says nothing reliable
  of the player who left or of the newcomer.
- Reliability, per player: steps answered with orders, defaults taken (a deadline
  missed), forfeits (sealed-mode stalls and tournament forfeit rulings), each step to
  the player who held the side at that step. It never changes a rating, and a rating
  never changes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from adjudicator.campaign.protocol import BATCH, FORFEIT, ORDERS, UNDO
from adjudicator.errors import AdjudicatorError
from adjudicator.store import Store
from adjudicator.tournament.glicko import RatedGame, Rating, ratings
from adjudicator.tournament.state import RESULT, ROUND, RULING


@dataclass
class Reliability:
    answered: int = 0
    defaults: int = 0
    forfeits: int = 0

    @property
    def on_time(self) -> float | None:
        asked = self.answered + self.defaults
        return None if asked == 0 else self.answered / asked

    def to_json(self) -> dict:
        return {"answered": self.answered, "defaults": self.defaults, "forfeits": self.forfeits,
                "on_time": None if self.on_time is None else round(self.on_time, 3)}


@dataclass(frozen=True)
class Survey:
    ratings: dict[str, Rating]
    reliability: dict[str, Reliability]
    games: int


def survey(store: Store) -> Survey:
    """Ratings and reliability from every campaign and tournament of ``store``.

    It reads each campaign's history once, without re-hashing every entry and taking
    from each record only what it needs (the result, who answered, the defaults):
    integrity is the business of ``verify`` and ``tournament audit``, which check
    every record."""
    periods: dict[str, tuple] = {}
    ruled: dict[str, str] = {}     # game -> result a tournament ruling gave (forfeit, adjudication)
    forfeited: list[str] = []       # addresses of players a tournament ruled forfeited
    replaced: set[str] = set()      # games in which a standby took over a side: not rated
    listed = store.campaigns()
    for entry in listed:
        if entry.game == "tournament":
            _tournament_facts(store, entry.id, periods, ruled, forfeited, replaced)
    games: list[RatedGame] = []
    reliability: dict[str, Reliability] = {}
    for entry in listed:
        if entry.game == "tournament":
            continue
        entries = store.entries(entry.id, verify=False)
        facts = _campaign_facts(entries)
        addresses = {side: p["address"].casefold() for side, p in entry.meta.get("players", {}).items()}
        _reliability(facts, tenure_addresses(entries, entry.meta), reliability)
        result = ruled[entry.id] if entry.id in ruled else _outcome(entry.game, facts.result)
        new_player = any(p.get("former") for p in entry.meta.get("players", {}).values())  # see replacement
        if result is None or len(addresses) != 2 or entry.id in replaced or new_player:
            continue
        first, second = sorted(addresses)
        score = 0.5 if result == "draw" else 1.0 if result == first else 0.0
        period = periods.get(entry.id) or _week(entry.created)
        games.append(RatedGame(addresses[first], addresses[second], score, period))
    for address in forfeited:
        reliability.setdefault(address, Reliability()).forfeits += 1
    return Survey(ratings(games), reliability, len(games))


@dataclass
class _Facts:
    """What the survey needs of one campaign's history."""

    result: str | None
    answered: dict[str, set[int]]
    defaults: dict[str, list[int]]  # side -> the steps it was defaulted at
    forfeited: list[str]


def _campaign_facts(entries: Any) -> _Facts:
    batches: list[tuple[int, dict]] = []
    answered: dict[str, set[int]] = {}
    forfeit: dict | None = None
    voided: set[int] = set()
    for entry in entries:
        if entry.kind not in (ORDERS, BATCH, UNDO, FORFEIT):
            continue
        body = entry.body["record"]["body"]
        if entry.kind == ORDERS:
            answered.setdefault(body["side"], set()).add(body["step"])
        elif entry.kind == BATCH:
            batches.append((body["batch"], body))
        elif entry.kind == UNDO:
            voided |= {number for number, _ in batches if number > body["back_to"]}
        else:
            forfeit = body
    effective = [body for number, body in batches if number not in voided]
    defaults: dict[str, list[int]] = {}
    for body in effective:
        for side in body.get("defaults", []):
            defaults.setdefault(side, []).append(body["batch"])
    if forfeit is not None:
        result = forfeit.get("result")
    else:
        result = effective[-1].get("result") if effective else None
    return _Facts(result, answered, defaults, list(forfeit.get("forfeited", [])) if forfeit else [])


def _reliability(facts: _Facts, held: dict[str, Any], reliability: dict[str, Reliability]) -> None:
    """Each side's steps answered and defaults, to the player who held the side at that
    step (``held``: side -> the address at a step, :func:`tenure_addresses`); a forfeit
    to the player who held it at the end."""
    for side, address_at in held.items():
        for step in facts.answered.get(side, ()):
            reliability.setdefault(address_at(step), Reliability()).answered += 1
        for step in facts.defaults.get(side, ()):
            reliability.setdefault(address_at(step), Reliability()).defaults += 1
        reliability.setdefault(address_at(None), Reliability())
        if side in facts.forfeited:
            reliability[address_at(None)].forfeits += 1


def tenure_addresses(entries: Any, meta: dict[str, Any]) -> dict[str, Any]:
    """Side -> a function giving the address of the player who held the side at a step
    (None: at the end). A side given new players (:mod:`adjudicator.campaign.replacement`)
    has one address a tenure: its former ones, in order, then its own."""
    from adjudicator.campaign.replacement import FORMER, tenure_at, tenures

    players = meta.get("players", {})
    held = tenures(entries, list(players)) if any(p.get(FORMER) for p in players.values()) else {}
    found = {}
    for side, player in players.items():
        addresses = [a.casefold() for a in [*player.get(FORMER, []), player["address"]]]
        side_held = held.get(side, [])
        if len(side_held) != len(addresses):  # never replaced: one address for every step
            found[side] = lambda step, address=addresses[-1]: address
            continue
        found[side] = lambda step, side_held=side_held, addresses=addresses: (
            addresses[-1] if step is None else addresses[side_held.index(tenure_at(side_held, step))])
    return found


def _tournament_facts(store: Store, name: str, periods: dict[str, tuple], ruled: dict[str, str],
                      forfeited: list[str], replaced: set[str]) -> None:
    from adjudicator.fairdice import Record

    entries = store.entries(name)
    addresses: dict[str, str] = {}
    for entry in entries:
        addresses.update(entry.body.get("private", {}).get("addresses", {}))
        record = Record.from_dict(entry.body["record"])
        if record.kind == ROUND:
            for game in record.body["games"]:
                periods[game["game"]] = (record.body["opened"], name, record.body["round"])
        elif record.kind == RULING and record.body["rung"] == "replace":
            replaced.add(record.body["game"])
        elif record.kind == RULING and record.body["rung"] == "forfeit" and record.body.get("player"):
            forfeited.append(addresses.get(record.body["player"], record.body["player"]).casefold())
        if record.kind == RULING and record.body["rung"] != "replace" and "result" in record.body:
            ruled[record.body["game"]] = record.body["result"]   # the ruling names the result it gave
        elif record.kind == RESULT and record.body["how"].startswith(("forfeit by", "adjudication")):
            ruled.setdefault(record.body["game"], record.body["result"])


def _outcome(game: str, result: Any) -> str | None:
    """A campaign's result as a side's name or "draw" (a game may record more, e.g.
    Tsushima's winner, kind of victory and score), through its tournament interface."""
    if result is None or isinstance(result, str):
        return result
    from adjudicator.tournament.gameplay import tournament_support

    try:
        return tournament_support(game).outcome(result)
    except AdjudicatorError:
        return None   # a game without a tournament interface: its result is not rated


def _week(created: str) -> tuple:
    when = datetime.fromisoformat(created)
    year, week, _ = when.isocalendar()
    return (f"{year}-W{week:02d}", "", 0)


def address_names(store: Store, name: str) -> dict[str, str]:
    """A tournament's addresses -> player names (to show ratings by name)."""
    names: dict[str, str] = {}
    for entry in store.entries(name):
        for player, address in entry.body.get("private", {}).get("addresses", {}).items():
            names[address.casefold()] = player
    return names
