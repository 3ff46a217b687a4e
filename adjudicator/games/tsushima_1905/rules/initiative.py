"""Rulebook, "Determine Initiative" and the card half of "Torpedoes".

"A card from each deck is turned over. The higher card has the initiative and may
move and fire from as many ships as the difference in the card values ... In the
event of a tie, turn over another card. When the last card of a deck is turned over,
reshuffle the deck and continue play." (R-CARD-3, R-CARD-4)

"Admirals (Kings) have no point value; however if an Admiral appears, the player
drawing the King sets the card aside and draws another card ... If that player earns
the initiative, add +1 to all gun or torpedo dice rolls that turn. If the Admiral does
not gain the initiative, add +1 to all defensive armor rolls that turn." (R-CARD-2)

"When a player turns over an Ace during the Initiative Phase, the opposite side has
the Offense and may opt to launch torpedoes in lieu of a normal move ..." with the
decision chain of R-TORP-1 and R-TORP-4.

A card is drawn at the moment it is turned (an engine ``Draw`` from the cards left
in the draw pile, which the state keeps unordered), never from a deck shuffled
earlier, so that no card's identity can be computed from anything published before
it is turned.
"""

from __future__ import annotations

from typing import NamedTuple

from adjudicator.games.tsushima_1905.answers import Choice, Kind
from adjudicator.games.tsushima_1905.data import card_value
from adjudicator.games.tsushima_1905.state import SIDES, Deck, other
from adjudicator.games.tsushima_1905.rules.table import CARD_PURPOSE, Steps, Table
from adjudicator.games.tsushima_1905.words import counted, Worded
from adjudicator.i18n import N_

ACE, KING = 1, 0


class Initiative(NamedTuple):
    offense: str
    prime: int
    torpedo_attacks: int


def _reshuffle(deck: Deck, showing: str | None) -> None:
    """The discard pile, less the card showing and a King set aside, is the new draw pile."""
    deck.draw = [c for c in deck.discard if c != showing and c != deck.aside]
    deck.discard = [showing] if showing else []
    deck.sort_draw()


def draw(table: Table, side: str) -> Steps:
    """Turn over ``side``'s next card (returns it)."""
    deck = table.state.decks[side]
    if not deck.draw:
        _reshuffle(deck, None)
        table.say("reshuffle", "{}'s draw pile is empty: the discards are reshuffled.", side.title(), side=side)
    card = yield from table.draw_card(deck.draw, f"{CARD_PURPOSE} {side}", side)
    deck.draw.remove(card)
    deck.discard.append(card)
    table.say("card", "{} turns over {}.", side.title(), card, side=side, card=card)
    if not deck.draw and table.options.reshuffle == "on-last-card":
        _reshuffle(deck, card)
        table.say("reshuffle", "That was {}'s last card: the deck is reshuffled (R-CARD-4).", side.title(),
                  side=side)
    return card


def round_of_cards(table: Table) -> Steps:
    """Japan's card, then Russia's; then each King is set aside and replaced, Japan first."""
    cards = {}
    for side in SIDES:
        cards[side] = yield from draw(table, side)
    for side in SIDES:
        while card_value(cards[side]) == KING:
            deck = table.state.decks[side]
            deck.discard.remove(cards[side])
            deck.aside = cards[side]
            table.say("admiral", "{}'s Admiral appears: the King is set aside.", side.title(), side=side)
            cards[side] = yield from draw(table, side)
    return {side: card_value(card) for side, card in cards.items()}


def ask_torpedo(table: Table, side: str, attacks: int, ace_side: str | None = None) -> Steps:
    """The Offense's choice after an ace: torpedoes, or a normal turn. Asked of the side
    without the ace (``ace_side`` given), torpedoes turn over a second pair of cards,
    which decides how many attacks and whose (R-TORP-1); asked after the second pair,
    the choice is between ``attacks`` attacks and as many prime activations."""
    def check(choice: Choice) -> bool:
        return choice.use

    options = {"attacks": attacks, "prime": attacks,
               "draw_piles": {s: list(table.state.decks[s].draw) for s in SIDES}}
    if ace_side is None:
        prompt = Worded(N_("An ace: launch {}, or play a normal turn with {}?"),
                        counted(attacks, "torpedo attack"), counted(attacks, "prime activation"))
    else:
        options["second_pair"] = True
        prompt = Worded(N_("{} shows an ace: torpedoes (a second pair of cards is turned over: the higher card "
                           "makes as many attacks as the difference), or a normal turn with {}?"),
                        ace_side.title(), counted(attacks, "prime activation"))
    use = yield from table.ask(side, Kind.TORPEDO, options, prompt, check)
    table.say("torpedo-choice", N_("{} chooses torpedoes.") if use else N_("{} chooses a normal turn."),
              side.title(), side=side, use=use)
    return use


def ace_procedure(table: Table, ace_side: str, cards: dict[str, int]) -> Steps:
    """R-TORP-1: B (the other side) has the Offense and chooses; a torpedo choice
    turns over a second pair. Returns None when two aces show together."""
    a, b = ace_side, other(ace_side)
    attacks = cards[b] - ACE
    if not (yield from ask_torpedo(table, b, attacks, ace_side=a)):
        return Initiative(b, attacks, 0)
    while True:
        second = yield from round_of_cards(table)
        va, vb = second[a], second[b]
        if va == ACE and vb == ACE:
            table.say("tie", "Two aces at once: a tie, and no torpedoes this Initiative Phase.")
            return None
        if va == vb:
            table.say("tie", "A tie: each side turns over another card.")
            continue
        if vb > va and vb != ACE:
            return Initiative(b, 0, vb - va)
        attacks = va - (ACE if vb == ACE else vb)
        use = yield from ask_torpedo(table, a, attacks)
        return Initiative(a, 0, attacks) if use else Initiative(a, attacks, 0)


def determine_initiative(table: Table) -> Steps:
    """Turn cards until a side has the initiative; set the Offense, the prime count,
    the torpedo attacks and the Admirals."""
    torpedoes_possible = True
    while True:
        cards = yield from round_of_cards(table)
        aces = [side for side in SIDES if cards[side] == ACE]
        if len(aces) == 2:
            torpedoes_possible = False
            table.say("tie", "Two aces at once: a tie, and no torpedoes this Initiative Phase.")
            continue
        if cards[SIDES[0]] == cards[SIDES[1]]:
            table.say("tie", "A tie: each side turns over another card.")
            continue
        if aces and torpedoes_possible:
            result = yield from ace_procedure(table, aces[0], cards)
            if result is None:
                torpedoes_possible = False
                continue
            break
        high = max(SIDES, key=lambda s: cards[s])
        result = Initiative(high, cards[high] - cards[other(high)], 0)
        break
    state = table.state
    state.offense, state.prime, state.torpedo_attacks = result
    state.next = result.offense
    state.admiral = {side: ("offense" if side == result.offense else "defense")
                     for side in SIDES if state.decks[side].aside}
    if result.torpedo_attacks:
        text, count = N_("{} has the Offense and launches up to {}."), counted(result.torpedo_attacks,
                                                                               "torpedo attack")
    else:
        text, count = N_("{} has the Offense with {}."), counted(result.prime, "prime activation")
    table.say("initiative", text, result.offense.title(), count, offense=result.offense, prime=result.prime,
              torpedo_attacks=result.torpedo_attacks, admiral=dict(state.admiral))

