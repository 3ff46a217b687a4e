"""What a game provides to the adjudicator: the contract of a game plug-in.

A game is one folder, ``adjudicator/games/<game>/``, and one line in the registry
(:mod:`adjudicator.games`): ``"<name>": "adjudicator.games.<game>.plugin"``. The module
named there has a function ``plugin()`` that returns a :class:`GamePlugin`. The generic
wings (engine, orders, reports, campaign, fairdice, store, mail, cli) reach a game only
through that object; a game imports the engine, ``adjudicator.orders`` (its generic
half) and ``adjudicator.fairdice``, never ``campaign``, ``cli`` or another game.

The parts, each a small object (a module is fine) with the members listed in its
protocol below:

``game``
    The rules, as the engine drives them (:class:`RulesGame`): ``name``, ``title``,
    ``sides``, ``new_state(setup, options)`` (raises a :class:`GameDataError` subclass
    on a bad option), ``rules(state, narrate)`` -- a generator that yields
    :class:`~adjudicator.engine.requests.Decision`, ``Roll``, ``Shuffle`` and ``Draw``
    requests and :class:`~adjudicator.engine.requests.Event` pauses (the helper
    :class:`adjudicator.engine.table.Table` gives ``ask``/``roll``/``shuffle``/``draw``/``say``)
    -- and ``view(state, side)`` (``side=None``: the referee's view, everything). The
    state has ``to_json()`` (plain JSON: it is hashed into the public record) and,
    where the game has them, ``turn``, ``phase`` and ``result`` attributes (``result``
    is None while the game runs). ``data_hashes()`` names each data file read with
    its SHA-256 (they go into the charter).

    Asking several sides at one stop (both sides' orders for a turn, simultaneous
    movement): the rules yield a :class:`~adjudicator.engine.requests.Simultaneous`
    of one Decision per side (``Table.question`` makes each, ``Table.ask_together``
    or :func:`adjudicator.engine.table.ask_together` yields them) and receive
    ``{side: typed answer}`` once every side has answered. Each side answers on its
    own and in any order (``Match.decisions`` lists the questions still open,
    ``Match.decision_for(side)`` a side's); the answers do not reach the rules, nor
    change the state, before the last is in. In a campaign each side's orders for
    such a stop are taken under the step number of the report that asked, whichever
    side's came first; a run that leaves the stop half answered records nothing
    (the orders on file answer again at the next run), so that the stop's answers
    are recorded in one batch; at the deadline each silent side gets its default.
    A single question is better asked with ``ask`` (``ask_together`` of one
    question does just that). The contract test plays every game answering such
    stops in either order.

    ``restore_state(data)`` (snapshots; all three games have it): the state back from
    its ``to_json()``, a fresh copy. A game that has it promises that its rules yield a
    ``"phase"`` Event (:data:`~adjudicator.engine.match.RESUME_EVENT`, ``data`` naming
    the turn and phase) at the start of every phase, before anything of the phase
    happens, and that ``rules(restore_state(s), narrate)`` -- ``s`` the state's JSON
    taken when that Event was yielded -- yields that same Event first and then exactly
    what the running rules yield from there (requests, events, state changes): all
    that the rules carry across a phase boundary is in the state. The engine then
    runs a match from a :class:`~adjudicator.engine.match.Snapshot` instead of from
    the start (a campaign keeps its latest one, docs/snapshots.md); ``verify`` always
    replays from the start. ``tests/engine/test_snapshots.py`` checks the promise on
    random complete games of every registered game.

``language`` (:class:`OrdersLanguage`)
    ``read(clean_text, problem_log, state=None, world=None) -> OrderSet | None``
    (parse ``grammar/<game>.lark``, whose header comes from ``grammar/common.lark``,
    every problem into the log with a code of the game's own range; the header and the
    block loop are :class:`adjudicator.orders.reading.TreeReader`'s),
    ``merge_orders(standing, new)`` and ``CODES`` (the game's error codes and
    titles, E2xx for Port Arthur; E1xx are generic, see
    :mod:`adjudicator.orders.problems`). An ``OrderSet``'s blocks print themselves
    in canonical form.

``answers`` (:class:`OrderAnswers`)
    ``answer_for(decision, state, orders)``: the JSON answer the orders give, or None
    (then the player is asked); ``default_answer(decision, state)``: the answer for a
    silent player (NMR); ``DEFAULT_TEXT``: decision kind -> what the default does,
    in words. Both only ever return legal answers. ``why_not(decision, state, orders)``
    (required: nothing a player sends is dropped or replaced in silence): each order of
    ``orders`` that cannot be carried out as written in the position ``state`` for
    ``decision``, as ``(name, reason)`` pairs -- ``name`` the word its line is found by
    in the text sent (a unit, a ship, a card; ``"fire\\nMikasa:"``: the first line
    naming ``Mikasa:`` after the line that opens the block ``fire``), ``reason`` why
    and what is done instead ("Novik cannot reach Pacific Ocean from Port Arthur");
    an empty list when every order can be carried out (or ``orders`` is None).
    ``check --store --campaign`` and every receipt name each such line, and the report
    lists them under "Orders not carried out as written".
    Optional: ``answering_blocks(decision, state)``, the headings of the blocks that
    answer ``decision`` (by default its kind), so that a question left open is blamed on
    the orders that should have answered it; and ``why_not_waiting(side, state, orders)``,
    as ``why_not`` for orders a side sends while none of its questions is open: the
    orders that can never be carried out, whatever happens before the side is asked.

``report`` (:class:`ReportPartial`)
    ``context(state, view, side, options)``: the game's part of a player's report
    context (placed under ``game`` in the template context; the partials
    ``templates/<game>/situation.*.j2`` -- else a generic listing -- and, if they
    exist, ``extras.*.j2`` (after what is asked) and ``notes.*.j2`` (at the end) draw
    it; ``view`` is what this side may see: draw only from it);
    ``answer_hint(decision)``: how to answer in the orders language, as lines;
    optionally ``answer_hint_in(decision, translations)``: the same with its comments
    in the reader's language (``translations``: the reader's gettext translations;
    the orders lines alike, so that it reads and answers as the English one). A
    question's ``prompt`` that writes itself (``in_words``: a
    :class:`~adjudicator.engine.requests.Phrase`) is asked in the reader's language
    too.

``player``
    ``player(rng)`` -> a chooser ``(decision, state) -> JSON answer`` that plays legally
    at random (simulations, the contract test); ``dice(rng)`` -> simulation dice.

``conformance`` (:class:`Conformance`)
    ``setup(case) -> setup``: the engine set-up for a case's ``[position]``;
    ``compare(match, expect, rejected) -> [problems]``: the case's expectations;
    optionally ``answer_problem(decision, answer) -> str | None``: why a case's answer
    does not fit the question beyond its ``ask`` and ``side`` (RJW: the ``unit`` of a
    ``retreat``). The generic runner (:mod:`adjudicator.engine.cases`) supplies the
    case's dice (``dice``), shuffles (``shuffles``: each the new order, top first, by
    card name when the rules name the cards), card draws (``cards``: ``"side CARD"``)
    and answers, and stops at ``until`` (a "phase" Event whose data names the phase).

``secrets(options) -> bool``
    Whether a campaign with these options has hidden information (hidden decisions,
    hidden dice, shuffles or draws). Such a campaign commits a second, hidden seed
    chain and seals hidden answers (docs/dice.md, "Secrets"); a campaign without
    publishes exactly what it did before hidden information existed.

``commander(side, rng)`` (optional)
    An automatic player that writes orders files (the demo): ``orders(decision,
    state, header) -> text``.

``sample_options``
    Option sets the contract test plays (the rulebook's, and one with every optional
    rule and any hidden information).

Every decision kind a game asks must have a reader (the Decision's ``parse``), a
default (``answers.default_answer``), a hint (``report.answer_hint``) and a canonical
text (orders that answer it print and read back the same); the contract test
(``tests/test_game_contract.py``) checks this over every registered game.

A hint is the question's template, printed in the player's report between BEGIN
ORDERS and END ORDERS: a skeleton of the orders filled with the default answer, the
choices as comments, within 74 columns (the report indents it by 4). As it stands it
reads without a problem and answers the question as the default does
(``tests/games/templates.py`` checks it, for the games listed in ``TEMPLATE_GAMES`` of
the contract test: every game, once its templates are written so).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from adjudicator.engine.requests import Decision, Event

if TYPE_CHECKING:  # pragma: no cover - types only
    from adjudicator.engine.match import Match
    from adjudicator.orders.model import OrderSet
    from adjudicator.orders.problems import ProblemLog
    from adjudicator.orders.text import CleanText


class RulesGame(Protocol):
    """What the engine drives (see :class:`adjudicator.engine.match.Game`)."""

    name: str
    title: str
    sides: tuple[str, ...]

    def new_state(self, setup: Mapping[str, Any], options: Mapping[str, Any]) -> Any: ...

    def rules(self, state: Any, narrate: Callable[[Event], None]) -> Any: ...

    def view(self, state: Any, side: str | None) -> dict: ...

    def data_hashes(self) -> dict[str, str]: ...

    # optional: ``restore_state(data) -> state`` (see the module's docstring, ``game``)


class OrdersLanguage(Protocol):
    CODES: Mapping[str, str]

    def read(self, clean: "CleanText", log: "ProblemLog", state: Any = None,
             world: Any = None) -> "OrderSet | None": ...

    def merge_orders(self, standing: "OrderSet | None", new: "OrderSet") -> "OrderSet": ...


class OrderAnswers(Protocol):
    DEFAULT_TEXT: Mapping[str, str]

    def answer_for(self, decision: Decision, state: Any, orders: "OrderSet | None") -> dict | None: ...

    def default_answer(self, decision: Decision, state: Any) -> dict: ...

    def why_not(self, decision: Decision, state: Any, orders: "OrderSet | None") -> list[tuple[str, str]]: ...


class ReportPartial(Protocol):
    def context(self, state: Any, view: Mapping[str, Any], side: str, options: Mapping[str, Any]) -> dict: ...

    def answer_hint(self, decision: Decision) -> list[str]: ...


class Conformance(Protocol):
    def setup(self, case: Mapping[str, Any]) -> dict: ...

    def compare(self, match: "Match", expect: Mapping[str, Any], rejected: int) -> list[str]: ...


Chooser = Callable[[Decision, Any], Mapping[str, Any]]


@dataclass(frozen=True)
class GamePlugin:
    """Everything the adjudicator knows of one game (see the module's docstring)."""

    name: str
    title: str
    make_game: Callable[[], RulesGame]
    language: OrdersLanguage
    answers: OrderAnswers
    report: ReportPartial
    player: Callable[[random.Random], Chooser]
    dice: Callable[[random.Random], Callable[[Any], Any]]
    conformance: Conformance
    secrets: Callable[[Mapping[str, Any]], bool] = lambda options: False
    commander: Callable[[str, random.Random], Any] | None = None
    sample_options: tuple[Mapping[str, Any], ...] = ({},)
    """Option sets worth testing (the contract test plays a game with each)."""

    @cached_property
    def _game(self) -> RulesGame:
        return self.make_game()

    def game(self) -> RulesGame:
        """The game's engine object (made once: it holds the game's data)."""
        return self._game

    def data_hashes(self) -> dict[str, str]:
        """Each game data file with its SHA-256, as the charter records them."""
        return dict(self.game().data_hashes())

    def has_secrets(self, options: Mapping[str, Any]) -> bool:
        return bool(self.secrets(options))
