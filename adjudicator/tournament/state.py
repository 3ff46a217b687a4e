"""A tournament's state, read from its public records alone: who plays, every round,
every result and ruling. The referee's commands and the audit both use it, so that
what the referee did can be recomputed by anyone."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable, Mapping

from adjudicator.fairdice import Record
from adjudicator.tournament.errors import TournamentError

CHARTER = "tournament-charter"
REGISTER = "register"
WITHDRAW = "withdraw"
ABSENCE = "absence"
ROUND = "round"
RESULT = "result"
RULING = "ruling"
REMINDER = "reminder"
CLOSE = "close"
ALGORITHM = "adjudicator/tournament/v1"
KINDS = (CHARTER, REGISTER, WITHDRAW, ABSENCE, ROUND, RESULT, RULING, REMINDER, CLOSE)


@dataclass(frozen=True)
class GameSlot:
    """One campaign of a round: its id and who plays which side."""

    game: str
    round: int
    sides: Mapping[str, str]  # side -> player
    pair: int
    bid: Mapping[str, Any] | None = None   # sides by bid: who took which side for how much


@dataclass(frozen=True)
class GameResult:
    """A game's result as the tournament took it from the finished campaign."""

    game: str
    round: int
    sides: Mapping[str, str]
    result: str | None        # the winning side, "draw", or None (no result)
    how: str
    turn: int | None
    head: str | None
    points: Mapping[str, float]
    forfeit: bool = False     # decided by a forfeit (a ruling's, or a sealed reveal missing), not by play

    def outcome_for(self, player: str) -> str | None:
        """'win', 'draw', 'loss' for ``player``, or None when the game has no result."""
        if self.result is None:
            return None
        if self.result == "draw":
            return "draw"
        return "win" if self.sides.get(self.result) == player else "loss"


@dataclass
class RoundInfo:
    number: int
    seed_index: int
    seed: str
    active: list[str]
    pairs: list[tuple[str, str]]
    byes: list[str]
    absent: list[str]
    games: list[GameSlot]
    opened: str
    ends: str
    kind: str = "round"
    pools: list[list[str]] = field(default_factory=list)
    challenge: tuple[str, str] | None = None
    ranking: list[str] = field(default_factory=list)      # Dutch: the initial ranking (round 1 only)
    initial_colour: str | None = None                      # Dutch: FIDE's initial colour (round 1 only)


@dataclass
class EventState:
    """Everything the public records say, folded in order."""

    name: str
    charter: Mapping[str, Any]
    players: dict[str, dict[str, Any]] = field(default_factory=dict)   # name -> registration body
    withdrawn: dict[str, int] = field(default_factory=dict)              # name -> rounds paired when withdrawn
    absences: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    rounds: list[RoundInfo] = field(default_factory=list)
    results: dict[str, GameResult] = field(default_factory=dict)
    rulings: list[dict[str, Any]] = field(default_factory=list)
    replacements: dict[str, dict[str, str]] = field(default_factory=dict)  # game -> {side: standby}
    reminders: list[dict[str, Any]] = field(default_factory=list)
    closed: dict[str, Any] | None = None
    seeds_used: int = 0
    head: str = ""

    # -- reading -------------------------------------------------------------------------

    @property
    def game(self) -> str:
        return self.charter["game"]

    @property
    def format(self) -> str:
        return self.charter["format"]

    def scoring(self, outcome: str) -> float:
        return float(self.charter["scoring"][outcome])

    @property
    def games_per_pairing(self) -> int:
        """Two when the sides alternate (each pairing plays both sides), else one."""
        return 2 if self.charter["sides"] == "alternate" else 1

    def active_players(self, at: datetime | None = None) -> list[str]:
        """Registered, not withdrawn, and (at ``at``) not away on a declared absence."""
        return [p for p in self.players if p not in self.withdrawn and not (at and self.absent(p, at))]

    def absent(self, player: str, at: datetime) -> bool:
        return any(datetime.fromisoformat(a["from"]) <= at < datetime.fromisoformat(a["until"])
                   for a in self.absences.get(player, []))

    def absence_days_used(self, player: str) -> float:
        return sum(float(a["days"]) for a in self.absences.get(player, []))

    def slots(self) -> list[GameSlot]:
        return [slot for info in self.rounds for slot in info.games]

    def slot(self, game: str) -> GameSlot | None:
        return next((s for s in self.slots() if s.game == game), None)

    def running(self) -> list[GameSlot]:
        """Games paired that have no result yet."""
        return [s for s in self.slots() if s.game not in self.results]

    def met(self) -> dict[str, set[str]]:
        met: dict[str, set[str]] = {p: set() for p in self.players}
        for info in self.rounds:
            for a, b in info.pairs:
                met.setdefault(a, set()).add(b)
                met.setdefault(b, set()).add(a)
        return met

    def byes(self) -> list[str]:
        return [p for info in self.rounds for p in info.byes]

    def scores(self) -> dict[str, float]:
        from adjudicator.tournament.standings import player_games

        games = player_games(self)
        return {p: sum(g.points for g in games.get(p, [])) for p in self.players}


class BadTournamentRecord(TournamentError):
    """A public record that does not fit: names the record and why."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"record {seq}: {reason}")
        self.seq, self.reason = seq, reason


def jsonable(value: Any) -> Any:
    """``value`` with every float made canonical-JSON-able: a whole number as an int,
    any other as its decimal text (records have no floats); read back with float()."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else repr(value)
    if isinstance(value, Mapping):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def fold(records: Iterable[Record]) -> EventState:
    """The event's state from its records (checked for form, not for signatures:
    :mod:`adjudicator.tournament.audit` checks those)."""
    records = list(records)
    if not records or records[0].kind != CHARTER:
        raise BadTournamentRecord(0, "the first record is not a tournament charter")
    state = EventState(records[0].body["tournament"], records[0].body)
    for record in records[1:]:
        try:
            apply(state, record)
        except (KeyError, TypeError, ValueError) as err:
            raise BadTournamentRecord(record.seq, f"the record is malformed ({err!r})") from err
    state.head = records[-1].hash
    return state


def apply(state: EventState, record: Record) -> None:
    body = record.body
    if state.closed is not None:
        raise BadTournamentRecord(record.seq, "a record after the tournament was closed")
    kind = record.kind
    if kind == REGISTER:
        state.players[body["player"]] = body
        state.withdrawn.pop(body["player"], None)
    elif kind == WITHDRAW:
        _known(state, record, body["player"])
        state.withdrawn[body["player"]] = len(state.rounds)
    elif kind == ABSENCE:
        _known(state, record, body["player"])
        state.absences.setdefault(body["player"], []).append(body)
    elif kind == ROUND:
        _seed(state, record)
        games = [GameSlot(g["game"], body["round"], dict(g["sides"]), g["pair"], g.get("bid")) for g in body["games"]]
        state.rounds.append(RoundInfo(body["round"], body["seed_index"], body["seed"], list(body["active"]),
                                      [tuple(p) for p in body["pairs"]], list(body.get("byes", [])), list(body.get("absent", [])),
                                      games, body["opened"], body["ends"], body.get("kind", "round"),
                                      [list(p) for p in body.get("pools", [])], None,
                                      list(body.get("ranking", [])), body.get("initial_colour")))
    elif kind == RESULT:
        if state.slot(body["game"]) is None:
            raise BadTournamentRecord(record.seq, f"a result for {body['game']!r}, which is no game of the event")
        if body["game"] in state.results:
            raise BadTournamentRecord(record.seq, f"a second result for {body['game']!r}")
        state.results[body["game"]] = GameResult(body["game"], body["round"], dict(body["sides"]), body["result"],
                                                 body["how"], body.get("turn"), body.get("head"),
                                                 {p: float(v) for p, v in body["points"].items()},
                                                 bool(body.get("forfeit", _ruled_forfeit(state, body["game"]))))
    elif kind == RULING:
        state.rulings.append(body)
        if body["rung"] == "replace":
            state.replacements.setdefault(body["game"], {})[body["side"]] = body["replacement"]
    elif kind == REMINDER:
        state.reminders.append(body)
    elif kind == CLOSE:
        _seed(state, record)
        state.closed = body
    elif kind == CHARTER:
        raise BadTournamentRecord(record.seq, "a second charter: a tournament has one charter")
    else:
        raise BadTournamentRecord(record.seq, f"unknown record kind {kind!r}")


def _ruled_forfeit(state: EventState, game: str) -> bool:
    """Whether a forfeit ruling decided ``game``: what a result record written before
    results said ``forfeit`` themselves meant."""
    return any(r["game"] == game and r["rung"] == "forfeit" for r in state.rulings)


def _known(state: EventState, record: Record, player: str) -> None:
    if player not in state.players:
        raise BadTournamentRecord(record.seq, f"{player!r} is not registered")


def _seed(state: EventState, record: Record) -> None:
    if record.body["seed_index"] != state.seeds_used + 1:
        raise BadTournamentRecord(record.seq, f"seed {record.body['seed_index']} revealed where seed "
                                              f"{state.seeds_used + 1} comes next: a seed was skipped or reused")
    state.seeds_used += 1
