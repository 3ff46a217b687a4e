"""A tournament's charter, read from TOML and checked before anything is written.

The signed public charter holds everything but the players' addresses and
passwords (those stay private in the store); see ``docs/tournaments.md``.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from adjudicator.tournament.errors import BadCharter, TournamentError

FORMATS = ("swiss", "round-robin", "ladder")
SIDE_RULES = ("balanced", "alternate", "random", "bid")
PAIRINGS = ("dutch", "seeded")   # Swiss: FIDE's Dutch system (C.04.3), or the seeded fewest-repeats pass
TIEBREAKS = ("sonneborn-berger", "buchholz", "median-buchholz", "head-to-head", "cumulative", "side-wins",
             "fide-buchholz-cut1", "fide-buchholz", "fide-sonneborn-berger")
RUNGS = ("replace", "adjudicate", "forfeit", "no-result")
#: the default order: a standby first; then the silent side forfeits; adjudication only
#: when nobody is silent (a slow game at the round's end), and even then a silent side
#: is held to what it would surely have got by playing on
DEFAULT_LADDER = ("replace", "forfeit", "adjudicate", "no-result")
BYE_SCORES = ("win", "draw", "loss")
HANDICAPS = ("none", "points")   # what a side won by bidding costs: nothing, or the bid in the game's points
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,30}")
DEFAULT_TIEBREAKS = ("sonneborn-berger", "buchholz", "median-buchholz", "head-to-head", "cumulative", "side-wins")
#: a Swiss's default: FIDE's Buchholz family with FIDE's rules for unplayed rounds (C.07),
#: then direct encounter, then this project's wins with each side
FIDE_SWISS_TIEBREAKS = ("fide-buchholz-cut1", "fide-buchholz", "head-to-head", "fide-sonneborn-berger", "side-wins")


@dataclass(frozen=True)
class Entrant:
    """A player as registered: a short name (public), an address and credentials (private)."""

    name: str
    address: str
    password: str | None = field(default=None, repr=False)
    public_key: str | None = None
    bid: tuple[str, float] | None = None  # (preferred side, what the player bids for it)

    def public(self) -> dict[str, Any]:
        body: dict[str, Any] = {"player": self.name, "auth": "key" if self.public_key else "password"}
        if self.public_key:
            body["public_key"] = self.public_key
        if self.bid:
            body["bid"] = {"side": self.bid[0], "amount": self.bid[1]}
        return body


@dataclass(frozen=True)
class Charter:
    name: str
    game: str
    format: str = "swiss"
    rounds: int | None = None        # swiss: None = suggested by the field's size
    pools: int = 1                   # round-robin
    challenge_reach: int = 3         # ladder: places above that may be challenged
    sides: str = "balanced"          # balanced: FIDE's colour allocation (Dutch pairing) gives the sides
    pairing: str = "dutch"           # swiss: dutch | seeded
    accelerated: bool = False        # swiss, dutch: Baku acceleration of the first rounds (C.04.5.1)
    options: Mapping[str, Any] = field(default_factory=dict)
    scoring: Mapping[str, float] = field(default_factory=lambda: {"win": 2.0, "draw": 1.0, "loss": 0.0})
    bye: str = "win"
    tiebreaks: tuple[str, ...] = FIDE_SWISS_TIEBREAKS
    clocks: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_CLOCKS))
    ladder: tuple[str, ...] = DEFAULT_LADDER
    replacement_credit: float = 0.5
    bid_handicap: str = "none"
    referee_address: str = "referee@localhost"
    players: tuple[Entrant, ...] = ()
    standby: tuple[Entrant, ...] = ()

    def public(self) -> dict[str, Any]:
        """The charter's public body (no address, no password)."""
        return {
            "tournament": self.name, "game": self.game, "format": self.format, "rounds": self.rounds,
            "pools": self.pools, "challenge_reach": self.challenge_reach, "sides": self.sides,
            "pairing": self.pairing, "accelerated": self.accelerated,
            "options": dict(self.options), "scoring": dict(self.scoring), "bye": self.bye,
            "tiebreaks": list(self.tiebreaks), "clocks": dict(self.clocks), "ladder": list(self.ladder),
            "replacement_credit": self.replacement_credit, "standby": [s.name for s in self.standby],
            "bid_handicap": self.bid_handicap,
        }

    @property
    def games_per_pairing(self) -> int:
        """Two games with the sides swapped when sides alternate; else one."""
        return 2 if self.sides == "alternate" else 1


DEFAULT_CLOCKS = {"deadline_hours": 72.0, "round_days": 28.0, "reminders": 2, "reminder_hours": 24.0,
                  "silent_days": 7.0, "absence_days": 14.0}


def check_bid(player: Entrant, handicap: str, win: float, error: type[TournamentError] = BadCharter,
              where: str = "") -> None:
    """Under a points handicap a bid is paid from the game's points, so it may not be
    more than a win: refuse one that is, as ``error``."""
    if handicap == "points" and player.bid and player.bid[1] > win:
        raise error(f"{where}{player.name} bids {player.bid[1]:g} points, more than a win's {win:g}; "
                    "the bid is paid from the game's points")


def load_charter(path: Path) -> Charter:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise BadCharter(f"{path} is not valid TOML: {err}") from err
    return charter_from_toml(data, str(path))


KNOWN_KEYS = {
    "": ("tournament", "scoring", "clocks", "abandonment", "player", "standby", "bids"),
    "tournament": ("name", "game", "format", "rounds", "pools", "challenge_reach", "sides", "pairing", "accelerated",
                   "options", "referee_address"),
    "scoring": ("win", "draw", "loss", "bye", "tiebreaks"),
    "clocks": tuple(DEFAULT_CLOCKS),
    "abandonment": ("ladder", "replacement_credit"),
    "bids": ("handicap",),
    "player": ("name", "address", "password", "public_key", "bid"),
    "standby": ("name", "address", "password", "public_key", "bid"),
}


def check_keys(data: Mapping[str, Any], where: str) -> None:
    """Refuse a key the charter does not know (a typo would otherwise be ignored and
    its default used without a word), suggesting the nearest known key."""
    tables: list[tuple[str, str, Mapping[str, Any]]] = [("", "", data)]
    for table in (t for t in KNOWN_KEYS[""] if t not in ("player", "standby")):   # the single tables
        if isinstance(data.get(table), Mapping):
            tables.append((table, f"[{table}] ", data[table]))
    for table in ("player", "standby"):
        for entry in data.get(table, []) if isinstance(data.get(table), list) else []:
            if isinstance(entry, Mapping):
                tables.append((table, f"[[{table}]] {entry.get('name', '?')}: ", entry))
    for table, label, values in tables:
        known = KNOWN_KEYS[table]
        for key in values:
            if key not in known:
                near = difflib.get_close_matches(str(key), known, n=1)
                raise BadCharter(f"{where}: {label}unknown key {key!r}"
                                 + (f"; did you mean {near[0]!r}?" if near else "")
                                 + f" The keys here are: {', '.join(known)}")


def charter_from_toml(data: Mapping[str, Any], where: str = "the charter") -> Charter:
    check_keys(data, where)
    event = _table(data, "tournament", where)
    scoring = dict(_table(data, "scoring", where, required=False))
    clocks = {**DEFAULT_CLOCKS, **_table(data, "clocks", where, required=False)}
    abandonment = _table(data, "abandonment", where, required=False)
    charter = Charter(
        name=_name(event.get("name"), f"{where}: [tournament] name"),
        game=_game(event.get("game"), f"{where}: [tournament] game"),
        format=_choice(event.get("format", "swiss"), FORMATS, f"{where}: [tournament] format"),
        rounds=_optional_int(event.get("rounds"), f"{where}: [tournament] rounds"),
        pools=_optional_int(event.get("pools", 1), f"{where}: [tournament] pools") or 1,
        challenge_reach=_optional_int(event.get("challenge_reach", 3), f"{where}: challenge_reach") or 3,
        sides=_choice(event.get("sides", "balanced" if event.get("format", "swiss") == "swiss"
                                          and event.get("pairing", "dutch") == "dutch" else "random"),
                      SIDE_RULES, f"{where}: [tournament] sides"),
        pairing=_choice(event.get("pairing", "dutch"), PAIRINGS, f"{where}: [tournament] pairing"),
        accelerated=_flag(event.get("accelerated", False), f"{where}: [tournament] accelerated"),
        options=dict(event.get("options", {})),
        scoring={k: _number(scoring.get(k, d), f"{where}: [scoring] {k}")
                 for k, d in (("win", 2.0), ("draw", 1.0), ("loss", 0.0))},
        bye=_choice(scoring.get("bye", "win"), BYE_SCORES, f"{where}: [scoring] bye"),
        tiebreaks=tuple(_choice(t, TIEBREAKS, f"{where}: [scoring] tiebreaks")
                        for t in scoring.get("tiebreaks", FIDE_SWISS_TIEBREAKS if event.get("format", "swiss")
                                             == "swiss" else DEFAULT_TIEBREAKS)),
        clocks={k: _number(v, f"{where}: [clocks] {k}") for k, v in clocks.items()},
        ladder=tuple(_choice(r, RUNGS, f"{where}: [abandonment] ladder")
                     for r in abandonment.get("ladder", DEFAULT_LADDER)),
        replacement_credit=_number(abandonment.get("replacement_credit", 0.5), f"{where}: replacement_credit"),
        bid_handicap=_choice(_table(data, "bids", where, required=False).get("handicap", "none"), HANDICAPS,
                             f"{where}: [bids] handicap"),
        referee_address=str(event.get("referee_address", "referee@localhost")),
        players=tuple(entrant(p, f"{where}: [[player]]") for p in data.get("player", [])),
        standby=tuple(entrant(p, f"{where}: [[standby]]") for p in data.get("standby", [])),
    )
    if not 0 <= charter.replacement_credit <= 1:
        raise BadCharter(f"{where}: replacement_credit {charter.replacement_credit} must be between 0 and 1")
    if len(set(charter.tiebreaks)) != len(charter.tiebreaks):
        raise BadCharter(f"{where}: a tie-break is listed twice in {list(charter.tiebreaks)}")
    names = [p.name for p in (*charter.players, *charter.standby)]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise BadCharter(f"{where}: player name(s) {twice} used twice; each player needs a name of their own")
    if charter.sides == "balanced" and (charter.format != "swiss" or charter.pairing != "dutch"):
        raise BadCharter(f"{where}: sides = 'balanced' takes the sides from FIDE's colour allocation, which only "
                         "the Dutch pairing of a Swiss gives; use sides = 'random', 'alternate' or 'bid'")
    if charter.accelerated and (charter.format != "swiss" or charter.pairing != "dutch"):
        raise BadCharter(f"{where}: accelerated = true is for a Swiss paired by the Dutch system")
    if charter.bid_handicap != "none" and charter.sides != "bid":
        raise BadCharter(f"{where}: [bids] handicap = {charter.bid_handicap!r} needs sides = 'bid'")
    for player in charter.players:
        check_bid(player, charter.bid_handicap, charter.scoring["win"], BadCharter, f"{where}: ")
    if charter.scoring["win"] <= 0:
        raise BadCharter(f"{where}: [scoring] win must be more than 0 points")
    return charter


def entrant(data: Mapping[str, Any], where: str) -> Entrant:
    if not isinstance(data, Mapping):
        raise BadCharter(f"{where}: each player is a table with name, address and password (or public_key)")
    name = _name(data.get("name"), f"{where} name")
    address = data.get("address")
    if not isinstance(address, str) or "@" not in address:
        raise BadCharter(f"{where} {name}: 'address' must be an email address, not {address!r}")
    password, key = data.get("password"), data.get("public_key")
    if not password and not key:
        raise BadCharter(f"{where} {name}: give a 'password' or a 'public_key'")
    return Entrant(name, address, password or None, key or None, parse_bid(data.get("bid"), f"{where} {name}"))


def parse_bid(text: Any, where: str) -> tuple[str, float] | None:
    """A bid 'SIDE:AMOUNT' (e.g. 'japan:2'): the side wanted and what is offered for it."""
    if text in (None, ""):
        return None
    side, _, amount = str(text).partition(":")
    try:
        return side.strip().casefold(), float(amount or 0)
    except ValueError:
        raise BadCharter(f"{where}: the bid {text!r} must read SIDE:AMOUNT, e.g. 'japan:2'") from None


def _table(data: Mapping[str, Any], key: str, where: str, required: bool = True) -> Mapping[str, Any]:
    value = data.get(key)
    if value is None:
        if required:
            raise BadCharter(f"{where} needs a [{key}] table")
        return {}
    if not isinstance(value, Mapping):
        raise BadCharter(f"{where}: [{key}] must be a table")
    return value


def _name(value: Any, where: str) -> str:
    if not isinstance(value, str) or not NAME.fullmatch(value):
        raise BadCharter(f"{where}: {value!r} is not a usable name: use 1 to 31 lowercase letters, "
                         "digits and '-', starting with a letter or digit")
    return value


def _choice(value: Any, allowed: tuple[str, ...], where: str) -> str:
    if value not in allowed:
        raise BadCharter(f"{where}: {value!r} is not one of {', '.join(allowed)}")
    return value


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise BadCharter(f"{where}: {value!r} must be a number >= 0")
    return float(value)


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise BadCharter(f"{where}: {value!r} must be true or false")
    return value


def _optional_int(value: Any, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise BadCharter(f"{where}: {value!r} must be a whole number >= 1")
    return value


def _game(value: Any, where: str) -> str:
    """The event's game: a registered game's name (required: a tournament names its game)."""
    from adjudicator import games

    if not isinstance(value, str) or value not in games.names():
        raise BadCharter(f"{where} must name the game, one of {', '.join(games.names())}; got {value!r}")
    return value
