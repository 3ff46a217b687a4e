"""Taking in orders by mail: every message answered, the right orders in force, one bad
message never stopping the others.

For each message of a delivery (a Maildir, an mbox, ``.eml`` files, standard input):

1. our own mail and auto-replies are ignored, never answered;
2. the orders are found: in the body (a reply above or below a quoted report) or in a
   text attachment; when the body and an attachment both hold text, the first part
   that reads as orders wins (the body first) and the receipt says what was ignored;
3. the orders are read and checked against the campaign as it stands *outside* any
   write transaction (:meth:`Campaigns.prepare`); then one short transaction
   records the mail as seen, authenticates and records the orders (read again only
   if the campaign moved meanwhile) and queues the answers;
4. the answer goes to the sender's plain address (never to group syntax or an address
   hidden in a crafted From) and, for orders naming a side, also to that side's
   registered address; an address that is not a player of the campaign gets no
   quotation of the mail's text;
5. a mail naming an unknown campaign, or no campaign, is answered when its sender is
   a player or it looks like orders ("did you mean ...?");
6. anything unexpected while taking one message refuses that message alone, with a
   reply when possible.

The same message is taken once: the same Message-ID, or, for mail without one, the
same content (line ends and relays' trace headers aside). The same text sent again
in a new message is a new submission: A, then B, then A again leaves A in force.

While a delivery is taken in, each campaign it names carries an intake marker (in
its metadata, refreshed with every message); ``adjudicate`` waits for it to go, so
that it never runs with a player's older orders while newer ones are being read.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.campaign.campaign import Campaigns, PreparedOrders, step_deadline, utc
from adjudicator.campaign.errors import CampaignError
from adjudicator.campaign.intake_marker import INTAKE_MARKER, intake_marker
from adjudicator.campaign.games import support
from adjudicator.campaign.language_choice import (
    UnknownLanguage,
    chosen_words,
    language_in,
    refused_words,
    unknown_words,
    with_language,
    without_language_lines,
)
from adjudicator.campaign.log import read_log
from adjudicator.campaign.parsed import cache_key, remember_accepted
from adjudicator.engine import EngineError
from adjudicator.i18n import language_of, say_in, words
from adjudicator.mail import IncomingMail, MailError, outgoing_mail
from adjudicator.mail.plain import fit_text
from adjudicator.campaign.mail_desk import (
    Command,
    DeskRefused,
    command_in,
    commands_beside_orders,
    help_text,
    others_note,
    queue_answer,
    reason_of,
)
from adjudicator.campaign.mail_desk import answer as desk_answer
from adjudicator.orders import OrdersError
from adjudicator.orders.keywords import COMMON, side_names, spellings
from adjudicator.orders.text import clean
from adjudicator.store import CampaignNotFound, InvalidCampaignId
from adjudicator.store.errors import (
    CampaignBusy,
    HistoryCorrupt,
    NotAStore,
    StoreUnavailable,
    StoreVersionError,
)


def _header_key(english: str) -> str:
    """A regexp of a header key in English or in French (``grammar/keywords-fr.toml``):
    ``campaign`` or ``campagne``, ``password`` or ``mot de passe``."""
    words = (english, *spellings(english, COMMON))
    return "(?:" + "|".join(r"\s+".join(map(re.escape, word.split())) for word in words) + ")"


CAMPAIGN_LINE = re.compile(rf"^\s*{_header_key('campaign')}\s*:\s*([A-Za-z0-9][A-Za-z0-9-]*)\s*(?:#.*)?$",
                           re.IGNORECASE | re.MULTILINE)
SIDE_LINE = re.compile(rf"^\s*{_header_key('side')}\s*:?\s*([^\W\d_][\w-]*)\s*(?:#.*)?$",
                       re.IGNORECASE | re.MULTILINE)
#: Lines that only orders have: the generic header keys and the start marker, in
#: English or in French.
ORDERS_LIKE = re.compile(
    r"^\s*(?:(?:" + "|".join(_header_key(key) for key in ("campaign", "side", "turn", "step", "password",
                                                           "signature", "entropy"))
    + r")\s*:|begin\s+orders\b|d[ée]but\s+des\s+ordres\b)", re.IGNORECASE | re.MULTILINE)
#: A campaign named in a subject line: '[c1]' (as every mail of the referee's is tagged).
SUBJECT_TAG = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9-]*)\]")
#: Headers a relay adds in front of a message: not part of what the sender sent.
TRACE_HEADERS = frozenset({"received", "return-path", "delivered-to", "x-original-to", "x-delivered-to"})
#: Errors of the store itself: the intake stops (nothing is lost: the mail is read again next time).
STORE_FAILURES = (CampaignBusy, StoreUnavailable, NotAStore, StoreVersionError, HistoryCorrupt)



@dataclass(frozen=True)
class Taken:
    """What became of one incoming message."""

    origin: str
    campaign: str | None
    outcome: str  # "accepted", "answered" (a command by mail), "refused", "duplicate", "ignored"
    detail: str


@dataclass(frozen=True)
class Part:
    """A part of a mail that may hold orders: the body, or a text attachment."""

    name: str | None  # None: the message body; else the attachment's file name
    text: str

    def label(self, tr: Any = None) -> str:
        """The part in words (in the language of ``tr``, a gettext; English without)."""
        tr = tr or _as_written
        return tr("the message body") if self.name is None else tr("the attachment %(name)s") % {
            "name": repr(self.name)}


def campaign_named_in(text: str) -> str | None:
    """The campaign an orders text names in its header, if any."""
    found = CAMPAIGN_LINE.search(_cleaned(text))
    return found.group(1).lower() if found else None


def looks_like_orders(text: str) -> bool:
    """Whether a text has a line only orders have (a header key, BEGIN ORDERS)."""
    return ORDERS_LIKE.search(_cleaned(text)) is not None


def _cleaned(text: str) -> str:
    try:
        return "\n".join(clean(text).lines)
    except Exception:  # noqa: BLE001 - a text we cannot even clean names nothing
        return text


def mail_identity(mail: IncomingMail) -> tuple[str | None, str]:
    """(Message-ID, hash) by which the store recognises the same message delivered
    again: the Message-ID when there is one; else the content, without the trace
    headers relays add and with line ends normalised."""
    if mail.message_id is not None:
        return mail.message_id, hashlib.sha256(b"message-id\n" + mail.message_id.encode("utf-8")).hexdigest()
    raw = mail.raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    head, sep, body = raw.partition(b"\n\n")
    kept, skipping = [], False
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t"):
            if not skipping:
                kept.append(line)
            continue
        skipping = line.split(b":", 1)[0].strip().lower().decode("latin-1") in TRACE_HEADERS
        if not skipping:
            kept.append(line)
    content = b"\n".join(kept) + sep + body.rstrip(b"\n")
    return None, hashlib.sha256(b"content\n" + content).hexdigest()


def orders_parts(mail: IncomingMail) -> list[Part]:
    """The body and the text attachments that hold any text, body first."""
    parts = [Part(None, mail.text)] + [Part(name, text) for name, text in mail.attachments_text]
    return [part for part in parts if part.text.strip()] or [Part(None, mail.text)]


# -- taking mail in ---------------------------------------------------------------------


#: The campaign's metadata key of the mail refused or ignored (for 'history'), and how
#: many of the latest are kept (a flood of junk mail cannot grow the campaign without end).
MAIL_LOG, MAIL_LOG_KEPT = "mail_log", 500


#: The campaign's metadata key of each player's orders mail accepted since their last
#: report (address in lower case -> the mail's Message-ID), which that report threads under.
ORDERS_MAIL = "orders_mail"


def note_orders_mail(tx: Any, mail: IncomingMail) -> None:
    """Keep the Message-ID of accepted orders mail from a player's address, by that
    address, for the player's next report to answer (:data:`ORDERS_MAIL`)."""
    meta = tx.campaign().meta
    if mail.message_id is None or not _is_player(mail.reply_address, meta):
        return  # only a player's own address gets reports to thread
    waiting = {**meta.get(ORDERS_MAIL, {}), mail.reply_address.lower(): mail.message_id}
    tx.set_meta({**meta, ORDERS_MAIL: waiting})


def note_mail(tx: Any, mail: IncomingMail, taken: Taken, digest: str) -> None:
    """Keep a refused or ignored mail's time, sender and outcome for 'history' (once per
    message; never its text)."""
    meta = tx.campaign().meta
    noted = list(meta.get(MAIL_LOG, []))
    if any(item.get("hash") == digest for item in noted):
        return
    noted.append({"at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "hash": digest,
                  "sender": (mail.reply_address or mail.sender or "")[:320] or None, "message_id": mail.message_id,
                  "outcome": taken.outcome, "detail": taken.detail})
    tx.set_meta({**meta, MAIL_LOG: noted[-MAIL_LOG_KEPT:]})


class Intake:
    """Takes in the mail of one delivery for the campaigns of one store."""

    def __init__(self, campaigns: Campaigns, key: Ed25519PrivateKey) -> None:
        self.campaigns = campaigns
        self.store = campaigns.store
        self.key = key

    def take_all(self, mails: Iterable[IncomingMail], default_campaign: str | None) -> list[Taken]:
        """Take in every message, in arrival order, each on its own; the campaigns
        named carry the intake marker meanwhile."""
        mails = list(mails)
        marked = self._mark(self._campaigns_named(mails, default_campaign))
        try:
            return [self.take(mail, default_campaign) for mail in mails]
        finally:
            self._unmark(marked)

    def take(self, mail: IncomingMail, default_campaign: str | None) -> Taken:
        """Take in one message; never raises for anything the message holds."""
        if mail.is_own:
            return Taken(mail.origin, None, "ignored", "our own mail")
        if mail.is_auto_reply:
            return Taken(mail.origin, None, "ignored", "an automatic reply")
        campaign = None
        try:
            parts = orders_parts(mail)
            campaign = next((c for c in map(campaign_named_in, (p.text for p in parts)) if c), None)
            if campaign is None:  # a command mail's campaign line, read as it stands
                campaign = next((found.group(1).lower() for p in parts if command_in(p.text)
                                 for found in [CAMPAIGN_LINE.search(p.text)] if found), None)
            if campaign is None:  # the subject's tag names it more surely than the default
                tagged = self._campaign_in_subject(mail)
                if tagged is not None:
                    return self._take(mail, parts, None, tagged, from_subject=True)
            return self._take(mail, parts, campaign, default_campaign)
        except STORE_FAILURES:
            raise
        except Exception as err:  # noqa: BLE001 - one message must never stop the intake
            return self._unreadable(mail, campaign or default_campaign, err)

    # -- one message ----------------------------------------------------------------

    def _campaign_in_subject(self, mail: IncomingMail) -> str | None:
        """A campaign of this store that the subject names in brackets ('Re: [c1] ...')."""
        for tag in SUBJECT_TAG.findall(mail.subject or ""):
            try:
                self.store.campaign(tag.lower())
            except (CampaignNotFound, InvalidCampaignId):
                continue
            return tag.lower()
        return None

    def _take(self, mail: IncomingMail, parts: list[Part], named: str | None, default: str | None,
              from_subject: bool = False) -> Taken:
        campaign = named or default
        if campaign is None:
            return self._misaddressed(mail, parts, None)
        try:
            meta = self.store.campaign(campaign).meta
        except (CampaignNotFound, InvalidCampaignId):
            return self._misaddressed(mail, parts, campaign)
        identity = mail_identity(mail)
        if self._seen(campaign, identity):
            return Taken(mail.origin, campaign, "duplicate", "already taken in")
        command = next((c for c in map(command_in, (p.text for p in parts)) if c), None)
        if command is not None:
            return self._command(mail, campaign, command, identity)
        if from_subject and not any(looks_like_orders(p.text) for p in parts):
            return self._stray(mail, campaign, identity, meta)
        if not self._answerable(mail, parts, meta):
            ignored = Taken(mail.origin, campaign, "ignored", "not orders, and not from a player of this campaign")
            with self.store.transaction(campaign) as tx:
                note_mail(tx, mail, ignored, identity[1])
            return ignored
        parts, asked = _without_language_lines(parts)
        chosen, prepared, error, ignored = self._choose(campaign, parts)

        def notes_in(tr: Any) -> list[str]:
            """The receipt's notes on the parts ignored and the commands beside the orders."""
            return ([tr("%(part)s was ignored: the orders were read from %(chosen)s.") % {
                        "part": part.label(tr), "chosen": chosen.label(tr)} for part in ignored]
                    + commands_beside_orders(chosen.text, tr))
        with self.store.transaction(campaign) as tx:
            if not tx.mark_mail_seen(*identity):
                return Taken(mail.origin, campaign, "duplicate", "already taken in")
            self._beat(tx)
            if error is None:
                try:
                    receipt = self.campaigns.submit_in(tx, chosen.text, self.key, prepared=prepared,
                                                       sender=mail.reply_address or mail.sender)
                except (OrdersError, CampaignError, EngineError) as err:
                    error = err
            if isinstance(error, OrdersError):
                error = self.campaigns.with_authentication(tx, error)
            if error is not None:
                side = _side_named(chosen.text, meta)
                tr = _words_of(meta, side).gettext
                elsewhere = self._elsewhere(mail.reply_address, campaign, tr)
                notes = notes_in(tr) + ([refused_words(asked, tr)] if asked is not None else [])
                self._answer(tx, mail, side, tr("Your orders were not accepted"),
                             _refusal(error, tr=tr) + elsewhere, _refusal(error, quote=False, tr=tr) + elsewhere,
                             notes, tr)
                refused = Taken(mail.origin, campaign, "refused", _first_line(error))
                note_mail(tx, mail, refused, identity[1])
                return refused
            entries = tx.entries(verify=False)  # verified by submit_in in this transaction
            log = read_log(campaign, entries)
            accepted = log.orders[-1]
            if prepared is not None:
                remember_accepted(tx, prepared.orders, receipt.text,
                                  cache_key(support(log.charter["game"]).data_hashes()))
            meta, noted = _choose_language(tx, tx.campaign().meta, accepted.side, asked)
            tr = _words_of(meta, accepted.side).gettext
            notes = notes_in(tr) + ([noted(tr)] if noted is not None else [])
            text = "\n".join([receipt.render(tr), "", *_replacing(log, accepted, mail.date, tr),
                              _deadline(entries, meta, tr)])
            self._answer(tx, mail, accepted.side, tr("Orders accepted"), text, text, notes, tr)
            note_orders_mail(tx, mail)
            return Taken(mail.origin, campaign, "accepted", receipt.sha256)

    def _choose(self, campaign: str, parts: list[Part]
                ) -> tuple[Part, PreparedOrders | None, Exception | None, list[Part]]:
        """The part that holds the orders (outside any write transaction): the first
        that reads as orders wins; else the first part's (or the part naming the
        campaign's) problems are the answer. The last item: the parts ignored."""
        results: list[tuple[Part, PreparedOrders | None, Exception | None]] = []
        for part in parts:
            try:
                results.append((part, self.campaigns.prepare(campaign, part.text), None))
            except (OrdersError, CampaignError, EngineError) as err:
                results.append((part, None, err))
            if not isinstance(results[-1][2], OrdersError):
                break
        chosen = next((r for r in results if not isinstance(r[2], OrdersError)), None)
        if chosen is None:
            chosen = next((r for r in results if campaign_named_in(r[0].text)), results[0])
        return chosen[0], chosen[1], chosen[2], [part for part in parts if part is not chosen[0]]

    def _answerable(self, mail: IncomingMail, parts: list[Part], meta: Mapping[str, Any]) -> bool:
        """Answer a player's address, or any mail that looks like orders."""
        return _is_player(mail.reply_address, meta) or any(looks_like_orders(p.text) for p in parts)

    def _seen(self, campaign: str, identity: tuple[str | None, str]) -> bool:
        message_id, digest = identity
        return any((message_id is not None and seen.message_id == message_id) or seen.content_hash == digest
                   for seen in self.store.seen_mail(campaign))

    # -- answers ----------------------------------------------------------------------

    def _answer(self, tx: Any, mail: IncomingMail, side: str | None, heading: str, text: str,
                safe_text: str, notes: list[str], tr: Any = None) -> None:
        """Queue the answer to the sender and, for a side's orders, to the side's
        registered address; a sender who is not a player gets ``safe_text``. The
        answer's words are in the language of ``tr`` (a gettext; English without)."""
        tr = tr or _as_written
        meta = tx.campaign().meta
        body = text + "".join("\n" + tr("Note: %(note)s") % {"note": note} for note in notes)
        sender = mail.reply_address
        if sender is not None:
            own = body if _is_player(sender, meta) else safe_text
            self._queue(tx, meta, sender, heading, own, mail)
        registered = meta["players"].get(side, {}).get("address") if side else None
        if registered and (sender is None or registered.lower() != sender.lower()):
            origin = (tr("from %(sender)s") % {"sender": sender} if sender
                      else tr("from an address that cannot be answered"))
            note = "\n\n" + tr("This is a copy for the %(side)s player's registered address: orders for %(side)s "
                                 "came by mail %(origin)s. If you did not send them, tell the referee.") % {
                "side": side, "origin": origin}
            self._queue(tx, meta, registered, tr("%(heading)s (orders for %(side)s %(origin)s)") % {
                "heading": heading, "side": side, "origin": origin}, body + note, None)

    def _queue(self, tx: Any, meta: Mapping[str, Any], to: str, heading: str, text: str,
               mail: IncomingMail | None) -> None:
        try:
            message = outgoing_mail(
                sender=meta["referee_address"], to=to, subject=f"[{tx.campaign_id}] {heading}", text=fit_text(text) + "\n",
                in_reply_to=mail.message_id if mail else None, references=mail.references if mail else (),
            )
        except MailError:
            return  # an address we cannot write to: the referee sees the outcome in 'receive'
        tx.queue_mail(message.message_id, to, message.data)

    def _command(self, mail: IncomingMail, campaign: str, command: Command, identity: tuple[str | None, str]
                 ) -> Taken:
        """Answer a command by mail (:mod:`adjudicator.campaign.mail_desk`); nothing recorded
        but the mail as seen (and, when refused, in the mail log)."""
        with self.store.transaction(campaign) as tx:
            if not tx.mark_mail_seen(*identity):
                return Taken(mail.origin, campaign, "duplicate", "already taken in")
            meta = tx.campaign().meta
            to = mail.reply_address
            if to is None:
                ignored = Taken(mail.origin, campaign, "ignored", f"the command '{command.word}' from no address")
                note_mail(tx, mail, ignored, identity[1])
                return ignored
            try:
                reply = desk_answer(tx, campaign, command, to, key=self.key)
            except DeskRefused as err:
                tr = _words_of(meta, command.side if command.side in meta.get("players", {}) else None).gettext
                text = (tr("Your command '%(command)s' was not answered, and nothing was recorded: %(why)s.") % {
                            "command": command.word, "why": say_in(reason_of(err), tr)}
                        + self._elsewhere(to, campaign, tr)
                        + "\n" + tr("Send a mail with the lines 'campaign: %(campaign)s' and 'help' for the "
                                     "commands.") % {"campaign": campaign}
                        + (f"\n\n{others_note(command, tr)}" if command.others else ""))
                self._queue(tx, meta, to, tr("Your command '%(command)s' was not answered") % {
                    "command": command.word}, text, mail)
                refused = Taken(mail.origin, campaign, "refused", str(err))
                note_mail(tx, mail, refused, identity[1])
                return refused
            now = tx.campaign().meta  # (a 'language:' command has just changed the reader's language)
            tr = _words_of(now, command.side if command.side in now.get("players", {}) else None).gettext
            queue_answer(tx, meta, to, reply, mail.message_id, mail.references, others_note(command, tr), tr)
        return Taken(mail.origin, campaign, "answered", f"the command '{command.word}'")

    def _stray(self, mail: IncomingMail, campaign: str, identity: tuple[str | None, str],
               meta: Mapping[str, Any]) -> Taken:
        """A mail that names its campaign only in its subject (a reply to a report,
        'Thanks, got it'): a player is told how to send orders and commands."""
        if not _is_player(mail.reply_address, meta):
            ignored = Taken(mail.origin, campaign, "ignored", "no orders, from no player of this campaign")
            with self.store.transaction(campaign) as tx:
                note_mail(tx, mail, ignored, identity[1])
            return ignored
        with self.store.transaction(campaign) as tx:
            if not tx.mark_mail_seen(*identity):
                return Taken(mail.origin, campaign, "duplicate", "already taken in")
            tr = _words_of(meta, _side_of(mail.reply_address, meta)).gettext
            text = (tr("Your mail about campaign %(campaign)s holds no orders and no command, so nothing was "
                        "recorded (the referee does not read mail by hand).") % {"campaign": campaign} + "\n\n"
                    + help_text(campaign, list(meta.get("players", {})), meta, tr))
            self._queue(tx, meta, mail.reply_address, tr("Your mail holds no orders"), text, mail)
            taken = Taken(mail.origin, campaign, "refused", "no orders and no command (campaign named in the subject)")
            note_mail(tx, mail, taken, identity[1])
        return taken

    def _elsewhere(self, address: str | None, campaign: str, tr: Any = None) -> str:
        """For a sender who plays in other campaigns of this store and not in ``campaign``:
        which ones ('' otherwise)."""
        tr = tr or _as_written
        if not address:
            return ""
        try:
            if _is_player(address, self.store.campaign(campaign).meta):
                return ""
        except (CampaignNotFound, InvalidCampaignId):
            pass
        playing = [c.id for c in self.store.campaigns() if c.id != campaign and _is_player(address, c.meta)]
        if not playing:
            return ""
        return "\n" + tr("You are not a player of %(campaign)s; you play in %(playing)s: did you mean "
                          "'campaign: %(first)s'?") % {"campaign": campaign, "playing": ", ".join(playing),
                                                      "first": playing[0]}

    def _misaddressed(self, mail: IncomingMail, parts: list[Part], named: str | None) -> Taken:
        """A mail naming no campaign, or one this store does not hold: answered when
        the sender is a player or the mail looks like orders, in the campaign the
        sender plays in or the one the name is closest to."""
        known = [c.id for c in self.store.campaigns()]
        close = difflib.get_close_matches(named, known, n=1, cutoff=0.5) if named else []
        playing = [c.id for c in self.store.campaigns() if _is_player(mail.reply_address, c.meta)]
        home = (close or playing or (known if len(known) == 1 else []) or [None])[0]
        what = f"no campaign {named!r} in this store" if named else "names no campaign (no 'campaign:' line)"
        orders_like = any(looks_like_orders(p.text) for p in parts)
        if home is None or mail.reply_address is None or not (playing or orders_like):
            return Taken(mail.origin, named, "ignored", what)
        meta = self.store.campaign(home).meta
        player = _is_player(mail.reply_address, meta)
        tr = _words_of(meta, _side_of(mail.reply_address, meta)).gettext
        if named:
            problem = (tr("there is no campaign '%(named)s' here") % {"named": named} if player else
                       tr("the campaign your mail names is not run here")) + (
                tr("; did you mean '%(close)s'?") % {"close": close[0]} if close else
                tr("; campaigns here: %(known)s.") % {"known": ", ".join(known)})
        else:
            problem = tr("your mail names no campaign: start your orders, or a command such as 'help', with a "
                         "line 'campaign: %(home)s'.") % {"home": home}
        text = (tr("Your mail was not taken as orders, and nothing was recorded: %(problem)s") % {"problem": problem}
                + "\n" + tr("Correct the 'campaign:' line and send the whole orders again."))
        with self.store.transaction(home) as tx:
            if not tx.mark_mail_seen(*mail_identity(mail)):
                return Taken(mail.origin, home, "duplicate", "already taken in")
            self._queue(tx, meta, mail.reply_address, tr("Your mail was not taken as orders"), text, mail)
        return Taken(mail.origin, home, "refused", what)  # the campaign whose outbox holds the answer

    def _unreadable(self, mail: IncomingMail, campaign: str | None, err: Exception) -> Taken:
        """The last resort for a message that could not be taken in: refuse it alone,
        recorded as seen and answered (without quoting it) when possible."""
        detail = f"could not be read ({type(err).__name__}); nothing recorded"
        if campaign is None:
            return Taken(mail.origin, None, "refused", detail)
        try:
            with self.store.transaction(campaign) as tx:
                if tx.mark_mail_seen(*mail_identity(mail)) and mail.reply_address:
                    meta = tx.campaign().meta
                    tr = _words_of(meta, _side_of(mail.reply_address, meta)).gettext
                    text = tr("Your mail could not be read as orders, and nothing was recorded. Send your orders "
                              "again as plain text (UTF-8), in the body of a mail or as a .txt attachment.")
                    self._queue(tx, meta, mail.reply_address, tr("Your mail could not be read"), text, mail)
        except STORE_FAILURES:
            raise
        except Exception:  # noqa: BLE001 - not even that: the referee sees it in the output
            return Taken(mail.origin, campaign, "refused", detail + "; not answered")
        return Taken(mail.origin, campaign, "refused", detail)

    # -- the intake marker --------------------------------------------------------------

    def _campaigns_named(self, mails: list[IncomingMail], default: str | None) -> list[str]:
        named = {default} if default else set()
        for mail in mails:
            for part in orders_parts(mail):
                found = campaign_named_in(part.text)
                if found:
                    named.add(found)
        known = {c.id for c in self.store.campaigns()}
        return sorted(named & known)

    def _mark(self, campaigns: list[str]) -> list[str]:
        for campaign in campaigns:
            with self.store.transaction(campaign) as tx:
                self._beat(tx, start=True)
        return campaigns

    def _beat(self, tx: Any, start: bool = False) -> None:
        """Set (``start``) or refresh this intake's marker on the transaction's campaign."""
        meta = tx.campaign().meta
        if start or INTAKE_MARKER in meta:
            tx.set_meta({**meta, INTAKE_MARKER: intake_marker(utc(None))})

    def _unmark(self, campaigns: list[str]) -> None:
        for campaign in campaigns:
            try:
                with self.store.transaction(campaign) as tx:
                    meta = tx.campaign().meta
                    meta.pop(INTAKE_MARKER, None)
                    tx.set_meta(meta)
            except STORE_FAILURES:
                continue  # a stale marker expires by itself


# -- texts ------------------------------------------------------------------------------


def _is_player(address: str | None, meta: Mapping[str, Any]) -> bool:
    if not address:
        return False
    return any(p.get("address", "").lower() == address.lower() for p in meta.get("players", {}).values())


def _side_of(address: str | None, meta: Mapping[str, Any]) -> str | None:
    """The side whose player has ``address`` (None: no player's)."""
    return next((side for side, player in meta.get("players", {}).items()
                 if address and player.get("address", "").lower() == address.lower()), None)


def _side_named(text: str, meta: Mapping[str, Any]) -> str | None:
    found = SIDE_LINE.search(_cleaned(text))
    side = found.group(1).casefold() if found else None
    sides = meta.get("players", {})
    if side not in sides:   # a side named in French: "camp: Japon"
        side = next((known for known in sides if side in (name.casefold() for name in side_names(known))), None)
    return side


def _as_written(message: str) -> str:
    return message


def _words_of(meta: Mapping[str, Any], side: str | None) -> Any:
    """The translations of the language ``side``'s player reads (the default for no side)."""
    return words(language_of(meta.get("players", {}).get(side)) if side else None)


def _without_language_lines(parts: list[Part]) -> tuple[list[Part], str | None]:
    """The parts with their ``language:`` lines left blank, and the language the mail
    asks for (:mod:`adjudicator.campaign.language_choice`)."""
    asked: list[str] = []
    kept = []
    for part in parts:
        text, found = without_language_lines(part.text)
        asked += found
        kept.append(Part(part.name, text))
    return kept, language_in(asked)


def _choose_language(tx: Any, meta: Mapping[str, Any], side: str, asked: str | None) -> tuple[Any, Any]:
    """Carry out a ``language:`` line beside accepted orders: the campaign's metadata
    afterwards, and the receipt's note on it (a function of the reader's gettext; None
    without a line)."""
    if asked is None:
        return meta, None
    try:
        updated = with_language(meta, side, asked)
    except UnknownLanguage:
        current = language_of(meta["players"].get(side))
        return meta, lambda tr: unknown_words(asked, current, tr)
    tx.set_meta(updated)
    chosen = language_of(updated["players"][side])
    return updated, lambda tr: chosen_words(chosen, tr)


def _replacing(log: Any, accepted: Any, dated: datetime | None, tr: Any = _as_written) -> list[str]:
    """What the newly accepted orders replace. Arrival order decides, not the mail's
    Date: a mail dated before the orders it replaces arrived is told so."""
    earlier = [o for o in log.orders[:-1] if o.side == accepted.side and o.step == accepted.step]
    if not earlier:
        return [tr("These are the first orders of %(side)s for step %(step)s.") % {
            "side": accepted.side, "step": accepted.step}]
    previous = earlier[-1]
    when = _format_time(previous.received_at) if previous.received_at else tr("an earlier mail")
    lines = [tr("These orders replace your orders for step %(step)s of %(when)s (SHA-256 %(sha256)s...): "
                 "the orders received last are the ones in force.") % {
        "step": accepted.step, "when": when, "sha256": previous.sha256[:16]}]
    if dated is not None and previous.received_at and dated < datetime.fromisoformat(previous.received_at):
        lines.append(tr("Note: this mail is dated %(date)s, before the orders it replaces arrived. Orders "
                         "count in the order they arrive here, not by their Date: if you meant the newer "
                         "orders, send them again.") % {
            "date": dated.astimezone(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')})
    return lines


def _deadline(entries: list[Any], meta: Mapping[str, Any], tr: Any = _as_written) -> str:
    deadline = step_deadline(entries, meta)
    return tr("Deadline for this step: %(deadline)s. Until then you may send new orders; the last "
               "received replace the earlier.") % {"deadline": deadline.strftime('%Y-%m-%d %H:%M UTC')}


def _format_time(iso: str) -> str:
    return datetime.fromisoformat(iso).astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _first_line(err: Exception) -> str:
    if isinstance(err, OrdersError):
        return f"{len(err.problems)} problem(s) in the orders"
    return str(err)


def _refusal(err: Exception, quote: bool = True, tr: Any = _as_written) -> str:
    """The answer to refused orders; without ``quote``, nothing of the mail's text
    (for an address that is not a player of the campaign). The frame is in the
    language of ``tr``; each problem is said as the orders reader says it."""
    if isinstance(err, OrdersError):
        lines = [tr("Your orders were not accepted: %(count)s problem(s). Nothing was recorded;") % {
                     "count": len(err.problems)},
                 tr("correct them and send the whole orders again."), ""]
        lines += [problem.render(tr) if quote else _unquoted(problem, tr) for problem in err.problems]
        if quote:
            lines += [tr("Note: %(note)s") % {"note": say_in(note, tr)} for note in err.notes]
        return "\n".join(lines)
    if not quote:
        return tr("Your orders were not accepted (%(kind)s), and nothing was recorded. The details "
                   "go only to a player's registered address.") % {"kind": _kind(err)}
    return tr("Your orders were not accepted, and nothing was recorded:") + f"\n\n{err}\n"


def _unquoted(problem: Any, tr: Any = _as_written) -> str:
    where = tr("line %(line)s, column %(column)s:") % {"line": problem.line, "column": problem.column} + " " \
        if problem.line else ""
    return f"{where}{problem.code} {problem.title_in(tr)}"


def _kind(err: Exception) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", " ", type(err).__name__).lower()
