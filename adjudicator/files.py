"""Writing a file whole or not at all: the one way the adjudicator replaces a file
(.eml copies, keys, caches, the health line, checked-history marks).

The data goes to a temporary file in the same folder (made by ``mkstemp``: a new
file, mode 0600, that no other process can have open), which is then renamed over
the target: a reader sees the old file or the new one, never half of one. A file that
must survive a power cut is flushed to disk before the rename (``durable``); its
folder's entry is flushed by :func:`sync_folder`.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_atomically(path: str | os.PathLike[str], data: bytes, *, durable: bool = False,
                     mode: int | None = None) -> Path:
    """Replace ``path`` with ``data``, whole or not at all; ``mode`` sets the file's
    permissions exactly (else 0600); ``durable`` flushes the data to disk first.
    Raises OSError (the temporary file is removed)."""
    import tempfile  # only when a file is written: not on a command's start-up path

    path = Path(path)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            if mode is not None:
                os.fchmod(out.fileno(), mode)  # exactly, whatever the umask
            out.write(data)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return path


def keep_if_possible(path: str | os.PathLike[str], data: bytes) -> None:
    """Write a cache file atomically; a cache that cannot be written (a full disk, a
    folder not writable) is simply not kept."""
    with contextlib.suppress(OSError):
        write_atomically(path, data)


def sync_folder(folder: str | os.PathLike[str]) -> None:
    """Flush a folder's entries to disk (a file renamed into it survives a power cut);
    best effort where the system cannot open a folder."""
    if os.name != "posix":
        return
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
