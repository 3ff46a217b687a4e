"""Registration, withdrawal and absence by email.

A message to the referee whose text holds these lines (anywhere, one per line)::

    tournament: spring-1905
    player: togo
    password: choose-one
    register                 # or: withdraw [reason]   or: absent DAYS
    address: togo@example.org    # register only: where the tournament's mail goes
    bid: japan:2             # register only, optional

``register`` sets the password for a new name (open registration); every later
message for that name must carry it -- the From header is never trusted. Every
message gets an answer (queued in the tournament's outbox: 'adjudicator send NAME');
the same message delivered twice is taken once."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from adjudicator.campaign.passwords import password_matches
from adjudicator.store import StoreError
from adjudicator.mail import IncomingMail, MailError, build_message, message_bytes, read_messages
from adjudicator.mail.plain import fit_text
from adjudicator.tournament.charter import entrant
from adjudicator.tournament.errors import TournamentError
from adjudicator.tournament.service import GAME, Tournaments

LINE = re.compile(r"^\s*(tournament|player|password|address|bid)\s*:\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
ACTION = re.compile(r"^\s*(register|withdraw|absent)\b\s*(.*?)\s*$", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Handled:
    origin: str
    outcome: str   # done, refused, duplicate, ignored
    detail: str


def take_mail(tournaments: Tournaments, source: str | Path, key: Any, now: datetime | None = None) -> list[Handled]:
    return [_take(tournaments, mail, key, now) for mail in read_messages(source)]


def _take(tournaments: Tournaments, mail: IncomingMail, key: Any, now: datetime | None) -> Handled:
    if mail.is_own or mail.is_auto_reply:
        return Handled(mail.origin, "ignored", "our own mail or an automatic reply")
    fields = {k.casefold(): v for k, v in LINE.findall(mail.text)}
    action = ACTION.search(mail.text)
    name = fields.get("tournament", "").casefold()
    if not name or action is None:
        return Handled(mail.origin, "ignored", "no 'tournament:' line and action (register, withdraw, absent)")
    try:
        tournaments.state(name)
    except (TournamentError, StoreError) as err:
        return _unknown_tournament(tournaments, mail, name, err)
    with tournaments.store.transaction(name) as tx:
        fresh = tx.mark_mail_seen(mail.message_id, mail.content_hash)
    if not fresh:
        return Handled(mail.origin, "duplicate", "already taken in")
    verb, rest = action.group(1).casefold(), action.group(2)
    try:
        done = _act(tournaments, name, verb, rest, fields, key, now)
        outcome = "done"
    except TournamentError as err:
        done, outcome = f"Not done, nothing was changed: {err}", "refused"
    _answer(tournaments, name, mail, done)
    return Handled(mail.origin, outcome, done)


def _unknown_tournament(tournaments: Tournaments, mail: IncomingMail, name: str, err: Exception) -> Handled:
    """A mail naming a tournament this store does not hold: answered (in the outbox of
    the tournament whose name is closest, else of the only one), naming the
    tournaments here; nothing is changed. With no tournament here to answer from, it
    is left, and the referee's screen says why."""
    known = [c.id for c in tournaments.store.campaigns() if c.game == GAME]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
    home = (close or (known if len(known) == 1 else []) or [None])[0]
    if home is None or not mail.sender:
        return Handled(mail.origin, "ignored", f"{err} (no tournament here to answer from)")
    with tournaments.store.transaction(home) as tx:
        if not tx.mark_mail_seen(mail.message_id, mail.content_hash):
            return Handled(mail.origin, "duplicate", "already taken in")
    hint = f"did you mean '{close[0]}'?" if close else f"the tournaments here: {', '.join(known)}."
    text = (f"Not done, nothing was changed: there is no tournament {name!r} here; {hint}\n"
            "Correct the 'tournament:' line and send the whole message again.")
    _answer(tournaments, home, mail, text)
    return Handled(mail.origin, "refused", f"no tournament {name!r}; answered from {home}")


def _act(tournaments: Tournaments, name: str, verb: str, rest: str, fields: dict[str, str], key: Any,
         now: datetime | None) -> str:
    player, password = fields.get("player", "").casefold(), fields.get("password", "")
    state = tournaments.state(name)
    if verb == "register" and player not in state.players:
        tournaments.register(name, entrant({"name": player, "address": fields.get("address"), "password": password,
                                            "bid": fields.get("bid")}, "registration by mail"), key)
        return f"{player} is registered in {name}."
    _authenticate(tournaments, name, player, password)
    if verb == "register":
        address = fields.get("address") or tournaments.addresses(name)[player]
        tournaments.register(name, entrant({"name": player, "address": address, "password": password,
                                            "bid": fields.get("bid")}, "registration by mail"), key)
        return f"{player}'s registration in {name} is updated."
    if verb == "withdraw":
        tournaments.withdraw(name, player, rest or "withdrawn by the player's mail", key)
        return f"{player} has withdrawn from {name}."
    try:
        days = float(rest.split()[0])
    except (ValueError, IndexError):
        raise TournamentError(f"'absent {rest}': give the number of days, e.g. 'absent 5'") from None
    tournaments.absence(name, player, days, key, now)
    return f"{player} is absent from {name} for {days:g} day(s)."


def _authenticate(tournaments: Tournaments, name: str, player: str, password: str) -> None:
    with tournaments.store.transaction(name) as tx:
        stored = tx.get_secret(f"password:{player}")
    if stored is None or not password or not password_matches(password, stored):
        raise TournamentError(f"wrong or missing password for {player!r} (a line 'password: ...'): "
                              "nothing was changed")


def _answer(tournaments: Tournaments, name: str, mail: IncomingMail, text: str) -> None:
    if not mail.sender:
        return
    with tournaments.store.transaction(name) as tx:
        try:
            message = build_message(sender=tx.campaign().meta["referee_address"], to=mail.sender,
                                    subject=f"[{name}] {mail.subject or 'your message'}", text=fit_text(text) + "\n",
                                    in_reply_to=mail.message_id, references=mail.references)
        except MailError:
            return
        tx.queue_mail(message["Message-ID"], mail.sender, message_bytes(message))
