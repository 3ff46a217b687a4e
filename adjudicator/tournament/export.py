"""Exports: the standings (with tie-breaks, ratings and reliability) as CSV or JSON,
and the public bundle -- the tournament's record and every game's -- for the audit."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any, Sequence

from adjudicator.tournament.standings import Line


def rows(lines: Sequence[Line], ratings: dict[str, Any], reliability: dict[str, Any],
         addresses: dict[str, str], chain: Sequence[str]) -> list[dict[str, Any]]:
    out = []
    for line in lines:
        address = addresses.get(line.player, "").casefold()
        rating = ratings.get(address)
        steady = reliability.get(address)
        row = {"rank": line.rank, "player": line.player, "points": line.points, "games": line.games,
               "wins": line.wins, "draws": line.draws, "losses": line.losses}
        row.update({name: round(line.tiebreaks.get(name, 0.0), 4) for name in chain})
        row.update({"decided_by": line.decided_by, "withdrawn": line.withdrawn,
                    "rating": None if rating is None else round(rating.rating, 1),
                    "rating_deviation": None if rating is None else round(rating.rd, 1),
                    "volatility": None if rating is None else round(rating.volatility, 5),
                    "provisional": None if rating is None else rating.provisional,
                    "answered": None if steady is None else steady.answered,
                    "defaults": None if steady is None else steady.defaults,
                    "forfeits": None if steady is None else steady.forfeits,
                    "on_time": None if steady is None or steady.on_time is None else round(steady.on_time, 3)})
        out.append(row)
    return out


def to_csv(table: list[dict[str, Any]]) -> str:
    if not table:
        return ""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(table[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(table)
    return buffer.getvalue()


def to_json(tournament: str, table: list[dict[str, Any]], extra: dict[str, Any]) -> str:
    return json.dumps({"tournament": tournament, "standings": table, **extra}, indent=2)


def write_bundle(folder: Path, tournament: str, record: str, games: dict[str, str]) -> list[Path]:
    """The public bundle: ``tournament.jsonl`` and ``games/<campaign>.jsonl``."""
    (folder / "games").mkdir(parents=True, exist_ok=True)
    written = [folder / "tournament.jsonl"]
    written[0].write_text(record, encoding="utf-8")
    for game, text in games.items():
        path = folder / "games" / f"{game}.jsonl"
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def read_bundle(folder: Path) -> tuple[str, dict[str, str]]:
    record = (folder / "tournament.jsonl").read_text(encoding="utf-8")
    games = {path.stem: path.read_text(encoding="utf-8") for path in sorted((folder / "games").glob("*.jsonl"))}
    return record, games
