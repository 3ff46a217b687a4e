"""Python's cycle collector held off while orders are parsed and read."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def garbage_collection_paused() -> Iterator[None]:
    """Python's cycle collector held off while orders are parsed and read: every node
    and order made is kept, so the collections the allocations trigger would only walk
    the growing tree again and again (a third of a long file's parse). An orders file is
    at most 256 KiB, so the memory held meanwhile is bounded; the collector runs
    again, as it was, when the parse ends (nested pauses leave it to the outermost)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
