"""Replacement players: the referee gives a side a new player, who takes over its
password, its mail and its position from the open step on.

``adjudicator replace CAMPAIGN SIDE --player "Name <address>" --password ...`` (the
password asked for, unseen, when not given) records a signed ``replace`` record in
the public record: the side, the step it takes effect (the open step) and the new
player's display name, never an address or a password (docs/dice.md §8.1). In the
same transaction:

- the side's password becomes the new one (hashed, as ``new`` stores it), so the old
  password stops working at once: orders and commands by mail with it are refused as
  with any wrong password, and nothing else is said of the side;
- the side's mail goes to the new address; the old ones are kept in the campaign's
  metadata (``former``), so that ``report N`` by mail still finds the reports of the
  side that went to them;
- the old player's absences and pause request (theirs, not the side's) are withdrawn;
- the newcomer gets a briefing: the position as the side sees it (its report, fog of
  war respected), the orders in force for the side (its standing orders with the open
  step's), the campaign's records one line each and the reports the side received,
  and nothing of any other side's hidden information;
- the other sides are told the side and the new player's name (not the address), and
  the old player that their password no longer works.

The orders already on file for the side stay in force: they are the side's, and the
newcomer may send others before the deadline. Results count per tenure: each side's
tenures (:func:`tenures`), read from the public record, say which player held the
side at each step, so that a result is credited to the player who held it at the end,
and each step answered or defaulted to the player who held the side then.

A campaign whose game has ended, a sealed campaign (the old player's own seed chain
cannot be handed over) and a side that signs its orders with a key are not replaced.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from datetime import datetime, timezone
from html import escape
from typing import Any, Iterable, Mapping, Sequence

from adjudicator.campaign.errors import CampaignError
from adjudicator.campaign.record_kinds import REPLACE, record_body
from adjudicator.i18n import language_of, words

#: The name of a side's player before any replacement (the charter names no player).
FIRST_PLAYER = "the first player"
#: The campaign's metadata key, under a side's player, of the addresses it had before.
FORMER = "former"
#: A display name: words, no address, no line break.
NAME = re.compile(r"^[^@<>\r\n\"]+$")


class ReplaceRefused(CampaignError):
    """A replacement that cannot be recorded as asked."""


@dataclass(frozen=True)
class Tenure:
    """One player's hold on a side: from ``first_step`` to ``last_step`` (None: still
    holding it), and the record that began it (None: the charter)."""

    side: str
    player: str
    first_step: int
    last_step: int | None
    record: int | None

    def steps_words(self) -> str:
        if self.last_step is None:
            return f"from step {self.first_step}"
        if self.last_step < self.first_step:
            return "no step played"
        if self.last_step == self.first_step:
            return f"step {self.first_step}"
        return f"steps {self.first_step}-{self.last_step}"

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "first_step": self.first_step, "last_step": self.last_step,
                "record": self.record}


@dataclass(frozen=True)
class Replaced:
    """What ``replace`` did: the side, the new player's name, the step it takes effect
    and the public record's new record."""

    side: str
    player: str
    step: int
    record: int


# -- reading the public record -------------------------------------------------------------


def replacements(entries: Iterable[Any]) -> list[tuple[int, Mapping[str, Any]]]:
    """Each replace record of a campaign's stored entries (or records): its number and body."""
    return [(getattr(entry, "seq", seq), record_body(entry)) for seq, entry in enumerate(entries)
            if entry.kind == REPLACE]


def tenures(entries: Iterable[Any], sides: Sequence[str]) -> dict[str, list[Tenure]]:
    """Each side's tenures, first to last, read from the replace records (the charter's
    player is :data:`FIRST_PLAYER`)."""
    found: dict[str, list[Tenure]] = {side: [Tenure(side, FIRST_PLAYER, 1, None, None)] for side in sides}
    for seq, body in replacements(entries):
        held = found.setdefault(body["side"], [Tenure(body["side"], FIRST_PLAYER, 1, None, None)])
        last = held[-1]
        held[-1] = Tenure(last.side, last.player, last.first_step, body["step"] - 1, last.record)
        held.append(Tenure(body["side"], body["player"], body["step"], None, seq))
    return found


def stored_tenures(store: Any, campaign: str) -> dict[str, list[Tenure]]:
    """Each side's tenures of a stored campaign (its entries read unchecked: the callers
    have checked them)."""
    return tenures(store.entries(campaign, verify=False), list(store.campaign(campaign).meta.get("players", {})))


def tenure_at(held: Sequence[Tenure], step: int) -> Tenure:
    """The tenure of a side that holds ``step`` (the last one that began by then)."""
    return [t for t in held if t.first_step <= step][-1] if step >= 1 else held[0]


def tenure_lines(held: Mapping[str, Sequence[Tenure]], only_replaced: bool = True) -> list[str]:
    """One line a side: its players and their steps ('russia: the first player,
    steps 1-4; Ivan Petrov, from step 5'); sides never replaced are left out unless
    ``only_replaced`` is False."""
    return [f"{side}: " + "; ".join(f"{t.player}, {t.steps_words()}" for t in side_held)
            for side, side_held in held.items() if len(side_held) > 1 or not only_replaced]


def status_lines(entries: Sequence[Any], sides: Sequence[str]) -> list[str]:
    """What ``status`` by mail says of the tenures: nothing when no side was given a
    new player, else one line a side that was."""
    if not replacements(entries):
        return []
    return [f"Players of {line}." for line in tenure_lines(tenures(entries, sides))]


def record_words(body: Mapping[str, Any]) -> str:
    """A replace record in words, for ``history``."""
    return f"{body['side']} played by {body['player']} from step {body['step']}"


# -- the new player ----------------------------------------------------------------------


def read_player(given: str) -> tuple[str, str]:
    """The display name and address of ``"Name <address>"``; ReplaceRefused, quoting it,
    when the name or the address is missing or unusable."""
    from adjudicator.mail import MailError
    from adjudicator.mail.outgoing import parse_address

    try:
        address = parse_address(given.strip())
    except MailError as err:
        raise ReplaceRefused(f"the player {given!r} is not one usable address ({err}): give the name and the "
                             "address as 'Ivan Petrov <ivan@example.org>'") from None
    name = " ".join(address.display_name.split())
    if not name or not NAME.match(name):
        raise ReplaceRefused(f"the player {given!r} has no name to put in the public record: give the name "
                             "and the address as 'Ivan Petrov <ivan@example.org>' (the name only is "
                             "published, never the address)")
    return name, address.addr_spec


# -- recording it ------------------------------------------------------------------------


def replace_player(store: Any, campaign: str, side: str, player: str, password: str, key: Any,
                   now: datetime | None = None) -> Replaced:
    """Give ``side`` of ``campaign`` the player ``player`` ("Name <address>") with
    ``password``: the signed record, the new password and address, the briefing to the
    newcomer and the notices to the other sides and the old player (queued)."""
    from adjudicator.campaign.passwords import hash_password

    name, address = read_player(player)
    if not password or not password.strip():
        raise ReplaceRefused("the new player needs a password: give --password (or type it when asked)")
    stored = hash_password(password)  # the deliberately slow hash, before the transaction
    now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    with store.transaction(campaign) as tx:
        return _replace_in(tx, side, name, address, stored, key, now)


def _replace_in(tx: Any, side: str, name: str, address: str, stored: Mapping[str, Any], key: Any,
                now: datetime) -> Replaced:
    from adjudicator.campaign.campaign import replay_game
    from adjudicator.campaign.log import read_log
    from adjudicator.campaign.referee import check_referee_key, sign_next

    campaign = tx.campaign_id
    meta = tx.campaign().meta
    sides = list(meta.get("players", {}))
    side = side.casefold()
    if side not in sides:
        raise ReplaceRefused(f"campaign {campaign} has no side {side!r}: its sides are {', '.join(sides)}")
    log = read_log(campaign, tx.entries())
    check_referee_key(key, log)
    _check_replaceable(tx, log, side, address, meta, replay_game)
    body = {"side": side, "step": log.next_batch, "player": name}
    seq = len(log.records)
    tx.append(REPLACE, {"record": sign_next(key, log, REPLACE, body).to_dict()})
    tx.set_secret(f"password:{side}", dict(stored))
    old = meta["players"][side]
    updated = _with_new_player(meta, side, address)
    tx.set_meta(updated)
    replaced = Replaced(side, name, log.next_batch, seq)
    _brief(tx, updated, side, name, address, now)
    _tell_others(tx, updated, replaced)
    _tell_former(tx, updated, replaced, old.get("address"), language_of(old))
    return replaced


def _check_replaceable(tx: Any, log: Any, side: str, address: str, meta: Mapping[str, Any],
                       replay_game: Any) -> None:
    player = next(p for p in log.charter["players"] if p["side"] == side)
    if player.get("auth") == "key":
        raise ReplaceRefused(f"the {side} player signs orders with a key: a side that signs cannot be given "
                             "a new player with a password; end this campaign and start a new one")
    if log.charter.get("sealed"):
        raise ReplaceRefused(f"campaign {tx.campaign_id} is sealed: the {side} player's own seed chain cannot "
                             "be handed to a new player; end this campaign and start a new one")
    if log.forfeit is not None or replay_game(log, tx.get_secret).finished:
        raise ReplaceRefused(f"campaign {tx.campaign_id} has ended: there is no side left to play")
    for other, held in meta["players"].items():
        if other != side and str(held.get("address", "")).casefold() == address.casefold():
            raise ReplaceRefused(f"{address} is the {other} player's address: one player, one side")


def _with_new_player(meta: Mapping[str, Any], side: str, address: str) -> dict[str, Any]:
    """The metadata with ``side``'s new address (the old one kept under :data:`FORMER`)
    and without the old player's absences and pause request."""
    from adjudicator.campaign.absence import ABSENCES
    from adjudicator.campaign.pause import REQUESTS

    old = dict(meta["players"][side])
    former = [*old.pop(FORMER, []), old["address"]] if old.get("address") else old.pop(FORMER, [])
    players = {**meta["players"], side: {**old, "address": address, FORMER: former}}
    updated = {**meta, "players": players}
    for key in (ABSENCES, REQUESTS):
        kept = {s: v for s, v in updated.get(key, {}).items() if s != side}
        if kept:
            updated[key] = kept
        else:
            updated.pop(key, None)
    return updated


# -- the mails -----------------------------------------------------------------------------


def _brief(tx: Any, meta: Mapping[str, Any], side: str, name: str, address: str, now: datetime) -> None:
    """The newcomer's briefing: how they come in, the position as the side sees it, the
    orders in force, the records and the reports the side received."""
    from adjudicator.campaign.campaign import replay_game
    from adjudicator.campaign.log import read_log
    from adjudicator.campaign.mail_desk import _map, _orders_text, history_text
    from adjudicator.campaign.summary import step_deadline
    from adjudicator.mail.plain import fit_text
    from adjudicator.reports.mailed import report_mail

    entries = tx.entries(verify=False)
    log = read_log(tx.campaign_id, entries)
    match = replay_game(log, tx.get_secret)
    deadline = step_deadline(entries, meta)
    position = _map(log, match, side, meta, deadline)
    intro = "\n".join([
        f"Welcome, {name}. The referee has given you the {side.capitalize()} side of campaign "
        f"{tx.campaign_id}, from step {log.next_batch} on.",
        "Your password is the one the referee gave you; the other sides know your name, not your address.",
        f"The deadline of the open step is {deadline.strftime('%Y-%m-%d %H:%M UTC')}.",
        "Below: the position as your side sees it, the orders in force for your side (they stand unless "
        "you send others before the deadline), the campaign's records and the reports your side received.",
        f"Send a mail with 'campaign: {tx.campaign_id}', 'side: {side}', 'password: ...' and 'help' for the "
        "commands by mail.",
    ])
    rest = "\n".join(["", "ORDERS IN FORCE", "", _orders_text(log, match, side), "",
                      "HISTORY", "", history_text(log), "", "REPORTS YOUR SIDE RECEIVED", "",
                      *_reports_received(tx, meta, side)])
    text = "\n".join([fit_text(intro), "", "THE POSITION", "", position.text.rstrip("\n"), fit_text(rest)]) + "\n"
    html = None
    if position.html is not None:
        html = position.html.replace("<body>", f"<body>\n<p>{escape(intro)}</p>", 1)
        html = html.replace("</body>", f"<pre>{escape(rest)}</pre>\n</body>", 1)
    subject = f"[{tx.campaign_id}] You now play {side.capitalize()}: your briefing"
    if html is None:
        from adjudicator.mail.outgoing import outgoing_mail

        mail = outgoing_mail(sender=meta["referee_address"], to=address, subject=subject, text=text)
    else:
        mail = report_mail(sender=meta["referee_address"], to=address, subject=subject, text=text, html=html)
    tx.queue_mail(mail.message_id, address, mail.data)


def _reports_received(tx: Any, meta: Mapping[str, Any], side: str) -> list[str]:
    """The subject of each report that went to the side's players, oldest first."""
    from adjudicator.mail import message_headers

    held = meta["players"][side]
    addresses = {a.casefold() for a in [*held.get(FORMER, []), held["address"]]}
    found = []
    for mail in tx.outbox():
        if mail.recipient.casefold() not in addresses:
            continue
        subject = str(message_headers(mail.eml)["Subject"] or "")
        if " - report for " in subject or "the campaign opens" in subject:
            found += textwrap.wrap(subject.split("] ", 1)[-1], 78, initial_indent="  ", subsequent_indent="    ")
    if not found:
        return ["None yet."]
    return [*found, "", "Send 'report N' by mail for the report of step N again."]


def _tell_others(tx: Any, meta: Mapping[str, Any], replaced: Replaced) -> None:
    from adjudicator.campaign.pause import tell

    for other in meta["players"]:
        if other != replaced.side:
            tr = words(language_of(meta["players"][other])).gettext
            values = {"side": tr(replaced.side.capitalize()), "campaign": tx.campaign_id, "player": replaced.player,
                      "step": replaced.step}
            tell(tx, meta, other, tr("%(side)s has a new player") % values,
                 tr("The referee has given the %(side)s side of campaign %(campaign)s to a new player, "
                    "%(player)s, from step %(step)s on.") % values + "\n"
                 + tr("Nothing else changes: the orders on file stand, and the deadline of the open step is "
                      "the same. The change is in the public record ('history' by mail)."))


def _tell_former(tx: Any, meta: Mapping[str, Any], replaced: Replaced, address: str | None,
                 language: str | None = None) -> None:
    from adjudicator.mail.outgoing import outgoing_mail
    from adjudicator.mail.plain import fit_text

    if not address:
        return
    tr = words(language).gettext
    values = {"side": tr(replaced.side.capitalize()), "campaign": tx.campaign_id, "step": replaced.step}
    text = tr("The referee has given the %(side)s side of campaign %(campaign)s to another player from step "
              "%(step)s on. Your password for it no longer works, and no more reports of the campaign will "
              "come to you. Thank you for playing.") % values
    mail = outgoing_mail(sender=meta["referee_address"], to=address,
                         subject=f"[{tx.campaign_id}] " + tr("You no longer play %(side)s") % values,
                         text=fit_text(text) + "\n")
    tx.queue_mail(mail.message_id, address, mail.data)
