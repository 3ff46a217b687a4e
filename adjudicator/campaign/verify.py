"""Verify a campaign's public record, with no secret: every signature and link, the
seed chain, every die recomputed, the whole game replayed to the published states,
and the dice statistics per side.

The verdict names the first bad record and why. A running campaign verifies up to
its last reveal. In a campaign with hidden information, a running campaign's sealed
items (hidden answers, draws and states) cannot be checked yet: ``verify`` checks
everything public -- public dice by their published address -- replays the game as
far as the first sealed item, and says how many items are still sealed. After the
opening record everything is checked: every seal against its opening, every hidden
draw recomputed from the revealed hidden chain, the whole game replayed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from adjudicator import games
from adjudicator.errors import AdjudicatorError
from adjudicator.campaign.log import voided_batches
from adjudicator.campaign.record_schema import schema_problem
from adjudicator.campaign.protocol import (
    ALGORITHM,
    BATCH,
    CHAIN,
    CHARTER,
    FORFEIT,
    OPENING,
    ORDERS,
    PAUSE,
    PRESS,
    REPLACE,
    REVEAL,
    STATE_POSITION,
    UNDO,
    DRAW_KINDS,
    HIDDEN_STREAM,
    PUBLIC_STREAM,
    BatchDice,
    contribution,
    draw_address,
    draw_count,
    request_at,
    reveal_bytes,
    seal,
    seal_salt,
    sha256_hex,
    state_hash,
    stream_of,
    waiting_of,
)
from adjudicator.engine import EngineError, Match, Simultaneous
from adjudicator.outcome import outcome
from adjudicator.fairdice import (
    ChainCommitment,
    DiceStats,
    FairDiceError,
    Record,
    RecordInvalid,
    dice_stats_by_side,
    fingerprint,
    public_key_from_text,
    read_fingerprint,
    records_from_jsonl,
    verify_log,
)


# history entry key -> (the Match property that waits for it, the Match method that supplies it)
DRAWS = {"dice": ("roll", "supply_dice"), "shuffle": ("shuffle", "supply_shuffle"), "draw": ("draw", "supply_draw")}


class UnusableRecord(AdjudicatorError):
    """The input is not a public record at all (exit 2)."""


class BadRecord(AdjudicatorError):
    """A record that does not verify."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"record {seq}: {reason}")
        self.seq, self.reason = seq, reason


@dataclass(frozen=True)
class Verdict:
    verified: bool
    campaign: str = ""
    game: str = ""
    records: int = 0
    batches: int = 0
    dice: int = 0
    result: str | None = None
    waiting: Mapping[str, str] | None = None
    head: str = ""
    bad_record: int | None = None
    reason: str = ""
    stats: Mapping[str, DiceStats] = field(default_factory=dict)
    sealed: int = 0          # hidden items still committed, to be opened at the end
    replayed_to: int | None = None  # with sealed items: the last batch the replay could check
    voided: tuple[Mapping[str, Any], ...] = ()  # every batch the referee voided: batch, record, reason
    pauses: tuple[Mapping[str, Any], ...] = ()  # every pause: record, from, until, by, reason
    press: tuple[Mapping[str, Any], ...] = ()  # every message between players: record, side, to, sha256, times
    replaced: tuple[Mapping[str, Any], ...] = ()  # every new player: record, side, step, player
    head_checked: bool = False  # a --head was given: a record cut off the end would have been caught
    fingerprint: str = ""  # the referee key's fingerprint, read from the charter
    fingerprint_checked: bool = False  # a --fingerprint was given and matched
    reveals_only: bool = False  # a log of seed reveals with no game in it (docs/dice.md §10.5)

    @property
    def may_be_cut_short(self) -> bool:
        """A running campaign checked without its head: records may be missing at the end."""
        return self.verified and not self.head_checked and self.result is None and not self.reveals_only

    def to_json(self) -> dict[str, Any]:
        return {
            "sealed": self.sealed, "replayed_to": self.replayed_to,
            "verified": self.verified, "campaign": self.campaign, "game": self.game,
            "records": self.records, "batches": self.batches, "dice": self.dice,
            "result": self.result, "waiting": dict(self.waiting) if self.waiting else None,
            "voided": [dict(v) for v in self.voided],
            "pauses": [dict(p) for p in self.pauses],
            "press": [dict(p) for p in self.press],
            "replaced": [dict(r) for r in self.replaced],
            "may_be_cut_short": self.may_be_cut_short,
            "head": self.head, "bad_record": self.bad_record, "reason": self.reason,
            "fingerprint": self.fingerprint, "fingerprint_checked": self.fingerprint_checked,
            "reveals_only": self.reveals_only,
            "stats": {side: {"counts": list(s.counts), "total": s.total, "mean": s.mean,
                             "chi_square": s.chi_square, "p_value": s.p_value} for side, s in self.stats.items()},
        }


def verify_text(text: str | bytes, expected_head: str | None = None, fingerprint: str | None = None) -> Verdict:
    """Verify a public record given as JSON Lines; ``fingerprint`` (as the referee gave
    it, out of band) pins the referee's key: a record signed by any other key fails."""
    return verify_records(read_public_record(text), expected_head, fingerprint)


def read_public_record(text: str | bytes) -> list[Record]:
    """The records of a public record given as JSON Lines; UnusableRecord when it is
    not one (not JSON Lines of records, or empty)."""
    try:
        records = records_from_jsonl(text)
    except FairDiceError as err:
        raise UnusableRecord(f"not a public record: {err}") from err
    if not records:
        raise UnusableRecord("the record is empty")
    return records


def verify_records(records: list[Record], expected_head: str | None = None,
                   fingerprint: str | None = None) -> Verdict:
    if fingerprint is not None:
        try:
            fingerprint = read_fingerprint(fingerprint)
        except FairDiceError as err:
            raise UnusableRecord(str(err)) from err
    checker = _Checker(records)
    try:
        head = checker.check_signatures(expected_head, fingerprint)
        try:
            checker.check_all()
        except (KeyError, TypeError, ValueError, AttributeError) as err:  # a signed but malformed body
            raise BadRecord(checker.current, f"the record is malformed ({err!r})") from err
    except BadRecord as bad:
        return Verdict(False, checker.campaign, checker.game_name, len(records), checker.batches,
                       checker.dice_count, None, None, "", bad.seq, bad.reason, checker.stats(), checker.sealed,
                       voided=tuple(checker.voided_steps), head_checked=expected_head is not None,
                       fingerprint=checker.fingerprint, reveals_only=checker.plain, pauses=tuple(checker.pauses),
                       press=tuple(checker.press), replaced=tuple(checker.replaced))
    return Verdict(True, checker.campaign, checker.game_name, len(records), checker.batches,
                   checker.dice_count, checker.result, checker.waiting, head, None, "", checker.stats(),
                   checker.sealed, checker.replayed_to if checker.sealed else None,
                   voided=tuple(checker.voided_steps), head_checked=expected_head is not None,
                   fingerprint=checker.fingerprint, fingerprint_checked=fingerprint is not None,
                   reveals_only=checker.plain, pauses=tuple(checker.pauses), press=tuple(checker.press),
                   replaced=tuple(checker.replaced))


class _Checker:
    def __init__(self, records: list[Record]) -> None:
        self.records = records
        charter = records[0]
        if charter.kind != CHARTER:
            raise UnusableRecord("the first record is not a campaign charter")
        self.charter = charter.body
        self.campaign = str(self.charter.get("campaign", self.charter.get("campaign_id", "")))
        self.game_name = str(self.charter.get("game", ""))
        self.batches = 0
        self.dice_count = 0
        self.result: str | None = None
        self.waiting: Mapping[str, str] | None = None
        self.rolls: dict[str, list[int]] = {}
        self.histories: list[tuple[int, list[dict]]] = []
        self.orders: dict[int, Mapping[str, Any]] = {}
        self.chains: list[tuple[int, ChainCommitment]] = []
        self.last_seed: tuple[int, bytes] | None = None
        self.voided: set[int] = set()
        self.voided_steps: list[dict[str, Any]] = []  # in order: each voided batch, its undo record, the reason
        self.forfeited = False
        self.current = 0  # the record being checked
        self.sealed = 0  # items still sealed (no opening yet)
        self.blind = False  # a sealed item was met: the replay cannot go on until the opening
        self.replayed_to = 0
        self.hidden_chain: ChainCommitment | None = None
        self.hidden_seeds: dict[int, bytes] = {}
        self.openings: dict[tuple[int, int], Any] = {}
        self.opening_seq: int | None = None
        self.redo_due = False  # an undo came: the next batch runs a voided step again
        self.plain = False  # a log of seed reveals only, with no game (docs/dice.md §10.5)
        self.fingerprint = ""  # the referee key's, once read
        self.counters: dict[str, int] = {PUBLIC_STREAM: 0, HIDDEN_STREAM: 0}  # each stream's draw index in the batch
        self.pause_began: Any = None  # when the last pause record began
        self.pauses: list[dict[str, Any]] = []  # every pause: record, from, until, by, reason
        self.press: list[dict[str, Any]] = []  # every message between players: its hash, never its text
        self.replaced: list[dict[str, Any]] = []  # every new player: record, side, step, player

    # -- signatures and links ------------------------------------------------------------

    def check_signatures(self, expected_head: str | None, pinned: str | None = None) -> str:
        try:
            key = public_key_from_text(self.charter["referee_key"])
        except (FairDiceError, KeyError) as err:
            raise BadRecord(0, f"the charter's referee key is unusable: {err}") from err
        self.fingerprint = fingerprint(key)
        if pinned is not None and pinned != self.fingerprint:
            raise BadRecord(0, f"the charter's referee key has the fingerprint {self.fingerprint}, not {pinned} "
                               "as given: this record was not signed by the referee whose fingerprint you have")
        try:
            return verify_log(self.records, key, expected_head=expected_head)
        except RecordInvalid as err:
            raise BadRecord(err.seq, err.reason) from err

    # -- the game -----------------------------------------------------------------------

    def check_all(self) -> None:
        if "algorithm" not in self.charter and all(r.kind == REVEAL for r in self.records[1:]):
            self._check_reveal_log()
            return
        self._check_schema(self.records[0])
        self._check_charter()
        self._read_opening()
        for record in self.records[1:]:
            self.current = record.seq
            if self.forfeited and record.kind != OPENING:
                raise BadRecord(record.seq, "a record after the forfeit that ended the campaign")
            if record.kind not in (CHARTER, OPENING):  # both checked before the replay
                self._check_schema(record)
            handler = {ORDERS: self._orders, BATCH: self._batch, CHAIN: self._chain, UNDO: self._undo,
                       CHARTER: self._second_charter, FORFEIT: self._forfeit,
                       OPENING: self._opening, PAUSE: self._pause,
                       PRESS: self._press, REPLACE: self._replace}.get(record.kind)
            if handler is None:
                raise BadRecord(record.seq, f"unknown record kind {record.kind!r}")
            handler(record)

    @staticmethod
    def _check_schema(record: Record) -> None:
        problem = schema_problem(record.kind, record.body)
        if problem is not None:
            raise BadRecord(record.seq, f"the {record.kind} record does not follow its schema "
                                        f"(adjudicator/campaign/schemas/{record.kind}.schema.json): {problem}")

    def _check_reveal_log(self) -> None:
        """A log of seed reveals only (docs/dice.md §10.5): each reveal against the
        charter's chain, linked to the one before."""
        self.plain = True
        try:
            chain = ChainCommitment.from_dict(self.charter["chain"])
        except (FairDiceError, KeyError) as err:
            raise BadRecord(0, f"the charter's chain commitment is unusable: {err}") from err
        for record in self.records[1:]:
            self.current = record.seq
            self._check_schema(record)
            body = record.body
            if body.get("owner") != chain.owner or body.get("batch") != self.batches + 1:
                raise BadRecord(record.seq, f"a reveal of batch {body.get('batch')!r} by {body.get('owner')!r} "
                                            f"where batch {self.batches + 1} of {chain.owner!r} comes next")
            if not chain.verify_reveal(body["batch"], bytes.fromhex(body["seed"])):
                raise BadRecord(record.seq, f"the seed revealed for batch {body['batch']} does not hash to the "
                                            "chain committed in the charter")
            self.batches = body["batch"]

    def _check_charter(self) -> None:
        charter = self.charter
        if charter.get("algorithm") != ALGORITHM:
            raise BadRecord(0, f"the charter's algorithm {charter.get('algorithm')!r} is not {ALGORITHM!r}: "
                               "verify with the adjudicator version that made it")
        try:
            self.game = games.rules(self.game_name)  # the rules alone: no orders language, reports or players
        except games.UnknownGame as err:
            raise BadRecord(0, str(err)) from err
        local = dict(self.game.data_hashes())
        if charter.get("data_hashes", {}) != local:
            raise BadRecord(0, "the campaign was played with game data other than this installation's "
                               f"(charter: {charter.get('data_hashes')}, here: {local})")
        try:
            self.chains = [(1, ChainCommitment.from_dict(charter["chain"]))]
            self.match = Match(self.game, charter.get("setup", {}), charter.get("options", {}))
        except (FairDiceError, EngineError, KeyError) as err:
            raise BadRecord(0, f"the charter is unusable: {err}") from err
        self.sides = {p["side"] for p in charter.get("players", [])}
        try:
            self.player_chains = {side: ChainCommitment.from_dict(data)
                                  for side, data in (charter.get("player_chains") or {}).items()}
        except FairDiceError as err:
            raise BadRecord(0, f"a player's chain commitment is unusable: {err}") from err
        if charter.get("sealed") and set(self.player_chains) != self.sides:
            raise BadRecord(0, "a sealed campaign's charter must commit every side's chain")
        if "hidden_chain" in charter:
            try:
                self.hidden_chain = ChainCommitment.from_dict(charter["hidden_chain"])
            except FairDiceError as err:
                raise BadRecord(0, f"the hidden seed chain's commitment is unusable: {err}") from err

    # -- hidden information ----------------------------------------------------------------

    def _read_opening(self) -> None:
        """The opening record, read first: it holds what the batches' seals hide."""
        found = [r for r in self.records if r.kind == OPENING]
        if not found:
            return
        record = found[0]
        self.current = record.seq
        self._check_schema(record)
        if self.hidden_chain is None or len(found) > 1 or record is not self.records[-1]:
            raise BadRecord(record.seq, "an opening record must be the last record of a campaign "
                                        "with hidden information, and the only one")
        self.opening_seq = record.seq
        for number, text in record.body["hidden_seeds"].items():
            seed = bytes.fromhex(text)
            if not self.hidden_chain.verify_reveal(int(number), seed):
                raise BadRecord(record.seq, f"the hidden seed revealed for batch {number} does not hash to "
                                            "the hidden chain committed in the charter")
            self.hidden_seeds[int(number)] = seed
        for item in record.body["openings"]:
            self.openings[(int(item["batch"]), int(item["entry"]))] = item["open"]

    def _opening(self, record: Record) -> None:
        if not (self.forfeited or self.match.finished):
            raise BadRecord(record.seq, "secrets opened before the end of the game")
        if self.openings:
            first = next(iter(self.openings))
            raise BadRecord(record.seq, f"the opening opens batch {first[0]} entry {first[1]}, which is not sealed")

    def _hidden_seed(self, number: int) -> bytes:
        if number not in self.hidden_seeds:
            raise BadRecord(self.opening_seq, f"the opening does not reveal the hidden seed of batch {number}")
        return self.hidden_seeds[number]

    def _unseal(self, record: Record, number: int, position: int, entry: Mapping[str, Any]) -> Any:
        """The opened entry behind a seal, checked against the seal; None while sealed."""
        if self.opening_seq is None:
            self.sealed += 1
            self.blind = True
            return None
        clear = self.openings.pop((number, position), None)
        salt = seal_salt(self.campaign, number, position, self._hidden_seed(number))
        if clear is None or seal(self.campaign, number, position, salt, clear) != entry["sealed"]:
            raise BadRecord(self.opening_seq, f"the opening of batch {number}, entry {position} does not match "
                                              f"the commitment published in record {record.seq}")
        return clear

    def _forfeit(self, record: Record) -> None:
        body = record.body
        if not self.player_chains:
            raise BadRecord(record.seq, "a forfeit in a campaign that is not sealed")
        step = self.batches + 1
        if body.get("step") != step or not set(body.get("forfeited", [])) <= self.sides:
            raise BadRecord(record.seq, "the forfeit names another step or an unknown side")
        latest = {}
        for orders in self.orders.values():
            if orders["step"] == step:
                latest[orders["side"]] = orders
        stalled = sorted(side for side in self.sides if latest.get(side, {}).get("reveal_hash") is None)
        if sorted(body.get("forfeited", [])) != stalled:
            raise BadRecord(record.seq, f"the forfeit blames {', '.join(body.get('forfeited', [])) or 'nobody'}, "
                                        f"but the sides without a reveal for step {step} are "
                                        f"{', '.join(stalled) or 'none'}")
        winners = sorted(self.sides - set(stalled))
        if body.get("result") != (winners[0] if len(winners) == 1 else "draw"):
            raise BadRecord(record.seq, f"the forfeit's result {body.get('result')!r} is not what the "
                                        f"forfeit of {', '.join(stalled)} gives")
        self.forfeited = True
        self.result, self.waiting = body.get("result"), None

    def _pause(self, record: Record) -> None:
        """A pause: a moment (UTC) and a day that are real ones, no earlier than the pause
        before it began; the clock it stops is the referee's, checked by no replay."""
        from datetime import date, datetime

        body = record.body
        try:
            began, until = datetime.fromisoformat(body["from"]), date.fromisoformat(body["until"])
        except ValueError as err:
            raise BadRecord(record.seq, f"the pause's time or date is not a real one ({err})") from err
        if self.pause_began is not None and began < self.pause_began:
            raise BadRecord(record.seq, f"a pause from {body['from']} recorded after one from "
                                        f"{self.pause_began.isoformat()}: pauses follow each other in time")
        self.pause_began = began
        self.pauses.append({"record": record.seq, "from": body["from"], "until": until.isoformat(),
                            "by": body["by"], "reason": body["reason"]})

    def _press(self, record: Record) -> None:
        """A message between players: from a side of the charter to others, arrived
        at a real moment and delivered no earlier; its text is private, its hash
        is what a player checks the text relayed against."""
        from datetime import datetime

        body = record.body
        if body["side"] not in self.sides or not set(body["to"]) <= self.sides - {body["side"]}:
            raise BadRecord(record.seq, f"press from {body['side']!r} to {body['to']!r}: a message goes from "
                                        f"one side of the charter to others ({', '.join(sorted(self.sides))})")
        try:
            at, due = datetime.fromisoformat(body["at"]), datetime.fromisoformat(body["deliver_at"])
        except ValueError as err:
            raise BadRecord(record.seq, f"the press record's times are not real ones ({err})") from err
        if due < at:
            raise BadRecord(record.seq, f"press delivered at {body['deliver_at']}, before it arrived at {body['at']}")
        self.press.append({"record": record.seq, **body})

    def _replace(self, record: Record) -> None:
        """A new player for a side: a side of the charter, from the open step (the next
        batch's); the name only (the schema refuses an address)."""
        body = record.body
        if body["side"] not in self.sides:
            raise BadRecord(record.seq, f"a new player for {body['side']!r}, not a side of this campaign "
                                        f"({', '.join(sorted(self.sides))})")
        if body["step"] != self.batches + 1:
            raise BadRecord(record.seq, f"a new player from step {body['step']}, where step {self.batches + 1} "
                                        "is the open one: a replacement takes effect at the open step")
        self.replaced.append({"record": record.seq, "side": body["side"], "step": body["step"],
                              "player": body["player"]})

    def _second_charter(self, record: Record) -> None:
        raise BadRecord(record.seq, "a second charter for the campaign: a campaign has one charter")

    def _orders(self, record: Record) -> None:
        body = record.body
        if body.get("side") not in self.sides:
            raise BadRecord(record.seq, f"orders for an unknown side {body.get('side')!r}")
        if body.get("step") != self.batches + 1:
            raise BadRecord(record.seq, f"orders for step {body.get('step')} recorded while step "
                                        f"{self.batches + 1} was open (a step's orders must precede its reveal)")
        self.orders[record.seq] = body

    def _chain(self, record: Record) -> None:
        try:
            commitment = ChainCommitment.from_dict(record.body["chain"])
        except (FairDiceError, KeyError) as err:
            raise BadRecord(record.seq, f"the chain extension is unusable: {err}") from err
        first = self.chains[-1][0] + self.chains[-1][1].length
        if record.body.get("first_batch") != first:
            raise BadRecord(record.seq, f"the new chain must start at batch {first}")
        self.chains.append((first, commitment))

    def _undo(self, record: Record) -> None:
        back_to = record.body.get("back_to")
        in_force = self._in_force()
        if not isinstance(back_to, int) or not in_force or back_to >= in_force[-1] or back_to < 0:
            raise BadRecord(record.seq, f"an undo back to batch {back_to!r} voids nothing")
        self.redo_due = True  # the next batch runs the voided step again
        voided = voided_batches(self.records[: record.seq + 1])
        self.voided_steps += [{"batch": number, "record": record.seq, "reason": str(record.body.get("reason", ""))}
                              for number in sorted(voided - self.voided)]
        self.voided = voided
        if self.blind:
            return  # the replay waits for the opening
        history = [e for number, entries in self.histories if number not in self.voided for e in entries]
        self.match = Match(self.game, self.charter.get("setup", {}), self.charter.get("options", {}), history)

    def _in_force(self) -> list[int]:
        return [number for number, _ in self.histories if number not in self.voided]

    def _batch(self, record: Record) -> None:
        body = record.body
        number = body.get("batch")
        if number != self.batches + 1:
            raise BadRecord(record.seq, f"batch {number} follows batch {self.batches}: "
                                        f"a batch was skipped or reused")
        seed = self._check_seed(record, number)
        contributions, contributed = self._check_contributions(record, number)
        redo, self.redo_due = self.redo_due, False
        self._check_defaults(record, contributed, number == 1 or redo)
        self._check_reused_orders(record, redo)
        dice = BatchDice(self.campaign, number, seed, contributions)
        hidden = (BatchDice(self.campaign, number, self._hidden_seed(number), contributions)
                  if self.hidden_chain is not None and self.opening_seq is not None else None)
        self.counters = {PUBLIC_STREAM: 0, HIDDEN_STREAM: 0}
        entries = self._replay(record, number, body.get("entries", []), {PUBLIC_STREAM: dice, HIDDEN_STREAM: hidden})
        self._check_every_side_spoke(record, number, contributed, redo)
        self.batches = number
        self.histories.append((number, entries))
        self._check_outcome(record)

    def _check_every_side_spoke(self, record: Record, number: int, contributed: set[str], redo: bool) -> None:
        """No draw before every side due has spoken: in batch 1 and in a batch that runs a
        voided step again, a batch that draws anything needs a contribution from every
        side, but for the sides silent past the deadline that it names in its defaults
        when at least one side spoke. (In sealed mode every batch has every side's
        contribution: ``_check_contributions`` refuses one without.)"""
        if not (number == 1 or redo):
            return
        missing = sorted(self.sides - contributed)
        if not missing or (contributed and set(missing) <= set(record.body.get("defaults", []))):
            return
        if any(any(key in entry for key in DRAW_KINDS) or entry.get("what", "answer") != "answer"
               for entry in record.body.get("entries", [])):
            why = "batch 1" if number == 1 else "a voided step run again"
            raise BadRecord(record.seq, f"the batch draws without a contribution from {', '.join(missing)}: "
                                        f"in {why} every side is due before anything random is drawn (a side "
                                        "silent past the deadline is named in the batch's defaults, and at "
                                        "least one side contributes)")

    def _check_reused_orders(self, record: Record, redo: bool) -> None:
        """A redo names the orders on file it was told to use: orders records of the
        voided steps, recorded before it."""
        reused = record.body.get("reused_orders")
        if reused is None:
            return
        if not redo:
            raise BadRecord(record.seq, "reused orders named by a batch that does not run a voided step again")
        for seq in reused:
            body = self.orders.get(seq)
            if body is None or body["step"] not in self.voided:
                raise BadRecord(record.seq, f"the batch names orders record {seq} as reused, which is not "
                                            "an orders record of a voided step")

    def _check_defaults(self, record: Record, contributed: set[str], every_side_due: bool) -> None:
        """The sides a batch says got the defaults for silence: known sides that sent
        nothing for the step, and (when the replay has the game's question) only the
        sides the game was waiting for (every side asked at a stop that asks several), or, in a
        batch where every side is due (batch 1, a redo) of an open campaign, any side silent
        past the deadline."""
        defaults = record.body.get("defaults", [])
        if not isinstance(defaults, list) or defaults != sorted(set(defaults)):
            raise BadRecord(record.seq, f"the batch's defaults {defaults!r} are not a sorted list of sides")
        asked = set() if self.blind else {decision.side for decision in self.match.decisions}
        silent_may = every_side_due and not self.player_chains
        may = (self.sides if self.blind or silent_may else asked) - contributed
        wrong = sorted(set(defaults) - may)
        if wrong:
            raise BadRecord(record.seq, f"the batch gives {', '.join(map(str, wrong))} the defaults for silence, "
                                        "but only a side the game waits for that sent nothing for the step "
                                        f"can get them (waiting: {', '.join(sorted(asked)) or 'nobody'})")

    def _check_seed(self, record: Record, number: int) -> bytes:
        try:
            seed = bytes.fromhex(record.body["seed"])
        except (KeyError, ValueError, TypeError) as err:
            raise BadRecord(record.seq, "the batch's seed is missing or not hex") from err
        first, commitment = max((c for c in self.chains if c[0] <= number), key=lambda c: c[0])
        index = number - first + 1
        if index > commitment.length:
            raise BadRecord(record.seq, f"batch {number} is beyond the committed seed chain; "
                                        "a chain extension must come first")
        previous = self.last_seed[1] if self.last_seed and self.last_seed[0] == first and index > 1 else None
        ok = (commitment.verify_link(index, seed, previous) if previous is not None
              else commitment.verify_reveal(index, seed))
        if not ok:
            raise BadRecord(record.seq, f"the seed revealed for batch {number} does not hash to the "
                                        "committed chain: the dice cannot be trusted")
        self.last_seed = (first, seed)
        return seed

    def _check_contributions(self, record: Record, number: int) -> tuple[dict[str, bytes], set[str]]:
        used = record.body.get("orders", [])
        revealed = record.body.get("contributions", {})
        by_side = {}
        for seq in used:
            if seq not in self.orders or seq > record.seq:
                raise BadRecord(record.seq, f"the batch uses orders record {seq}, which does not come "
                                            "before it: orders must be locked before the reveal")
            body = self.orders[seq]
            if body["step"] != number:
                raise BadRecord(record.seq, f"the batch uses orders record {seq} of step {body['step']}")
            by_side[body["side"]] = (seq, body)
        for seq, body in self.orders.items():
            if body["step"] == number and body["side"] in by_side and seq > by_side[body["side"]][0]:
                raise BadRecord(record.seq, f"the batch ignores {body['side']}'s newer orders (record {seq})")
            if body["step"] == number and body["side"] not in by_side:
                raise BadRecord(record.seq, f"the batch ignores {body['side']}'s orders (record {seq})")
        contributions = {}
        reveals = record.body.get("reveals", {})
        if self.player_chains and set(by_side) != self.sides:
            raise BadRecord(record.seq, "a sealed campaign's batch needs every side's orders and reveal")
        for side, (seq, body) in by_side.items():
            entropy = revealed.get(side)
            if (entropy is None) != (body.get("entropy_hash") is None) or (
                    entropy is not None and sha256_hex(entropy) != body["entropy_hash"]):
                raise BadRecord(record.seq, f"{side}'s entropy does not match the commitment in record {seq}")
            contributions[side] = contribution(entropy, self._reveal(record, side, reveals.get(side), number))
            if self.player_chains and sha256_hex(reveals.get(side) or "") != body.get("reveal_hash"):
                raise BadRecord(record.seq, f"{side}'s reveal does not match its hash in orders record {seq}")
        return contributions, set(by_side)

    def _reveal(self, record: Record, side: str, reveal: str | None, number: int) -> bytes | None:
        """Sealed mode: the side's revealed value for this batch, checked against its chain."""
        if not self.player_chains:
            if reveal is not None:
                raise BadRecord(record.seq, f"a reveal from {side} in a campaign that is not sealed")
            return None
        try:
            value = reveal_bytes(reveal)
        except ValueError:
            value = None
        if value is None or not self.player_chains[side].verify_reveal(number, value):
            raise BadRecord(record.seq, f"{side}'s sealed reveal for batch {number} is missing or does not "
                                        "match the chain committed in the charter")
        return value

    def _replay(self, record: Record, number: int, entries: list, streams: Mapping[str, BatchDice | None]) -> list:
        """Replay a batch's entries (opened where sealed); return them in clear."""
        clear_entries = []
        for position, entry in enumerate(entries, start=1):
            try:
                if "sealed" in entry:
                    shown = entry
                    entry = self._unseal(record, number, position, entry)
                    if entry is None:
                        continue
                    self._check_sealed_label(record, position, shown, entry)
                    self._replay_entry(record, number, position, entry, streams, sealed=True)
                elif self.blind:
                    self._check_public_draw(record, number, position, entry, streams[PUBLIC_STREAM])
                else:
                    self._replay_entry(record, number, position, entry, streams, sealed=False)
                clear_entries.append({k: v for k, v in entry.items() if k != "at"})
            except EngineError as err:
                raise BadRecord(record.seq, f"entry {position} does not fit the rules: {err}") from err
            except (KeyError, TypeError) as err:
                raise BadRecord(record.seq, f"entry {position} is malformed: {err!r}") from err
        return clear_entries

    def _check_sealed_label(self, record: Record, position: int, shown: Mapping[str, Any],
                            clear: Mapping[str, Any]) -> None:
        """A sealed entry's published ``what`` and ``side`` must say what its opening is."""
        what = "answer" if "answer" in clear else next((k for k in DRAW_KINDS if k in clear), None)
        side = clear.get("side") if what == "answer" else (clear.get("at") or {}).get("side")
        if (shown.get("what"), shown.get("side")) != (what, side):
            raise BadRecord(record.seq, f"entry {position} is published as a sealed {shown.get('what')!r} of "
                                        f"{shown.get('side')!r}, but it opens to a {what!r} of {side!r}")

    def _replay_entry(self, record: Record, number: int, position: int, entry: Mapping[str, Any],
                      streams: Mapping[str, BatchDice | None], sealed: bool) -> None:
        pending = self.match.pending
        if isinstance(pending, Simultaneous):  # the question of the side this entry answers
            pending = self.match.decision_for(entry.get("side"))
        if pending is not None and getattr(pending, "hidden", False) != sealed and self.hidden_chain is not None:
            raise BadRecord(record.seq, f"entry {position} is {'sealed' if sealed else 'published in clear'} "
                                        f"but the rules ask for it {'in the open' if sealed else 'in secret'}")
        drawn = next((key for key in DRAWS if key in entry), None)
        if drawn is not None:
            self._replay_draw(record, number, position, drawn, entry, streams)
        else:
            self.match.answer(entry["side"], entry["answer"], entry.get("kind"))

    def _check_public_draw(self, record: Record, number: int, position: int, entry: Mapping[str, Any],
                           dice: BatchDice) -> None:
        """While the replay waits for the opening: recompute a public draw from its address,
        whose batch, step, kind, stream and index must be where the batch stands."""
        drawn = next((key for key in DRAWS if key in entry), None)
        if drawn is None:
            return  # a public answer: checked by the replay after the opening
        at = entry["at"]  # required by the schemas of batch and opening
        request = request_at(drawn, entry[drawn], at)
        expected_at = draw_address(request, number, self.counters[PUBLIC_STREAM])
        self._compare_address(record, position, drawn, at, expected_at)
        self._check_values(record, position, drawn, entry[drawn], dice.at(request, at["index"]), "")
        self._count(drawn, at, entry[drawn])

    def _replay_draw(self, record: Record, number: int, position: int, drawn: str, entry: Mapping[str, Any],
                     streams: Mapping[str, BatchDice | None]) -> None:
        """Recompute a roll's dice, a shuffle's order or a draw's cards from the batch's
        stream, at the address the rules give it, and check the address published."""
        pending_name, supply_name = DRAWS[drawn]
        request = getattr(self.match, pending_name)
        if request is None:
            raise BadRecord(record.seq, f"entry {position} gives {drawn} where the game draws none")
        at = entry["at"]  # required by the schemas of batch and opening
        stream = stream_of(request, self.hidden_chain is not None)
        expected_at = draw_address(request, number, self.counters[stream], stream)
        self._compare_address(record, position, drawn, at, expected_at)
        expected = streams[stream].at(request, expected_at["index"])
        self._check_values(record, position, drawn, entry[drawn], expected, f" ({request.purpose})")
        self._count(drawn, at, expected)
        getattr(self.match, supply_name)(expected)

    def _compare_address(self, record: Record, position: int, drawn: str, at: Mapping[str, Any],
                         expected: Mapping[str, Any]) -> None:
        if dict(at) != expected:
            differ = ", ".join(f"{k} {at.get(k)!r} (should be {expected.get(k)!r})"
                               for k in sorted(set(at) | set(expected)) if at.get(k) != expected.get(k))
            raise BadRecord(record.seq, f"entry {position}: the {drawn}' published address is wrong: {differ}")

    @staticmethod
    def _check_values(record: Record, position: int, drawn: str, published: list, expected: tuple,
                      purpose: str) -> None:
        if list(expected) != list(published):
            raise BadRecord(record.seq, f"entry {position}: the {drawn} published are {published}, "
                                        f"the seed gives {list(expected)}{purpose}")

    def _count(self, drawn: str, at: Mapping[str, Any], values: Any) -> None:
        """Move the stream's draw counter on, and count the dice for the table."""
        self.counters[at["stream"]] += draw_count(drawn, int(at["n"]), len(values))
        if drawn == "dice":
            self.rolls.setdefault(at.get("side") or "nobody", []).extend(values)
            self.dice_count += len(values)

    def _check_outcome(self, record: Record) -> None:
        match, body = self.match, record.body
        if self.hidden_chain is not None and self.opening_seq is None:
            self.sealed += 1  # the state's hash is sealed until the opening
        if self.blind:
            return
        self.replayed_to = body["batch"]
        digest = state_hash(match.state.to_json())
        if self.hidden_chain is not None and self.opening_seq is not None:
            number = body["batch"]
            salt = seal_salt(self.campaign, number, STATE_POSITION, self._hidden_seed(number))
            digest = seal(self.campaign, number, STATE_POSITION, salt, digest)
        if self.hidden_chain is not None and self.opening_seq is None:
            digest = body.get("state_hash")  # sealed: checked after the opening
        if digest != body.get("state_hash"):
            raise BadRecord(record.seq, "the replayed state differs from the state published")
        waiting = waiting_of(match)
        if waiting != body.get("waiting"):
            raise BadRecord(record.seq, f"the game waits for {waiting}, the record says {body.get('waiting')}")
        result = getattr(match.state, "result", None)
        if result != body.get("result"):
            raise BadRecord(record.seq, f"the result is {result!r}, the record says {body.get('result')!r}")
        self.result, self.waiting = result, waiting

    def stats(self) -> dict[str, DiceStats]:
        return dice_stats_by_side({side: values for side, values in self.rolls.items() if values})


def _result_words(result: Any) -> str:
    """"Japan wins", with how where the game says it ("Japan wins, conceded")."""
    how = result.get("victory") if isinstance(result, Mapping) else None
    return outcome(result) + (f", {how}" if how else "")


def _waiting_words(waiting: Mapping[str, Any]) -> str:
    """"japan (orders)", or "japan and russia at once (orders)" at a stop that asks several."""
    sides = sorted(waiting.get("sides") or [waiting["side"]])
    return f"{' and '.join(sides)}{' at once' if len(sides) > 1 else ''} ({waiting['ask']})"


def render_verdict(verdict: Verdict) -> str:
    """The verdict as text, with the per-side dice table."""
    lines = [f"Campaign {verdict.campaign} ({verdict.game}): {verdict.records} records, "
             f"{verdict.batches} dice batches, {verdict.dice} dice."]
    if verdict.stats:
        lines += ["", "side        1     2     3     4     5     6   dice   mean  chi-square p"]
        for side, s in sorted(verdict.stats.items()):
            counts = "".join(f"{c:6d}" for c in s.counts)
            lines.append(f"{side:<9}{counts}  {s.total:5d}  {s.mean:5.2f}  {s.p_value:.3f}")
        lines.append("(p is the chance that fair dice stray this far from even counts; "
                     "a small p alone, among many games, proves nothing)")
    lines.append("")
    for void in verdict.voided:
        lines.append(f"batch {void['batch']} voided by the referee (record {void['record']}): "
                     f"reason {void['reason']!r}; its dice were revealed")
    if verdict.voided:
        lines.append("")
    for pause in verdict.pauses:
        lines.append(f"paused by the {'sides' if pause['by'] == 'sides' else 'referee'} (record {pause['record']}) "
                     f"from {pause['from']} until {pause['until']}: reason {pause['reason']!r}")
    if verdict.pauses:
        lines.append("")
    for press in verdict.press:
        lines.append(f"press from {press['side']} to {', '.join(press['to'])} (record {press['record']}), "
                     f"delivered {press['deliver_at']}: SHA-256 {press['sha256']}")
    if verdict.press:
        lines.append("")
    for new in verdict.replaced:
        lines.append(f"new player (record {new['record']}): {new['side']} played by {new['player']} "
                     f"from step {new['step']}")
    if verdict.replaced and verdict.result:
        last = {new["side"]: new for new in verdict.replaced}
        lines.append("the result counts for the player of each side at the end: " + ", ".join(
            f"{side}'s {new['player']} (from step {new['step']})" for side, new in sorted(last.items()))
                     + "; a side never replaced, for its first player")
    if verdict.replaced:
        lines.append("")
    if verdict.may_be_cut_short:
        lines.append("NOTE: this record has no end-of-game record and was checked without --head: records "
                     "may have been cut off its end. Check it with the head from your latest report: "
                     "adjudicator verify RECORD --head HEAD")
    if verdict.fingerprint:
        lines.append(f"Referee key fingerprint: {verdict.fingerprint}"
                     + (" (matches the one given)" if verdict.fingerprint_checked else
                        " (compare it with the one your referee gave you, or pass it with --fingerprint)"))
    if verdict.verified and verdict.reveals_only:
        lines.append(f"VERIFIED: every signature and link, and the {verdict.batches} seed reveal(s) against the "
                     f"charter's chain (a log of reveals, with no game in it). Head: {verdict.head}")
    elif verdict.verified and verdict.sealed:
        lines.append(f"{verdict.sealed} hidden items committed, to be opened at the end of the game.")
        lines.append(f"VERIFIED SO FAR: every signature, link and seed and every public die checks out; the "
                     f"replay matches up to batch {verdict.replayed_to or 0}; the rest is checked when the "
                     f"secrets are opened. Head: {verdict.head}")
    elif verdict.verified:
        state = f"result: {_result_words(verdict.result)}" if verdict.result else (
            f"running; waiting for {_waiting_words(verdict.waiting)}" if verdict.waiting else "running")
        lines.append(f"VERIFIED: every signature, link, seed and die checks out, and the replay matches "
                     f"every published state ({state}). Head: {verdict.head}")
    else:
        lines.append(f"NOT VERIFIED: record {verdict.bad_record}: {verdict.reason}")
    return "\n".join(lines)
