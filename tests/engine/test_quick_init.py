"""Requests, history entries and answers are made with a quicker ``__init__``
(``quick_init``): the same parameters, defaults and frozen objects as the dataclass's own."""

from __future__ import annotations

import inspect
from dataclasses import FrozenInstanceError, MISSING, dataclass, fields

import pytest

from adjudicator.engine.match import AnswerEntry, DiceEntry, DrawEntry, ShuffleEntry
from adjudicator.engine.requests import Decision, Draw, Roll, Shuffle, quick_init
from adjudicator.games.port_arthur import answers
from adjudicator.games.port_arthur.rules.battle import FireResult

QUICK = [Decision, Roll, Shuffle, Draw, AnswerEntry, DiceEntry, ShuffleEntry, DrawEntry, FireResult,
         answers.Sortie, answers.Battle, answers.Move, answers.Pass, answers.UseMarker, answers.DiceCount,
         answers.ShipList, answers.HitAllocation, answers.ReturnPorts]


@pytest.mark.parametrize("cls", QUICK, ids=lambda cls: cls.__name__)
def test_a_quick_init_takes_the_fields_in_order_with_their_defaults(cls):
    parameters = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in parameters] == [f.name for f in fields(cls)]
    assert [p.default for p in parameters] == [inspect.Parameter.empty if f.default is MISSING else f.default
                                               for f in fields(cls)]
    assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in parameters)


@pytest.mark.parametrize("cls", QUICK, ids=lambda cls: cls.__name__)
def test_a_quick_init_sets_every_field_and_the_object_stays_frozen(cls):
    values = {f.name: f"value of {f.name}" for f in fields(cls)}
    positional = cls(*values.values())
    by_keyword = cls(**values)
    assert positional == by_keyword
    assert {f.name: getattr(positional, f.name) for f in fields(cls)} == values
    with pytest.raises(FrozenInstanceError):
        setattr(positional, fields(cls)[0].name, "other")


def test_quick_init_refuses_a_field_made_by_a_factory():
    from dataclasses import field

    @dataclass(frozen=True, slots=True)
    class Made:
        items: list = field(default_factory=list)

    with pytest.raises(TypeError, match="default_factory"):
        quick_init(Made)


def test_a_quick_init_is_the_one_the_dataclass_would_have_written():
    @dataclass(frozen=True, slots=True)
    class Plain:
        side: str
        count: int = 1
        hidden: bool = False

    @quick_init
    @dataclass(frozen=True, slots=True)
    class Quick:
        side: str
        count: int = 1
        hidden: bool = False

    for args, kwargs in [(("japan",), {}), (("russia", 3), {}), (("japan",), {"hidden": True}),
                         ((), {"side": "x", "count": 2, "hidden": True})]:
        plain, quick = Plain(*args, **kwargs), Quick(*args, **kwargs)
        assert repr(plain).replace("Plain", "Quick") == repr(quick)
        assert hash(plain) == hash(quick)
    with pytest.raises(TypeError):
        Quick()
    with pytest.raises(TypeError):
        Quick("a", 1, False, "extra")
