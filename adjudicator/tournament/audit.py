"""The event's audit, from public records alone (no secret): the tournament's record
(signatures, links, every revealed seed against the committed chain, every round's
pairings and sides recomputed from its seed, every result's points, the final
standings), and every game's campaign record verified die by die, its result and
head hash matched against the tournament's; then, per player, the dice seen and a
luck index -- the percentile of what their dice gave against the exact distribution
for the dice they chose (50: as expected; the game defines what is counted)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Mapping

from adjudicator.campaign.games import support
from adjudicator.campaign.log import CampaignLog, voided_batches
from adjudicator.campaign.protocol import BATCH, FORFEIT, OPENING
from adjudicator.engine import EngineError
from adjudicator.campaign.verify import verify_records
from adjudicator.fairdice import (
    ChainCommitment,
    FairDiceError,
    Record,
    RecordInvalid,
    dice_stats,
    public_key_from_text,
    read_fingerprint,
    records_from_jsonl,
    referee_fingerprint,
    verify_log,
)
from adjudicator.tournament import standings as standings_module
from adjudicator.tournament.draws import Draws
from adjudicator.tournament.errors import NotATournamentRecord, TournamentError
from adjudicator.tournament.gameplay import (
    capped,
    convolve,
    luck_samples,
    percentile,
    positions_by_turn,
    tournament_support,
)
from adjudicator.tournament.rounds import plan
from adjudicator.tournament.state import (
    CHARTER,
    CLOSE,
    RESULT,
    ROUND,
    RULING,
    BadTournamentRecord,
    EventState,
    apply,
    jsonable,
)


@dataclass
class PlayerDice:
    player: str
    counts: list[int] = field(default_factory=lambda: [0] * 6)
    fires: int = 0
    observed: int = 0
    expected: float = 0.0
    luck: float | None = None
    pmfs: list[tuple[float, ...]] = field(default_factory=list, repr=False)

    @property
    def total(self) -> int:
        return sum(self.counts)

    def to_json(self) -> dict:
        stats = dice_stats(self._rolls()) if self.total else None
        return {"player": self.player, "counts": self.counts, "dice": self.total,
                "mean": round(stats.mean, 3) if stats else None,
                "p_value": round(stats.p_value, 4) if stats else None, "fires": self.fires,
                "observed": self.observed, "expected": round(self.expected, 3),
                "luck_percentile": None if self.luck is None else round(self.luck, 1)}

    def _rolls(self) -> list[int]:
        return [face + 1 for face, n in enumerate(self.counts) for _ in range(n)]


@dataclass
class Audit:
    tournament: str
    verified: bool
    problems: list[str]
    games: list[dict[str, Any]]
    players: dict[str, PlayerDice]
    rulings: list[dict[str, Any]] = field(default_factory=list)
    head: str = ""
    fingerprint: str = ""

    def to_json(self) -> dict:
        return {"tournament": self.tournament, "verified": self.verified, "problems": self.problems,
                "head": self.head, "fingerprint": self.fingerprint, "rulings": self.rulings,
                "games": self.games, "players": [d.to_json() for d in self.players.values()]}


def audit_bundle(tournament_jsonl: str, campaigns: Mapping[str, str], head: str | None = None,
                 fingerprint_: str | None = None) -> Audit:
    """Audit a tournament from its public record and its games' public records
    (campaign id -> JSON Lines). ``head`` pins the record's last hash (a bundle cut
    short, or with records added, fails); ``fingerprint_`` pins the referee's key (as
    the referee gave it out of band, with spaces, colons or dashes or none); a pinned
    fingerprint that is not 32 hex digits is refused (InvalidFingerprint) before
    anything is read."""
    pinned = None if fingerprint_ is None else read_fingerprint(fingerprint_)
    try:
        records = records_from_jsonl(tournament_jsonl)
    except FairDiceError as err:
        raise NotATournamentRecord(f"not a tournament's public record: {err}") from err
    if not records or records[0].kind != CHARTER:
        raise NotATournamentRecord("the first record is not a tournament charter")
    name = str(records[0].body.get("tournament", ""))
    problems: list[str] = []
    key_fingerprint = referee_fingerprint(records[0].body) or "(unreadable key)"
    if head is not None and records[-1].hash != head.strip().lower():
        known = [r.seq for r in records if r.hash == head.strip().lower()]
        problems.append(f"the record ends at {records[-1].hash[:16]}... (record {records[-1].seq}), not at the pinned "
                        f"head {head.strip()[:16]}...: " + (f"records after {known[0]} were added" if known else
                                                           "records were cut off or the record is another"))
    if pinned is not None and pinned != key_fingerprint:
        problems.append(f"the charter's referee key has fingerprint {key_fingerprint}, not the pinned "
                        f"{pinned}: another referee's record")
    state = _check_tournament(records, problems)
    games: list[dict[str, Any]] = []
    players: dict[str, PlayerDice] = {}
    rulings: list[dict[str, Any]] = []
    if state is not None:
        for slot in state.slots():
            games.append(_check_game(state, slot, campaigns.get(slot.game), problems, players, rulings))
    for dice in players.values():
        if dice.pmfs:
            dice.luck = percentile(convolve(dice.pmfs), dice.observed)
    return Audit(name, not problems, problems, games, dict(sorted(players.items())), rulings,
                 records[-1].hash, key_fingerprint)


def _check_tournament(records: list[Record], problems: list[str]) -> EventState | None:
    charter = records[0].body
    try:
        key = public_key_from_text(charter["referee_key"])
        verify_log(records, key)
        commitment = ChainCommitment.from_dict(charter["chain"])
    except RecordInvalid as err:
        problems.append(f"tournament record {err.seq}: {err.reason}")
        return None
    except (FairDiceError, KeyError) as err:
        problems.append(f"tournament record 0: the charter is unusable: {err}")
        return None
    state = EventState(charter["tournament"], charter)
    ruling: Record | None = None   # a deciding ruling, whose result must be the very next record
    try:
        for record in records[1:]:
            if ruling is not None:
                _check_ruled_result(ruling, record)
                ruling = None
            if record.kind == RULING and record.body.get("rung") != "replace" and "result" in record.body:
                ruling = record
            if record.kind in (ROUND, CLOSE):
                _check_seed(record, commitment)
            if record.kind == ROUND:
                _check_round(state, record)
            if record.kind == RESULT:
                _check_points(state, record)
            if record.kind == CLOSE:
                _check_close(state, record)
            apply(state, record)
    except BadTournamentRecord as bad:
        problems.append(f"tournament record {bad.seq}: {bad.reason}")
        return None
    except (KeyError, TypeError, ValueError, TournamentError) as err:
        problems.append(f"tournament record {record.seq}: malformed or not reproducible ({err})")
        return None
    state.head = records[-1].hash
    return state


def _check_ruled_result(ruling: Record, record: Record) -> None:
    body = ruling.body
    if record.kind != RESULT or record.body.get("game") != body["game"]:
        raise BadTournamentRecord(record.seq, f"the ruling in record {ruling.seq} ({body['rung']} of {body['game']}) "
                                              "is not followed by its result")
    if record.body.get("result") != body["result"]:
        raise BadTournamentRecord(record.seq, f"the result {record.body.get('result')!r} of {body['game']} is not "
                                              f"the {body['result']!r} its ruling (record {ruling.seq}) gave")
    if "forfeit" in record.body and record.body["forfeit"] != (body["rung"] == "forfeit"):
        raise BadTournamentRecord(record.seq, f"the result of {body['game']} says forfeit: {record.body['forfeit']}, "
                                              f"its ruling (record {ruling.seq}) is a {body['rung']}")


def _check_seed(record: Record, commitment: ChainCommitment) -> None:
    try:
        seed = bytes.fromhex(record.body["seed"])
    except (KeyError, ValueError) as err:
        raise BadTournamentRecord(record.seq, "the seed is missing or not hex") from err
    if not commitment.verify_reveal(record.body["seed_index"], seed):
        raise BadTournamentRecord(record.seq, f"seed {record.body['seed_index']} does not hash to the chain "
                                              "committed in the charter: the draw cannot be trusted")


def _check_round(state: EventState, record: Record) -> None:
    body = record.body
    draws = Draws(state.name, body["seed_index"], bytes.fromhex(body["seed"]))
    challenge = tuple(body["pairs"][0]) if body.get("kind") == "challenge" else None
    expected = plan(state, draws, datetime.fromisoformat(body["opened"]), challenge)  # type: ignore[arg-type]
    for field_name in ("round", "active", "absent", "pairs", "byes", "pools", "games", "ranking", "initial_colour"):
        if jsonable(expected.get(field_name)) != body.get(field_name):
            raise BadTournamentRecord(record.seq, f"round {body.get('round')}'s {field_name} are not what the "
                                                  f"seed and the event so far give: published {body.get(field_name)}, "
                                                  f"recomputed {expected.get(field_name)}" + _engine_note(state))


def _engine_note(state: EventState) -> str:
    """When the event was paired by another version of the Dutch engine than this audit runs."""
    used = state.charter.get("pairing_engine")
    if not used:
        return ""
    from adjudicator.tournament.dutch import engine_version

    here = engine_version()
    return "" if here == used else f" (the event was paired with {used}; this audit runs {here})"


def _check_points(state: EventState, record: Record) -> None:
    from adjudicator.tournament.service import result_points

    body = record.body
    slot = state.slot(body["game"])
    if slot is None:
        raise BadTournamentRecord(record.seq, f"a result for {body['game']!r}, which is no game of the event")
    if dict(slot.sides) != body["sides"]:
        raise BadTournamentRecord(record.seq, f"the result's sides {body['sides']} are not the pairing's")
    if jsonable(result_points(state, slot, body["result"])) != body["points"]:
        raise BadTournamentRecord(record.seq, f"the points {body['points']} do not follow from the result "
                                              f"{body['result']!r} and the charter's scoring")


def _check_close(state: EventState, record: Record) -> None:
    lines = standings_module.compute(state, (record.body["seed_index"], bytes.fromhex(record.body["seed"])))
    if [line.player for line in lines] != record.body["standings"]:
        raise BadTournamentRecord(record.seq, "the final standings published are not what the results, "
                                              "the tie-breaks and the seeded draw give")


def _check_game(state: EventState, slot: Any, text: str | None, problems: list[str],
                players: dict[str, PlayerDice], rulings: list[dict[str, Any]]) -> dict[str, Any]:
    line: dict[str, Any] = {"game": slot.game, "round": slot.round, "sides": dict(slot.sides)}
    result = state.results.get(slot.game)
    line["result"] = None if result is None else {"result": result.result, "how": result.how, "turn": result.turn}
    if text is None:
        problems.append(f"{slot.game}: its public record is missing")
        line["verified"] = False
        return line
    try:
        records = records_from_jsonl(text)
    except FairDiceError as err:
        problems.append(f"{slot.game}: not a public record ({err})")
        line["verified"] = False
        return line
    verdict = verify_records(records)
    line.update({"verified": verdict.verified, "dice": verdict.dice, "head": verdict.head})
    if not verdict.verified:
        problems.append(f"{slot.game}: record {verdict.bad_record}: {verdict.reason}")
        return line
    charter = records[0].body
    if charter.get("referee_key") != state.charter["referee_key"] or charter.get("campaign") != slot.game:
        problems.append(f"{slot.game}: the campaign's charter is not this tournament's game (another key or id)")
    hashes = {r.hash for r in records}
    if result is not None and result.head and result.head not in hashes:
        problems.append(f"{slot.game}: the result's head {result.head[:12]}... is no record of the campaign")
    interface = tournament_support(state.game)
    board = None if verdict.result is None else interface.outcome(verdict.result)
    ruling = _ruling(state, slot.game)
    if result is not None and ruling is None and (verdict.result is None or result.result != board):
        problems.append(f"{slot.game}: the tournament took result {result.result!r}, the record gives "
                        f"{'no result yet' if verdict.result is None else repr(board)}")
    forfeited = any(r.kind == FORFEIT for r in records)
    if result is not None and ruling is None and result.forfeit != forfeited:
        taken = "a forfeit" if result.forfeit else "played"
        problems.append(f"{slot.game}: the tournament took the result as {taken}, the record "
                        + ("ends by a forfeit (a sealed reveal missing)" if forfeited else "shows no forfeit"))
    match = _replay(slot, records)
    if ruling is not None:
        rulings.append(_check_ruling(state, slot, ruling, records, match, verdict.result is not None, board,
                                     problems))
    for side, stats in verdict.stats.items():
        player = slot.sides.get(side)
        if player is None:
            continue
        dice = players.setdefault(player, PlayerDice(player))
        dice.counts = [a + b for a, b in zip(dice.counts, stats.counts)]
    line["luck_counted"] = match is not None
    if match is not None:
        _luck(state, slot, records, match, players)
    return line


def _ruling(state: EventState, game: str) -> dict[str, Any] | None:
    """The ruling that decided ``game`` (a forfeit, an adjudication, no result), if any."""
    return next((r for r in state.rulings if r["game"] == game and r["rung"] != "replace"), None)


def _replay(slot: Any, records: list[Record]) -> Any | None:
    """The game replayed from its public record, its sealed entries opened; None while
    the record still hides them (a running game with secrets opens them at its end)."""
    try:
        log = CampaignLog(slot.game, records, [], opened_entries(records))
        return log.replay(support(records[0].body["game"]).game())
    except (EngineError, KeyError, TypeError, ValueError):
        return None


def _check_ruling(state: EventState, slot: Any, ruling: Mapping[str, Any], records: list[Record], match: Any | None,
                  finished: bool,
                  board: str | None, problems: list[str]) -> dict[str, Any]:
    """A ruling against the game's public record: the game stopped where the ruling
    says; a result over the board is overturned only by a ruling that says so; an
    adjudication is what the game's rules give from the position, a silent side
    capped; a silent side named that the record does not show silent is reported as
    the referee's judgement."""
    game = slot.game
    line: dict[str, Any] = {"game": game, "rung": ruling["rung"], "reason": ruling["reason"],
                            "result": ruling.get("result"), "silent": list(ruling.get("silent") or []),
                            "notes": []}
    head = ruling.get("head")
    if head is not None and head != records[-1].hash:
        seq = next((r.seq for r in records if r.hash == head), None)
        problems.append(f"{game}: the game went on after the ruling that decided it "
                        + (f"(ruled at record {seq}, the record runs to {records[-1].seq})" if seq is not None
                           else "(the ruling's head is no record of the game)"))
    overturns = ruling.get("overturns")
    if finished and overturns is None:
        problems.append(f"{game}: a {ruling['rung']} ruling replaced the result over the board ({board!r}) "
                        "without saying it overturns it")
    elif overturns is not None and (not finished or overturns.get("result") != board):
        problems.append(f"{game}: the ruling says it overturns {overturns.get('result')!r}, the record gives "
                        f"{'no result' if not finished else repr(board)}")
    elif overturns is not None:
        line["overturned"] = board
    if "result" not in ruling:
        return line
    for side in line["silent"]:
        if not _silent_in_record(records, side):
            line["notes"].append(f"the record does not show {side} silent (no defaults since its last orders): "
                                 "the referee's judgement")
    if ruling["rung"] == "adjudicate" and not finished:
        _check_adjudication(state, slot, ruling, match, problems)
    return line


def _silent_in_record(records: list[Record], side: str) -> bool:
    last = max((r.body.get("step", 0) for r in records if r.kind == "orders" and r.body.get("side") == side), default=0)
    gone = voided_batches(records)
    return any(r.body["batch"] > last and side in r.body.get("defaults", [])
               for r in records if r.kind == BATCH and r.body["batch"] not in gone)


def _check_adjudication(state: EventState, slot: Any, ruling: Mapping[str, Any], match: Any | None,
                        problems: list[str]) -> None:
    game = tournament_support(state.game)
    if match is None:
        return  # sealed entries not yet opened: the position cannot be read from the public record
    positions = positions_by_turn(match)
    turn = ruling.get("turn")
    if turn not in positions:
        problems.append(f"{slot.game}: the adjudication names turn {turn}, which the game's record did not complete")
        return
    found, why = game.adjudicate(positions[turn])
    expected, _ = capped(game, positions[turn], found, why, list(ruling.get("silent") or []), list(slot.sides))
    if expected != ruling["result"]:
        problems.append(f"{slot.game}: the adjudication gave {ruling['result']!r}; the position at the end of turn "
                        f"{turn} gives {expected!r} under the game's rules")


def _luck(state: EventState, slot: Any, records: list[Record], match: Any, players: dict[str, PlayerDice]) -> None:
    """Add the game's luck samples, from the replayed game, to its players."""
    game = tournament_support(state.game)
    samples = luck_samples(game, match.events, records[0].body.get("options", {}))
    for sample in samples:
        player = slot.sides.get(sample.side)
        if player is None:
            continue
        dice = players.setdefault(player, PlayerDice(player))
        dice.fires += 1
        dice.observed += sample.observed
        dice.expected += sample.expected
        dice.pmfs.append(sample.pmf)


def opened_entries(records: list[Record]) -> dict[int, list]:
    """Batch -> its entries in clear, for the batches with sealed entries that the
    campaign's opening record (published at the end of a game with secrets) opens.
    The audit has verified every seal against its opening before this is used."""
    openings = {(int(item["batch"]), int(item["entry"])): item["open"]
                for record in records if record.kind == OPENING for item in record.body.get("openings", [])}
    clear: dict[int, list] = {}
    for record in records:
        entries = record.body.get("entries", []) if record.kind == BATCH else []
        if any("sealed" in entry for entry in entries):
            number = record.body["batch"]
            clear[number] = [openings.get((number, position), entry) if "sealed" in entry else entry
                             for position, entry in enumerate(entries, start=1)]
    return clear


def render_audit(audit: Audit) -> str:
    lines = [f"Tournament {audit.tournament}: {len(audit.games)} game(s)."]
    for game in audit.games:
        outcome = game.get("result")
        said = "running" if outcome is None else (
            "no result" if outcome["result"] is None else f"{outcome['result']} ({outcome['how'][:60]})")
        sealed = "  (luck not counted: sealed until the game ends)" if game.get("luck_counted") is False else ""
        lines.append(f"  {game['game']:<28} {'verified' if game.get('verified') else 'NOT VERIFIED':<13}"
                     f"{game.get('dice', 0):>5} dice  {said}{sealed}")
    lines += ["", "player            1     2     3     4     5     6   dice   mean  p      uses    achieved  "
                  "expected  luck"]
    for dice in audit.players.values():
        data = dice.to_json()
        counts = "".join(f"{c:6d}" for c in dice.counts)
        luck = "-" if dice.luck is None else f"{dice.luck:5.1f}%"
        mean = "-" if data["mean"] is None else f"{data['mean']:5.2f}"
        p = "-" if data["p_value"] is None else f"{data['p_value']:.3f}"
        lines.append(f"{dice.player:<12}{counts}  {dice.total:5d}  {mean}  {p}  {dice.fires:5d}  "
                     f"{dice.observed:10d}  {dice.expected:8.2f}  {luck}")
    lines.append("(luck: the percentile of what each player's dice achieved over the event -- the game says what "
                 "counts: Port Arthur's hits and critical hits per fire, Russo-Japanese War's Morale Check dice -- "
                 "against its exact distribution for the dice chosen; uses: the dice uses counted; 50% is as "
                 "expected, 90% luckier than 9 events in 10; '-': the game counts none; "
                 "p: the chance fair dice stray this far from even counts)")
    if audit.rulings:
        lines += ["", "Rulings (each decided a game in place of play over the board):"]
        for ruling in audit.rulings:
            silent = f", silent {', '.join(ruling['silent'])}" if ruling["silent"] else ""
            lines.append(f"  {ruling['game']:<28} {ruling['rung']}{silent} -> {ruling['result'] or 'no result'}: "
                         f"{ruling['reason']}")
            if "overturned" in ruling:
                lines.append(f"  {'':<28} OVERTURNS the result over the board ({ruling['overturned']})")
            for note in ruling["notes"]:
                lines.append(f"  {'':<28} {note}")
    lines += ["", f"Record head: {audit.head}", f"Referee key fingerprint: {audit.fingerprint}"]
    lines.append("")
    if audit.verified:
        lines.append("VERIFIED: the tournament's record (signatures, links, seeds, every pairing and side "
                     "recomputed, every result's points and ruling, the final standings) and every game's record "
                     "check out.")
    else:
        lines += ["NOT VERIFIED:"] + [f"  {p}" for p in audit.problems]
    return "\n".join(lines)
