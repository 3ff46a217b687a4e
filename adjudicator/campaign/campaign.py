"""A campaign: create it, take orders, adjudicate, undo, export its public record.

Every command is one store transaction, so a campaign is always either before or
after a command. Every public record is signed with the referee's key and linked to
the one before (see :mod:`adjudicator.campaign.protocol`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator import __version__
from adjudicator.campaign.errors import (
    AuthenticationFailed,
    BadAddress,
    MailBeingTakenIn,
    BadReveal,
    SealedRevealMissing,
    CampaignOver,
    NothingToUndo,
    RefereeKeyMismatch,
    StepOver,
    UnknownSide,
)
from adjudicator.campaign.games import support
from adjudicator.campaign.intake_marker import intake_running
from adjudicator.campaign.log import CampaignLog, read_log
from adjudicator.campaign.passwords import check_password, hash_password
from adjudicator.campaign.signing import signature_matches, signed_time
from adjudicator.campaign.protocol import (
    ALGORITHM,
    BATCH,
    CHAIN,
    CHARTER,
    HIDDEN_CHAIN_LENGTH,
    HIDDEN_OWNER,
    OPENING,
    ORDERS,
    STATE_POSITION,
    UNDO,
    FORFEIT,
    BatchDice,
    contribution,
    draw_address,
    reveal_bytes,
    seal,
    seal_salt,
    sha256_hex,
    state_hash,
)
from adjudicator.engine import Decision, Event, IllegalAnswer, Match, Source, drive
from adjudicator.fairdice import (
    ChainCommitment,
    FairDiceError,
    SeedChain,
    public_key_from_text,
    public_key_to_text,
    records_to_jsonl,
    sign_record,
)
from adjudicator.orders import OrderSet, OrdersError, Receipt, parse_orders
from adjudicator.store import Store

DEFAULT_CHAIN_LENGTH = 64  # batches per seed chain; a longer campaign extends it (a signed 'chain' record)
DEFAULT_DEADLINE_HOURS = 72
CHAIN_SECRET = "referee-chain"
HIDDEN_CHAIN_SECRET = "referee-hidden-chain"


@dataclass(frozen=True)
class Player:
    """A player: the side played, an email address, and how orders are authenticated."""

    side: str
    address: str
    password: str | None = field(default=None, repr=False)
    public_key: str | None = None
    reports: str = "step"  # "step": a report after every step; "turn": one per turn (a digest)


@dataclass(frozen=True)
class StepResult:
    """What one adjudication did."""

    batch: int | None
    events: tuple[Event, ...]
    waiting: Decision | None
    result: str | None
    defaults: tuple[str, ...] = ()
    default_notes: tuple[str, ...] = ()  # what each default did ("russia: passes")
    refused: tuple[str, ...] = ()
    dice: tuple[tuple[str | None, tuple[int, ...]], ...] = ()
    openings: Mapping[str, tuple[dict, ...]] = field(default_factory=dict)  # side -> its sealed items, opened


class _IntakeBegan(Exception):
    """A mail intake began between the wait for it and the adjudication's transaction."""


@dataclass(frozen=True)
class PreparedOrders:
    """Orders read and checked against the campaign after ``entry_count`` entries."""

    entry_count: int
    orders: OrderSet
    side: str
    step: int
    reveal: str | None
    turn: Any
    receipt: Receipt


def utc(now: datetime | None) -> datetime:
    return (now or datetime.now(timezone.utc)).astimezone(timezone.utc)


def _sign(key: Ed25519PrivateKey, log: CampaignLog | None, kind: str, body: Mapping[str, Any]):
    seq = 0 if log is None else len(log.records)
    prev = "0" * 64 if log is None else log.records[-1].hash
    return sign_record(key, seq, kind, dict(body), prev)


def _check_key(key: Ed25519PrivateKey, log: CampaignLog) -> None:
    if public_key_to_text(key.public_key()) != log.charter["referee_key"]:
        raise RefereeKeyMismatch(
            f"the referee key given is not the one in campaign {log.campaign!r}'s charter "
            f"({log.charter['referee_key']}); use the key the campaign was created with"
        )


class Campaigns:
    """The referee's commands over the campaigns of one store."""

    def __init__(self, store: Store, intake_wait: float = 300.0) -> None:
        self.store = store
        self.intake_wait = intake_wait  # seconds adjudicate waits for a running mail intake

    # -- reading ------------------------------------------------------------------

    def log(self, campaign: str) -> CampaignLog:
        return read_log(campaign, self.store.entries(campaign))

    def meta(self, campaign: str) -> dict[str, Any]:
        return self.store.campaign(campaign).meta

    def match(self, campaign: str) -> tuple[CampaignLog, Match]:
        log = self.log(campaign)
        return log, log.replay(support(log.charter["game"]).game())

    def export_public(self, campaign: str) -> str:
        """The public record as JSON Lines: no password, key or unrevealed seed in it."""
        return records_to_jsonl(self.log(campaign).records)

    # -- new --------------------------------------------------------------------------

    def create(
        self,
        campaign: str,
        game_name: str,
        players: Sequence[Player],
        key: Ed25519PrivateKey,
        *,
        options: Mapping[str, Any] | None = None,
        deadline_hours: float = DEFAULT_DEADLINE_HOURS,
        chain_length: int = DEFAULT_CHAIN_LENGTH,
        referee_address: str = "referee@localhost",
        player_chains: Mapping[str, Mapping[str, Any]] | None = None,
        now: datetime | None = None,
    ) -> CampaignLog:
        """Create a campaign with its signed charter and the referee's seed chain.

        With ``player_chains`` (side -> a player's chain commitment) the campaign is
        sealed: every step needs every side's reveal."""
        game_support = support(game_name)
        game = game_support.game()
        options = dict(options or {})
        Match(game, {}, options)  # refuses bad options before anything is written
        _check_players(game.sides, players)
        _check_addresses(referee_address, players)
        chain = SeedChain.generate(campaign, chain_length)
        hidden = (SeedChain.generate(campaign, HIDDEN_CHAIN_LENGTH, owner=HIDDEN_OWNER)
                  if game_support.has_secrets(options) else None)
        sealed = _check_player_chains(campaign, game.sides, player_chains)
        charter = {
            "campaign": campaign,
            "game": game_name,
            "options": options,
            "setup": {},
            "data_hashes": game_support.data_hashes(),
            "players": [{"side": p.side, "auth": "key" if p.public_key else "password",
                         **({"public_key": p.public_key} if p.public_key else {})} for p in players],
            "referee_key": public_key_to_text(key.public_key()),
            "chain": chain.commitment().to_dict(),
            "sealed": bool(sealed),
            "player_chains": sealed,
            "algorithm": ALGORITHM,
            "adjudicator": __version__,
        }
        if hidden is not None:
            charter["hidden_chain"] = hidden.commitment().to_dict()
        opened = utc(now).isoformat()
        with self.store.transaction(campaign) as tx:
            tx.create_campaign(game_name, {
                "players": {p.side: {"address": p.address, **({"reports": p.reports} if p.reports != "step" else {})}
                            for p in players},
                "deadline_hours": deadline_hours,
                "referee_address": referee_address,
            })
            tx.append(CHARTER, {"record": _sign(key, None, CHARTER, charter).to_dict(),
                                "private": {"opened": opened}})
            tx.set_secret(CHAIN_SECRET, [chain.to_secret_dict()])
            if hidden is not None:
                tx.set_secret(HIDDEN_CHAIN_SECRET, hidden.to_secret_dict())
            for player in players:
                if player.password:
                    tx.set_secret(f"password:{player.side}", hash_password(player.password))
        return self.log(campaign)

    # -- orders -----------------------------------------------------------------------

    def submit(self, campaign: str, data: bytes | str, key: Ed25519PrivateKey) -> Receipt:
        """Accept an order set: parse, authenticate, check its step, record it.

        Raises OrdersError (every problem), AuthenticationFailed, StepOver,
        UnknownSide or CampaignOver; nothing is recorded then."""
        with self.store.transaction(campaign) as tx:
            return self.submit_in(tx, data, key)

    def submit_in(self, tx: Any, data: bytes | str, key: Ed25519PrivateKey, *,
                  prepared: "PreparedOrders | None" = None, sender: str | None = None,
                  now: datetime | None = None) -> Receipt:
        """:meth:`submit` inside an open transaction (mail intake records the mail in it too).

        ``prepared`` (from :meth:`prepare`, read outside the transaction) is used when
        nothing was recorded since; else the orders are read again here. ``sender``
        (the mail's address) is kept with the orders for ``history``."""
        campaign = tx.campaign_id
        entries = tx.entries()
        log = read_log(campaign, entries)
        _check_key(key, log)
        if prepared is None or prepared.entry_count != len(entries):
            try:
                prepared = _prepare(log, data)
            except OrdersError as err:
                raise self.with_authentication(tx, err, log) from None
        orders, side = prepared.orders, prepared.side
        upgraded = _authenticate(orders, side, log, tx.get_secret(f"password:{side}"))
        if upgraded is not None:  # an older, weaker password hash: replaced now the password is known
            tx.set_secret(f"password:{side}", upgraded)
        signed_at = _check_signed_time(orders, side, log)
        receipt, entropy = prepared.receipt, orders.header.entropy
        body = {"side": side, "step": prepared.step, "orders_hash": receipt.sha256,
                "entropy_hash": None if entropy is None else sha256_hex(entropy)}
        record = _sign(key, log, ORDERS, body)
        tx.append(ORDERS, {"record": record.to_dict(), "private": {
            "text": receipt.text, "entropy": entropy, "reveal": prepared.reveal, "turn": prepared.turn,
            "received_at": utc(now).isoformat(timespec="seconds"), "sender": sender, "signed_at": signed_at}})
        return receipt

    def with_authentication(self, tx: Any, err: OrdersError, log: CampaignLog | None = None) -> OrdersError:
        """Refused orders, with a note on whether their password is right (so that the
        one reply tells the player everything to correct). Inside the transaction that
        holds the passwords."""
        if any(note.startswith("authentication") or "password" in note for note in err.notes):
            return err
        log = log or read_log(tx.campaign_id, tx.entries())
        return err.noting(_authentication_of(err.partial, log, tx))

    def prepare(self, campaign: str, data: bytes | str) -> "PreparedOrders":
        """Read and check orders against the campaign as it stands, outside any write
        transaction (a long or hostile text never holds the store). Raises what
        :meth:`submit` raises, except authentication, which needs the transaction."""
        entries = self.store.entries(campaign)
        return _prepare(read_log(campaign, entries), data)

    def check(self, campaign: str, data: bytes | str) -> tuple[Receipt, list[str]]:
        """Check orders against the campaign's current position, as adjudication would
        use them (with the sender's standing orders); record nothing. Returns the
        receipt and what would keep the orders from answering the open question."""
        log, match = self.match(campaign)
        game = support(log.charter["game"]).name
        orders = parse_orders(data, game, state=match.state, campaign=campaign)
        side = _side_of(orders, log)
        problems: list[str] = []
        try:
            _step_of(orders, log, getattr(match.state, "turn", None))
        except StepOver as err:
            problems.append(str(err))
        return Receipt.of(orders), problems + _open_question_problems(log, match, orders, side)

    # -- adjudicate -------------------------------------------------------------------

    def adjudicate(self, campaign: str, key: Ed25519PrivateKey, now: datetime | None = None,
                   after: Callable[[Any, CampaignLog, Match, StepResult], None] | None = None) -> StepResult:
        """Run the game as far as the orders on file allow, with the next dice batch.

        Stops at the first question that no order answers; a side that sent no
        orders for this step by its deadline gets the documented defaults.
        ``after(tx, log, match, step)`` runs in the same transaction once the batch
        is recorded (the reports are queued there, durable with the batch).

        While mail for the campaign is being taken in (``receive``), it first waits
        for that to end (at most ``intake_wait`` seconds), so that it never runs with
        a player's older orders while newer ones are being read."""
        give_up = time.monotonic() + self.intake_wait
        while True:
            self._wait_for_intake(campaign, give_up)
            try:
                return self._adjudicate(campaign, key, now, after)
            except _IntakeBegan:
                continue

    def _wait_for_intake(self, campaign: str, give_up: float) -> None:
        while intake_running(self.store.campaign(campaign).meta):
            if time.monotonic() >= give_up:
                raise MailBeingTakenIn(f"mail for campaign {campaign!r} is still being taken in after "
                                       f"{self.intake_wait:.0f} s: adjudicate again when 'receive' has finished")
            time.sleep(0.1)

    def _adjudicate(self, campaign: str, key: Ed25519PrivateKey, now: datetime | None,
                    after: Callable[[Any, CampaignLog, Match, StepResult], None] | None) -> StepResult:
        with self.store.transaction(campaign) as tx:
            if intake_running(tx.campaign().meta):
                raise _IntakeBegan()
            log = read_log(campaign, tx.entries())
            _check_key(key, log)
            game_support = support(log.charter["game"])
            game = game_support.game()
            match = log.replay(game)
            if match.finished or log.forfeit is not None:
                raise CampaignOver(f"campaign {campaign!r} has ended")
            batch = log.next_batch
            deadline = step_deadline(tx.entries(), tx.campaign().meta)
            if log.sealed:
                stalled = [s for s in game.sides if log.orders_for(batch).get(s) is None
                           or log.orders_for(batch)[s].reveal is None]
                if stalled:
                    return _stalled(tx, key, log, batch, stalled, game.sides, utc(now) >= deadline)
            chain, first_batch, extended = _chain_for(batch, key, log, tx)
            if extended:
                log = read_log(campaign, tx.entries())
            step_orders = log.orders_for(batch)
            contributions = {side: contribution(o.entropy, reveal_bytes(o.reveal)) for side, o in step_orders.items()}
            seed = chain.reveal(batch - first_batch + 1)
            dice = BatchDice(campaign, batch, seed, contributions)
            secrets = Secrets.of(campaign, batch, contributions, tx) if "hidden_chain" in log.charter else None
            asked = match.decision.side if match.decision is not None else None
            silent = {asked} if asked and asked not in step_orders and utc(now) >= deadline else set()

            def in_force(turn: Any) -> dict[str, OrderSet]:
                return _orders_in_force(log, batch, turn, game_support.name)

            start_history = len(match.history)
            start_events = len(match.events) if match.history else 0  # the first report tells the set-up
            chance = dice if secrets is None else secrets.chance(dice)
            defaults, refused = _run(match, chance, in_force, silent, game_support.answers)
            default_notes = _default_notes(defaults, game_support.answers)
            entries = match.history_json()[start_history:]
            if not entries:
                return StepResult(None, (), match.decision, match.state.result, refused=tuple(refused))
            clear_entries = entries
            published_hash = state_hash(match.state.to_json())
            if secrets is not None:
                entries = secrets.publish(entries, match.asked[start_history:])
                published_hash = secrets.seal_state(published_hash)
            waiting = match.decision
            body = {
                "batch": batch,
                "seed": seed.hex(),
                "contributions": {side: o.entropy for side, o in sorted(step_orders.items())
                                  if o.entropy is not None},
                "orders": [o.record_seq for o in step_orders.values()],
                "reveals": {side: o.reveal for side, o in sorted(step_orders.items()) if o.reveal is not None},
                "entries": entries,
                "state_hash": published_hash,
                "waiting": None if waiting is None else {"side": waiting.side, "ask": waiting.kind},
                "result": getattr(match.state, "result", None),
                "defaults": sorted({side for side, _ in defaults}),
            }
            private: dict[str, Any] = {"opened": utc(now).isoformat()}
            if secrets is not None:
                private["entries"] = clear_entries
            tx.append(BATCH, {"record": _sign(key, log, BATCH, body).to_dict(), "private": private})
            openings = {} if secrets is None else secrets.openings_by_side(clear_entries, entries)
            if secrets is not None and match.finished:
                _open_secrets(tx, key, read_log(campaign, tx.entries()))
            step = StepResult(batch, tuple(match.events[start_events:]), waiting, body["result"],
                              tuple(body["defaults"]), default_notes, tuple(refused), tuple(dice.rolls), openings)
            if after is not None:
                after(tx, read_log(campaign, tx.entries()), match, step)
        return step

    def deadline(self, campaign: str) -> datetime:
        """When the current step's orders are due."""
        return step_deadline(self.store.entries(campaign), self.meta(campaign))

    # -- undo ---------------------------------------------------------------------------

    def undo(self, campaign: str, key: Ed25519PrivateKey, reason: str, back_to: int | None = None) -> int:
        """Void every batch after ``back_to`` (default: the last batch in force).
        Recorded in the public record; the dice already revealed stay revealed."""
        with self.store.transaction(campaign) as tx:
            log = read_log(campaign, tx.entries())
            _check_key(key, log)
            in_force = [r.body["batch"] for r in log.effective_batches()]
            if not in_force:
                raise NothingToUndo(f"campaign {campaign!r} has no adjudicated step to undo")
            target = in_force[-2] if back_to is None and len(in_force) > 1 else (back_to or 0)
            if target >= in_force[-1]:
                raise NothingToUndo(f"no batch after {target} is in force (the last is {in_force[-1]})")
            body = {"back_to": target, "reason": reason}
            tx.append(UNDO, {"record": _sign(key, log, UNDO, body).to_dict()})
        return target


# -- helpers ------------------------------------------------------------------------------


def step_deadline(entries: Sequence[Any], meta: Mapping[str, Any]) -> datetime:
    """The deadline of the current step: when it opened (the charter or the last
    batch) plus the campaign's deadline hours."""
    opened = max(entry.body["private"]["opened"] for entry in entries if entry.kind in (CHARTER, BATCH))
    return datetime.fromisoformat(opened) + timedelta(hours=float(meta["deadline_hours"]))


def _check_addresses(referee_address: str, players: Sequence[Player]) -> None:
    """Every address that will stand in a mail header, checked where it enters: one
    address each, no line break (no header injection)."""
    from adjudicator.mail import MailError
    from adjudicator.mail.outgoing import parse_address

    for who, address in [("the referee's address (--from)", referee_address),
                         *((f"the {p.side} player's address", p.address) for p in players)]:
        try:
            parse_address(address)
        except MailError as err:
            raise BadAddress(f"{who} {address!r} cannot be used in mail: {err}; give one plain "
                             "address such as referee@example.org") from None


def _check_players(sides: Sequence[str], players: Sequence[Player]) -> None:
    given = [p.side for p in players]
    if sorted(given) != sorted(sides):
        raise UnknownSide(f"a campaign of this game needs one player for each of {', '.join(sides)}; "
                          f"got {', '.join(given) or 'none'}")
    for player in players:
        if not player.password and not player.public_key:
            raise AuthenticationFailed(f"the {player.side} player needs a password or a public key")
        if player.public_key:
            public_key_from_text(player.public_key)


def _side_of(orders: OrderSet, log: CampaignLog) -> str:
    sides = [p["side"] for p in log.charter["players"]]
    side = (orders.header.side or "").casefold()
    if side not in sides:
        raise UnknownSide(f"the orders name side {orders.header.side!r}; this campaign's sides are "
                          f"{', '.join(sides)}: write 'side: {sides[0]}' (or your side) in the header")
    return side


def _authenticate(orders: OrderSet, side: str, log: CampaignLog, password_hash: Any) -> dict[str, Any] | None:
    """A password, or a signature over the canonical orders; never the From header.
    Returns the upgraded password hash to store, when the stored one is weaker than today's."""
    player = next(p for p in log.charter["players"] if p["side"] == side)
    credentials = orders.credentials
    if player["auth"] == "key":
        if not credentials.signature:
            raise AuthenticationFailed(f"orders for {side} must be signed with the player's key "
                                       "('adjudicator sign ORDERS --key YOUR-KEY')")
        if signed_time(orders) is None:
            raise AuthenticationFailed(f"the signature on {side}'s orders carries no signing time: sign them "
                                       "again with this version ('adjudicator sign ORDERS --key YOUR-KEY')")
        if not signature_matches(orders, player["public_key"]):
            raise AuthenticationFailed(f"the signature on {side}'s orders does not verify: sign the orders "
                                       "again after the last change")
        return None
    if not credentials.password:
        raise AuthenticationFailed(f"orders for {side} need the side's password (a line 'password: ...')")
    checked = check_password(credentials.password, password_hash) if password_hash is not None else None
    if checked is None or not checked.matches:
        raise AuthenticationFailed(f"wrong password for {side}: the orders were not accepted")
    return checked.upgraded


def _authentication_of(orders: OrderSet | None, log: CampaignLog, tx: Any) -> str:
    """What refused orders say of their sender: whether their password is right (told
    even when the orders have errors, so that one reply tells everything)."""
    try:
        side = _side_of(orders, log) if orders is not None else None
    except UnknownSide:
        side = None
    if side is None:
        return "the password could not be checked: no side of this campaign was read from the orders"
    player = next(p for p in log.charter["players"] if p["side"] == side)
    if player["auth"] == "key":
        return "the signature is checked once the orders read without errors"
    try:
        _authenticate(orders, side, log, tx.get_secret(f"password:{side}"))
    except AuthenticationFailed as err:
        return f"authentication: {err}"
    return f"authentication: the password for {side} is right; only the problems above kept the orders out"


def _open_question_problems(log: CampaignLog, match: Match, orders: OrderSet, side: str) -> list[str]:
    """Why ``orders`` (over the side's standing orders) would not answer the question
    now open for ``side``; empty when they would, or when the question is another's."""
    decision = match.decision
    if decision is None or decision.side != side:
        return []
    game_support = support(log.charter["game"])
    in_force = _orders_in_force(log, log.next_batch, getattr(match.state, "turn", None), game_support.name).get(side)
    if in_force is not None:
        kept = tuple(b for b in in_force.blocks if b.kind not in orders.kinds)
        orders = replace(orders, blocks=(*orders.blocks, *kept))
    answer = game_support.answers.answer_for(decision, match.state, orders)
    if answer is None:
        return [f"these orders do not answer the question now open for {side} ({decision.kind}): "
                f"{decision.prompt} (an order that cannot be carried out as written is not used)"]
    try:
        decision.accept(answer)
    except IllegalAnswer as err:
        return [f"the answer these orders give to {decision.kind!r} is not legal: {err}"]
    return []


def _check_player_chains(campaign: str, sides: Sequence[str],
                         chains: Mapping[str, Mapping[str, Any]] | None) -> dict[str, dict] | None:
    """Sealed mode: every side's chain commitment, made for this campaign and side."""
    if not chains:
        return None
    if sorted(chains) != sorted(sides):
        raise UnknownSide(f"a sealed campaign needs a chain commitment from each of {', '.join(sides)}; "
                          f"got {', '.join(chains) or 'none'}")
    checked = {}
    for side, data in chains.items():
        try:
            commitment = ChainCommitment.from_dict(data)
        except FairDiceError as err:
            raise BadReveal(f"{side}'s chain commitment is unusable: {err}") from err
        if commitment.campaign_id != campaign or commitment.owner != side:
            raise BadReveal(f"{side}'s chain commitment was made for campaign {commitment.campaign_id!r}, "
                            f"side {commitment.owner!r}: make one with 'adjudicator sealed new-chain {campaign} {side}'")
        checked[side] = commitment.to_dict()
    return checked


def _check_reveal(orders: OrderSet, side: str, step: int, log: CampaignLog) -> str | None:
    """Sealed mode: the reveal line must be the side's chain value for this step."""
    reveal = orders.header.reveal
    if not log.sealed:
        if reveal is not None:
            raise BadReveal("this campaign is not sealed: remove the 'reveal:' line")
        return None
    if reveal is None:
        return None
    commitment = ChainCommitment.from_dict(log.charter["player_chains"][side])
    try:
        value = bytes.fromhex(reveal)
    except ValueError:
        raise BadReveal(f"the reveal {reveal!r} is not hex: copy it from 'adjudicator sealed reveal'") from None
    if not commitment.verify_reveal(step, value):
        raise BadReveal(f"the reveal for step {step} does not match {side}'s committed chain: "
                        f"use 'adjudicator sealed reveal YOUR-CHAIN-FILE {step}'")
    return reveal


def _stalled(tx: Any, key: Ed25519PrivateKey, log: CampaignLog, step: int, stalled: list[str],
             sides: Sequence[str], deadline_passed: bool) -> "StepResult":
    """Sealed mode: a step cannot run without every side's reveal. Before the deadline
    that is a wait; after it, the stalling side forfeits (both stalling: a draw)."""
    if not deadline_passed:
        raise SealedRevealMissing(f"step {step} waits for the sealed reveal of {', '.join(stalled)}")
    winners = [s for s in sides if s not in stalled]
    result = winners[0] if len(winners) == 1 else "draw"
    body = {"step": step, "forfeited": stalled, "result": result}
    tx.append(FORFEIT, {"record": _sign(key, log, FORFEIT, body).to_dict()})
    if "hidden_chain" in log.charter:
        _open_secrets(tx, key, read_log(log.campaign, tx.entries()))
    return StepResult(None, (), None, result)


def _prepare(log: CampaignLog, data: bytes | str) -> PreparedOrders:
    """Parse ``data`` against the campaign's position and check side, step and reveal."""
    game = support(log.charter["game"]).game()
    match = log.replay(game)
    if match.finished or log.forfeit is not None:
        raise CampaignOver(f"campaign {log.campaign!r} has ended; no more orders")
    orders = parse_orders(data, log.charter["game"], state=match.state, campaign=log.campaign)
    side = _side_of(orders, log)
    turn = getattr(match.state, "turn", None)
    step = _step_of(orders, log, turn)
    reveal = _check_reveal(orders, side, step, log)
    receipt = Receipt.of(orders, tuple(_open_question_problems(log, match, orders, side)))
    return PreparedOrders(len(log.records), orders, side, step, reveal, turn, receipt)


def _check_signed_time(orders: OrderSet, side: str, log: CampaignLog) -> str | None:
    """Signed orders carry the time they were signed; one not newer than the side's
    latest signed orders on file is a replay and is refused."""
    signed_at = signed_time(orders)
    if signed_at is None:
        return None
    latest = max((o.signed_at for o in log.orders if o.side == side and o.signed_at), default=None)
    if latest is not None and datetime.fromisoformat(signed_at) <= datetime.fromisoformat(latest):
        raise AuthenticationFailed(
            f"these signed orders for {side} were signed at {signed_at}, not after the orders of {side} "
            f"already on file (signed at {latest}): an old signed text cannot be sent again. "
            "Sign the orders anew ('adjudicator sign ORDERS --key YOUR-KEY') and send them.")
    return signed_at


def _step_of(orders: OrderSet, log: CampaignLog, turn: Any = None) -> int:
    current = log.next_batch
    given = orders.header.step
    if given is None:
        _check_turn(orders, turn, current)
        return current
    try:
        step = int(given)
    except ValueError:
        raise StepOver(f"the step {given!r} is not a number; the current step is {current}") from None
    if step < current:
        raise StepOver(f"step {step} is over; the current step is {current}: "
                       f"send orders for step {current}")
    if step > current:
        raise StepOver(f"step {step} has not begun; the current step is {current}")
    _check_turn(orders, turn, current)
    return step


def _check_turn(orders: OrderSet, turn: Any, current: int) -> None:
    """A ``turn:`` line must name the game turn of the step the orders are for:
    orders written for another turn are stale (or early) and are refused."""
    given = orders.header.turn
    if given is None or turn is None or given == turn:
        return
    raise StepOver(f"these orders are for turn {given}, but the game is at turn {turn} (step {current}): "
                   f"they are stale and were not used; send orders with 'turn: {turn}' and 'step: {current}'")


@lru_cache(maxsize=4096)
def _stored_orders(text: str, game: str) -> OrderSet:
    """Orders accepted earlier, read back from their canonical text (cached: a
    campaign reads the same texts at every step)."""
    return parse_orders(text, game)


def _orders_in_force(log: CampaignLog, step: int, turn: Any, game: str) -> dict[str, OrderSet]:
    """Each side's orders in force for ``step``, at game turn ``turn``.

    A newer order set for the same step replaces the older one. Over the steps,
    standing orders (policies) stay in force until replaced; one-off orders
    (sortie, operations plan) stay in force for the game turn they were sent in."""
    in_force: dict[str, tuple[OrderSet, Any]] = {}
    for accepted in log.orders_up_to(step):
        orders = _stored_orders(accepted.text, game)
        if accepted.side in in_force:
            old, old_turn = in_force[accepted.side]
            kept = [b for b in old.blocks
                    if b.kind not in orders.kinds and (b.standing or old_turn == accepted.turn)]
            orders = replace(orders, blocks=(*orders.blocks, *kept))
        in_force[accepted.side] = (orders, accepted.turn)
    return {side: orders if sent_turn == turn else orders.standing()
            for side, (orders, sent_turn) in in_force.items()}


def _run(match: Match, chance: Callable[[Any], Sequence[int]], in_force: Callable[[Any], Mapping[str, OrderSet]],
         silent: set[str], answers: Any) -> tuple[list[tuple[str, str]], list[str]]:
    """Drive the match: dice from the batch, answers from the orders in force for the
    current game turn (defaults for silent sides); stop at a question nobody has
    answered."""
    defaults: list[tuple[str, str]] = []
    refused: list[str] = []
    standing: dict[str, Any] = {"turn": object(), "orders": {}}

    def answer(decision: Decision, state: Any) -> Mapping[str, Any] | None:
        turn = getattr(state, "turn", None)
        if turn != standing["turn"]:
            standing["turn"], standing["orders"] = turn, in_force(turn)
        orders = standing["orders"].get(decision.side)
        given = answers.answer_for(decision, state, orders)
        if given is None and decision.side in silent:
            given = answers.default_answer(decision, state)
            defaults.append((decision.side, decision.kind))
        if given is None and orders is not None and orders.block(decision.kind) is not None:
            refused.append(f"{decision.side}: the {decision.kind} orders on file leave this question open "
                           "(an 'ask', or an order that cannot be carried out as written): it is asked again")
        return given

    def rejected(decision: Decision, given: Mapping[str, Any], err: IllegalAnswer) -> bool:
        refused.append(f"{decision.side}'s orders for {decision.kind!r} could not be used: {err}")
        return False

    drive(match, Source(chance=chance, answer=answer, rejected=rejected))
    return defaults, refused


@dataclass
class Secrets:
    """A batch's hidden information: the hidden stream (keyed by the hidden chain's
    value for the batch) and the sealing of hidden entries and of the state hash."""

    campaign: str
    batch: int
    hidden_seed: bytes
    stream: BatchDice

    @classmethod
    def of(cls, campaign: str, batch: int, contributions: Mapping[str, bytes], tx: Any) -> "Secrets":
        seed = _hidden_seed(tx, batch)
        return cls(campaign, batch, seed, BatchDice(campaign, batch, seed, contributions))

    def chance(self, public: BatchDice) -> Callable[[Any], Sequence[int]]:
        """Hidden requests from the hidden stream, the others from the public one."""
        return lambda request: (self.stream if request.hidden else public)(request)

    def salt(self, position: int) -> bytes:
        return seal_salt(self.campaign, self.batch, position, self.hidden_seed)

    def publish(self, entries: Sequence[dict], requests: Sequence[Any]) -> list[dict]:
        """The entries as published: hidden ones sealed, public draws with their address."""
        published = []
        for position, (entry, request) in enumerate(zip(entries, requests), start=1):
            if request.hidden:
                what = "answer" if isinstance(request, Decision) else next(k for k in entry)
                published.append({"sealed": seal(self.campaign, self.batch, position, self.salt(position), entry),
                                  "side": request.side, "what": what})
            elif isinstance(request, Decision):
                published.append(entry)
            else:
                published.append({**entry, "at": draw_address(request)})
        return published

    def seal_state(self, digest: str) -> str:
        return seal(self.campaign, self.batch, STATE_POSITION, self.salt(STATE_POSITION), digest)

    def openings_by_side(self, clear: Sequence[dict], published: Sequence[dict]) -> dict[str, tuple[dict, ...]]:
        """For each side, its own sealed entries of this batch, opened: what its report carries."""
        found: dict[str, list[dict]] = {}
        for position, (entry, shown) in enumerate(zip(clear, published), start=1):
            if "sealed" in shown and shown.get("side"):
                found.setdefault(shown["side"], []).append({
                    "batch": self.batch, "entry": position, "open": entry,
                    "salt": self.salt(position).hex(), "sealed": shown["sealed"]})
        return {side: tuple(items) for side, items in found.items()}


def _hidden_seed(tx: Any, batch: int) -> bytes:
    chain = SeedChain.from_secret_dict(tx.get_secret(HIDDEN_CHAIN_SECRET))
    if batch > chain.length:
        raise CampaignOver(f"the hidden seed chain serves {chain.length} batches; this campaign cannot go on")
    return chain.reveal(batch)


def _open_secrets(tx: Any, key: Ed25519PrivateKey, log: CampaignLog) -> None:
    """The game has ended: publish the hidden seeds and every sealed entry in clear."""
    chain = SeedChain.from_secret_dict(tx.get_secret(HIDDEN_CHAIN_SECRET))
    numbers = [record.body["batch"] for record in log.batches]
    openings = []
    for record in log.batches:
        number = record.body["batch"]
        clear = log.clear_entries.get(number, [])
        for position, (shown, entry) in enumerate(zip(record.body["entries"], clear), start=1):
            if "sealed" in shown:
                openings.append({"batch": number, "entry": position, "open": entry})
    body = {"hidden_seeds": {str(n): chain.reveal(n).hex() for n in numbers}, "openings": openings}
    tx.append(OPENING, {"record": _sign(key, log, OPENING, body).to_dict()})


def _default_notes(defaults: Sequence[tuple[str, str]], orders_support: Any) -> tuple[str, ...]:
    """What each default did, in words ("russia: passes"), once per side and kind."""
    texts = getattr(orders_support, "DEFAULT_TEXT", {})
    notes = []
    for side, kind in dict.fromkeys(defaults):
        notes.append(f"{side.capitalize()}: {texts.get(kind, 'the documented default for ' + kind)}")
    return tuple(notes)


def _chain_for(batch: int, key: Ed25519PrivateKey, log: CampaignLog, tx: Any) -> tuple[SeedChain, int, bool]:
    """The referee's seed chain that covers ``batch``, the batch its first value
    serves, and whether it is new. A chain that has run out is followed by a new one,
    whose commitment is published in a signed ``chain`` record linked to the old records."""
    chains = [SeedChain.from_secret_dict(d) for d in tx.get_secret(CHAIN_SECRET)]
    first = 1
    for chain in chains:
        if batch < first + chain.length:
            return chain, first, False
        first += chain.length
    successor = chains[-1].successor(chains[-1].length)
    tx.set_secret(CHAIN_SECRET, [c.to_secret_dict() for c in [*chains, successor]])
    body = {"chain": successor.commitment().to_dict(), "first_batch": first}
    tx.append(CHAIN, {"record": _sign(key, log, CHAIN, body).to_dict()})
    return successor, first, True
