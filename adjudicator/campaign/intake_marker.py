"""Process markers. The intake marker: while a delivery of mail is taken in, each campaign it names
carries a marker in its metadata, refreshed with every message; ``adjudicate`` waits
until it is gone, so that it never adjudicates with a player's older orders while
newer ones are being read. A marker that has not been refreshed for
:data:`INTAKE_STALE_AFTER`, or whose process no longer runs on this host, was left by
a killed intake and is ignored."""

from __future__ import annotations

import os
import socket
from datetime import datetime, timedelta, timezone
from typing import Any, Mapping

INTAKE_MARKER = "intake_running"
#: A marker not refreshed for this long is left by a killed intake.
INTAKE_STALE_AFTER = timedelta(seconds=120)


def process_marker(now: datetime | None = None) -> dict[str, Any]:
    """A marker of this process (for an intake or a 'send'), refreshed at ``now``."""
    now = now or datetime.now(timezone.utc)
    return {"host": socket.gethostname(), "pid": os.getpid(), "beat": now.isoformat()}


def intake_marker(now: datetime) -> dict[str, Any]:
    """The marker of this process's intake, refreshed at ``now``."""
    return process_marker(now)


def intake_running(meta: Mapping[str, Any], now: datetime | None = None) -> bool:
    """Whether a live intake is taking in mail for this campaign."""
    return marker_alive(meta.get(INTAKE_MARKER), now, INTAKE_STALE_AFTER)


def marker_alive(marker: Any, now: datetime | None = None,
                 stale_after: timedelta = INTAKE_STALE_AFTER) -> bool:
    """Whether a process marker is live: refreshed within ``stale_after``, by a
    process that still runs when it is on this host."""
    if not isinstance(marker, dict):
        return False
    try:
        beat = datetime.fromisoformat(marker["beat"])
    except (KeyError, TypeError, ValueError):
        return False
    if (now or datetime.now(timezone.utc)) - beat > stale_after:
        return False
    if marker.get("host") == socket.gethostname():
        return marker.get("pid") == os.getpid() or _process_alive(marker.get("pid"))
    return True


def _process_alive(pid: Any) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
