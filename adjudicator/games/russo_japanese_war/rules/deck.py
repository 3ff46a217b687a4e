"""10.0 Card Play (the deck), 10.1 Card Replenishment, 10.4.6 Seiro-gan, 3.2 the opening hand.

The deck is face down and its order hidden: every shuffle is a hidden one (drawn from the
hidden seed stream, revealed when the game ends). "When only one card remains in the deck,
before that card is drawn, shuffle the discard pile together with that card to form a new
deck" (10.0); a draw from an empty deck first shuffles the discard pile (A56) and is
skipped when there is nothing to shuffle (A24).
"""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import Phrase
from adjudicator.games.russo_japanese_war.answers import Kind
from adjudicator.games.russo_japanese_war.data import JAPAN, RESHUFFLE_CARD, other
from adjudicator.i18n import N_


def reshuffle(t, purpose: str, extra: tuple[str, ...] = ()):
    """The deck, the discard pile and ``extra`` shuffled into a new deck (top first), in
    the order the hidden stream gives. While the shuffle is pending the cards are held
    in ``cards.shuffling`` (so that they are always counted once)."""
    cards = t.cards["deck"] + t.cards["discard"] + list(extra)
    t.cards["deck"].clear()
    t.cards["discard"].clear()
    if len(cards) >= 2:
        t.cards["shuffling"] = cards
        cards = yield from t.shuffle(cards, purpose, hidden=True)
        del t.cards["shuffling"]
        t.say("shuffle", "{} cards are shuffled into a new deck ({}).", len(cards), purpose, count=len(cards))
    t.cards["deck"].extend(cards)


def draw(t, side: str):
    """Draw the top card into ``side``'s hand (None when there is no card at all)."""
    deck, pile = t.cards["deck"], t.cards["discard"]
    if len(deck) == 1 and pile:
        yield from reshuffle(t, N_("10.0: one card left in the deck"))
    elif not deck:
        if not pile:
            t.say("draw", "{} cannot draw: no card in the deck or the discard pile (A24).", side.capitalize())
            return None
        yield from reshuffle(t, N_("A56: the deck is empty"))
    card = deck.pop(0)
    t.hand(side).append(card)
    t.say("draw", "{} draws {}.", side.capitalize(), t.data.card_label(card, side), visible_to=(side,),
          side=side, card=card)
    t.say("draw-count", "{} draws a card.", side.capitalize(), visible_to=(other(side),), side=side)
    return card


def draw_cards(t, side: str, count: int):
    """Draw ``count`` cards, then check them (10.4.6): each Seiro-gan drawn is revealed
    and shuffled with the discard pile and the deck into a new deck, not replaced."""
    drawn = []
    for _ in range(count):
        card = yield from draw(t, side)
        if card is not None:
            drawn.append(card)
    for card in drawn:
        if card == RESHUFFLE_CARD:
            t.hand(side).remove(card)
            t.say("reshuffle", "{} drew {}: it is shown and shuffled back with the discard pile and the deck; "
                  "no replacement (10.4.6).", side.capitalize(), t.data.card_label(card, side), side=side)
            yield from reshuffle(t, N_("10.4.6: Seiro-gan / Southward Policy drawn"), (card,))


def opening_hand(t):
    """3.1-3.2: Russia has no cards; Japan draws the top 3 (Seiro-gan goes back)."""
    yield from draw_cards(t, JAPAN, t.data.numbers.japan_starting_hand)


def random_discards(t, side: str, down_to: int, why: str):
    """Discard at random until ``side`` holds ``down_to`` cards (10.4.3, A29): one die
    with as many faces as the hand holds cards, read as a position in the hand."""
    hand = t.hand(side)
    while len(hand) > down_to:
        if len(hand) == 1:
            index = 0
        else:
            (value,) = yield from t.roll(1, f"random discard ({why})", side, sides=len(hand))
            index = value - 1
        card = hand.pop(index)
        t.cards["discard"].append(card)
        t.say("discard", "{} discards {} at random ({}).", side.capitalize(), t.data.card_label(card, side), why,
              side=side, card=card)


def replenishment_phase(t):
    """10.1: with 2 or fewer cards, draw up to 3; a paid Morale Point draws one more,
    decided before drawing (A26, A27). Under a hand limit (10.4.3, A29): random discards
    down to the limit, draws only up to it, no paid card."""
    side = t.phasing
    numbers = t.data.numbers
    hand = t.hand(side)
    limit = t.s["limits"].get(side)
    if limit is not None:
        yield from random_discards(t, side, limit, "hand limit, 10.4.3")
        yield from draw_cards(t, side, max(0, limit - len(hand)))
        return
    extra = False
    if len(hand) <= numbers.hand_refill_to and t.s["morale"][side] >= 1:

        def parse(answer: Mapping[str, Any]) -> dict:
            if not isinstance(answer.get("use"), bool):
                raise IllegalAnswer("answer use = true (pay 1 Morale Point for a fourth card) or use = false")
            return {"use": answer["use"]}

        answer = yield from t.ask(side, Kind.EXTRA_CARD, {"hand": len(hand), "morale": t.s["morale"][side]},
                                  Phrase("{} Card Replenishment: pay 1 Morale Point to draw one more card "
                                         "(decided before drawing, 10.1)?", side.capitalize()), parse)
        extra = answer["use"]
    count = max(0, numbers.hand_refill_to - len(hand)) + (1 if extra else 0)
    if extra:
        t.add_morale(side, -1, N_("a fourth card, 10.1"))
    yield from draw_cards(t, side, count)
