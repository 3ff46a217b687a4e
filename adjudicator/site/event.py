"""A tournament's public archive: an index of its rounds and games, and each game's
own site (:func:`adjudicator.site.build_site`) in a folder named after the game."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from adjudicator.site.build import SiteError, SiteWritten, build_site, write_files

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey


@dataclass(frozen=True)
class EventWritten:
    folder: Path
    games: tuple[SiteWritten, ...]


def event_rounds(state: Any) -> list[dict[str, Any]]:
    """The rounds of a tournament's state as the index lists them: each game with its
    sides (side -> player), its result (None while running or without result) and
    whether it is still running; the byes."""
    rounds = []
    for info in state.rounds:
        games = []
        for slot in info.games:
            result = state.results.get(slot.game)
            games.append({"game": slot.game, "sides": dict(slot.sides), "running": result is None,
                          "result": None if result is None else result.result})
        rounds.append({"number": info.number, "games": games, "byes": list(info.byes)})
    return rounds


def build_event_site(event: str, rounds: Sequence[Mapping[str, Any]], records: Mapping[str, str], folder: Path,
                     key: "Ed25519PrivateKey | None" = None) -> EventWritten:
    """Write ``index.html`` listing ``rounds`` and, for each game whose public record is
    in ``records`` (game -> JSON Lines), that game's site in ``folder/<game>``."""
    from adjudicator.reports.render import template_environment

    for game in records:
        if Path(game).name != game or game.startswith("."):
            raise SiteError(f"game {game!r} cannot name a folder of the site")
    written = tuple(build_site(records[game], folder / game, key) for game in sorted(records))
    listed = [{**round_, "games": [{**game, "site": game["game"] in records} for game in round_["games"]]}
              for round_ in rounds]
    page = template_environment(True).get_template("site/event.html.j2").render(event=event, rounds=listed)
    write_files(folder, {"index.html": page})
    return EventWritten(folder, written)
