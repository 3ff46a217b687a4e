"""Ratings and reliability across everything a store holds, kept apart.

- Ratings: Glicko-2 (:mod:`.glicko`) over every finished two-player campaign of the
  store, players known by their address. A tournament's games are rated in one
  period per round; other campaigns in one period per week of their creation.
- Reliability, per player: steps answered with orders, defaults taken (a deadline
  missed), forfeits (sealed-mode stalls and tournament forfeit rulings). It never
  changes a rating, and a rating never changes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from adjudicator.campaign import Campaigns
from adjudicator.campaign.log import read_log
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
    """Ratings and reliability from every campaign and tournament of ``store``."""
    campaigns = Campaigns(store)
    periods: dict[str, tuple] = {}
    ruled: dict[str, str] = {}     # game -> result a tournament ruling gave (forfeit, adjudication)
    forfeited: list[str] = []       # addresses of players a tournament ruled forfeited
    listed = store.campaigns()
    for entry in listed:
        if entry.game == "tournament":
            _tournament_facts(store, entry.id, periods, ruled, forfeited)
    games: list[RatedGame] = []
    reliability: dict[str, Reliability] = {}
    for entry in listed:
        if entry.game == "tournament":
            continue
        log = read_log(entry.id, store.entries(entry.id))
        addresses = {side: p["address"].casefold() for side, p in entry.meta.get("players", {}).items()}
        _reliability(log, addresses, reliability)
        result = ruled.get(entry.id, _result(log))
        if result is None or len(addresses) != 2:
            continue
        first, second = sorted(addresses)
        score = 0.5 if result == "draw" else 1.0 if result == first else 0.0
        period = periods.get(entry.id) or _week(entry.created)
        games.append(RatedGame(addresses[first], addresses[second], score, period))
    for address in forfeited:
        reliability.setdefault(address, Reliability()).forfeits += 1
    return Survey(ratings(games), reliability, len(games))


def _result(log: Any) -> str | None:
    if log.forfeit is not None:
        return log.forfeit.body.get("result")
    batches = log.effective_batches()
    return batches[-1].body.get("result") if batches else None


def _reliability(log: Any, addresses: dict[str, str], reliability: dict[str, Reliability]) -> None:
    for side, address in addresses.items():
        stats = reliability.setdefault(address, Reliability())
        stats.answered += len({o.step for o in log.orders if o.side == side})
        stats.defaults += sum(1 for b in log.effective_batches() if side in b.body.get("defaults", []))
        if log.forfeit is not None and side in log.forfeit.body.get("forfeited", []):
            stats.forfeits += 1


def _tournament_facts(store: Store, name: str, periods: dict[str, tuple], ruled: dict[str, str],
                      forfeited: list[str]) -> None:
    from adjudicator.fairdice import Record

    entries = store.entries(name)
    addresses: dict[str, str] = {}
    for entry in entries:
        addresses.update(entry.body.get("private", {}).get("addresses", {}))
        record = Record.from_dict(entry.body["record"])
        if record.kind == ROUND:
            for game in record.body["games"]:
                periods[game["game"]] = (record.body["opened"], name, record.body["round"])
        elif record.kind == RULING and record.body["rung"] == "forfeit" and record.body.get("player"):
            forfeited.append(addresses.get(record.body["player"], record.body["player"]).casefold())
        elif record.kind == RESULT and record.body["result"] is not None and "forfeit" in record.body["how"] \
                or record.kind == RESULT and record.body["how"].startswith("adjudication"):
            ruled[record.body["game"]] = record.body["result"]


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
