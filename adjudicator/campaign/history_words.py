"""The records of a campaign's history told in words, one line each (for the
``history`` command and the desk by mail), in the language of a gettext (English
without: the ``history`` command's words)."""

from __future__ import annotations

from typing import Any, Callable, Mapping

Gettext = Callable[[str], str]


def _as_written(message: str) -> str:
    return message


def waiting_words(waiting: Any, tr: Gettext | None = None) -> str:
    """What a batch left the game waiting for, in words: 'waiting for japan (flagship)'."""
    tr = tr or _as_written
    if not waiting:
        return tr("nothing asked (the game is over)")
    if isinstance(waiting, Mapping):
        side, ask = waiting.get("side"), waiting.get("ask") or waiting.get("kind")
        if side and ask:
            return tr("waiting for %(side)s (%(ask)s)") % {"side": side, "ask": ask}
        if side:
            return tr("waiting for %(side)s") % {"side": side}
        return tr("waiting for %(side)s") % {"side": ask} if ask else tr("nothing asked")
    return tr("waiting for %(side)s") % {"side": waiting}


def options_words(options: Any, tr: Gettext | None = None) -> str:
    """A charter's options, in words: 'fog_of_war = true, ...' (or 'rulebook options')."""
    tr = tr or _as_written
    if not options:
        return tr("rulebook options")
    if isinstance(options, Mapping):
        return ", ".join(f"{name} = {_value(value)}" for name, value in sorted(options.items()))
    return str(options)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(_value, value)) or "none"
    return str(value)


def record_detail(kind: str, body: Mapping[str, Any], tr: Gettext | None = None) -> str:
    """What one record says, without who sent orders (the caller adds that when it may);
    the options' names and values, the sides and the hashes as the record holds them."""
    tr = tr or _as_written
    if kind == "charter":
        return f"{body['game']}, {options_words(body.get('options'), tr)}"
    if kind == "orders":
        return tr("%(side)s step %(step)s %(hash)s") % {"side": body["side"], "step": body["step"],
                                                         "hash": body["orders_hash"][:16]}
    if kind == "batch":
        count = len(body["entries"])
        return (tr("batch %(batch)s: 1 entry, %(waiting)s") if count == 1 else
                tr("batch %(batch)s: %(count)s entries, %(waiting)s")) % {
            "batch": body["batch"], "count": count, "waiting": waiting_words(body.get("waiting"), tr)}
    if kind == "undo":
        return tr("back to batch %(batch)s: %(reason)s") % {"batch": body["back_to"], "reason": body["reason"]}
    if kind == "pause":
        return tr("paused by the %(by)s until %(until)s: %(reason)s") % {
            "by": body["by"], "until": body["until"], "reason": body["reason"]}
    if kind == "press":
        return tr("press from %(side)s to %(to)s: SHA-256 %(hash)s...") % {
            "side": body["side"], "to": ", ".join(body["to"]), "hash": body["sha256"][:16]}
    if kind == "replace":
        return tr("%(side)s played by %(player)s from step %(step)s") % {
            "side": body["side"], "player": body["player"], "step": body["step"]}
    if kind == "chain":
        return tr("new seed chain from batch %(batch)s") % {"batch": body["first_batch"]}
    return ""


def record_line(record: Any, tr: Gettext | None = None) -> str:
    """One record as a line: its number, kind and what it says."""
    return f"{record.seq:5d}  {record.kind:<8} {record_detail(record.kind, record.body, tr)}"
