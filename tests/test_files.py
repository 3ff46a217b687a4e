"""One way to replace a file: whole or not at all, with the permissions asked for."""

from __future__ import annotations

import os
import stat

import pytest

from adjudicator.files import keep_if_possible, write_atomically


def test_a_file_written_atomically_replaces_the_old_one_whole_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "health"
    target.write_bytes(b"old\n")
    write_atomically(target, b"new line\n", durable=True)
    assert target.read_bytes() == b"new line\n"
    assert [p.name for p in tmp_path.iterdir()] == ["health"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o600  # owner only unless asked


def test_the_mode_asked_for_is_set_exactly_whatever_the_umask(tmp_path):
    old = os.umask(0o077)
    try:
        written = write_atomically(tmp_path / "line", b"x", mode=0o644)
    finally:
        os.umask(old)
    assert stat.S_IMODE(written.stat().st_mode) == 0o644


def test_a_write_that_fails_keeps_the_old_file_and_removes_its_temporary_file(tmp_path):
    target = tmp_path / "key.pem"
    target.write_bytes(b"old key")
    with pytest.raises(TypeError):
        write_atomically(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_bytes() == b"old key"
    assert [p.name for p in tmp_path.iterdir()] == ["key.pem"]


def test_a_cache_that_cannot_be_written_is_simply_not_kept(tmp_path):
    keep_if_possible(tmp_path / "no-such-folder" / "cache", b"data")
    assert not (tmp_path / "no-such-folder").exists()
