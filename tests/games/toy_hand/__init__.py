"""A toy card game with hidden hands, registered for the tests only: it proves that a
game written against the contract (adjudicator/engine/contract.py) plugs in with one
registry line and keeps its secrets in a verifiable campaign.

Rules. Nine cards, 1 to 9, are shuffled face down (a hidden shuffle). Each side is
dealt two cards from the top into a hidden hand. Three rounds: red, then blue, plays
one card from hand (a hidden decision: the other side sees the cards only when both
are shown); the higher card wins the round; equal cards are settled by one public die
each, re-rolled while equal. The round's winner draws a bonus card from a face-down
reserve of three cards (a hidden draw) -- it scores double if played later. The
side that won more rounds wins; equal: a draw.
"""
