"""The players and how they authenticate: addresses and sides at creation; the side
orders name, authenticated by the side's password or by the player's signature over
the canonical orders (with its signing time) -- never by the From header."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Sequence

from adjudicator.campaign.errors import AuthenticationFailed, BadAddress, UnknownSide
from adjudicator.campaign.log import CampaignLog
from adjudicator.campaign.passwords import check_password
from adjudicator.campaign.signing import signature_matches, signed_time
from adjudicator.campaign.verified_passwords import VerifiedPasswords
from adjudicator.fairdice import public_key_from_text
from adjudicator.i18n import said
from adjudicator.orders import OrderSet


def check_addresses(referee_address: str, players: Sequence[Any]) -> None:
    """Every address that will stand in a mail header, checked where it enters: one
    address each, no line break (no header injection)."""
    from adjudicator.mail import MailError
    from adjudicator.mail.outgoing import parse_address

    for who, address in [("the referee's address (--from)", referee_address),
                         *((f"the {p.side} player's address", p.address) for p in players)]:
        try:
            parse_address(address)
        except MailError as err:
            raise BadAddress(f"{who} {address!r} cannot be used in mail: {err}; give one plain "
                             "address such as referee@example.org") from None


def check_players(sides: Sequence[str], players: Sequence[Any]) -> None:
    given = [p.side for p in players]
    if sorted(given) != sorted(sides):
        raise UnknownSide(f"a campaign of this game needs one player for each of {', '.join(sides)}; "
                          f"got {', '.join(given) or 'none'}")
    for player in players:
        if not player.password and not player.public_key:
            raise AuthenticationFailed(f"the {player.side} player needs a password or a public key")
        if player.public_key:
            public_key_from_text(player.public_key)


def side_of(orders: OrderSet, log: CampaignLog) -> str:
    sides = [p["side"] for p in log.charter["players"]]
    side = (orders.header.side or "").casefold()
    if side not in sides:
        raise UnknownSide(f"the orders name side {orders.header.side!r}; this campaign's sides are "
                          f"{', '.join(sides)}: write 'side: {sides[0]}' (or your side) in the header")
    return side


def authenticate(orders: OrderSet, side: str, log: CampaignLog, password_hash: Any,
                 verified: VerifiedPasswords | None = None) -> dict[str, Any] | None:
    """A password, or a signature over the canonical orders; never the From header.
    Returns the upgraded password hash to store, when the stored one is weaker than today's.
    ``verified``: a resident service's memory of passwords already verified (in full
    when not found there; see :mod:`adjudicator.campaign.verified_passwords`)."""
    player = next(p for p in log.charter["players"] if p["side"] == side)
    credentials = orders.credentials
    if player["auth"] == "key":
        if not credentials.signature:
            raise AuthenticationFailed(f"orders for {side} must be signed with the player's key "
                                       "('adjudicator sign ORDERS --key YOUR-KEY')")
        if signed_time(orders) is None:
            raise AuthenticationFailed(f"the signature on {side}'s orders carries no signing time: sign them "
                                       "again with this version ('adjudicator sign ORDERS --key YOUR-KEY')")
        if not signature_matches(orders, player["public_key"]):
            raise AuthenticationFailed(f"the signature on {side}'s orders does not verify: sign the orders "
                                       "again after the last change")
        return None
    if not credentials.password:
        raise AuthenticationFailed(f"orders for {side} need the side's password (a line 'password: ...')")
    if password_hash is None:
        checked = None
    elif verified is not None:
        checked = verified.check(log.campaign, side, credentials.password, password_hash)
    else:
        checked = check_password(credentials.password, password_hash)
    if checked is None or not checked.matches:
        raise AuthenticationFailed(f"wrong password for {side}: the orders were not accepted")
    return checked.upgraded


def authentication_of(orders: OrderSet | None, log: CampaignLog, tx: Any,
                      verified: VerifiedPasswords | None = None) -> str:
    """What refused orders say of their sender: whether their password is right (told
    even when the orders have errors, so that one reply tells everything)."""
    try:
        side = side_of(orders, log) if orders is not None else None
    except UnknownSide:
        side = None
    if side is None:
        return said("the password could not be checked: no side of this campaign was read from the orders")
    player = next(p for p in log.charter["players"] if p["side"] == side)
    if player["auth"] == "key":
        return said("the signature is checked once the orders read without errors")
    try:
        authenticate(orders, side, log, tx.get_secret(f"password:{side}"), verified)
    except AuthenticationFailed as err:
        return said("authentication: %(why)s", why=str(err))
    return said("authentication: the password for %(side)s is right; only the problems above kept the orders out",
                side=side)


def check_signed_time(orders: OrderSet, side: str, log: CampaignLog) -> str | None:
    """Signed orders carry the time they were signed; one not newer than the side's
    latest signed orders on file is a replay and is refused."""
    signed_at = signed_time(orders)
    if signed_at is None:
        return None
    latest = max((o.signed_at for o in log.orders if o.side == side and o.signed_at), default=None)
    if latest is not None and datetime.fromisoformat(signed_at) <= datetime.fromisoformat(latest):
        raise AuthenticationFailed(
            f"these signed orders for {side} were signed at {signed_at}, not after the orders of {side} "
            f"already on file (signed at {latest}): an old signed text cannot be sent again. "
            "Sign the orders anew ('adjudicator sign ORDERS --key YOUR-KEY') and send them.")
    return signed_at
