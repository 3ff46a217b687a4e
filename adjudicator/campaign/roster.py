"""Many campaigns created at once from a roster: the players named once, each with one
address and one password, and the campaigns pairing them by side.

A club referee starting a league (every member against every other, or a season of
fixtures) gives ``adjudicator new --roster league.toml``. Each player's password is
hashed once (Argon2id at today's strength, :meth:`Player.hashed`) and that hash goes
into each of the player's campaigns: one password means that whoever cracks one copy
has it whatever the salts, so a hash per campaign would only cost time (about 30 ms a
hash, two per campaign). Each campaign is created in its own transaction, with its
opening mails, exactly as ``new`` creates one.

The roster is checked whole before any campaign is made. A campaign that is already
in the store with the same game and the same players is left as it is (a roster run
again after an interruption creates only what is missing); one that is there with
other players stops the run before anything is written.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, Sequence

from adjudicator.campaign.auth import check_addresses, check_players
from adjudicator.campaign.campaign import Campaigns, Player
from adjudicator.campaign.delivery import with_grace
from adjudicator.campaign.errors import CampaignError
from adjudicator.i18n import DEFAULT_LANGUAGE, UnknownLanguage, check_language
from adjudicator.store import CampaignNotFound
from adjudicator.store.validate import campaign_id as valid_campaign_id

#: A player's choice of reports: one per step, or one per turn (a digest).
REPORT_CHOICES = ("step", "turn")


class BadRoster(CampaignError):
    """A roster file that cannot be used: unreadable, or naming a player, side or
    campaign wrongly. Nothing has been created."""


@dataclass(frozen=True)
class RosterCampaign:
    """One campaign of a roster: its id and the player (by roster name) of each side."""

    id: str
    sides: Mapping[str, str]
    absence_budget: Mapping[str, int] | None = None  # the campaign's own, else the defaults
    press: Mapping[str, Any] | None = None  # press between players and its courier delay (None: off)
    bounce_grace_hours: float | None = None  # how long a deadline waits for an undelivered reminder


@dataclass(frozen=True)
class Roster:
    """Players by name, and the campaigns that pair them."""

    players: Mapping[str, Player]  # name -> the player (its side is filled per campaign)
    campaigns: tuple[RosterCampaign, ...]

    def players_of(self, campaign: RosterCampaign) -> list[Player]:
        return [replace(self.players[name], side=side) for side, name in campaign.sides.items()]

    def hashed(self) -> "Roster":
        """The same roster with each player's password hashed once."""
        return replace(self, players={name: player.hashed() for name, player in self.players.items()})


@dataclass(frozen=True)
class RosterOutcome:
    created: tuple[str, ...]
    already_there: tuple[str, ...]


def read_roster(text: str, where: str, sides: Sequence[str]) -> Roster:
    """The roster in ``text`` (TOML; ``where`` names it in messages) for a game played
    by ``sides``. Raises BadRoster, quoting what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise BadRoster(f"{where} is not TOML: {err}") from None
    unknown = set(data) - {"player", "campaign"}
    if unknown:
        raise BadRoster(f"{where}: unknown key(s) {', '.join(sorted(map(repr, unknown)))}; a roster holds "
                        "[[player]] and [[campaign]] tables (the game, options and deadline are the command's)")
    players = _players(data.get("player", []), where)
    campaigns = _campaigns(data.get("campaign", []), where, players, sides)
    return Roster(players, campaigns)


def _tables(value: Any, what: str, where: str) -> list[Mapping[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise BadRoster(f"{where}: {what} must be tables ([[{what}]])")
    return value


def _players(entries: Any, where: str) -> dict[str, Player]:
    players: dict[str, Player] = {}
    for entry in _tables(entries, "player", where):
        name, address = entry.get("name"), entry.get("address")
        if not isinstance(name, str) or not name.strip() or not isinstance(address, str) or not address.strip():
            raise BadRoster(f"{where}: each [[player]] needs a name and an address (and a password or a "
                            f"public_key); got {dict((k, v) for k, v in entry.items() if k != 'password')!r}")
        name = name.strip()
        if name in players:
            raise BadRoster(f"{where}: player {name!r} is named twice")
        password, public_key = entry.get("password"), entry.get("public_key")
        if not password and not public_key:
            raise BadRoster(f"{where}: player {name!r} needs a password or a public_key")
        reports = entry.get("reports", "step")
        if reports not in REPORT_CHOICES:
            raise BadRoster(f"{where}: reports = {reports!r} for {name}; it is one of "
                            f"{', '.join(map(repr, REPORT_CHOICES))} (a report per step, or one per turn)")
        try:
            language = check_language(entry.get("language", DEFAULT_LANGUAGE), "language")
        except UnknownLanguage as err:
            raise BadRoster(f"{where}: {err}, for {name}") from err
        players[name] = Player("", address.strip(), str(password) if password else None,
                               str(public_key) if public_key else None, reports, language=language)
    return players


def _campaigns(entries: Any, where: str, players: Mapping[str, Player],
               sides: Sequence[str]) -> tuple[RosterCampaign, ...]:
    found: dict[str, RosterCampaign] = {}
    for entry in _tables(entries, "campaign", where):
        ident = entry.get("id")
        try:
            ident = valid_campaign_id(ident)
        except ValueError as err:
            raise BadRoster(f"{where}: campaign id {ident!r}: {err}") from None
        if ident in found:
            raise BadRoster(f"{where}: campaign {ident!r} is listed twice")
        given = entry.get("players")
        if not isinstance(given, dict):
            wanted = ", ".join(f'{side} = "NAME"' for side in sides)
            raise BadRoster(f"{where}: campaign {ident!r} needs players = {{ {wanted} }}")
        chosen = {str(side).strip().lower(): name for side, name in given.items()}
        if sorted(chosen) != sorted(sides):
            raise BadRoster(f"{where}: campaign {ident!r} names sides {', '.join(sorted(chosen)) or 'none'}; "
                            f"this game needs one player for each of {', '.join(sides)}")
        for side, name in chosen.items():
            if name not in players:
                raise BadRoster(f"{where}: campaign {ident!r} gives {side} to {name!r}, who is not a [[player]]")
        if len(set(chosen.values())) < len(chosen):
            raise BadRoster(f"{where}: campaign {ident!r} has one player on two sides")
        found[ident] = RosterCampaign(ident, {side: chosen[side] for side in sides},
                                      absence_budget_of(entry, f"{where}: campaign {ident!r}"),
                                      press_of(entry, f"{where}: campaign {ident!r}"),
                                      bounce_grace_of(entry, f"{where}: campaign {ident!r}"))
    if not found:
        raise BadRoster(f"{where}: no [[campaign]] to create")
    return tuple(found.values())


def create_roster(campaigns: Campaigns, roster: Roster, game: str, key: Any, *,
                  after: Callable[..., None] | None = None,
                  progress: Callable[[str], None] | None = None, **settings: Any) -> RosterOutcome:
    """Create every campaign of ``roster`` that the store lacks, each in its own
    transaction, with ``settings`` (options, deadline_hours, referee_address, now) as
    :meth:`Campaigns.create` takes them; ``after`` queues the opening mails.
    Each player's password is hashed once, before the first campaign. A campaign
    already there with the same game and players is left as it is; one there with
    other players raises BadRoster before anything is created."""
    missing, there = [], []
    for campaign in roster.campaigns:
        players = roster.players_of(campaign)
        check_players([p.side for p in players], players)
        check_addresses(settings.get("referee_address", "referee@localhost"), players)
        if _already_there(campaigns, campaign, roster, game):
            there.append(campaign.id)
        else:
            missing.append(campaign)
    hashed = roster.hashed()
    for campaign in missing:
        campaigns.create(campaign.id, game, hashed.players_of(campaign), key,
                         after=with_grace(campaign.bounce_grace_hours, after),
                         absence_budget=campaign.absence_budget, press=campaign.press, **settings)
        if progress is not None:
            progress(campaign.id)
    return RosterOutcome(tuple(c.id for c in missing), tuple(there))


def absence_budget_of(entry: Mapping[str, Any], where: str) -> dict[str, int] | None:
    """A campaign's own absence budget (:mod:`adjudicator.campaign.absence`), when its
    table sets one; BadRoster, quoting the value, when it is not a whole number of days."""
    from adjudicator.campaign.absence import ROSTER_KEYS, budget

    own = {}
    for key, name in ROSTER_KEYS.items():
        if key not in entry:
            continue
        value = entry[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise BadRoster(f"{where}: {key} = {value!r}; it is a whole number of days (0 or more)")
        own[name] = value
    if not own:
        return None
    a_year, longest = budget({"absence_budget": own})
    if longest > a_year:
        raise BadRoster(f"{where}: absence_days_at_most = {longest} is more than the {a_year} days a year")
    return own


def press_of(entry: Mapping[str, Any], where: str) -> dict[str, Any] | None:
    """A campaign's press settings (``press = true``, ``press_delay_hours``;
    :mod:`adjudicator.campaign.press`), None when off; BadRoster, quoting the value,
    when one is not of its kind."""
    from adjudicator.campaign.press import PressRefused, settings_of

    try:
        return settings_of(entry, where)
    except PressRefused as err:
        raise BadRoster(str(err)) from None


def bounce_grace_of(entry: Mapping[str, Any], where: str) -> float | None:
    """A campaign's own ``bounce_grace_hours`` (:mod:`adjudicator.campaign.delivery`), when
    its table sets one; BadRoster, quoting the value, when it is not a number of hours."""
    from adjudicator.campaign.delivery import BadGrace, grace_of

    try:
        return grace_of(entry, where)
    except BadGrace as err:
        raise BadRoster(str(err)) from None


def _already_there(campaigns: Campaigns, campaign: RosterCampaign, roster: Roster, game: str) -> bool:
    try:
        stored = campaigns.store.campaign(campaign.id)
    except CampaignNotFound:
        return False
    addresses = {side: player["address"] for side, player in stored.meta.get("players", {}).items()}
    wanted = {player.side: player.address for player in roster.players_of(campaign)}
    if stored.game != game or addresses != wanted:
        raise BadRoster(f"campaign {campaign.id!r} is already in the store with other players or another game "
                        f"({stored.game}: {', '.join(f'{s} {a}' for s, a in sorted(addresses.items()))}); "
                        "give it another id in the roster. Nothing was created")
    return True
