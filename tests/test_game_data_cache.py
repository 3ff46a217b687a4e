"""Game data files are read by every command; their parsed form is kept in the cache
folder (adjudicator.resources.read_toml) and read back instead of parsing TOML again.
It gives exactly what tomllib gives, an edited file is parsed afresh, a damaged cache
file is ignored, and a file that is not TOML is refused as before and never kept."""

from __future__ import annotations

import marshal
import tomllib

import pytest

from adjudicator.resources import cache_dir, data_dir, read_toml


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def kept_files(cache):
    return sorted(cache.glob("toml-*"))


def test_every_game_data_file_reads_back_exactly_as_tomllib_parses_it(cache):
    files = sorted(data_dir("games").rglob("*.toml"))
    assert len(files) >= 10
    for path in files:
        content = path.read_bytes()
        first, again = read_toml(content), read_toml(content)
        assert first == again == tomllib.loads(content.decode("utf-8")), path
    assert len(kept_files(cache)) == len({p.read_bytes() for p in files})


def test_the_kept_form_is_what_the_next_read_returns(cache):
    assert read_toml(b'name = "Mikasa"\n') == {"name": "Mikasa"}
    (kept,) = kept_files(cache)
    kept.write_bytes(marshal.dumps({"name": "read from the cache"}))
    assert read_toml(b'name = "Mikasa"\n') == {"name": "read from the cache"}


def test_an_edited_file_is_parsed_afresh_and_a_damaged_cache_file_is_ignored(cache):
    assert read_toml(b'name = "Mikasa"\n') == {"name": "Mikasa"}
    assert read_toml(b'name = "Asahi"\n') == {"name": "Asahi"}
    for kept in kept_files(cache):
        kept.write_bytes(b"\x00damaged")
    assert read_toml(b'name = "Mikasa"\n') == {"name": "Mikasa"}
    assert cache_dir() == cache


def test_a_file_that_is_not_toml_is_refused_and_never_kept(cache):
    with pytest.raises(tomllib.TOMLDecodeError):
        read_toml(b"name = \n")
    with pytest.raises(UnicodeDecodeError):
        read_toml(b"name = '\xff'\n")
    assert kept_files(cache) == []
