"""The records of a campaign's history told in words, one line each (for the
``history`` command and the desk by mail)."""

from __future__ import annotations

from typing import Any, Mapping


def waiting_words(waiting: Any) -> str:
    """What a batch left the game waiting for, in words: 'waiting for japan (flagship)'."""
    if not waiting:
        return "nothing asked (the game is over)"
    if isinstance(waiting, Mapping):
        side, ask = waiting.get("side"), waiting.get("ask") or waiting.get("kind")
        if side and ask:
            return f"waiting for {side} ({ask})"
        if side:
            return f"waiting for {side}"
        return f"waiting for {ask}" if ask else "nothing asked"
    return f"waiting for {waiting}"


def options_words(options: Any) -> str:
    """A charter's options, in words: 'fog_of_war = true, ...' (or 'rulebook options')."""
    if not options:
        return "rulebook options"
    if isinstance(options, Mapping):
        return ", ".join(f"{name} = {_value(value)}" for name, value in sorted(options.items()))
    return str(options)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(_value, value)) or "none"
    return str(value)


def record_detail(kind: str, body: Mapping[str, Any]) -> str:
    """What one record says, without who sent orders (the caller adds that when it may)."""
    if kind == "charter":
        return f"{body['game']}, {options_words(body.get('options'))}"
    if kind == "orders":
        return f"{body['side']} step {body['step']} {body['orders_hash'][:16]}"
    if kind == "batch":
        count = len(body["entries"])
        return (f"batch {body['batch']}: {count} {'entry' if count == 1 else 'entries'}, "
                f"{waiting_words(body.get('waiting'))}")
    if kind == "undo":
        return f"back to batch {body['back_to']}: {body['reason']}"
    if kind == "pause":
        return f"paused by the {body['by']} until {body['until']}: {body['reason']}"
    if kind == "press":
        return f"press from {body['side']} to {', '.join(body['to'])}: SHA-256 {body['sha256'][:16]}..."
    if kind == "replace":
        return f"{body['side']} played by {body['player']} from step {body['step']}"
    if kind == "chain":
        return f"new seed chain from batch {body['first_batch']}"
    return ""


def record_line(record: Any) -> str:
    """One record as a line: its number, kind and what it says."""
    return f"{record.seq:5d}  {record.kind:<8} {record_detail(record.kind, record.body)}"
