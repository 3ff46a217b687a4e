"""A campaign's history, read back from the store: its public records (charter,
orders commitments, batches, chain extensions, undos) and the private parts the
referee keeps beside them (the orders' text)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Collection, Iterable, Mapping

from adjudicator.campaign.record_kinds import BATCH, CHARTER, FORFEIT, ORDERS, UNDO
from adjudicator.fairdice import Record

if TYPE_CHECKING:  # the engine's driver is loaded when a game is replayed (``status`` reads the log without it)
    from adjudicator.engine import Match


@dataclass(frozen=True)
class AcceptedOrders:
    """An order set accepted for ``step``, in arrival order."""

    side: str
    step: int
    sha256: str
    text: str
    entropy: str | None
    reveal: str | None  # sealed mode: hex of the side's chain value for this step
    record_seq: int
    turn: Any = None     # the game turn when the orders were accepted
    received_at: str | None = None  # when the referee took them in (ISO 8601, UTC)
    sender: str | None = None       # the address they came from, when they came by mail
    signed_at: str | None = None    # signed orders: the time the player signed them
    blocks: tuple[tuple[str, bool], ...] | None = None  # each block's kind and whether it is standing, in order
    sent: str | None = None  # the text as sent, secrets masked (running.as_sent), for the lines reports name


@dataclass
class CampaignLog:
    """Everything a campaign has recorded, in order."""

    campaign: str
    records: list[Record]
    orders: list[AcceptedOrders]
    clear_entries: dict[int, list] = field(default_factory=dict)  # batch -> its entries unsealed (referee only)
    clear_state_hashes: dict[int, str] = field(default_factory=dict)  # batch -> its state hash unsealed (referee only)
    parsed: dict[str, Any] = field(default_factory=dict)  # text hash -> parsed orders, encoded (derived; see parsed.py)
    parsed_added: bool = False  # orders were parsed that the stored cache lacks
    parsed_used: set[str] = field(default_factory=set)  # text hashes of the orders read in this process
    read_orders: dict[str, Any] = field(default_factory=dict)  # text -> its OrderSet, once read in this process
    _hashes: dict[int, str] = field(default_factory=dict, repr=False, compare=False)

    @property
    def charter(self) -> Mapping[str, Any]:
        return self.records[0].body

    def record_hash(self, index: int) -> str:
        """The hash of the record at ``index`` (as ``records[index].hash``), made once for
        this log's readers (each player's report names the charter's and the head's)."""
        index = range(len(self.records))[index]
        found = self._hashes.get(index)
        if found is None:
            found = self._hashes[index] = self.records[index].hash
        return found

    def of_kind(self, kind: str) -> list[Record]:
        return [r for r in self.records if r.kind == kind]

    @property
    def batches(self) -> list[Record]:
        return self.of_kind(BATCH)

    @property
    def next_batch(self) -> int:
        """Batches are numbered from 1 and never reused, even after an undo."""
        return len(self.batches) + 1

    def voided(self) -> set[int]:
        """Batch numbers an undo has voided."""
        return voided_batches(self.records)

    def effective_batches(self) -> list[Record]:
        gone = self.voided()
        return [r for r in self.batches if r.body["batch"] not in gone]

    def history(self) -> list[dict]:
        """The engine history: every entry of every batch still in force (hidden
        entries in clear, from the referee's private part), each draw without the
        address it is published with."""
        return [_unaddressed(entry) for batch in self.effective_batches()
                for entry in self.clear_entries.get(batch.body["batch"], batch.body["entries"])]

    def replay(self, game: Any) -> Match:
        from adjudicator.engine import Match

        charter = self.charter
        return Match(game, charter.get("setup", {}), charter["options"], self.history())

    def orders_for(self, step: int) -> dict[str, AcceptedOrders]:
        """The latest order set each side sent for ``step`` (a newer one replaces an older)."""
        latest: dict[str, AcceptedOrders] = {}
        for accepted in self.orders:
            if accepted.step == step:
                latest[accepted.side] = accepted
        return latest

    def orders_up_to(self, step: int, skip: Collection[int] = ()) -> list[AcceptedOrders]:
        """Every order set in force by ``step``: for each step, each side's latest,
        leaving out the orders records ``skip`` names (see :meth:`voided_orders`)."""
        steps = sorted({o.step for o in self.orders if o.step <= step})
        return [o for s in steps for o in self.orders_for(s).values() if o.record_seq not in skip]

    def voided_orders(self) -> frozenset[int]:
        """The orders records of the steps an undo voided that no batch in force ran
        again with: they are not in force (a redo uses them only when the referee says
        so, and its batch then names them as ``reused_orders``)."""
        gone = self.voided()
        reused = {seq for batch in self.effective_batches() for seq in batch.body.get("reused_orders", ())}
        return frozenset(o.record_seq for o in self.orders if o.step in gone and o.record_seq not in reused)

    @property
    def sealed(self) -> bool:
        return bool(self.charter.get("sealed"))

    @property
    def forfeit(self) -> Record | None:
        """The forfeit that ended the campaign, if a side stalled in sealed mode."""
        found = self.of_kind(FORFEIT)
        return found[-1] if found else None



def _unaddressed(entry: Mapping[str, Any]) -> Mapping[str, Any]:
    """A history entry as the engine keeps it: a published draw without its address."""
    return {key: value for key, value in entry.items() if key != "at"} if "at" in entry else entry


def voided_batches(records: Iterable[Record]) -> set[int]:
    gone: set[int] = set()
    done: list[int] = []
    for record in records:
        if record.kind == BATCH:
            done.append(record.body["batch"])
        elif record.kind == UNDO:
            back_to = record.body["back_to"]
            gone |= {b for b in done if b > back_to}
    return gone


def read_log(campaign: str, entries: Iterable[Any]) -> CampaignLog:
    """Read the store's entries of a campaign."""
    records: list[Record] = []
    orders: list[AcceptedOrders] = []
    clear: dict[int, list] = {}
    clear_hashes: dict[int, str] = {}
    for entry in entries:
        text = getattr(entry, "body_json", None)
        record, private = _read_entry(text) if isinstance(text, str) else _record_and_private(entry.body)
        records.append(record)
        if record.kind == BATCH and "entries" in private:
            clear[record.body["batch"]] = private["entries"]
            if "state_hash" in private:
                clear_hashes[record.body["batch"]] = private["state_hash"]
        if record.kind == ORDERS:
            orders.append(AcceptedOrders(
                side=record.body["side"], step=record.body["step"], sha256=record.body["orders_hash"],
                text=private.get("text", ""), entropy=private.get("entropy"), reveal=private.get("reveal"),
                record_seq=record.seq, turn=private.get("turn"), received_at=private.get("received_at"),
                sender=private.get("sender"), signed_at=private.get("signed_at"),
                blocks=_block_kinds(private.get("blocks")), sent=private.get("sent"),
            ))
    if not records or records[0].kind != CHARTER:
        raise ValueError(f"campaign {campaign!r} has no charter as its first record")
    return CampaignLog(campaign, records, orders, clear, clear_state_hashes=clear_hashes)


def _record_and_private(body: Mapping[str, Any]) -> tuple[Record, Mapping[str, Any]]:
    return Record.from_stored(body["record"]), body.get("private", {})


@lru_cache(maxsize=4096)
def _read_entry(body_json: str) -> tuple[Record, Mapping[str, Any]]:
    """An entry's record and private part, from the entry's stored text (a pure
    function of it, remembered: a process reads the same entries at every command).
    What it returns is shared: never changed by its readers."""
    return _record_and_private(json.loads(body_json))


def _block_kinds(stored: Any) -> tuple[tuple[str, bool], ...] | None:
    """The kinds of an order set's blocks as kept with it (None: not kept, older campaigns)."""
    if not isinstance(stored, list) or not all(isinstance(b, list) and len(b) == 2 for b in stored):
        return None
    return tuple((str(kind), bool(standing)) for kind, standing in stored)
