"""Press: messages between players, relayed by the referee without any address.

A campaign has press only when the referee allows it (``press = true`` in the
players file or a roster's ``[[campaign]]``, kept in the metadata as :data:`SETTINGS`;
off by default), with a courier delay (``press_delay_hours``, 0 by default).

A player's mail holds the lines ``campaign:``, ``side:`` and ``password:``, then a
line ``press:`` (alone, or naming the one side it is for: ``press: russia``), then the
message. The message is every line after the ``press:`` line up to the signature
line (``--`` alone on its line, as mail programs put above a signature) or the end
of the mail; each line loses its trailing spaces, blank lines at its start and end
are left out, and it ends with one newline (:func:`press_text`). Its SHA-256 (of
that text in UTF-8) goes into the public record as a signed ``press`` record
(docs/dice.md §8.1): the sending side, the sides it is for, the hash, when it was
received and when it is delivered; the text stays in the history's private part.

The message goes to every other side's player (or the one named) from the
referee's address, naming the sender by side only: no address, no threading under
the sender's mail. It is delivered at once, or once the courier delay has passed:
then it waits in the metadata (:data:`WAITING`: record numbers) and the next
``step``, ``send`` or ``serve`` tick after that time sends it
(:func:`deliver_due`). The relayed mail carries the text in an attached file,
``press-HASH12.txt``, exactly as hashed: ``sha256sum`` of that file prints the hash
in the record. The sender's receipt states the hash and when it is delivered.
"""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Mapping

from adjudicator.campaign.errors import CampaignError
from adjudicator.campaign.record_kinds import PRESS
from adjudicator.i18n import language_of, said, words

#: The campaign's metadata keys: its press settings, and the messages still to deliver.
SETTINGS, WAITING = "press", "press_waiting"
#: The players file's (and a roster campaign's) keys of the press settings.
ROSTER_ON, ROSTER_DELAY = "press", "press_delay_hours"
#: The longest message relayed, in characters, and the longest courier delay, in hours.
LONGEST_TEXT, LONGEST_DELAY_HOURS = 20_000, 24 * 30
#: The ``press:`` line of a mail (not a quoted one).
PRESS_LINE = re.compile(r"^[ \t]*press[ \t]*:[ \t]*(.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)
SIGNATURE_LINE = re.compile(r"^--[ \t]*$")
PASSWORD_LINE = re.compile(r"^[ \t>]*password[ \t]*:[ \t]*(.*?)[ \t]*$", re.IGNORECASE)
#: The line that starts a player's orders, written (not quoted from a mail replied to).
BEGIN_ORDERS = re.compile(r"^[ \t]*begin[ \t]+orders\b", re.IGNORECASE | re.MULTILINE)
#: The password line of the answer's template (quoted in a reply): no password.
PLACEHOLDER = "YOUR-PASSWORD"
WIDTH = 78
MARGIN = "| "  # before each line of a relayed message


class PressRefused(CampaignError):
    """A ``press:`` mail that cannot be relayed (press off, no text, a bad line)."""


@dataclass(frozen=True)
class PressText:
    """A message as relayed and hashed, and whether a signature was cut off it."""

    text: str
    signature_cut: bool

    @property
    def data(self) -> bytes:
        return self.text.encode("utf-8")



def salted(text: str, salt: str | None) -> bytes:
    """The bytes a press record's SHA-256 is of, and the relayed mail's attached file:
    the text, then a last line ``salt: HEX`` (a random salt, so that nobody can find a
    short message by hashing guesses such as "Agreed."); a record kept without a salt
    hashed the text alone."""
    return (text + (f"salt: {salt}\n" if salt else "")).encode("utf-8")


def digest_of(text: str, salt: str | None) -> str:
    import hashlib

    return hashlib.sha256(salted(text, salt)).hexdigest()


def when(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


# -- the campaign's settings --------------------------------------------------------------


def settings_of(entry: Mapping[str, Any], where: str) -> dict[str, Any] | None:
    """The press settings a players file's top level (or a roster's ``[[campaign]]``)
    gives, for the metadata (None: press off, the default); PressRefused, quoting
    the value, when one is not of its kind."""
    on = entry.get(ROSTER_ON, False)
    if not isinstance(on, bool):
        raise PressRefused(f"{where}: {ROSTER_ON} = {on!r}; write press = true (or false)")
    delay = entry.get(ROSTER_DELAY, 0)
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not 0 <= delay <= LONGEST_DELAY_HOURS:
        raise PressRefused(f"{where}: {ROSTER_DELAY} = {delay!r}; it is a number of hours from 0 to "
                           f"{LONGEST_DELAY_HOURS}")
    if not on:
        if ROSTER_DELAY in entry:
            raise PressRefused(f"{where}: {ROSTER_DELAY} is set but press is off: add press = true")
        return None
    return {"on": True, "delay_hours": delay}


def press_on(meta: Mapping[str, Any]) -> bool:
    return bool(meta.get(SETTINGS, {}).get("on"))


def delay_hours(meta: Mapping[str, Any]) -> float:
    return float(meta.get(SETTINGS, {}).get("delay_hours", 0))


def delay_words(meta: Mapping[str, Any]) -> str:
    hours = delay_hours(meta)
    return "delivered at once" if hours == 0 else f"delivered {hours:g} hours after it arrives (the courier)"


def press_help(meta: Mapping[str, Any], tr: Any = None) -> list[str]:
    """The lines of the desk's help that tell of press (the command's column is 12 wide),
    in the language of ``tr`` (a gettext; English without)."""
    tr = tr or (lambda message: message)
    if not press_on(meta):
        return ["  press:    " + tr("a message to the other side: not in this campaign (the referee"),
                "            " + tr("has not allowed press)")]
    hours = delay_hours(meta)
    return ["  press:    " + tr("a message to the other side, on the lines below this one (up to"),
            "            " + tr("a line '--'); relayed without your address, its SHA-256 in the"),
            "            " + (tr("public record, delivered at once") if hours == 0 else
                              tr("public record, delivered %(hours)s hours after it arrives") % {
                                  "hours": f"{hours:g}"})]


# -- reading the mail -----------------------------------------------------------------------


def press_text(after_line: str) -> PressText:
    """The message of a mail from the text after its ``press:`` line (see the module)."""
    lines, cut = [], False
    for line in after_line.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if SIGNATURE_LINE.match(line):
            cut = True
            break
        lines.append(line.rstrip())
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return PressText("\n".join(lines) + "\n" if lines else "", cut)


def recipients(line: str, side: str, sides: list[str]) -> list[str]:
    """The sides a ``press:`` line sends to: every other side, or the one it names."""
    value = PRESS_LINE.match(line).group(1).strip().casefold() if PRESS_LINE.match(line) else ""
    others = [other for other in sides if other != side]
    if value in ("", "all"):
        return others
    if value in others:
        return [value]
    if value == side:
        raise PressRefused(said("the line '%(line)s' names your own side: write 'press:' alone to send to "
                                "%(others)s, your message on the lines below it", line=line,
                                others=" and ".join(others)))
    raise PressRefused(said("the line '%(line)s' names no other side: write 'press:' alone on its line (or "
                            "'press: %(other)s'), then your message on the lines below it", line=line,
                            other=others[0]))


def checked_text(text: PressText) -> PressText:
    """PressRefused when there is nothing to relay, too much, orders (a ``BEGIN ORDERS``
    line not quoted) or a password in it."""
    if not text.text:
        raise PressRefused(said("there is no message below the 'press:' line: write your message on the lines "
                                "after it (a line '--' ends it, before your signature)"))
    if len(text.text) > LONGEST_TEXT:
        raise PressRefused(said("the message is %(count)s characters, more than the %(most)s a message may "
                                "hold: send it in parts", count=len(text.text), most=LONGEST_TEXT))
    if BEGIN_ORDERS.search(text.text):
        raise PressRefused(said("a 'BEGIN ORDERS' line is below the 'press:' line, in the message: orders go in "
                                "a mail of their own, never with press, so that they are filed and not relayed "
                                "to the other side; nothing was relayed"))
    if any((found := PASSWORD_LINE.match(line)) and found.group(1) != PLACEHOLDER for line in text.text.splitlines()):
        raise PressRefused(said("a 'password:' line is below the 'press:' line, in the message: put the "
                                "campaign, side and password lines above 'press:', so that they are not "
                                "relayed"))
    return text


# -- recording and relaying -------------------------------------------------------------------


def answer_press(tx: Any, key: Any, side: str, line: str, after_line: str, now: datetime,
                 sender: str | None = None, tr: Any = None) -> tuple[str, str]:
    """Record ``side``'s message as a signed press record (its hash; the text in the
    entry's private part), relay it now or queue it for the courier; the receipt's
    subject and text (for ``sender``: when that is not the side's registered address,
    the registered one gets a copy, as for orders), in the language of ``tr`` (the
    sender's gettext; English without). PressRefused, saying why, when nothing can be
    recorded."""
    from adjudicator.campaign.log import read_log
    from adjudicator.campaign.pause import PauseRefused, check_not_over
    from adjudicator.campaign.referee import check_referee_key, sign_next

    meta = tx.campaign().meta
    if not press_on(meta):
        raise PressRefused(said("campaign %(campaign)s has no press: the referee has not allowed messages "
                                "between players, so nothing was relayed or recorded", campaign=tx.campaign_id))
    to = recipients(line, side, list(meta.get("players", {})))
    text = checked_text(press_text(after_line))
    log = read_log(tx.campaign_id, tx.entries(verify=False))
    check_referee_key(key, log)
    try:
        check_not_over(tx, log)
    except PauseRefused as err:
        raise PressRefused(said("campaign %(campaign)s has ended: there is no press any more",
                                campaign=tx.campaign_id)) from err
    import secrets

    now = now.astimezone(timezone.utc).replace(microsecond=0)
    due = now + timedelta(hours=delay_hours(meta))
    salt = secrets.token_hex(16)
    body = {"side": side, "to": to, "sha256": digest_of(text.text, salt), "at": now.isoformat(),
            "deliver_at": due.isoformat()}
    seq = len(log.records)
    tx.append(PRESS, {"record": sign_next(key, log, PRESS, body).to_dict(),
                      "private": {"text": text.text, "salt": salt}})
    if due <= now:
        relay(tx, meta, seq, body, text.text, salt)
    else:
        tx.set_meta({**meta, WAITING: [*meta.get(WAITING, []), seq]})
    tr = tr or _as_written
    heading, words = receipt(tx.campaign_id, seq, body, text, due <= now, tr)
    registered = meta["players"][side].get("address")
    if sender and registered and sender.lower() != registered.lower():
        from adjudicator.campaign.pause import tell

        tell(tx, meta, side, tr("%(heading)s (press as %(side)s from %(sender)s)") % {
                 "heading": heading, "side": side, "sender": sender},
             f"{words}\n\n" + tr("This is a copy for the %(side)s player's registered address: a message was "
                                  "sent as %(side)s by mail from %(sender)s. If you did not send it, tell the "
                                  "referee.") % {"side": side, "sender": sender})
    return heading, words


def receipt(campaign: str, seq: int, body: Mapping[str, Any], text: PressText, now: bool,
            tr: Any = None) -> tuple[str, str]:
    """The sender's receipt: the hash, for whom, and when it is delivered (in the
    language of ``tr``)."""
    tr = tr or _as_written
    named = [tr(side.capitalize()) for side in body["to"]]
    to = named[0] if len(named) == 1 else tr("%(some)s and %(last)s") % {"some": ", ".join(named[:-1]),
                                                                         "last": named[-1]}
    values = {"to": to, "count": len(text.text.splitlines()), "seq": seq, "campaign": campaign,
              "at": when(datetime.fromisoformat(body["deliver_at"])), "file": f"press-{body['sha256'][:12]}.txt"}
    lines = [tr("Recorded: your message to %(to)s (%(count)s lines) is record %(seq)s of the public record of "
                "campaign %(campaign)s, which holds its SHA-256, never its text:") % values,
             f"  {body['sha256']}",
             tr("It went to %(to)s at once.") % values if now else
             tr("It is delivered to %(to)s once the campaign's courier delay has passed, at %(at)s (by the "
                "referee's first round after it).") % values,
             tr("%(to)s sees your side's name, never your address.") % values,
             tr("The hash is the SHA-256 of the text as relayed (the lines after your 'press:' line, up to a "
                "line '--' or the end, with the spaces at the end of each line, and blank lines at the start "
                "and end, left out, and one newline at its end) followed by a last line 'salt: ' and a random "
                "salt, kept private, so that nobody can find a short message by hashing guesses. The mail "
                "relayed carries both in an attached file %(file)s, whose 'sha256sum' is the hash above.")
             % values]
    if text.signature_cut:
        lines.append(tr("Not relayed: your mail's lines from the line '--' on (a signature)."))
    return (tr("Press recorded") if now else tr("Press waits for the courier")), "\n".join(lines)


def _as_written(message: str) -> str:
    return message


def relay(tx: Any, meta: Mapping[str, Any], seq: int, body: Mapping[str, Any], text: str,
          salt: str | None) -> None:
    """Queue the message to each side it is for: from the referee's address, the
    sender named by side, the text in the body and, exactly as hashed (with its salt),
    attached."""
    for side in body["to"]:
        address = meta["players"].get(side, {}).get("address")
        if address:
            data = relay_mail(tx.campaign_id, meta["referee_address"], address, side, seq, body, text, salt,
                              words(language_of(meta["players"][side])).gettext)
            tx.queue_mail(*data)


def relay_mail(campaign: str, referee: str, to: str, side: str, seq: int, body: Mapping[str, Any],
               text: str, salt: str | None, tr: Any = None) -> tuple[str, str, bytes]:
    """The relayed mail to ``side``'s player at ``to``: (Message-ID, address, bytes), in
    the language of ``tr`` (that player's gettext; English without)."""
    from adjudicator.mail import message_bytes
    from adjudicator.mail.outgoing import build_message, keep_mime_version_on_top
    from adjudicator.mail.plain import fit_text

    tr = tr or _as_written
    sender, digest = tr(body["side"].capitalize()), body["sha256"]
    shown, folded = fold(text)
    values = {"sender": sender, "campaign": campaign, "at": when(datetime.fromisoformat(body["at"])), "seq": seq,
              "file": f"press-{digest[:12]}.txt"}
    head = tr("A message from the %(sender)s player of campaign %(campaign)s, received by the referee on %(at)s "
              "and relayed without any address.") % values + "\n\n"
    tail = "\n".join([
        "", *([tr("Lines longer than 78 columns are wrapped above; the attached file holds them whole."), ""]
              if folded else []),
        tr("Its SHA-256, in record %(seq)s of the campaign's public record:") % values,
        f"  {digest}",
        tr("The attached file %(file)s holds the text exactly as hashed, with the random salt that keeps it "
           "from being guessed on its last line: 'sha256sum %(file)s' prints the same hash.") % values, "",
        tr("To answer, send the referee a mail with these lines, your message below them:"), "",
        f"  campaign: {campaign}", f"  side: {side}", f"  password: {tr(PLACEHOLDER)}", "  press:", ""])
    text_part = (fit_text(head) + tr("----- message -----") + "\n" + shown + tr("----- end of message -----")
                 + "\n" + fit_text(tail))
    message = build_message(sender=referee, to=to, subject=f"[{campaign}] " + tr("Press from %(sender)s") % values,
                            text=text_part)
    message.add_attachment(salted(text, salt), "text", "plain", filename=f"press-{digest[:12]}.txt",
                           params={"charset": "utf-8"})
    keep_mime_version_on_top(message)
    return str(message["Message-ID"]), to, message_bytes(message)


def fold(text: str) -> tuple[str, bool]:
    """The text with each line longer than :data:`WIDTH` less the margin broken (at
    spaces where it can), each line behind the margin ``| `` (so that nothing the
    sender writes can pass for the referee's words around it), and whether any line
    was broken."""
    out, folded, room = [], False, WIDTH - len(MARGIN)
    for line in text.split("\n")[:-1]:
        if len(line) <= room:
            out.append(line)
            continue
        folded = True
        out += textwrap.wrap(line, room, break_long_words=True, break_on_hyphens=False,
                             replace_whitespace=False, expand_tabs=False) or [line[:room]]
    return "".join(f"{MARGIN}{line}".rstrip() + "\n" for line in out), folded


# -- the courier ------------------------------------------------------------------------------


def press_due(meta: Mapping[str, Any]) -> bool:
    """Whether any message waits for the courier (cheap: the metadata only)."""
    return bool(meta.get(WAITING))


def deliver_due(tx: Any, now: datetime) -> int:
    """Relay every waiting message whose delivery time has come; how many."""
    meta = tx.campaign().meta
    waiting = list(meta.get(WAITING, []))
    if not waiting:
        return 0
    entries = {entry.seq: entry for entry in tx.entries(verify=False) if entry.seq in set(waiting)}
    kept, sent = [], 0
    for seq in waiting:
        record, private = _read(entries[seq])
        if datetime.fromisoformat(record["deliver_at"]) <= now.astimezone(timezone.utc):
            relay(tx, meta, seq, record, private["text"], private.get("salt"))
            sent += 1
        else:
            kept.append(seq)
    updated = {name: value for name, value in meta.items() if name != WAITING}
    tx.set_meta({**updated, WAITING: kept} if kept else updated)
    return sent


def deliver(store: Any, campaign: str, now: datetime | None = None) -> int:
    """The courier's round for one campaign: relay what is due (a transaction only
    when something waits); how many messages were queued."""
    now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    if not press_due(store.campaign(campaign).meta):
        return 0
    with store.transaction(campaign) as tx:
        return deliver_due(tx, now)


def _read(entry: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    stored = json.loads(entry.body_json) if isinstance(getattr(entry, "body_json", None), str) else entry.body
    return stored["record"]["body"], stored.get("private", {})


# -- what status tells ----------------------------------------------------------------------


def press_status(store: Any, campaign: str) -> dict[str, Any]:
    """For the referee's ``status``: press on or off, its courier delay, and the
    messages waiting for the courier (record, sides, when due; never a text)."""
    meta = store.campaign(campaign).meta
    waiting = set(meta.get(WAITING, []))
    entries = [entry for entry in store.entries(campaign, verify=False) if entry.seq in waiting] if waiting else []
    return {"on": press_on(meta), "delay_hours": delay_hours(meta),
            "waiting": [{"record": entry.seq, **{name: _read(entry)[0][name] for name in ("side", "to", "deliver_at")}}
                        for entry in entries]}


def press_status_lines(status: Mapping[str, Any]) -> list[str]:
    """The same, in words (one line each; nothing when the campaign has no press)."""
    if not status["on"]:
        return []
    hours = status["delay_hours"]
    lines = ["press: on, " + ("delivered at once" if hours == 0 else f"courier delay {hours:g} hours")]
    lines += [f"press waiting for the courier: record {item['record']} from {item['side']} to "
              f"{', '.join(item['to'])}, due {item['deliver_at']}" for item in status["waiting"]]
    return lines
