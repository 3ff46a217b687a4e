"""Running the rules from the players' orders: which step and turn orders are for,
which orders are in force at each step and game turn, the driver that answers the
rules from them (defaults for silent sides), and why orders would not answer the
open question."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Any, Callable, Collection, Mapping, Sequence

from adjudicator.campaign.errors import StepOver
from adjudicator.campaign.games import support
from adjudicator.campaign.log import AcceptedOrders, CampaignLog
from adjudicator.campaign.parsed import UnreadableCache, cached_orders, encode, text_key
from adjudicator.engine import Decision, IllegalAnswer, Match, Source, drive
from adjudicator.i18n import said
from adjudicator.orders import OrderSet, parse_orders
from adjudicator.orders.problems import secret_in
from adjudicator.orders.text import clean


def step_of(orders: OrderSet, log: CampaignLog, turn: Any = None) -> int:
    current = log.next_batch
    given = orders.header.step
    if given is None:
        check_turn(orders, turn, current)
        return current
    try:
        step = int(given)
    except ValueError:
        raise StepOver(f"the step {given!r} is not a number; the current step is {current}") from None
    if step < current:
        if orders.header.turn is not None and turn is not None and orders.header.turn != turn:
            raise StepOver(f"step {step} is over; the current step is {current}, at turn {turn}: "
                           f"send orders with 'turn: {turn}' and 'step: {current}'")
        raise StepOver(f"step {step} is over; the current step is {current}: "
                       f"send orders for step {current}")
    if step > current:
        raise StepOver(f"step {step} has not begun; the current step is {current}")
    check_turn(orders, turn, current)
    return step


def check_turn(orders: OrderSet, turn: Any, current: int) -> None:
    """A ``turn:`` line must name the game turn of the step the orders are for:
    orders written for another turn are stale (or early) and are refused."""
    given = orders.header.turn
    if given is None or turn is None or given == turn:
        return
    early = isinstance(given, int) and isinstance(turn, int) and given > turn
    late = f"turn {given} has not begun, and they were not used" if early else "they are stale and were not used"
    raise StepOver(f"these orders are for turn {given}, but the game is at turn {turn} (step {current}): "
                   f"{late}; send orders with 'turn: {turn}' and 'step: {current}'")


def used_already(orders: OrderSet, side: str, sha256: str, log: CampaignLog) -> str:
    """What to add to the refusal of orders whose ``step:`` is over when they are the very
    orders accepted for that step (a mail sent twice, or again by a mail program): they
    were used, and the copy changes nothing. Empty for other orders."""
    given = orders.header.step
    if not any(o.side == side and o.sha256 == sha256 and str(o.step) == str(given) for o in log.orders):
        return ""
    return (f" (these very orders were accepted for step {given} and step {given} was adjudicated with "
            "them: this copy changes nothing)")


def check_not_sent_again(orders: OrderSet, side: str, step: int, sha256: str, log: CampaignLog) -> None:
    """Orders without a ``step:`` line are for the step open when they first arrive:
    the very same orders arriving again once that step is over (a copy of the mail
    sent again, or replayed by someone who saw it) are refused, not used for the
    step open now. Sent again with a ``step:`` line, they count for that step."""
    if orders.header.step is not None:
        return
    earlier = [o.step for o in log.orders if o.side == side and o.sha256 == sha256 and o.step < step]
    if earlier:
        raise StepOver(f"these orders of {side} were accepted for step {earlier[-1]}, which is over; orders "
                       f"without a 'step:' line count for the step open when they first arrive. To use them "
                       f"again for the current step, add 'step: {step}' and send them again")


@lru_cache(maxsize=4096)
def stored_orders(text: str, game: str) -> OrderSet:
    """Orders accepted earlier, read back from their canonical text (cached: a
    campaign reads the same texts at every step)."""
    return parse_orders(text, game)


def accepted_orders(log: CampaignLog, text: str, game: str) -> OrderSet:
    """Orders accepted earlier: from the campaign's parsed orders cache when it holds
    exactly this text, else parsed again (and added to the cache)."""
    log.parsed_used.add(text_key(text))
    found = log.read_orders.get(text) or cached_orders(text, log.parsed)
    if found is None:
        found = stored_orders(text, game)
        try:
            log.parsed[text_key(text)] = encode(found)
            log.parsed_added = True
        except UnreadableCache:
            pass
    log.read_orders[text] = found
    return found


def orders_in_force(log: CampaignLog, step: int, turn: Any, game: str,
                    skip: Collection[int] | None = None) -> dict[str, OrderSet]:
    """Each side's orders in force for ``step``, at game turn ``turn``.

    A newer order set for the same step replaces the older one. Over the steps,
    standing orders (policies) stay in force until replaced; one-off orders
    (sortie, operations plan) stay in force for the game turn they were sent in.
    The orders records in ``skip`` are left out (default: the voided steps' orders,
    :meth:`CampaignLog.voided_orders`)."""
    sent = log.orders_up_to(step, log.voided_orders() if skip is None else skip)
    if all(accepted.blocks is not None for accepted in sent):
        found = _in_force_by_kinds(log, sent, turn, game)
        if found is not None:
            return found
    in_force: dict[str, tuple[OrderSet, Any]] = {}
    for accepted in sent:
        orders = accepted_orders(log, accepted.text, game)
        if accepted.side in in_force:
            old, old_turn = in_force[accepted.side]
            kept = [b for b in old.blocks
                    if b.kind not in orders.kinds and (b.standing or old_turn == accepted.turn)]
            orders = replace(orders, blocks=(*orders.blocks, *kept))
        in_force[accepted.side] = (orders, accepted.turn)
    return {side: orders if sent_turn == turn else orders.standing()
            for side, (orders, sent_turn) in in_force.items()}


def _in_force_by_kinds(log: CampaignLog, sent: Sequence[AcceptedOrders], turn: Any,
                       game: str) -> dict[str, OrderSet] | None:
    """:func:`orders_in_force` worked out on the kinds of blocks kept with each order
    set, reading only the order sets that still give a block in force (so that the
    cost does not grow with the campaign); None when an order set read does not have
    the kinds kept with it (then every set is read)."""
    in_force: dict[str, tuple[list[tuple[int, int]], Any, int]] = {}  # side -> (set, block) refs, turn, latest
    for index, accepted in enumerate(sent):
        given = {kind for kind, _ in accepted.blocks}
        refs = [(index, j) for j in range(len(accepted.blocks))]
        if accepted.side in in_force:
            old, old_turn, _ = in_force[accepted.side]
            refs += [(i, j) for i, j in old
                     if sent[i].blocks[j][0] not in given and (sent[i].blocks[j][1] or old_turn == accepted.turn)]
        in_force[accepted.side] = (refs, accepted.turn, index)
    result = {}
    for side, (refs, sent_turn, latest) in in_force.items():
        if sent_turn != turn:
            refs = [(i, j) for i, j in refs if sent[i].blocks[j][1]]
        read = {i: accepted_orders(log, sent[i].text, game) for i in {latest, *(i for i, _ in refs)}}
        if any(tuple((b.kind, bool(b.standing)) for b in orders.blocks) != sent[i].blocks
               for i, orders in read.items()):
            return None
        result[side] = replace(read[latest], blocks=tuple(read[i].blocks[j] for i, j in refs))
    return result


def answering_blocks(answers: Any, decision: Decision, state: Any) -> tuple[str, ...]:
    """The headings of the blocks that answer ``decision`` (the game's optional
    ``answering_blocks``; by default the decision's kind)."""
    given = getattr(answers, "answering_blocks", None)
    return tuple(given(decision, state)) if given is not None else (decision.kind,)


def run_from_orders(match: Match, chance: Callable[[Any], Sequence[int]], in_force: Callable[[Any], Mapping[str, OrderSet]],
         silent: set[str], answers: Any,
         explain: Callable[[Decision, Any, OrderSet], None] | None = None) -> tuple[list[tuple[str, str]], list[str]]:
    """Drive the match: dice from the batch, answers from the orders in force for the
    current game turn; stop at a question nobody has answered.

    A silent side (its deadline passed) gets the default for the question it missed
    only: the next question it is asked stays open, with a fresh deadline and a report.
    ``explain(decision, state, orders)`` is told of every question met while the side
    asked has orders in force (:class:`NotCarriedOut` notes what they leave undone).

    A stop that asks several sides ends the run whole: when some of its sides have
    answered and others not, those answers are taken back (and with them any default
    given there), so that the stop's answers are all recorded in one batch, once the
    last is in; until then the orders that gave them stay on file and give them again."""
    defaults: list[tuple[str, str]] = []
    defaulted: list[Decision] = []
    refused: list[str] = []
    standing: dict[str, Any] = {"turn": object(), "orders": {}}
    missed: dict[str, Decision] = {}  # side -> the one question it missed (defaulted)

    def answer(decision: Decision, state: Any) -> Mapping[str, Any] | None:
        turn = getattr(state, "turn", None)
        if turn != standing["turn"]:
            standing["turn"], standing["orders"] = turn, in_force(turn)
        orders = standing["orders"].get(decision.side)
        if explain is not None and orders is not None:
            explain(decision, state, orders)
        given = answers.answer_for(decision, state, orders)
        if given is None and decision.side in silent and missed.setdefault(decision.side, decision) is decision:
            given = answers.default_answer(decision, state)
            defaults.append((decision.side, decision.kind))
            defaulted.append(decision)
        blocks = [block for block in answering_blocks(answers, decision, state)
                  if orders is not None and orders.block(block) is not None]
        if given is None and blocks:
            refused.append(said("%(side)s: the %(kind)s orders on file leave this question open (an 'ask', or an "
                                "order that cannot be carried out as written): it is asked again",
                                side=decision.side, kind=blocks[0]))
        return given

    def rejected(decision: Decision, given: Mapping[str, Any], err: IllegalAnswer) -> bool:
        refused.append(said("%(side)s's orders for %(kind)s could not be used: %(why)s", side=decision.side,
                            kind=repr(decision.kind), why=str(err)))
        return False

    drive(match, Source(chance=chance, answer=answer, rejected=rejected))
    if match.answered_together:
        taken_back = {id(decision) for decision in match.pending.decisions}
        match.withdraw_open_answers()
        defaults = [d for d, asked in zip(defaults, defaulted) if id(asked) not in taken_back]
    return defaults, refused


def describe_defaults(defaults: Sequence[tuple[str, str]], orders_support: Any) -> tuple[str, ...]:
    """What each default did, in words ("russia: passes"), once per side and kind."""
    texts = getattr(orders_support, "DEFAULT_TEXT", {})
    notes = []
    for side, kind in dict.fromkeys(defaults):
        text = texts.get(kind)
        notes.append(said("%(side)s: %(default)s", side=said(side.capitalize()),
                          default=said("the documented default for %(kind)s", kind=kind) if text is None
                          else said(text.replace("%", "%%"))))
    return tuple(notes)


def line_of(text: str | None, name: str) -> int | None:
    """The number of the first line of ``text`` that names ``name`` (a whole word, any
    case). A name ``"HEADING\\nNAME"`` is found in the block HEADING opens: the first
    line naming NAME after the first line that starts with HEADING (anywhere, when no
    such line follows it): a ship's line in ``fire:``, not its line in ``move:``."""
    if not text:
        return None
    heading, _, name = name.rpartition("\n")
    word = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
    lines = list(enumerate(text.splitlines(), 1))
    if heading:
        opening = re.compile(rf"\s*{re.escape(heading)}(?![\w-])", re.IGNORECASE)
        start = next((index for index, (_, line) in enumerate(lines) if opening.match(line)), None)
        found = None if start is None else _first_naming(word, lines[start + 1:])
        if found is not None:
            return found
    return _first_naming(word, lines)


def _first_naming(word: re.Pattern, lines: Sequence[tuple[int, str]]) -> int | None:
    return next((number for number, line in lines if word.search(line)), None)


def as_sent(data: bytes | str) -> str:
    """The orders as the player sent them, to find an order's line in: one line for
    each line sent (what is not orders left blank, as the grammar reads them: a
    greeting, a quoted report), every secret masked (no password is kept), without
    the blank lines at the end. The receipt and the report count lines in it, the
    only text the player has."""
    lines = [found[0] if (found := secret_in(line)) else line for line in clean(data).lines]
    return "\n".join(lines).rstrip() + "\n"


def at_line(reason: str, number: int | None, step: int | None = None) -> str:
    """Why an order cannot be carried out, located in the orders the player sent, in
    the one wording of the receipt and the report: "line 12: Novik cannot reach ...",
    or "line 3 of your orders for step 2: ..." when they are orders sent for an
    earlier step (``step``); the reason alone when no line names it."""
    if number is None:
        return reason
    return said("line %(line)s: %(note)s", line=number, note=reason) if step is None else said(
        "line %(line)s of your orders for step %(step)s: %(note)s", line=number, step=step, note=reason)


def unusable_lines(game_support: Any, decision: Any, state: Any, orders: OrderSet, text: str | None) -> list[str]:
    """Each order the game says cannot be carried out now, with its line in the text
    sent ("line 12: Novik cannot reach Pacific Ocean from Port Arthur"), in the order
    of their lines (those no line names last)."""
    located = [(line_of(text, name), reason) for name, reason in game_support.answers.why_not(decision, state, orders)]
    located.sort(key=lambda found: float("inf") if found[0] is None else found[0])
    return [at_line(reason, number) for number, reason in located]


def sets_in_force(log: CampaignLog, step: int, turn: Any, game: str,
                  skip: Collection[int] | None = None) -> dict[str, list[AcceptedOrders]]:
    """The order sets each side's orders in force for ``step`` at game turn ``turn``
    come from (see :func:`orders_in_force`, whose rule this follows): those that still
    give a block in force, newest first. An order set whose blocks were all replaced
    since, or whose one-off orders were for an earlier turn, is not among them, nor
    are the orders records in ``skip`` (default: the voided steps' orders)."""
    sent = log.orders_up_to(step, log.voided_orders() if skip is None else skip)
    kept: dict[str, tuple[list[tuple[int, str, bool]], Any]] = {}  # side -> (set, kind, standing), its turn
    for index, accepted in enumerate(sent):
        blocks = accepted.blocks if accepted.blocks is not None else tuple(
            (block.kind, bool(block.standing)) for block in accepted_orders(log, accepted.text, game).blocks)
        refs = [(index, kind, standing) for kind, standing in blocks]
        if accepted.side in kept:
            old, old_turn = kept[accepted.side]
            given = {kind for kind, _ in blocks}
            refs += [ref for ref in old if ref[1] not in given and (ref[2] or old_turn == accepted.turn)]
        kept[accepted.side] = (refs, accepted.turn)
    return {side: [sent[i] for i in sorted({i for i, _, standing in refs if standing or sent_turn == turn},
                                            reverse=True)]
            for side, (refs, sent_turn) in kept.items()}


class NotCarriedOut:
    """What each side's orders in force leave undone, as the game's ``answers.why_not``
    tells it (a required part of the game contract), noted while the adjudication
    meets the questions, for that side's next report: "line 8: Novik cannot reach
    Pacific Ocean from Port Arthur", the line found in the order sets the side's
    orders in force come from (``sets_at``: game turn -> side -> those sets, newest
    first), as the side sent them (:func:`as_sent`; orders kept before that was
    stored are read in their canonical text), named by their step when it is not
    ``step``, the step adjudicated."""

    def __init__(self, answers: Any, sets_at: Callable[[Any], Mapping[str, Sequence[AcceptedOrders]]],
                 step: int) -> None:
        self._why_not = answers.why_not
        self._sets_at = lru_cache(maxsize=None)(sets_at)
        self._step = step
        self.notes: dict[str, list[str]] = {}

    def __call__(self, decision: Decision, state: Any, orders: OrderSet) -> None:
        sets = self._sets_at(getattr(state, "turn", None)).get(decision.side, ())
        for name, reason in self._why_not(decision, state, orders):
            noted = self.notes.setdefault(decision.side, [])
            note = self._located(sets, name, reason)
            if note not in noted:
                noted.append(note)

    def _located(self, sets: Sequence[AcceptedOrders], name: str, reason: str) -> str:
        for accepted in sets:
            number = line_of(accepted.sent or accepted.text, name)
            if number is not None:
                return at_line(reason, number, None if accepted.step == self._step else accepted.step)
        return reason

    def by_side(self) -> dict[str, tuple[str, ...]]:
        return {side: tuple(notes) for side, notes in self.notes.items() if notes}


def open_question_problems(log: CampaignLog, match: Match, orders: OrderSet, side: str,
                           text: str | None = None) -> list[str]:
    """Why ``orders`` (over the side's standing orders) would not answer the question
    now open for ``side``, each order that cannot be carried out named by its line in
    ``text`` (the text sent, :func:`as_sent`); empty when they would, or when the question is another's."""
    decision = match.decision_for(side)
    game_support = support(log.charter["game"])
    if decision is None:
        waiting = getattr(game_support.answers, "why_not_waiting", None)
        return [] if waiting is None else [at_line(reason, line_of(text, name))
                                           for name, reason in waiting(side, match.state, orders)]
    lines = unusable_lines(game_support, decision, match.state, orders, text)
    in_force = orders_in_force(log, log.next_batch, getattr(match.state, "turn", None), game_support.name).get(side)
    if in_force is not None:
        kept = tuple(b for b in in_force.blocks if b.kind not in orders.kinds)
        orders = replace(orders, blocks=(*orders.blocks, *kept))
    answer = game_support.answers.answer_for(decision, match.state, orders)
    if answer is None:
        return [*lines, said("these orders do not answer the question now open for %(side)s (%(kind)s): "
                             "%(prompt)s (an order that cannot be carried out as written is not used): "
                             "correct them and send them again, or you are asked again in the next report",
                             side=side, kind=decision.kind, prompt=decision.prompt)]
    try:
        decision.accept(answer)
    except IllegalAnswer as err:
        return [*lines, said("the answer these orders give to %(kind)s is not legal: %(why)s", kind=repr(decision.kind),
                             why=str(err))]
    return lines
