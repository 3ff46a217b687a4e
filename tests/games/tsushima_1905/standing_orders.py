"""Orders the Tsushima campaign tests send: the standing answers to every question
but the turn's own, and a turn's orders with them."""

#: The standing answers to the questions a turn asks besides its orders.
STANDING = ("armour: max\ncounter-torpedo: max\ntorpedo: yes if attacks >= 2\n"
            "torpedo targets: most damaged first\nrepairs: all dice, flooding first\nprime: all\n")

#: Every ship ahead, firing at the nearest enemy, with the standing answers.
AHEAD = "move:\n  all: ahead\nfire:\n  all: at nearest\n" + STANDING
