"""The campaign as the public record shows it, step by step.

Everything here is drawn from the public record alone (the signed records anyone may
download): a step's answers and dice as published, a sealed entry as its commitment,
and the position only as far as the record lets anyone replay it. In a campaign with
hidden information the replay stops at the first sealed entry until the opening
record, at the end of the game, opens every seal: then every step is replayed, with
the position as each side saw it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from adjudicator.campaign.games import support
from adjudicator.campaign.protocol import BATCH, OPENING
from adjudicator.campaign.verify import DRAWS, Verdict
from adjudicator.engine import Match
from adjudicator.engine.contract import GamePlugin
from adjudicator.fairdice import Record, canonical_json


@dataclass(frozen=True)
class EntryRow:
    """One published entry of a step: who, what kind, and what was answered or drawn
    (``sealed``: only the commitment is public; ``opened``: sealed during play, opened
    at the end)."""

    side: str
    kind: str
    text: str
    sealed: bool = False
    opened: bool = False
    purpose: str = ""
    drawn: bool = False  # a roll, shuffle or draw (else an answer)


@dataclass(frozen=True)
class Position:
    """The position after a step: the game's report part for a view (``side`` None:
    the public's, when every item so far is public or opened)."""

    side: str | None
    game_part: Mapping[str, Any]
    events: tuple[str, ...] = ()  # a side's view: what that side was told of the step


@dataclass(frozen=True)
class Step:
    number: int
    seq: int
    turn: Any
    phase: str
    rows: tuple[EntryRow, ...]
    dice: tuple[tuple[str, tuple[int, ...]], ...]
    seed: str
    contributions: Mapping[str, str]
    defaults: tuple[str, ...]
    waiting: Mapping[str, str] | None
    result: str | None
    voided: str | None = None            # the referee's reason, when an undo voided the step
    events: tuple[tuple[str, str], ...] | None = None  # (text, the sides it was told to, "" if all);
    #                                                    None: the record does not let the public replay it
    position: Position | None = None
    side_positions: tuple[Position, ...] = ()  # after the opening: what each side saw

    @property
    def name(self) -> str:
        return f"step-{self.number:03d}"


@dataclass(frozen=True)
class PublicCampaign:
    """The campaign as the public record shows it."""

    campaign: str
    game: str
    game_title: str
    options: Mapping[str, Any]
    sides: tuple[str, ...]
    referee_key: str
    steps: tuple[Step, ...]
    records: tuple[Record, ...]
    verdict: Verdict
    opened: bool            # the opening record is in: every secret of the game is public
    has_secrets: bool
    replayed_to: int        # the last step the public can replay
    result: str | None
    waiting: Mapping[str, str] | None
    undos: tuple[Mapping[str, Any], ...]

    @property
    def finished(self) -> bool:
        return self.result is not None


def asked_sides(waiting: Mapping[str, Any] | None) -> str:
    """Who a batch record's ``waiting`` asks, as the pages print it: the side, or every
    side of a stop that asks several at once (``sides``, docs/dice.md §8.1), as
    "Japan and Russia"."""
    if not waiting:
        return ""
    sides = [str(side).capitalize() for side in waiting.get("sides") or [waiting["side"]]]
    return sides[0] if len(sides) == 1 else ", ".join(sides[:-1]) + " and " + sides[-1]


def answer_text(answer: Any) -> str:
    """An answer as the site prints it: its canonical JSON."""
    return canonical_json(answer).decode("utf-8")


def entry_row(entry: Mapping[str, Any], opened: bool = False) -> EntryRow:
    """The row a clear entry prints."""
    for drawn in DRAWS:
        if drawn in entry:
            where = entry.get("at") or {}
            side = str(where.get("side") or "")
            return EntryRow(side, drawn, ", ".join(str(v) for v in entry[drawn]), opened=opened, drawn=True)
    return EntryRow(str(entry.get("side", "")), str(entry.get("kind", "")), answer_text(entry.get("answer")),
                    opened=opened)


def public_campaign(records: list[Record], verdict: Verdict) -> PublicCampaign:
    """Read the (verified) public record into its steps, replaying what is public."""
    charter = records[0].body
    plugin = support(str(charter["game"]))
    options = charter.get("options", {}) or {}
    game = plugin.game()
    opening = records[-1] if records[-1].kind == OPENING else None
    openings = {} if opening is None else {(int(o["batch"]), int(o["entry"])): o["open"]
                                           for o in opening.body.get("openings", [])}
    reasons = {int(v["batch"]): str(v["reason"]) for v in verdict.voided}  # each voided batch: the undo's reason
    match = Match(game, charter.get("setup", {}), options)
    blind = False
    replayed_to = 0
    steps = []
    for record in records:
        if record.kind != BATCH:
            continue
        body = record.body
        number = int(body["batch"])
        clear, rows = _clear_entries(number, body.get("entries", []), openings)
        step = _published_step(record, rows)
        if number in reasons:
            steps.append(_with(step, voided=reasons[number]))
            continue
        if blind or clear is None:
            blind = True
            steps.append(step)
            continue
        before = match.event_count
        rows = tuple(_apply(match, entry, row) for entry, row in zip(clear, step.rows))
        events = match.events_since(before) or []
        replayed_to = number
        dice = tuple((row.side, tuple(entry["dice"])) for entry, row in zip(clear, rows) if "dice" in entry)
        steps.append(_with(step, rows=rows, dice=dice,
                           **_replayed(plugin, match, events, options, opened=opening is not None)))
    last = next((r.body for r in reversed(records) if r.kind == BATCH and r.body["batch"] not in reasons), None)
    return PublicCampaign(
        campaign=str(charter["campaign"]), game=plugin.name, game_title=plugin.title, options=options,
        sides=tuple(p["side"] for p in charter.get("players", [])), referee_key=str(charter["referee_key"]),
        steps=tuple(steps), records=tuple(records), verdict=verdict, opened=opening is not None,
        has_secrets="hidden_chain" in charter, replayed_to=replayed_to,
        result=verdict.result if verdict.result is not None else (last or {}).get("result"),
        waiting=None if last is None else last.get("waiting"),
        undos=tuple(verdict.voided))


def _clear_entries(number: int, entries: list, openings: Mapping[tuple[int, int], Any]
                   ) -> tuple[list | None, list[EntryRow]]:
    """The batch's entries in clear (None while one is sealed) and the rows to print."""
    clear: list | None = []
    rows = []
    for position, entry in enumerate(entries, start=1):
        if "sealed" in entry:
            opened = openings.get((number, position))
            if opened is None:
                clear = None
                rows.append(EntryRow("", "sealed", str(entry["sealed"]), sealed=True))
                continue
            entry, was_sealed = opened, True
        else:
            was_sealed = False
        rows.append(entry_row(entry, opened=was_sealed))
        if clear is not None:
            clear.append({k: v for k, v in entry.items() if k != "at"})
    return clear, rows


def _published_step(record: Record, rows: list[EntryRow]) -> Step:
    body = record.body
    public_draws = [e for e in body.get("entries", []) if "dice" in e]
    where = next((e["at"] for e in body.get("entries", []) if "at" in e), {})
    dice = tuple((str((e.get("at") or {}).get("side") or ""), tuple(e["dice"])) for e in public_draws)
    return Step(number=int(body["batch"]), seq=record.seq, turn=where.get("turn", ""),
                phase=str(where.get("phase", "")), rows=tuple(rows), dice=dice, seed=str(body.get("seed", "")),
                contributions=dict(body.get("contributions", {})),
                defaults=tuple(str(d) for d in body.get("defaults", [])), waiting=body.get("waiting"),
                result=body.get("result"))


def _with(step: Step, **changes: Any) -> Step:
    from dataclasses import replace

    return replace(step, **changes)


def _apply(match: Match, entry: Mapping[str, Any], row: EntryRow) -> EntryRow:
    """Play one clear entry; its row, naming the side and the purpose of a draw."""
    drawn = next((key for key in DRAWS if key in entry), None)
    if drawn is None:
        match.answer(entry["side"], entry["answer"], entry.get("kind"))
        return row
    request = getattr(match, DRAWS[drawn][0])
    getattr(match, DRAWS[drawn][1])(entry[drawn])
    purpose = str(getattr(request, "purpose", "") or "")
    return _with(row, side=str(getattr(request, "side", "") or row.side), purpose=purpose)


def _replayed(plugin: GamePlugin, match: Match, events: list, options: Mapping[str, Any],
              opened: bool) -> dict[str, Any]:
    """What a replayed step adds: its events, the turn and phase, the position (and,
    once the secrets are opened, each side's view of it)."""
    game = plugin.game()
    state = match.state
    public = Position(None, plugin.report.context(state, game.view(state, None), None, options))
    shown = tuple((e.text, ", ".join(s.capitalize() for s in e.visible_to or ())) for e in events
                  if opened or e.visible_to is None)
    sides = tuple(Position(side, plugin.report.context(state, game.view(state, side), side, options),
                           tuple(e.text for e in events if e.visible_to is None or side in e.visible_to))
                  for side in game.sides) if opened else ()
    return {"events": shown, "turn": getattr(state, "turn", ""),
            "phase": str(public.game_part.get("phase_title") or getattr(state, "phase", "")),
            "position": public, "side_positions": sides}
