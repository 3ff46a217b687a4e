"""The campaign's public protocol: what each public record says, how a batch's dice
are drawn, and how states are hashed. The referee's commands and ``verify`` both use
exactly this code, so that what is published is what is checked.

Public record kinds (each a signed, hash-linked record; see docs/dice.md):

- ``charter``: campaign, game, options, data hashes, players, the referee's public
  key, the commitment (anchor) of the referee's seed chain, sealed-mode player
  commitments, the algorithm's version.
- ``orders``: a side's accepted order set for a step: the hash of its canonical
  text and a commitment to its entropy line (the text stays private).
- ``batch``: one adjudication run: the referee's revealed seed, every contribution,
  the order records it used, every decision answered and every die rolled (the
  engine's history entries), the resulting state's hash, and what is asked next
  (``waiting``: the side and the kind of question; where the game asks several sides
  at one stop, also ``sides``, every side asked, and the batch ends only once that
  stop has every side's answer, so that a stop's answers are all in one batch).
- ``chain``: a new seed-chain commitment, when the old chain runs out.
- ``undo``: the referee voids the batches after a given one.
- ``pause``: the campaign's clock stops from ``from`` until 00:00 UTC of ``until``,
  because every side asked (``by`` "sides") or the referee ruled it (``by``
  "referee"), for the ``reason`` given; a later pause replaces it from its ``from``.
- ``press``: a message from one side's player to others (``side``, ``to``), relayed by
  the referee: its ``sha256`` (the text stays private), when it arrived (``at``) and
  when it is delivered (``deliver_at``).
- ``replace``: the referee gives ``side`` a new player from ``step`` (the open one)
  on, named by ``player``, a display name only (never an address or a password).
- ``forfeit``: in sealed mode, a side that has not revealed its chain value by the
  step's deadline loses the campaign.
- ``opening``: in a campaign with hidden information, once the game has ended: the
  hidden seed chain's values and every sealed entry in clear.

Hidden information (a campaign whose game and options have secrets; the charter then
carries ``hidden_chain``): hidden rolls, shuffles and draws come from batch k's
*hidden* stream, keyed like the public one but with the hidden chain's value h_k,
which stays secret until the opening. Every history entry that answers a hidden
request is published as a salted commitment (:func:`seal`), and so is each batch's
state hash; public draws carry their address (``at``) so that ``verify`` can
recompute them during play. The salt of entry p of batch k is derived from h_k
(:func:`seal_salt`): the opening reveals every h_k and the entries in clear, and a
player's report carries the salts of that player's own sealed entries.

Sealed mode: each player commits a seed chain of their own in the charter and
reveals its value for step k with their orders for step k; batch k's key mixes every
side's reveal, so that nobody -- the referee included -- can compute a batch's dice
before every side's orders for it are locked.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from adjudicator.canonical import canonical_text
from adjudicator.campaign.record_kinds import (  # noqa: F401
    BATCH, CHAIN, CHARTER, FORFEIT, OPENING, ORDERS, PAUSE, PRESS, REPLACE, REVEAL, UNDO,
)
from adjudicator.engine import Draw, Roll, Shuffle
from adjudicator.fairdice import DiceStream, batch_key, canonical_json, encode, shuffle_draw_count

ALGORITHM = "adjudicator-campaign/v1"
CONTRIBUTION_DOMAIN = b"adjudicator/contribution/v1"
HIDDEN_OWNER = "referee-hidden"  # the hidden seed chain's owner (its hashes are domain-separated by it)
HIDDEN_CHAIN_LENGTH = 4096       # batches the hidden chain serves (it is never extended)
SALT_DOMAIN = b"adjudicator/seal-salt/v1"
SEAL_DOMAIN = b"adjudicator/seal/v1"
STATE_POSITION = 0  # the position of a batch's state hash among its sealed items (entries count from 1)


def seal_salt(campaign: str, batch: int, position: int, hidden_seed: bytes) -> bytes:
    """The salt of item ``position`` of batch ``batch``: SHA-256 of
    encode(SALT_DOMAIN, campaign, batch, position, h_batch)."""
    return hashlib.sha256(encode(SALT_DOMAIN, campaign, batch, position, hidden_seed)).digest()


def seal(campaign: str, batch: int, position: int, salt: bytes, item: Any) -> str:
    """The commitment published for a hidden item (an entry, or a state hash):
    SHA-256 (hex) of encode(SEAL_DOMAIN, campaign, batch, position, salt, canonical_json(item))."""
    return hashlib.sha256(encode(SEAL_DOMAIN, campaign, batch, position, salt, canonical_json(item))).hexdigest()


#: the history key of a draw -> the kind of request it answers (an address's ``kind``)
DRAW_KINDS = ("dice", "shuffle", "draw")
PUBLIC_STREAM, HIDDEN_STREAM = "public", "hidden"


def draw_kind(request: Roll | Shuffle | Draw) -> str:
    """The history key of what answers ``request``: "dice", "shuffle" or "draw"."""
    if isinstance(request, Roll):
        return "dice"
    return "shuffle" if isinstance(request, Shuffle) else "draw"


def draw_size(request: Roll | Shuffle | Draw) -> int:
    """The address's ``n``: a roll's faces, a shuffle's cards, a draw's pile."""
    if isinstance(request, Roll):
        return request.sides
    if isinstance(request, Shuffle):
        return request.size
    return len(request.cards)


def draw_count(kind: str, n: int, count: int) -> int:
    """How far a draw moves its stream's counter: one index a die or a card turned over,
    n - 1 a shuffle of n cards (docs/dice.md §6)."""
    return shuffle_draw_count(n) if kind == "shuffle" else count


def draw_address(request: Roll | Shuffle | Draw, batch: int, index: int, stream: str = PUBLIC_STREAM) -> dict[str, Any]:
    """The full address of a draw in its batch (docs/dice.md §8.1): batch and step (the
    same number), the game turn and phase, the kind ("dice", "shuffle", "draw"), the
    stream ("public", or "hidden" for a draw the rules keep secret in a campaign with
    secrets), its first draw
    index in that stream, ``n`` (a die's faces, a shuffle's cards, a draw's pile) and the
    side it belongs to (null for nobody's)."""
    return {"batch": batch, "step": batch, "turn": request.turn, "phase": request.phase,
            "kind": draw_kind(request), "stream": stream,
            "index": index, "n": draw_size(request), "side": request.side}


def stream_of(request: Roll | Shuffle | Draw, secrets: bool) -> str:
    """The stream a draw comes from: the hidden one for a hidden draw in a campaign with secrets."""
    return HIDDEN_STREAM if secrets and request.hidden else PUBLIC_STREAM


def addressed(entries: Sequence[dict], requests: Sequence[Any], batch: int, secrets: bool) -> list[dict]:
    """A batch's history entries with every draw given its address (``at``): what the
    batch record publishes (and, for a hidden draw, what its seal commits to). Each
    stream counts its own draw indexes from 0, across dice, shuffles and draws."""
    counters = {PUBLIC_STREAM: 0, HIDDEN_STREAM: 0}
    published = []
    for entry, request in zip(entries, requests):
        if isinstance(request, (Roll, Shuffle, Draw)):
            stream = stream_of(request, secrets)
            at = draw_address(request, batch, counters[stream], stream)
            kind = at["kind"]
            counters[at["stream"]] += draw_count(kind, at["n"], len(entry[kind]))
            entry = {**entry, "at": at}
        published.append(entry)
    return published


def request_at(kind: str, values: list, at: Mapping[str, Any]) -> Roll | Shuffle | Draw:
    """The request a draw answered, rebuilt from its address (see :func:`draw_address`)."""
    turn, phase, side, size = int(at["turn"]), str(at["phase"]), at.get("side"), int(at["n"])
    hidden = at.get("stream") == HIDDEN_STREAM
    if kind == "dice":
        return Roll(len(values), "", side, turn, phase, size, hidden)
    if kind == "shuffle":
        return Shuffle(size, "", side, turn, phase, hidden)
    return Draw(tuple(str(i) for i in range(size)), len(values), "", side, turn, phase, hidden)


def waiting_of(match: Any) -> dict[str, Any] | None:
    """What a batch record says the game waits for (see ``batch`` above): None, or
    the side asked and the kind of question, with ``sides`` where several are asked."""
    asked = match.decisions
    if not asked:
        return None
    waiting: dict[str, Any] = {"side": asked[0].side, "ask": asked[0].kind}
    if len(asked) > 1:
        waiting["sides"] = [decision.side for decision in asked]
    return waiting


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def state_hash(state_json: Mapping[str, Any]) -> str:
    """The hash of a state, as published in batch records: SHA-256 of its JSON with
    sorted keys and no whitespace (the canonical JSON of docs/dice.md §3; a game's
    state holds no floats, so the validating walk of ``canonical_json`` is skipped)."""
    return sha256_hex(canonical_text(state_json))


def reveal_bytes(text: str | None) -> bytes | None:
    """A sealed-mode reveal line's value (hex) as bytes."""
    return None if text is None else bytes.fromhex(text)


def contribution(entropy: str | None, reveal: bytes | None) -> bytes:
    """A side's contribution to a batch key: its entropy line and, in sealed mode,
    its revealed chain value."""
    return hashlib.sha256(encode(CONTRIBUTION_DOMAIN, entropy or "", reveal or b"")).digest()


@dataclass
class BatchDice:
    """The dice of batch ``batch``: die j of the batch is drawn at draw index j from
    the stream keyed by the referee's seed and every side's contribution; a shuffle
    of n cards takes the next n-1 draw indexes (an unbiased Fisher-Yates); a draw of
    c cards from a pile of n takes the next c indexes, card i being
    ``uniform_below(n - i)`` among the cards not yet drawn, in the pile's order.

    A campaign's hidden stream is a BatchDice keyed by the hidden chain's value."""

    campaign: str
    batch: int
    referee_seed: bytes
    contributions: Mapping[str, bytes]
    drawn: int = 0
    rolls: list[tuple[str | None, tuple[int, ...]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        key = batch_key(self.campaign, self.batch, self.referee_seed, dict(self.contributions))
        self._stream = DiceStream(key, self.campaign, self.batch)

    def __call__(self, roll: Roll | Shuffle | Draw) -> tuple[int, ...]:
        """The values of the next draw of this stream (its counter moves on)."""
        values = self.at(roll, self.drawn)
        self.drawn += draw_count(draw_kind(roll), draw_size(roll), len(values))
        if isinstance(roll, Roll):
            self.rolls.append((roll.side, values))
        return values

    def at(self, roll: Roll | Shuffle | Draw, index: int) -> tuple[int, ...]:
        """The values of a draw at draw index ``index`` of this stream (a pure function
        of the batch key and the draw's address)."""
        stream = self._stream
        if isinstance(roll, Draw):
            left = list(range(len(roll.cards)))
            return tuple(left.pop(stream.uniform_below(len(left), roll.turn, roll.phase, index + i))
                         for i in range(roll.count))
        if isinstance(roll, Shuffle):
            return tuple(stream.shuffle(range(roll.size), roll.turn, roll.phase, index))
        if roll.sides == 6:
            return stream.roll(roll.count, roll.turn, roll.phase, index)
        return tuple(stream.uniform_below(roll.sides, roll.turn, roll.phase, index + i) + 1
                     for i in range(roll.count))
