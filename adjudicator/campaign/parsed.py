"""Parsed orders kept beside a campaign's history, so that a new process does not
read every order set of the campaign again at every step.

The cache is derived data, never part of the public record: it is stored apart from
the history (as a private value of the campaign), keyed by the adjudicator's version
and the game's data hashes, and every order set read from it is checked against the
stored text it came from (its canonical text must be that text exactly). Anything
that does not match (another version, changed data files, a damaged or altered
cache) is ignored and the orders are parsed again from their text, so the cache can
never change a result.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import importlib
import json
from functools import lru_cache
from typing import Any, Mapping

from adjudicator import __version__
from adjudicator.campaign.errors import CampaignError
from adjudicator.orders import OrderSet

#: Name of the stored value (beside the history, never exported).
PARSED_ORDERS = "derived-parsed-orders"
_TYPE = "@type"
_TRUSTED_MODULES = ("adjudicator.orders.", "adjudicator.games.")


class UnreadableCache(CampaignError, ValueError):
    """A cached value that is not the encoding of orders this adjudicator makes."""


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_key(data_hashes: Mapping[str, str]) -> str:
    """What a cache is valid for: this adjudicator's version and the game's data."""
    return hashlib.sha256(json.dumps([__version__, dict(data_hashes)], sort_keys=True).encode()).hexdigest()


def encode(value: Any) -> Any:
    """A frozen-dataclass value (orders, blocks, conditions) as plain JSON."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)
                  if f.name != "credentials"}
        return {_TYPE: f"{cls.__module__}:{cls.__qualname__}", **fields}
    if isinstance(value, enum.Enum):
        return {_TYPE: f"{type(value).__module__}:{type(value).__qualname__}", "value": value.value}
    if isinstance(value, (tuple, list)):
        return [encode(item) for item in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise UnreadableCache(f"cannot keep a {type(value).__name__} in the parsed orders cache")


def decode(data: Any) -> Any:
    """The value :func:`encode` made (lists come back as tuples)."""
    if isinstance(data, list):
        return tuple(decode(item) for item in data)
    if isinstance(data, dict):
        cls = _trusted_class(data.get(_TYPE))
        if isinstance(cls, type) and issubclass(cls, enum.Enum):
            return cls(data.get("value"))
        fields = {k: decode(v) for k, v in data.items() if k != _TYPE}
        try:
            return cls(**fields)
        except TypeError as err:
            raise UnreadableCache(str(err)) from None
    return data


def _trusted_class(name: Any) -> type:
    if not isinstance(name, str) or ":" not in name:
        raise UnreadableCache(f"no type named in {name!r}")
    return _named_class(name)


@lru_cache(maxsize=512)
def _named_class(name: str) -> type:
    """The orders type ``name`` names (found once per process: a campaign's cache
    names the same few types thousands of times)."""
    module_name, qualname = name.split(":", 1)
    if not module_name.startswith(_TRUSTED_MODULES):
        raise UnreadableCache(f"type {name!r} is not one of the adjudicator's orders types")
    try:
        found: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        raise UnreadableCache(f"no type {name!r}") from None
    if not (isinstance(found, type) and (dataclasses.is_dataclass(found) or issubclass(found, enum.Enum))):
        raise UnreadableCache(f"{name!r} is not an orders type")
    return found


def load(stored: Any, key: str) -> dict[str, Any]:
    """The cached encodings by text hash, or nothing when the cache is for another
    version or other game data, or is not a cache at all."""
    if not isinstance(stored, dict) or stored.get("key") != key or not isinstance(stored.get("orders"), dict):
        return {}
    return dict(stored["orders"])


def cached_orders(text: str, known: Mapping[str, Any]) -> OrderSet | None:
    """The cached order set for ``text``, only if it reads back as exactly that text."""
    data = known.get(text_key(text))
    if data is None:
        return None
    try:
        orders = decode(data)
    except (UnreadableCache, ValueError, TypeError):
        return None
    if not isinstance(orders, OrderSet):
        return None
    try:
        matches = orders.canonical_text() == text
    except Exception:  # a damaged entry may not even render; it is simply not used
        return None
    return orders if matches else None


def stored_value(key: str, known: Mapping[str, Any]) -> dict[str, Any]:
    return {"key": key, "orders": dict(known)}


def remember_accepted(tx: Any, orders: OrderSet, text: str, key: str) -> None:
    """Add orders just accepted (``text``: their canonical text, as stored) to the
    campaign's cache, in the transaction that records them, so that the adjudication
    that follows reads them back instead of parsing them a second time. Only an order
    set that writes back to exactly ``text`` is kept (the test every entry passes when
    it is read, :func:`cached_orders`)."""
    try:
        if orders.canonical_text() != text:
            return
        encoded = encode(orders)
    except UnreadableCache:
        return
    known = load(tx.get_secret(PARSED_ORDERS), key)
    known[text_key(text)] = encoded
    tx.set_secret(PARSED_ORDERS, stored_value(key, known))
