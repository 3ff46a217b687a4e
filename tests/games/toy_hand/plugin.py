"""The toy game's plug-in."""

from adjudicator.engine.contract import GamePlugin

from tests.games.toy_hand import answers, conformance, language, report
from tests.games.toy_hand.game import ToyHand
from tests.games.toy_hand.players import Commander, random_dice, random_player


def plugin() -> GamePlugin:
    return GamePlugin(name="toy-hand", title="Toy Hand", make_game=ToyHand, language=language, answers=answers,
                      report=report, player=random_player, dice=random_dice, conformance=conformance,
                      secrets=lambda options: True, commander=Commander)
