"""Helpers for the orders tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from functools import partial

from adjudicator.orders import OrdersError, parse_orders as any_parse_orders
parse_orders = partial(any_parse_orders, game="port-arthur")

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "port-arthur"
GOLDEN = Path(__file__).resolve().parent / "golden"

HEADER_JAPAN = "campaign: test\nside: Japan\nturn: 2\n"
HEADER_RUSSIA = "campaign: test\nside: Russia\nturn: 2\n"


def read(body: str, header: str = HEADER_JAPAN, **kw):
    """Parse ``header + body``."""
    return parse_orders(header + body, **kw)


def problems(body: str, header: str = HEADER_JAPAN, **kw):
    """The problems of ``header + body`` (which must have some)."""
    with pytest.raises(OrdersError) as caught:
        parse_orders(header + body, **kw)
    return caught.value.problems


def sample_texts() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.orders"))}
