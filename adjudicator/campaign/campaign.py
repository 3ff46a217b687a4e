"""A campaign: create it, take orders, adjudicate, undo, export its public record.

The referee's commands live here; running the rules from orders is in
:mod:`~adjudicator.campaign.running`, sealed mode in :mod:`~adjudicator.campaign.sealed`,
the players' authentication in :mod:`~adjudicator.campaign.auth`, the referee's
signature in :mod:`~adjudicator.campaign.referee`, hidden information in
:mod:`~adjudicator.campaign.secrets`.

Every command is one store transaction, so a campaign is always either before or
after a command. Every public record is signed with the referee's key and linked to
the one before (see :mod:`adjudicator.campaign.protocol`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Callable, Mapping, Sequence

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator import __version__
from adjudicator.campaign.absence import BUDGET as ABSENCE_BUDGET
from adjudicator.campaign.press import SETTINGS as PRESS_SETTINGS
from adjudicator.campaign.auth import (
    authenticate,
    authentication_of,
    check_addresses,
    check_players,
    check_signed_time,
    side_of,
)
from adjudicator.campaign.decided import refuse_if_decided
from adjudicator.campaign.errors import (
    CampaignOver,
    ContributionsDue,
    FreshOrdersNeeded,
    MailBeingTakenIn,
    NothingToUndo,
    StepOver,
    UnknownSide,
    WeakPasswordHash,
)
from adjudicator.campaign.games import support
from adjudicator.campaign.intake_marker import intake_running
from adjudicator.campaign.log import AcceptedOrders, CampaignLog, read_log
from adjudicator.campaign.parsed import PARSED_ORDERS, cache_key, load, remember_accepted, stored_value
from adjudicator.campaign.passwords import hash_password, needs_upgrade
from adjudicator.campaign.protocol import (
    ALGORITHM,
    BATCH,
    CHAIN,
    CHARTER,
    DRAW_KINDS,
    HIDDEN_CHAIN_LENGTH,
    HIDDEN_OWNER,
    ORDERS,
    UNDO,
    BatchDice,
    addressed,
    contribution,
    reveal_bytes,
    sha256_hex,
    state_hash,
    waiting_of,
)
from adjudicator.campaign.referee import check_referee_key, sign_next
from adjudicator.campaign.running import (
    as_sent,
    check_not_sent_again,
    used_already,
    NotCarriedOut,
    describe_defaults,
    open_question_problems,
    orders_in_force,
    run_from_orders,
    sets_in_force,
    step_of,
)
from adjudicator.campaign.sealed import check_player_chains, check_reveal, stall
from adjudicator.campaign.secrets import HIDDEN_CHAIN_SECRET, Secrets, open_secrets
from adjudicator.campaign.snapshots import earliest_unreported_event, keep, replay
from adjudicator.campaign.summary import keep_summary, step_deadline
from adjudicator.campaign.verified_passwords import VerifiedPasswords
from adjudicator.engine import Decision, Event, Match
from adjudicator.fairdice import SeedChain, public_key_to_text, records_to_jsonl
from adjudicator.i18n import DEFAULT_LANGUAGE, language_of, said, words
from adjudicator.mail import build_message, message_bytes
from adjudicator.mail.plain import fit_text
from adjudicator.orders import OrderSet, OrdersError, Receipt, parse_orders_noted
from adjudicator.store import Store

DEFAULT_CHAIN_LENGTH = 64  # batches per seed chain; a longer campaign extends it (a signed 'chain' record)
DEFAULT_DEADLINE_HOURS = 72
CHAIN_SECRET = "referee-chain"


@dataclass(frozen=True)
class Player:
    """A player: the side played, an email address, and how orders are authenticated."""

    side: str
    address: str
    password: str | None = field(default=None, repr=False)
    public_key: str | None = None
    reports: str = "step"  # "step": a report after every step; "turn": one per turn (a digest)
    password_hash: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)  # see hashed()
    language: str = DEFAULT_LANGUAGE  # the language of the player's mail (adjudicator.i18n.LANGUAGES)

    def hashed(self) -> "Player":
        """This player with the password hashed once (Argon2id, as ``create`` stores it):
        a referee creating many campaigns for the same player pays the deliberately slow
        hash once, not once per campaign; ``create`` stores this hash. The same salted
        hash in each campaign guards the password exactly as well: cracking any one copy
        is the same work, and each copy is upgraded on its own at the player's next
        accepted orders."""
        if self.password_hash is not None or not self.password:
            return self
        return replace(self, password_hash=hash_password(self.password))

    def stored_password(self) -> dict[str, Any] | None:
        """What the campaign keeps for this player's password: the hash made by
        :meth:`hashed`, else a fresh one; None for a player who signs with a key."""
        if self.password_hash is None:
            return hash_password(self.password) if self.password else None
        if needs_upgrade(self.password_hash) or not {"salt", "hash"} <= set(self.password_hash):
            raise WeakPasswordHash(f"the {self.side} player's password hash is not an Argon2id hash at "
                                   "today's strength: give the password, or a hash made by Player.hashed()")
        return dict(self.password_hash)


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
    not_carried_out: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # side -> "line 8: why" notes


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
    sent: str  # the text as sent, secrets masked (as_sent)
    log: CampaignLog | None = field(default=None, compare=False, repr=False)  # the history it was checked against


def utc(now: datetime | None) -> datetime:
    return (now or datetime.now(timezone.utc)).astimezone(timezone.utc)


class Campaigns:
    """The referee's commands over the campaigns of one store."""

    def __init__(self, store: Store, intake_wait: float = 300.0,
                 verified_passwords: VerifiedPasswords | None = None) -> None:
        self.store = store
        self.intake_wait = intake_wait  # seconds adjudicate waits for a running mail intake
        self.verified_passwords = verified_passwords  # a resident service's memory (serve only)

    # -- reading ------------------------------------------------------------------

    def log(self, campaign: str) -> CampaignLog:
        return read_log(campaign, self.store.entries(campaign))

    def meta(self, campaign: str) -> dict[str, Any]:
        return self.store.campaign(campaign).meta

    def match(self, campaign: str) -> tuple[CampaignLog, Match]:
        """The campaign's history and its game where it stands (run from the latest
        snapshot when it is valid: docs/snapshots.md)."""
        log = self.log(campaign)
        return log, replay_game(log, lambda name: self.store.derived(campaign, name))

    def orders_on_file(self, campaign: str) -> dict[str, AcceptedOrders | None]:
        """Each side's latest orders sent for the open step (None: none yet)."""
        log = self.log(campaign)
        on_file = log.orders_for(log.next_batch)
        return {side: on_file.get(side) for side in self.meta(campaign)["players"]}

    def orders_in_force_for(self, campaign: str, side: str) -> OrderSet | None:
        """The orders in force for ``side`` at the open step (this step's over its
        standing orders), as adjudication would use them; None when it has none."""
        log, match = self.match(campaign)
        if side not in self.meta(campaign)["players"]:
            raise UnknownSide(f"campaign {campaign!r} has no side {side!r}: its sides are "
                              f"{', '.join(self.meta(campaign)['players'])}")
        game = support(log.charter["game"]).name
        return orders_in_force(log, log.next_batch, getattr(match.state, "turn", None), game).get(side)

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
        after: Callable[[Any, CampaignLog, Match], None] | None = None,
        absence_budget: Mapping[str, int] | None = None,
        press: Mapping[str, Any] | None = None,
    ) -> CampaignLog:
        """Create a campaign with its signed charter and the referee's seed chain.

        With ``player_chains`` (side -> a player's chain commitment) the campaign is
        sealed: every step needs every side's reveal. ``after(tx, log, match)`` runs in
        the same transaction (the opening mails are queued there).

        Nothing random is drawn before every side has spoken (docs/dice.md §8.1): a game
        that asks a question before any draw has it in the opening mails, with its
        template and deadline; a game whose set-up draws (a shuffled deck, cards dealt, a
        die) opens by asking every side for a one-line confirmation with its entropy, and
        its set-up is drawn as step 1 once every side has sent one."""
        game_support = support(game_name)
        game = game_support.game()
        options = dict(options or {})
        opening = Match(game, {}, options)  # refuses bad options before anything is written
        check_players(game.sides, players)
        check_addresses(referee_address, players)
        chain = SeedChain.generate(campaign, chain_length)
        hidden = (SeedChain.generate(campaign, HIDDEN_CHAIN_LENGTH, owner=HIDDEN_OWNER)
                  if game_support.has_secrets(options) else None)
        sealed = check_player_chains(campaign, game.sides, player_chains)
        passwords = [player.stored_password() for player in players]  # hashed before the transaction
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
                "players": {p.side: {"address": p.address, **({"reports": p.reports} if p.reports != "step" else {}),
                                     **({"language": p.language} if p.language != DEFAULT_LANGUAGE else {})}
                            for p in players},
                "deadline_hours": deadline_hours,
                "referee_address": referee_address,
                **({ABSENCE_BUDGET: dict(absence_budget)} if absence_budget else {}),
                **({PRESS_SETTINGS: dict(press)} if press else {}),
            })
            tx.append(CHARTER, {"record": sign_next(key, None, CHARTER, charter).to_dict(),
                                "private": {"opened": opened}})
            tx.set_secret(CHAIN_SECRET, [chain.to_secret_dict()])
            if hidden is not None:
                tx.set_secret(HIDDEN_CHAIN_SECRET, hidden.to_secret_dict())
            for player, stored in zip(players, passwords):
                if stored is not None:
                    tx.set_secret(f"password:{player.side}", stored)
            if after is not None:
                log = read_log(campaign, tx.entries())
                after(tx, log, log.replay(game))
            keep_summary(tx, game_name, opening)
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
        refuse_if_decided(tx.campaign().meta, campaign)
        entries = tx.entries()
        unchanged = prepared is not None and prepared.entry_count == len(entries) and prepared.log is not None
        log = prepared.log if unchanged else read_log(campaign, entries)  # (append-only: same count, same history)
        check_referee_key(key, log)
        read_here = prepared is None
        if prepared is None or prepared.entry_count != len(entries):
            try:
                prepared = _prepare(log, data, tx.get_secret)
            except OrdersError as err:
                raise self.with_authentication(tx, err, log) from None
        orders, side = prepared.orders, prepared.side
        upgraded = authenticate(orders, side, log, tx.get_secret(f"password:{side}"), self.verified_passwords)
        if upgraded is not None:  # an older, weaker password hash: replaced now the password is known
            tx.set_secret(f"password:{side}", upgraded)
        signed_at = check_signed_time(orders, side, log)
        receipt, entropy = prepared.receipt, orders.header.entropy
        body = {"side": side, "step": prepared.step, "orders_hash": receipt.sha256,
                "entropy_hash": None if entropy is None else sha256_hex(entropy)}
        if prepared.reveal is not None:  # sealed mode: whom a forfeit may blame is public
            body["reveal_hash"] = sha256_hex(prepared.reveal)
        record = sign_next(key, log, ORDERS, body)
        tx.append(ORDERS, {"record": record.to_dict(), "private": {
            "text": receipt.text, "entropy": entropy, "reveal": prepared.reveal, "turn": prepared.turn,
            "received_at": utc(now).isoformat(timespec="seconds"), "sender": sender, "signed_at": signed_at,
            "blocks": [[block.kind, bool(block.standing)] for block in orders.blocks], "sent": prepared.sent}})
        if read_here:  # (mail intake keeps the orders it read itself, in this transaction)
            remember_accepted(tx, orders, receipt.text, cache_key(support(log.charter["game"]).data_hashes()))
        return receipt

    def with_authentication(self, tx: Any, err: OrdersError, log: CampaignLog | None = None) -> OrdersError:
        """Refused orders, with a note on whether their password is right (so that the
        one reply tells the player everything to correct). Inside the transaction that
        holds the passwords."""
        if any(note.startswith("authentication") or "password" in note for note in err.notes):
            return err
        log = log or read_log(tx.campaign_id, tx.entries())
        return err.noting(authentication_of(err.partial, log, tx, self.verified_passwords))

    def prepare(self, campaign: str, data: bytes | str) -> "PreparedOrders":
        """Read and check orders against the campaign as it stands, outside any write
        transaction (a long or hostile text never holds the store). Raises what
        :meth:`submit` raises, except authentication, which needs the transaction."""
        entries = self.store.entries(campaign)
        log = read_log(campaign, entries)
        return _prepare(with_parsed(log, self.store.derived(campaign, PARSED_ORDERS)), data,
                        lambda name: self.store.derived(campaign, name))

    def check(self, campaign: str, data: bytes | str) -> tuple[Receipt, list[str]]:
        """Check orders against the campaign's current position, as adjudication would
        use them (with the sender's standing orders); record nothing. Returns the
        receipt and what would keep the orders from answering the open question."""
        log, match = self.match(campaign)
        game = support(log.charter["game"]).name
        orders, readings = parse_orders_noted(data, game, state=match.state, campaign=campaign)
        side = side_of(orders, log)
        problems: list[str] = []
        try:
            step_of(orders, log, getattr(match.state, "turn", None))
        except StepOver as err:
            problems.append(str(err))
        return Receipt.of(orders, readings), problems + open_question_problems(log, match, orders, side, as_sent(data))

    # -- adjudicate -------------------------------------------------------------------

    def adjudicate(self, campaign: str, key: Ed25519PrivateKey, now: datetime | None = None,
                   after: Callable[[Any, CampaignLog, Match, StepResult], None] | None = None,
                   reuse_orders: bool = False) -> StepResult:
        """Run the game as far as the orders on file allow, with the next dice batch.

        Stops at the first question that no order answers; a side that sent no
        orders for this step by its deadline gets the documented defaults.
        ``after(tx, log, match, step)`` runs in the same transaction once the batch
        is recorded (the reports are queued there, durable with the batch).

        While mail for the campaign is being taken in (``receive``), it first waits
        for that to end (at most ``intake_wait`` seconds), so that it never runs with
        a player's older orders while newer ones are being read.

        A step voided by an undo is adjudicated again only once every side has sent
        fresh orders or a confirmation for it (else FreshOrdersNeeded), and without the
        orders sent for the voided steps, unless ``reuse_orders`` (the referee says so):
        then those orders answer what the fresh ones leave open, and the batch names them."""
        give_up = time.monotonic() + self.intake_wait
        while True:
            self._wait_for_intake(campaign, give_up)
            try:
                return self._adjudicate(campaign, key, now, after, reuse_orders)
            except _IntakeBegan:
                continue

    def _wait_for_intake(self, campaign: str, give_up: float) -> None:
        while intake_running(self.store.campaign(campaign).meta):
            if time.monotonic() >= give_up:
                raise MailBeingTakenIn(f"mail for campaign {campaign!r} is still being taken in after "
                                       f"{self.intake_wait:.0f} s: adjudicate again when 'receive' has finished")
            time.sleep(0.1)

    def _adjudicate(self, campaign: str, key: Ed25519PrivateKey, now: datetime | None,
                    after: Callable[[Any, CampaignLog, Match, StepResult], None] | None,
                    reuse_orders: bool = False) -> StepResult:
        with self.store.transaction(campaign) as tx:
            if intake_running(tx.campaign().meta):
                raise _IntakeBegan()
            refuse_if_decided(tx.campaign().meta, campaign)
            return self._adjudicate_in(tx, campaign, key, now, after, reuse_orders)

    def _adjudicate_in(self, tx: Any, campaign: str, key: Ed25519PrivateKey, now: datetime | None,
                       after: Callable[[Any, CampaignLog, Match, StepResult], None] | None,
                       reuse_orders: bool = False) -> StepResult:
        """One adjudication inside the open transaction ``tx`` (see :meth:`adjudicate`)."""
        log = with_parsed(read_log(campaign, tx.entries()), tx.get_secret(PARSED_ORDERS))
        check_referee_key(key, log)
        game_support = support(log.charter["game"])
        game = game_support.game()
        match = replay_game(log, tx.get_secret)
        if match.finished or log.forfeit is not None:
            raise CampaignOver(f"campaign {campaign!r} has ended")
        redo = _redoes_a_voided_step(log)
        batch = log.next_batch
        deadline = step_deadline(tx.entries(), tx.campaign().meta)
        late = utc(now) >= deadline
        missing = [side for side in game.sides if side not in log.orders_for(batch)]
        # Batch 1 and a redo need every side; past the deadline of an open campaign, the
        # sides that spoke are enough if at least one did, and the silent are named.
        open_late = late and not log.sealed
        passed_over = missing if open_late and len(missing) < len(game.sides) else []
        waiting_for = [side for side in missing if side not in passed_over]
        if redo:
            _check_fresh_orders(log, waiting_for, open_late)
        if log.sealed:
            stalled = [s for s in game.sides if log.orders_for(batch).get(s) is None
                       or log.orders_for(batch)[s].reveal is None]
            if stalled:
                result = stall(tx, key, log, batch, stalled, game.sides, utc(now) >= deadline)
                return StepResult(None, (), None, result)
        chain, first_batch, extended = _chain_for(batch, key, log, tx)
        if extended:
            log = with_parsed(read_log(campaign, tx.entries()), tx.get_secret(PARSED_ORDERS))
        step_orders = log.orders_for(batch)
        contributions = {side: contribution(o.entropy, reveal_bytes(o.reveal)) for side, o in step_orders.items()}
        seed = chain.reveal(batch - first_batch + 1)
        dice = BatchDice(campaign, batch, seed, contributions)
        secrets = Secrets.of(campaign, batch, contributions, tx) if "hidden_chain" in log.charter else None
        asked = {decision.side for decision in match.decisions}
        silent = {side for side in asked if side not in step_orders} if late else set()

        reused = _reused_orders(log) if redo and reuse_orders else []
        skip = log.voided_orders() - set(reused)  # a voided step's orders only when the referee says so

        def in_force(turn: Any) -> dict[str, OrderSet]:
            return orders_in_force(log, batch, turn, game_support.name, skip)

        start_history = match.entry_count
        start_events = len(match.events) if start_history else 0  # the first report tells the set-up
        chance = dice if secrets is None else secrets.chance(dice)
        if batch == 1:
            chance = _once_every_side_has_spoken(chance, waiting_for, batch, open_late)
        undone = NotCarriedOut(game_support.answers,
                               lambda turn: sets_in_force(log, batch, turn, game_support.name, skip), batch)
        defaults, refused = run_from_orders(match, chance, in_force, silent, game_support.answers, undone)
        keep_parsed(tx, log)
        entries = addressed(match.history_json(start_history), match.asked[start_history:], batch,
                            secrets is not None)
        if not entries:
            return StepResult(None, (), match.decision, match.state.result, refused=tuple(refused))
        unheard = passed_over if redo or (batch == 1 and _draws(entries)) else []
        default_notes = describe_defaults(defaults, game_support.answers) + tuple(
            said("%(side)s: no orders or confirmation for step %(step)s by the deadline, so the step's draws were "
                 "keyed by the entropy of %(sides)s only", side=said(side.capitalize()), step=batch,
                 sides=", ".join(s for s in game.sides if s in step_orders))
            for side in unheard)
        clear_entries = entries
        published_hash = clear_hash = state_hash(match.state.to_json())
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
            "waiting": waiting_of(match),
            "result": getattr(match.state, "result", None),
            "defaults": sorted({side for side, _ in defaults} | set(unheard)),
        }
        if reused:  # the orders on file the redo was told to use, named
            body["reused_orders"] = reused
        private: dict[str, Any] = {"opened": utc(now).isoformat()}
        if secrets is not None:
            private["entries"] = clear_entries
            private["state_hash"] = clear_hash  # what the sealed one commits to (checks snapshots)
        tx.append(BATCH, {"record": sign_next(key, log, BATCH, body).to_dict(), "private": private})
        openings = {} if secrets is None else secrets.openings_by_side(clear_entries, entries)
        if secrets is not None and match.finished:
            open_secrets(tx, key, read_log(campaign, tx.entries()))
        step = StepResult(batch, tuple(match.events[start_events:]), waiting, body["result"],
                          tuple(body["defaults"]), default_notes, tuple(refused), tuple(dice.rolls), openings,
                          undone.by_side())
        if after is not None:
            after(tx, read_log(campaign, tx.entries()), match, step)
        keep_snapshot(tx, log, match, batch)
        keep_summary(tx, game_support.name, match)
        return step

    def deadline(self, campaign: str) -> datetime:
        """When the current step's orders are due."""
        return step_deadline(self.store.entries(campaign), self.meta(campaign))

    # -- undo ---------------------------------------------------------------------------

    def undo(self, campaign: str, key: Ed25519PrivateKey, reason: str, back_to: int | None = None,
             now: datetime | None = None) -> int:
        """Void every batch after ``back_to`` (default: the last batch in force).
        Recorded in the public record; the dice already revealed stay revealed. Every
        player is mailed (queued in the same transaction) that the step was voided, why,
        and that it is adjudicated again with fresh orders. The step run again has a
        deadline of its own, counted from the undo (``now``)."""
        with self.store.transaction(campaign) as tx:
            log = read_log(campaign, tx.entries())
            check_referee_key(key, log)
            in_force = [r.body["batch"] for r in log.effective_batches()]
            if not in_force:
                raise NothingToUndo(f"campaign {campaign!r} has no adjudicated step to undo")
            target = in_force[-2] if back_to is None and len(in_force) > 1 else (back_to or 0)
            if target >= in_force[-1]:
                raise NothingToUndo(f"no batch after {target} is in force (the last is {in_force[-1]})")
            body = {"back_to": target, "reason": reason}
            record = sign_next(key, log, UNDO, body)
            tx.append(UNDO, {"record": record.to_dict(), "private": {"opened": utc(now).isoformat()}})
            voided = [number for number in in_force if number > target]
            _queue_undo_notices(tx, campaign, voided, reason, log.next_batch, record.hash)
        return target


# -- helpers ------------------------------------------------------------------------------


def _redoes_a_voided_step(log: CampaignLog) -> bool:
    """The next batch runs a step an undo voided: an undo came after the last batch."""
    undos = [r.seq for r in log.of_kind(UNDO)]
    return bool(undos) and not any(b.seq > undos[-1] for b in log.batches)


def _check_fresh_orders(log: CampaignLog, missing: Sequence[str], late: bool) -> None:
    """After an undo, the voided step runs again only once every side due (``missing``:
    those still to speak) has sent fresh orders, or a one-line confirmation with its
    entropy, for the new step, so that the redo's dice depend on a fresh contribution
    from every side (with ``--reuse-orders`` too, which only lets the orders on file
    answer the questions); past its deadline (``late``, an open campaign), the sides are
    due only while none has spoken. Else FreshOrdersNeeded."""
    if not missing:
        return
    waits = (f"no side has sent anything for it by the deadline, and nothing is drawn until one does: waiting "
             f"for {', '.join(missing)}" if late else f"waiting for {', '.join(missing)}")
    raise FreshOrdersNeeded(
        f"campaign {log.campaign!r}: step {log.next_batch} runs again a step voided by an undo, and its dice need "
        f"a fresh contribution from every side: {waits} to send orders, or a one-line "
        f"confirmation (the header with 'step: {log.next_batch}' and an 'entropy:' line); '--reuse-orders' lets "
        "the orders on file answer, but the confirmations are still needed")


def _reused_orders(log: CampaignLog) -> list[int]:
    """The orders records of the voided steps that the redo may answer from: for each
    voided step, each side's latest."""
    voided = log.voided()
    return sorted(o.record_seq for step in sorted(voided) for o in log.orders_for(step).values())


def _draws(entries: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a batch's published entries draw anything (a draw, or a sealed entry
    that is not an answer)."""
    return any(any(kind in entry for kind in DRAW_KINDS) or entry.get("what", "answer") != "answer"
               for entry in entries)


def _once_every_side_has_spoken(chance: Callable[[Any], Sequence[int]], missing: Sequence[str], step: int,
                                late: bool) -> Callable[[Any], Sequence[int]]:
    """The step's draws, refused while a side that is due (``missing``: those still to
    speak) has not contributed: nothing random is drawn in the first step before every
    side has sent orders or a one-line confirmation (so that the referee, who made the
    seed chain, cannot foresee a draw). Past the deadline of an open campaign
    (``late``), the sides are due only while none has spoken."""
    if not missing:
        return chance
    waits = (f"no side has spoken by the deadline, and the campaign waits for the first: waiting for "
             f"{', '.join(missing)}" if late else f"waiting for {', '.join(missing)}")

    def refuse(request: Any) -> Sequence[int]:
        raise ContributionsDue(
            f"step {step} draws ({getattr(request, 'purpose', 'chance')}) and nothing random is drawn before every "
            f"side has spoken: {waits} to send orders for step {step}, or a one-line "
            f"confirmation (the header with 'step: {step}' and an 'entropy:' line)")

    return refuse


def _queue_undo_notices(tx: Any, campaign: str, voided: Sequence[int], reason: str, step: int,
                        head: str) -> None:
    """Tell every player, in the player's language, that the referee voided ``voided``,
    why, and what happens next."""
    meta = tx.campaign().meta
    numbers = ", ".join(str(n) for n in voided)
    values = {"numbers": numbers, "campaign": campaign, "step": step, "head": head}
    for player in meta["players"].values():
        tr = words(language_of(player)).gettext
        voided_words = (tr("The referee voided step %(numbers)s of campaign %(campaign)s (batch %(numbers)s).")
                        if len(voided) == 1 else
                        tr("The referee voided steps %(numbers)s of campaign %(campaign)s (batch %(numbers)s)."))
        text = "\n".join([
            voided_words % values,
            tr("Reason: %(reason)s") % {"reason": reason}, "",
            (tr("The dice of the voided step were revealed and stay in the public record; 'adjudicator "
                "verify' lists every voided step.") if len(voided) == 1 else
             tr("The dice of the voided steps were revealed and stay in the public record; 'adjudicator "
                "verify' lists every voided step.")),
            tr("The game is back where it stood before. The step is adjudicated again as step %(step)s, once "
               "every side has sent something for it: reply with your orders ('step: %(step)s'), or with a "
               "one-line confirmation (your header with 'step: %(step)s' and an 'entropy:' line) so that the "
               "new dice depend on you too; orders already on file are used again only if the referee says "
               "so.") % values, "",
            tr("Public record head: %(head)s") % values,
            tr("Anyone can check every die:") + f" adjudicator verify RECORD --head {head}", ""])
        message = build_message(sender=meta["referee_address"], to=player["address"],
                                subject=f"[{campaign}] " + tr("Step %(numbers)s voided by the referee") % values,
                                text=fit_text(text))
        tx.queue_mail(message["Message-ID"], player["address"], message_bytes(message))


def with_parsed(log: CampaignLog, stored: Any) -> CampaignLog:
    """``log`` with the campaign's parsed orders cache, when it is valid for this
    adjudicator and the game's data (else none: the orders are parsed again)."""
    log.parsed = load(stored, cache_key(support(log.charter["game"]).data_hashes()))
    return log


def keep_parsed(tx: Any, log: CampaignLog) -> None:
    """Store the orders parsed anew beside the history, for the next command: the
    cache keeps the order sets this command read (those that can still be in force),
    so that it does not grow with the campaign (orders kept when they were accepted
    leave it once no step reads them)."""
    if log.parsed_added or not log.parsed_used.issuperset(log.parsed):
        used = {key: value for key, value in log.parsed.items() if key in log.parsed_used}
        tx.set_secret(PARSED_ORDERS, stored_value(cache_key(support(log.charter["game"]).data_hashes()), used))
        log.parsed_added = False


def replay_game(log: CampaignLog, secret: Callable[[str], Any]) -> Match:
    """The campaign's game where it stands, from its latest valid snapshot (read with
    ``secret``) or else from the start."""
    game_support = support(log.charter["game"])
    return replay(log, game_support.game(), game_support.data_hashes(), secret)


def keep_snapshot(tx: Any, log: CampaignLog, match: Match, batch: int) -> None:
    """Keep the match's latest snapshot beside the history for the next command (the
    match has gone on from ``log``'s history with the entries of ``batch``), not past an
    event a player's next per-turn report still has to tell."""
    keep(log, match, support(log.charter["game"]).data_hashes(), tx.get_secret, tx.set_secret,
         earliest_unreported_event(tx.campaign().meta), batch)


def _prepare(log: CampaignLog, data: bytes | str, secret: Callable[[str], Any]) -> PreparedOrders:
    """Parse ``data`` against the campaign's position and check side, step and reveal."""
    match = replay_game(log, secret)
    if match.finished or log.forfeit is not None:
        raise CampaignOver(f"campaign {log.campaign!r} has ended; no more orders")
    orders, readings = parse_orders_noted(data, log.charter["game"], state=match.state, campaign=log.campaign)
    side = side_of(orders, log)
    turn = getattr(match.state, "turn", None)
    try:
        step = step_of(orders, log, turn)
    except StepOver as err:
        raise StepOver(f"{err}{used_already(orders, side, Receipt.of(orders).sha256, log)}") from None
    reveal = check_reveal(orders, side, step, log)
    sent = as_sent(data)
    receipt = Receipt.of(orders, (*readings, *open_question_problems(log, match, orders, side, sent)))
    check_not_sent_again(orders, side, step, receipt.sha256, log)
    return PreparedOrders(len(log.records), orders, side, step, reveal, turn, receipt, sent, log)


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
    tx.append(CHAIN, {"record": sign_next(key, log, CHAIN, body).to_dict()})
    return successor, first, True
