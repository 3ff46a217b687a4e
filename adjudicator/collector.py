"""Python's cycle collector held off while much is made and kept: orders parsed and
read, a match driven (:func:`adjudicator.engine.driver.drive`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def garbage_collection_paused() -> Iterator[None]:
    """Python's cycle collector held off meanwhile: while orders are parsed and read,
    every node and order made is kept, so the collections the allocations trigger would
    only walk the growing tree again and again (a third of a long file's parse); while a
    match is driven, what it keeps (events, history) and what a caller keeps besides (the
    matches of a simulation) would be walked again every few dozen questions. Both make
    little cyclic garbage (an orders file is at most 256 KiB; a game of Port Arthur
    leaves a few hundred objects in cycles), so the memory held meanwhile is bounded;
    the collector runs again, as it was, when the work ends (nested pauses leave it to
    the outermost)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
