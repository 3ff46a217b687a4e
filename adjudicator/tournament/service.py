"""The referee's tournament commands over one store: create, register, withdraw,
absence, pair, collect results, apply clocks and the abandonment ladder, close.

A tournament lives in the store beside its campaigns (an entry of game
``tournament``): its records are signed with the referee's key and hash-linked, like
a campaign's, and every command is one store transaction. A round's record is
written before its campaigns are created; ``pair`` finishes creating the campaigns
of a round that an interruption left incomplete, so a round is never half made.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.campaign import Campaigns, Player
from adjudicator.campaign.decided import decided_note
from adjudicator.campaign.errors import ContributionsDue
from adjudicator.campaign.games import support
from adjudicator.campaign.passwords import hash_password
from adjudicator.fairdice import Record, SeedChain, public_key_from_text, public_key_to_text, sign_record
from adjudicator.mail import MailError, build_message, message_bytes
from adjudicator.mail.plain import fit_text
from adjudicator.store import CampaignNotFound, Store
from adjudicator.tournament import standings as standings_module
from adjudicator.tournament.charter import TIEBREAKS, Charter, Entrant, check_bid
from adjudicator.tournament.draws import Draws
from adjudicator.tournament.errors import (
    LadderRefused,
    RegistrationClosed,
    RoundNotOver,
    TournamentClosed,
    TournamentError,
    UnknownGameOfEvent,
    UnknownPlayer,
)
from adjudicator.tournament.gameplay import capped, positions_by_turn, tournament_support
from adjudicator.tournament.rounds import plan
from adjudicator.tournament.state import (
    ABSENCE,
    ALGORITHM,
    CHARTER,
    CLOSE,
    REGISTER,
    REMINDER,
    RESULT,
    ROUND,
    RULING,
    WITHDRAW,
    EventState,
    GameResult,
    GameSlot,
    fold,
    jsonable,
)

GAME = "tournament"          # the store entry's game, so that campaign commands can tell it apart
CHAIN_SECRET = "tournament-chain"
CHAIN_LENGTH = 512


def utc(now: datetime | None) -> datetime:
    return (now or datetime.now(timezone.utc)).astimezone(timezone.utc)


@dataclass(frozen=True)
class ClockAction:
    """What applying the clocks did, for the referee's screen."""

    game: str
    what: str


class Tournaments:
    """The referee's commands over the tournaments of one store."""

    def __init__(self, store: Store, outbox: Path | None = None) -> None:
        self.store = store
        self.campaigns = Campaigns(store)
        self.outbox = outbox or Path("outbox")

    # -- reading --------------------------------------------------------------------------

    def records(self, name: str) -> list[Record]:
        entries = self._entries(name)
        return [Record.from_dict(e.body["record"]) for e in entries]

    def state(self, name: str) -> EventState:
        return fold(self.records(name))

    def addresses(self, name: str) -> dict[str, str]:
        """Player (and standby) name -> address, from the private parts of the records."""
        found = {}
        for entry in self._entries(name):
            private = entry.body.get("private", {})
            found.update(private.get("addresses", {}))
        return found

    def _entries(self, name: str) -> list[Any]:
        try:
            campaign = self.store.campaign(name)
        except CampaignNotFound:
            raise UnknownGameOfEvent(f"no tournament {name!r} in this store: create it with "
                                     "'adjudicator tournament new CHARTER.toml'") from None
        if campaign.game != GAME:
            raise UnknownGameOfEvent(f"{name!r} is a campaign of {campaign.game}, not a tournament")
        return self.store.entries(name)

    def standings(self, name: str) -> list[standings_module.Line]:
        state = self.state(name)
        return standings_module.compute(state, last_seed(state))

    # -- writing helpers ----------------------------------------------------------------------

    def _append(self, tx: Any, key: Ed25519PrivateKey, kind: str, body: Mapping[str, Any],
                private: Mapping[str, Any] | None = None) -> Record:
        entries = tx.entries()
        records = [Record.from_dict(e.body["record"]) for e in entries]
        if records:
            check_key(key, records[0])
        record = sign_record(key, len(records), kind, jsonable(dict(body)), records[-1].hash if records else "0" * 64)
        tx.append(kind, {"record": record.to_dict(), "private": dict(private or {})})
        return record

    def _state_in(self, tx: Any) -> EventState:
        return fold([Record.from_dict(e.body["record"]) for e in tx.entries()])

    def _mail(self, tx: Any, to: str, subject: str, text: str) -> None:
        """Queue a notice to ``to``, its prose lines fitted to a mail's 78 columns."""
        meta = tx.campaign().meta
        try:
            message = build_message(sender=meta["referee_address"], to=to,
                                    subject=f"[{tx.campaign_id}] {subject}", text=fit_text(text))
        except MailError:
            return  # an address we cannot write to was refused at registration; nothing to send
        tx.queue_mail(message["Message-ID"], to, message_bytes(message))

    def _mail_all(self, tx: Any, state: EventState, subject: str, text: str) -> None:
        addresses = self._addresses_in(tx)
        for player in state.players:
            if player in addresses:
                self._mail(tx, addresses[player], subject, text)

    def _addresses_in(self, tx: Any) -> dict[str, str]:
        found: dict[str, str] = {}
        for entry in tx.entries():
            found.update(entry.body.get("private", {}).get("addresses", {}))
        return found

    def _reveal(self, tx: Any, state: EventState) -> tuple[int, bytes]:
        chain = SeedChain.from_secret_dict(tx.get_secret(CHAIN_SECRET))
        index = state.seeds_used + 1
        return index, chain.reveal(index)

    # -- new, register, withdraw, absence --------------------------------------------------------

    def create(self, charter: Charter, key: Ed25519PrivateKey, now: datetime | None = None) -> EventState:
        game = support(charter.game).game()
        tournament_support(charter.game)  # the game must offer the tournament interface
        from adjudicator.engine import Match

        Match(game, {}, dict(charter.options))  # bad options are refused before anything is written
        for player in (*charter.players, *charter.standby):
            _check_entrant(player, game.sides)
        chain = SeedChain.generate(charter.name, CHAIN_LENGTH)
        body = {**charter.public(), "game_sides": list(game.sides), "referee_key": public_key_to_text(key.public_key()),
                "chain": chain.commitment().to_dict(), "algorithm": ALGORITHM, "opened": utc(now).isoformat()}
        if charter.format == "swiss" and charter.pairing == "dutch":
            from adjudicator.tournament.dutch import engine_version

            body["pairing_engine"] = engine_version()
        with self.store.transaction(charter.name) as tx:
            tx.create_campaign(GAME, {"referee_address": charter.referee_address})
            tx.set_secret(CHAIN_SECRET, chain.to_secret_dict())
            self._append(tx, key, CHARTER, body, {"addresses": {s.name: s.address for s in charter.standby}})
            for player in charter.players:
                self._register_in(tx, key, player)
            self._mail_all(tx, self._state_in(tx), "Tournament opened",
                           opening_text(self._state_in(tx), charter))
        return self.state(charter.name)

    def register(self, name: str, player: Entrant, key: Ed25519PrivateKey) -> None:
        with self.store.transaction(name) as tx:
            state = self._state_in(tx)
            _open_for_changes(state)
            _check_entrant(player, state.charter["game_sides"])
            check_bid(player, state.charter.get("bid_handicap", "none"), state.scoring("win"), RegistrationClosed)
            if state.rounds and state.format == "round-robin":
                raise RegistrationClosed(f"the round robin of {name} has begun: its pools are fixed")
            if player.name in state.charter.get("standby", []):
                raise RegistrationClosed(f"{player.name!r} is on the standby list; choose another name")
            self._register_in(tx, key, player)
            self._mail(tx, player.address, "Registered",
                       f"You are registered in {name} as {player.name}.\n"
                       + (f"Your standing bid: {player.bid[0]} for {player.bid[1]:g}.\n" if player.bid else ""))

    def _register_in(self, tx: Any, key: Ed25519PrivateKey, player: Entrant) -> None:
        if player.password:
            tx.set_secret(f"password:{player.name}", hash_password(player.password))
        self._append(tx, key, REGISTER, player.public(), {"addresses": {player.name: player.address}})

    def withdraw(self, name: str, player: str, reason: str, key: Ed25519PrivateKey) -> None:
        with self.store.transaction(name) as tx:
            state = self._state_in(tx)
            _open_for_changes(state)
            _registered(state, player)
            if player in state.withdrawn:
                raise RegistrationClosed(f"{player} has already withdrawn from {name}")
            self._append(tx, key, WITHDRAW, {"player": player, "reason": reason})
            self._mail_all(tx, state, "Withdrawal", f"{player} has withdrawn from {name}: {reason}\n"
                           "Games already paired stay in play; the clocks and the abandonment ladder apply.\n")

    def absence(self, name: str, player: str, days: float, key: Ed25519PrivateKey,
                now: datetime | None = None) -> None:
        """A declared absence, from the player's absence budget: not paired in rounds
        paired while away, and the silence clock stops."""
        with self.store.transaction(name) as tx:
            state = self._state_in(tx)
            _open_for_changes(state)
            _registered(state, player)
            budget = float(state.charter["clocks"]["absence_days"])
            used = state.absence_days_used(player)
            if days <= 0 or used + days > budget:
                raise RegistrationClosed(f"{player} has {budget - used:g} of {budget:g} absence day(s) left; "
                                         f"{days:g} asked for")
            start = utc(now)
            self._append(tx, key, ABSENCE, {"player": player, "days": days, "from": start.isoformat(),
                                           "until": (start + timedelta(days=days)).isoformat()})

    # -- results ----------------------------------------------------------------------------------

    def collect(self, name: str, key: Ed25519PrivateKey) -> list[GameResult]:
        """Take the result of every finished campaign of the event that has none yet."""
        taken = []
        for slot in self.state(name).running():
            ended = self._ended(slot)
            if ended is None:
                continue
            result, how, turn, head, forfeit = ended
            with self.store.transaction(name) as tx:
                state = self._state_in(tx)
                if slot.game in state.results:
                    continue
                taken.append(self._record_result(tx, key, state, slot, result, how, turn, head, forfeit))
        return taken

    def _ended(self, slot: GameSlot) -> tuple[str, str, int | None, str, bool] | None:
        """(result, how, turn reached, head hash, whether by a forfeit) of a finished
        campaign, else None. A sealed campaign ends by a forfeit when a side does not
        reveal its chain value in time."""
        try:
            log, match = self.campaigns.match(slot.game)
        except CampaignNotFound:
            return None
        head = log.records[-1].hash
        game = tournament_support(log.charter["game"])
        if log.forfeit is not None:
            body = log.forfeit.body
            return body["result"], f"forfeit (sealed reveal missing: {', '.join(body['forfeited'])})", \
                game.turn(match.state), head, True
        if not match.finished or getattr(match.state, "result", None) is None:
            return None
        return game.outcome(match.state.result), game.ending(match), game.turn(match.state), head, False

    def _record_result(self, tx: Any, key: Ed25519PrivateKey, state: EventState, slot: GameSlot,
                       result: str | None, how: str, turn: int | None, head: str | None,
                       forfeit: bool = False) -> GameResult:
        """Record a game's result; ``forfeit``: decided by a forfeit (a ruling's, or a
        sealed reveal missing) rather than by play, which the TRF, the Dutch pairing's
        history and FIDE's tie-breaks read from the record, never from ``how``."""
        points = result_points(state, slot, result)
        body = {"game": slot.game, "round": slot.round, "sides": dict(slot.sides), "result": result,
                "how": how, "turn": turn, "head": head, "points": points, "forfeit": forfeit}
        self._append(tx, key, RESULT, body)
        winner = slot.sides.get(result) if result not in (None, "draw") else None
        text = (f"Game {slot.game} ({' v '.join(f'{p} ({s})' for s, p in slot.sides.items())}): "
                + ("no result" if result is None else "a draw" if result == "draw" else f"{winner} wins")
                + f" -- {how.rstrip('.')}" + (f", turn {turn}" if turn is not None else "")
                + (f".\nThe campaign record's head: {head}\n" if head else ".\n"))
        addresses = self._addresses_in(tx)
        for player in set(slot.sides.values()) | set(state.replacements.get(slot.game, {}).values()):
            if player in addresses:
                self._mail(tx, addresses[player], f"Result of {slot.game}", text)
        return GameResult(slot.game, slot.round, dict(slot.sides), result, how, turn, head, points, forfeit)

    # -- pairing ------------------------------------------------------------------------------------

    def pair(self, name: str, key: Ed25519PrivateKey, now: datetime | None = None,
             challenge: tuple[str, str] | None = None) -> dict[str, Any]:
        """Pair the next round (or a ladder challenge) and create its campaigns."""
        self.finish_round_creation(name, key, now)
        self.collect(name, key)
        now = utc(now)
        with self.store.transaction(name) as tx:
            state = self._state_in(tx)
            _open_for_changes(state)
            if state.format != "ladder" and state.running():
                running = ", ".join(s.game for s in state.running())
                raise RoundNotOver(f"round {len(state.rounds)} of {name} still has games running ({running}): "
                                   f"wait for them, or apply the clocks ('adjudicator tournament clock {name}') "
                                   "after the round's end date")
            index, seed = self._reveal(tx, state)
            body = plan(state, Draws(name, index, seed), now, challenge)
            ends = now + timedelta(days=float(state.charter["clocks"]["round_days"]))
            body.update({"seed_index": index, "seed": seed.hex(), "opened": now.isoformat(),
                         "ends": ends.isoformat()})
            passwords = {g["game"]: {side: secrets.token_urlsafe(12) for side in g["sides"]} for g in body["games"]}
            for game_id, by_side in passwords.items():
                tx.set_secret(f"game:{game_id}", by_side)
            self._append(tx, key, ROUND, body)
            self._queue_pairing_mail(tx, state, body, passwords, now)
        self.finish_round_creation(name, key, now)
        return body

    def finish_round_creation(self, name: str, key: Ed25519PrivateKey, now: datetime | None = None) -> int:
        """Create every campaign of the event's rounds that does not exist yet."""
        state = self.state(name)
        created = 0
        existing = {c.id for c in self.store.campaigns()}
        addresses = self.addresses(name)
        with self.store.transaction(name) as tx:
            passwords = {s.game: tx.get_secret(f"game:{s.game}") for s in state.slots() if s.game not in existing}
        for slot in state.slots():
            if slot.game in existing:
                continue
            info = state.rounds[slot.round - 1]
            players = [Player(side, addresses[player],
                              None if state.players[player].get("public_key") else passwords[slot.game][side],
                              state.players[player].get("public_key")) for side, player in slot.sides.items()]
            self.campaigns.create(
                slot.game, state.game, players, key, options=state.charter["options"],
                deadline_hours=float(state.charter["clocks"]["deadline_hours"]),
                referee_address=self.store.campaign(name).meta["referee_address"],
                now=datetime.fromisoformat(info.opened) if now is None else now)
            created += 1
        return created

    def _queue_pairing_mail(self, tx: Any, state: EventState, body: Mapping[str, Any],
                            passwords: Mapping[str, Mapping[str, str]], now: datetime) -> None:
        addresses = self._addresses_in(tx)
        deadline = now + timedelta(hours=float(state.charter["clocks"]["deadline_hours"]))
        for game in body["games"]:
            for side, player in game["sides"].items():
                opponent = next(p for s, p in game["sides"].items() if s != side)
                auth = ("password: " + passwords[game["game"]][side]) if not state.players[player].get("public_key") \
                    else "(sign your orders with your key: 'adjudicator sign ORDERS --key YOUR-KEY')"
                text = (f"{state.name}, round {body['round']}: you play {opponent}.\n\n"
                        f"  campaign: {game['game']}\n  side: {side}\n  first deadline: "
                        f"{deadline.strftime('%Y-%m-%d %H:%M UTC')}\n  round ends: {body['ends'][:16].replace('T', ' ')} UTC\n\n"
                        f"Head your orders with these lines (the password is for this game only):\n\n"
                        f"  campaign: {game['game']}\n  side: {side}\n  {auth}\n"
                        + (f"\nThe sides were settled by bid: {game['bid']['player']} bid "
                           f"{float(game['bid']['amount']):g} for {game['bid']['side']}.\n" if game.get("bid") else "")
                        + f"\nPairings and sides were drawn from the tournament's committed seed "
                          f"{body['seed_index']} ({body['seed']}).\n")
                if player in addresses:
                    self._mail(tx, addresses[player], f"Round {body['round']}: {game['game']}", text)
        for player in body["byes"]:
            if player in addresses:
                self._mail(tx, addresses[player], f"Round {body['round']}: a bye",
                           f"You have the bye in round {body['round']} of {state.name}: it scores as a "
                           f"{state.charter['bye']}.\n")

    # -- clocks and the abandonment ladder -------------------------------------------------------------

    def clock(self, name: str, key: Ed25519PrivateKey, now: datetime | None = None,
              after: Callable[..., None] | None = None) -> list[ClockAction]:
        """Apply the charter's clocks at ``now``: a step whose deadline has passed is
        adjudicated (the campaign's defaults for the silent side); a player silent
        after defaults is reminded, up to the declared number of reminders; one still
        silent ``silent_days`` after the last reminder loses the game by the ladder;
        games still running at the round's end go down the ladder."""
        now = utc(now)
        actions: list[ClockAction] = []
        self.collect(name, key)
        state = self.state(name)
        clocks = state.charter["clocks"]
        for slot in state.running():
            try:
                log, match = self.campaigns.match(slot.game)
            except CampaignNotFound:
                continue
            if match.decision is None and not match.finished and log.forfeit is None:
                # a game that starts with chance (a shuffled deck) or stopped before a draw: run it on,
                # once every side has confirmed step 1 (nothing random before every side has spoken)
                try:
                    step = self.campaigns.adjudicate(slot.game, key, now, after=after)
                except ContributionsDue:
                    continue
                actions.append(ClockAction(slot.game, f"step {step.batch} adjudicated (chance, no orders needed)"))
                log, match = self.campaigns.match(slot.game)
            on_file = log.orders_for(log.next_batch)
            waiting = [d.side for d in match.decisions if d.side not in on_file]  # (a stop may ask several)
            if waiting and now >= self.campaigns.deadline(slot.game):
                step = self.campaigns.adjudicate(slot.game, key, now, after=after)
                actions.append(ClockAction(slot.game, f"step {step.batch} adjudicated at its deadline"
                                           + (f"; defaults for {', '.join(step.defaults)}" if step.defaults else "")))
                log, match = self.campaigns.match(slot.game)
            for side, player in slot.sides.items():
                actions += self._silence(name, key, slot, log, side, player, now, clocks)
        self.collect(name, key)
        state = self.state(name)
        for slot in state.running():
            info = state.rounds[slot.round - 1]
            if now >= datetime.fromisoformat(info.ends):
                rung = self.apply_ladder(name, slot.game, key, f"round {slot.round} ended "
                                         f"{info.ends[:10]} with the game still running", now,
                                         skip=("replace",))
                actions.append(ClockAction(slot.game, f"round ended: {rung}"))
        return actions

    def _silence(self, name: str, key: Ed25519PrivateKey, slot: GameSlot, log: Any, side: str, player: str,
                 now: datetime, clocks: Mapping[str, float]) -> list[ClockAction]:
        since = silent_since(log, self.store.entries(slot.game), side)
        if since is None or slot.game in self.state(name).results:
            return []
        state = self.state(name)
        if state.absent(player, now):
            return []
        sent = [r for r in state.reminders if r["game"] == slot.game and r["player"] == player
                and r["since"] == since.isoformat()]
        spacing = timedelta(hours=float(clocks.get("reminder_hours", 0)))
        if sent and len(sent) < int(float(clocks["reminders"])) and now - datetime.fromisoformat(sent[-1]["at"]) < spacing:
            return []   # the next reminder waits until reminder_hours after the last
        if len(sent) < int(float(clocks["reminders"])):
            with self.store.transaction(name) as tx:
                self._append(tx, key, REMINDER, {"game": slot.game, "player": player, "side": side,
                                                 "count": len(sent) + 1, "since": since.isoformat(),
                                                 "at": now.isoformat()})
                address = self._addresses_in(tx).get(player)
                if address:
                    self._mail(tx, address, f"Reminder {len(sent) + 1}: {slot.game}",
                               f"The campaign {slot.game} has had no orders from you ({side}) since "
                               f"{since.strftime('%Y-%m-%d %H:%M UTC')}; the defaults were played for you.\n"
                               f"After {int(float(clocks['reminders']))} reminders, {float(clocks['silent_days']):g} more "
                               f"silent day(s) lose the game by the tournament's abandonment ladder.\n")
            return [ClockAction(slot.game, f"reminder {len(sent) + 1} to {player}")]
        last = datetime.fromisoformat(sent[-1]["at"])
        if now - last >= timedelta(days=float(clocks["silent_days"])):
            reason = (f"{player} ({side}) silent since {since.strftime('%Y-%m-%d')}, "
                      f"{float(clocks['silent_days']):g} day(s) after the last of {len(sent)} reminders")
            rung = self.apply_ladder(name, slot.game, key, reason, now, silent=side)
            return [ClockAction(slot.game, rung)]
        return []

    def apply_ladder(self, name: str, game: str, key: Ed25519PrivateKey, reason: str,
                     now: datetime | None = None, silent: str | None = None,
                     skip: Sequence[str] = ()) -> str:
        """The charter's rungs in order (less those in ``skip``); the first that applies is taken."""
        state = self.state(name)
        refusals = []
        for rung in state.charter["ladder"]:
            if rung in skip:
                continue
            try:
                return self.rule(name, game, rung, reason, key, now, silent=silent)
            except LadderRefused as err:
                refusals.append(str(err))
        raise LadderRefused(f"no rung of the ladder applies to {game}: " + "; ".join(refusals))

    def silent_sides(self, game: str, sides: Sequence[str]) -> list[str]:
        """The sides of ``game`` that have had the defaults played for them since their
        last orders (the clock's definition of silence), in the game's side order."""
        log, _ = self.campaigns.match(game)
        entries = self.store.entries(game)
        return [side for side in sides if silent_since(log, entries, side) is not None]

    def rule(self, name: str, game: str, rung: str, reason: str, key: Ed25519PrivateKey,
             now: datetime | None = None, silent: str | None = None, overturn: bool = False) -> str:
        """Apply one rung of the abandonment ladder to a game, with a logged, mailed
        reason. ``silent``: the side that fell silent; by default the sides the clock
        finds silent (defaults played for them since their last orders) -- never merely
        the side whose turn it is. A game that has ended over the board is refused
        unless ``overturn`` is given: then the ruling names the result it overturns,
        and the audit reports it."""
        if not reason.strip():
            raise LadderRefused("a ruling needs a reason (--reason), which is published and mailed")
        state = self.state(name)
        _open_for_changes(state)
        slot = state.slot(game)
        if slot is None:
            raise UnknownGameOfEvent(f"{game!r} is not a game of {name}")
        if game in state.results:
            raise LadderRefused(f"{game} already has a result")
        if silent is not None and silent not in slot.sides:
            raise LadderRefused(f"{silent!r} is not a side of {game}; the sides are {', '.join(slot.sides)}")
        ended = self._ended(slot)
        overturned = None
        if ended is not None:
            if not overturn:
                raise LadderRefused(f"{game} has ended over the board ({_said(ended[0])}): its result is taken by "
                                    f"'collect'; to overturn it, rule again with --overturn and a reason")
            if rung == "replace":
                raise LadderRefused(f"replace: {game} has ended, nobody can take a side over")
            overturned = {"result": ended[0], "how": ended[1], "head": ended[3]}
        elif overturn:
            raise LadderRefused(f"--overturn: {game} has not ended, there is no result to overturn")
        log, match = self.campaigns.match(game)
        quiet = [silent] if silent is not None else self.silent_sides(game, list(slot.sides))
        if rung == "replace":
            if len(quiet) != 1:
                raise LadderRefused(f"replace: {_nobody_or_both(game, quiet)}; name the side to hand over (--side)")
            return self._replace(name, slot, quiet[0], reason, key, state)
        sides = list(slot.sides)
        interface = tournament_support(state.game)
        if rung == "forfeit":
            if not quiet:
                raise LadderRefused(f"forfeit: {_nobody_or_both(game, quiet)}; name the side that forfeits (--side)")
            if len(quiet) > 1:
                result, how = None, f"forfeit by both sides ({', '.join(slot.sides[s] for s in quiet)}): {reason}"
            else:
                winner = next(s for s in sides if s != quiet[0])
                result, how = winner, f"forfeit by {slot.sides[quiet[0]]} ({quiet[0]}): {reason}"
        elif rung == "adjudicate":
            positions = positions_by_turn(match)
            if not positions:
                raise LadderRefused(f"adjudicate: {game} has no completed turn to adjudicate from")
            turn = max(positions)
            found, why = interface.adjudicate(positions[turn])
            result, why = capped(interface, positions[turn], found, why, quiet, sides)
            how = f"adjudication at the end of turn {turn}: {why} ({reason})"
        elif rung == "no-result":
            result, how = None, f"no result: {reason}"
        else:
            raise LadderRefused(f"unknown rung {rung!r}; the rungs are replace, adjudicate, forfeit, no-result")
        if overturned is not None:
            how = f"ruling overturns the result over the board ({_said(overturned['result'])}): {how}"
        head = log.records[-1].hash
        with self.store.transaction(game) as tx:   # the game takes no more orders from here on
            if Record.from_dict(tx.entries()[-1].body["record"]).hash != head:
                raise LadderRefused(f"{game} moved on while the ruling was made; rule again")
            tx.set_meta({**tx.campaign().meta, **decided_note(rung, reason, head)})
        with self.store.transaction(name) as tx:
            state = self._state_in(tx)
            if game in state.results:
                raise LadderRefused(f"{game} already has a result")
            body = {"game": game, "rung": rung, "reason": reason, "side": quiet[0] if len(quiet) == 1 else None,
                    "silent": quiet, "player": slot.sides[quiet[0]] if len(quiet) == 1 else None,
                    "result": result, "head": log.records[-1].hash, "at": utc(now).isoformat()}
            if rung == "adjudicate":
                body["turn"] = max(positions_by_turn(match))
            if overturned is not None:
                body["overturns"] = overturned
            self._append(tx, key, RULING, body)
            self._record_result(tx, key, state, slot, result, how, interface.turn(match.state),
                                log.records[-1].hash, rung == "forfeit")
        return f"{rung}: {how}"

    def _replace(self, name: str, slot: GameSlot, silent: str | None, reason: str,
                 key: Ed25519PrivateKey, state: EventState) -> str:
        if state.players[slot.sides[silent]].get("public_key"):
            raise LadderRefused(f"replace: {slot.sides[silent]} signs with a key, which a standby cannot use")
        if silent in state.replacements.get(slot.game, {}):
            raise LadderRefused(f"replace: {silent} in {slot.game} has already been replaced")
        busy = {standby for game, taken in state.replacements.items() if game not in state.results
                for standby in taken.values()}   # a standby is free again once the game taken over has ended
        free = [p for p in state.charter.get("standby", []) if p not in busy]
        if not free:
            raise LadderRefused("replace: every standby is playing a game taken over; one is free again when "
                                "that game ends")
        standby = free[0]
        with self.store.transaction(name) as tx:
            self._append(tx, key, RULING, {"game": slot.game, "rung": "replace", "reason": reason, "side": silent,
                                           "player": slot.sides[silent], "replacement": standby})
            addresses = self._addresses_in(tx)
            password = tx.get_secret(f"game:{slot.game}")[silent]
            credit = float(state.charter["replacement_credit"])
            if standby in addresses:
                self._mail(tx, addresses[standby], f"You take over {slot.game}",
                           f"You take over {silent} in {slot.game} from {slot.sides[silent]} ({reason}).\n\n"
                           f"  campaign: {slot.game}\n  side: {silent}\n  password: {password}\n\n"
                           f"Credit for the result is split: {credit:g} to {slot.sides[silent]}, "
                           f"{1 - credit:g} to you.\n")
            for player in slot.sides.values():
                if player in addresses:
                    self._mail(tx, addresses[player], f"Ruling in {slot.game}",
                               f"{standby} replaces {slot.sides[silent]} ({silent}) in {slot.game}: {reason}\n")
        return f"replace: {standby} takes over {silent} from {slot.sides[silent]}"

    # -- close -------------------------------------------------------------------------------------------

    def close(self, name: str, key: Ed25519PrivateKey, now: datetime | None = None) -> list[standings_module.Line]:
        """Close the event once every game has a result: the final tie-break seed is
        revealed and the final standings are published and mailed."""
        self.collect(name, key)
        with self.store.transaction(name) as tx:
            state = self._state_in(tx)
            _open_for_changes(state)
            if state.running():
                raise RoundNotOver(f"{name} still has games running ({', '.join(s.game for s in state.running())}); "
                                   f"apply the clocks or the ladder first")
            index, seed = self._reveal(tx, state)
            lines = standings_module.compute(state, (index, seed))
            self._append(tx, key, CLOSE, {"seed_index": index, "seed": seed.hex(), "at": utc(now).isoformat(),
                                          "standings": [line.player for line in lines]})
            self._mail_all(tx, state, "Final standings", standings_text(self._state_in(tx), lines))
        return lines

    def queue_standings(self, name: str) -> None:
        """Mail the current standings, with the working, to every player."""
        state = self.state(name)
        lines = standings_module.compute(state, last_seed(state))
        with self.store.transaction(name) as tx:
            self._mail_all(tx, state, "Standings", standings_text(state, lines))


# -- helpers ----------------------------------------------------------------------------------------


def check_key(key: Ed25519PrivateKey, charter: Record) -> None:
    if public_key_to_text(key.public_key()) != charter.body["referee_key"]:
        raise TournamentError(f"the referee key given is not the one in tournament "
                              f"{charter.body['tournament']!r}'s charter; use the key it was created with")


def last_seed(state: EventState) -> tuple[int, bytes] | None:
    """The seed for the standings' final draw: the close's, else the latest revealed."""
    if state.closed:
        return state.closed["seed_index"], bytes.fromhex(state.closed["seed"])
    if state.rounds:
        return state.rounds[-1].seed_index, bytes.fromhex(state.rounds[-1].seed)
    return None


def result_points(state: EventState, slot: GameSlot, result: str | None) -> dict[str, float]:
    """Each player's points for the game; a replaced side's are split as declared.
    Under ``[bids] handicap = "points"`` the player who took a side by bidding pays the
    amount bid to the opponent from what the game gave them: a win pays it all (a bid is
    at most a win), a draw at most the draw's points, a loss or a game with no result
    nothing -- a bid never makes a game score below nothing."""
    points: dict[str, float] = {}
    credit = float(state.charter["replacement_credit"])

    def scored(side: str) -> float:
        if result is None:
            return 0.0
        return state.scoring("draw" if result == "draw" else "win" if result == side else "loss")

    paid = 0.0
    if slot.bid and state.charter.get("bid_handicap", "none") == "points":
        bidder = next(side for side, player in slot.sides.items() if player == slot.bid["player"])
        paid = max(0.0, min(float(slot.bid["amount"]), scored(bidder)))
    for side, player in slot.sides.items():
        value = scored(side)
        if paid:
            value += -paid if slot.bid["player"] == player else paid
        standby = state.replacements.get(slot.game, {}).get(side)
        if standby:
            points[player] = value * credit
            points[standby] = value * (1 - credit)
        else:
            points[player] = value
    return points


def silent_since(log: Any, entries: Sequence[Any], side: str) -> datetime | None:
    """When ``side`` fell silent: the opening of the first step after its last orders
    that had to play the defaults for it; None while the side is not silent. A step
    opens when the batch before it (or the charter) is recorded."""
    last_orders = max((o.step for o in log.orders if o.side == side), default=0)
    batches = log.effective_batches()
    first = next((b for b in batches if b.body["batch"] > last_orders and side in b.body.get("defaults", [])), None)
    if first is None:
        return None
    before = [b for b in batches if b.body["batch"] < first.body["batch"]]
    opener = before[-1].seq if before else 0
    return datetime.fromisoformat(entries[opener].body["private"]["opened"])


def _said(result: str | None) -> str:
    return "no result" if result is None else "a draw" if result == "draw" else f"{result} won"


def _nobody_or_both(game: str, quiet: Sequence[str]) -> str:
    return (f"no side of {game} is silent (no defaults played since its last orders)" if not quiet
            else f"both sides of {game} are silent")


def _check_entrant(player: Entrant, sides: Sequence[str]) -> None:
    if player.public_key:
        try:
            public_key_from_text(player.public_key)
        except Exception as err:  # noqa: BLE001 - any unreadable key is the same mistake
            raise RegistrationClosed(f"{player.name}'s public key is unusable: {err}") from err
    if player.bid and player.bid[0] not in sides:
        raise RegistrationClosed(f"{player.name} bids for side {player.bid[0]!r}; the sides are {', '.join(sides)}")


def _open_for_changes(state: EventState) -> None:
    if state.closed is not None:
        raise TournamentClosed(f"{state.name} is closed; its record can only be read")


def _registered(state: EventState, player: str) -> None:
    if player not in state.players:
        raise UnknownPlayer(f"{player!r} is not registered in {state.name}; the players are "
                            f"{', '.join(state.players) or 'none'}")


def opening_text(state: EventState, charter: Charter) -> str:
    fmt = charter.format + (f", {charter.rounds} rounds" if charter.rounds else "")
    return (f"{state.name} opens: {support(charter.game).title}, {fmt}; sides {charter.sides}.\n"
            f"Scoring: win {charter.scoring['win']:g}, draw {charter.scoring['draw']:g}, loss "
            f"{charter.scoring['loss']:g}; a bye scores as a {charter.bye}.\n"
            f"Tie-breaks, in order: {', '.join(charter.tiebreaks)}, then a draw from the committed seed.\n"
            f"Clocks: {charter.clocks['deadline_hours']:g} h per question; a round lasts "
            f"{charter.clocks['round_days']:g} days; {int(charter.clocks['reminders'])} reminders, then "
            f"{charter.clocks['silent_days']:g} silent days lose a game; absence budget "
            f"{charter.clocks['absence_days']:g} days.\n"
            f"Games still running at a round's end: {' -> '.join(charter.ladder)}.\n"
            f"Players: {', '.join(p.name for p in charter.players)}.\n"
            f"The seed chain's commitment: {state.charter['chain']['anchor']}\n")


def standings_text(state: EventState, lines: Sequence[standings_module.Line]) -> str:
    chain = [c for c in state.charter["tiebreaks"] if c in TIEBREAKS]
    done = sum(1 for _ in state.results)
    ladder = ""
    if state.format == "ladder":
        from adjudicator.tournament.ladder import render_ladder

        ladder = render_ladder(state) + "\n\n"
    return (f"Standings of {state.name} after {len(state.rounds)} round(s), {done} game(s) with a result.\n\n"
            + ladder + standings_module.render(lines, chain)
            + "\n\nPoints: win {w:g}, draw {d:g}, loss {l:g}; byes score as a {b}. Each column after W-D-L "
              "is a tie-break, applied in that order to players level on everything before it; "
              "'ahead on' says what put a player above the next; a final tie is drawn from the "
              "committed seed. docs/tournaments.md explains every column.\n"
              "The tournament record's head, to pin the audit ('adjudicator tournament audit --head'): {h}\n".format(
                  h=state.head,
                  w=state.scoring("win"), d=state.scoring("draw"), l=state.scoring("loss"), b=state.charter["bye"]))
