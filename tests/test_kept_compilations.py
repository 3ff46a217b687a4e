"""Dataclass methods compiled once and kept for the next command: a class made through the
kept compilations is the class ``dataclasses`` makes on its own (same code, same
annotations, same behaviour); the next command reads what the last one kept; a damaged
file is ignored; ``dataclasses`` is left as it was."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path
from typing import Optional

from adjudicator.cli.compiled import kept_compilations

METHODS = ("__init__", "__eq__", "__hash__", "__repr__", "__setattr__", "__delattr__", "__lt__")


def make_classes() -> dict[str, type]:
    """A few dataclasses of the kinds the project defines (frozen, ordered, defaults,
    factories, keyword-only, slots), made anew."""

    @dataclasses.dataclass(frozen=True)
    class Ship:
        name: str
        speed: int = 12
        hits: tuple[int, ...] = ()

    @dataclasses.dataclass(order=True)
    class Entry:
        seq: int
        kind: str = dataclasses.field(default="orders", compare=False)
        body: dict = dataclasses.field(default_factory=dict)

    @dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
    class Request:
        side: str
        prompt: Optional[str] = None

    return {"Ship": Ship, "Entry": Entry, "Request": Request}


def code_of(cls: type, method: str):
    function = vars(cls).get(method)
    return None if function is None or not inspect.isfunction(function) else function.__code__


def test_classes_made_through_kept_compilations_are_the_classes_dataclasses_makes(tmp_path):
    plain = make_classes()
    with kept_compilations(tmp_path / "kept.marshal") as first:
        compiled = make_classes()
    with kept_compilations(tmp_path / "kept.marshal") as second:
        read_back = make_classes()
    assert first.new > 0 and second.new == 0  # the second made its classes from what the first kept
    for made in (compiled, read_back):
        for name, cls in plain.items():
            for method in METHODS:
                assert code_of(made[name], method) == code_of(cls, method), (name, method)
                if code_of(cls, method) is not None:
                    assert vars(made[name])[method].__annotations__ == vars(cls)[method].__annotations__
            assert inspect.signature(made[name]) == inspect.signature(cls)
    Ship, Entry, Request = read_back["Ship"], read_back["Entry"], read_back["Request"]
    assert Ship("Mikasa") == Ship("Mikasa", 12, ()) and hash(Ship("Mikasa")) == hash(Ship("Mikasa"))
    assert repr(Ship("Asahi", 18)).endswith(".Ship(name='Asahi', speed=18, hits=())")
    try:
        Ship("Fuji").speed = 20
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a frozen class took an assignment")
    assert Entry(1, "batch") == Entry(1, "orders") and Entry(1) < Entry(2) and Entry(1).body is not Entry(1).body
    assert Request(side="japan").prompt is None


def test_a_damaged_or_foreign_file_is_ignored_and_written_afresh(tmp_path):
    kept = tmp_path / "kept.marshal"
    for content in (b"", b"not marshal data", b"\xe9\x00\x00\x00\x00"):
        kept.write_bytes(content)
        with kept_compilations(kept) as compilations:
            made = make_classes()
        assert compilations.new > 0 and made["Ship"]("Mikasa").speed == 12
        with kept_compilations(kept) as compilations:
            make_classes()
        assert compilations.new == 0


def test_dataclasses_is_left_as_it_was(tmp_path):
    before = dict(vars(dataclasses))
    with kept_compilations(tmp_path / "kept.marshal") as outer:
        with kept_compilations(tmp_path / "other.marshal") as inner:
            make_classes()
        assert outer is not None and inner is None  # one at a time
    assert "exec" not in vars(dataclasses) and dict(vars(dataclasses)) == before
    assert not (tmp_path / "other.marshal").exists()


def test_a_folder_that_cannot_be_written_only_costs_the_saving(tmp_path):
    with kept_compilations(Path(tmp_path / "no" / "such" / "folder" / "kept.marshal")) as compilations:
        made = make_classes()
    assert compilations.new > 0 and made["Entry"](3).seq == 3


def test_a_file_others_may_write_is_not_read(tmp_path):
    kept = tmp_path / "kept.marshal"
    with kept_compilations(kept):
        make_classes()
    kept.chmod(0o666)
    with kept_compilations(kept) as compilations:
        make_classes()
    assert compilations.new > 0  # compiled afresh, not read
