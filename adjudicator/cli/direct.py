"""The arguments of the commands that start without the command-line library
(``check``, ``status``, ``verify``, ``step``, ``receive``, ``adjudicate``, ``send``:
see :data:`adjudicator.cli.main.DIRECT`).

Only the plain forms are read here: positional arguments in order, ``--name VALUE``
or ``--name=VALUE`` options, and ``--name`` flags. Anything else (a help request, an unknown or repeated
option, a missing value, too many arguments) gives None, and the full command line
then reads the arguments and answers with its usual usage message. (``argparse`` would
load its help formatter, the terminal-size query and what they import, at every run.)
"""

from __future__ import annotations

from typing import Collection, Mapping, Sequence


def read_arguments(argv: Sequence[str], positionals: Sequence[str], options: Mapping[str, str | None],
                   required: int | None = None, flags: Collection[str] = ()) -> dict[str, str | bool | None] | None:
    """``argv`` read as ``positionals`` (names, in order; the first ``required`` of them,
    default all, must be given), ``options`` (``--name`` -> its default) and ``flags``
    (``--name``: True when given, else False): name -> value, or None when ``argv`` is
    anything else."""
    values: dict[str, str | bool | None] = {name: None for name in positionals}
    values.update({name.removeprefix("--").replace("-", "_"): default for name, default in options.items()})
    values.update({name.removeprefix("--").replace("-", "_"): False for name in flags})
    given: set[str] = set()
    place = 0
    words = list(argv)
    while words:
        word = words.pop(0)
        if word.startswith("--"):
            name, equals, value = word.partition("=")
            if name in flags and not equals and name not in given:
                given.add(name)
                values[name.removeprefix("--").replace("-", "_")] = True
                continue
            if name not in options or name in given:
                return None
            if not equals:
                if not words or (words[0].startswith("-") and words[0] != "-"):
                    return None
                value = words.pop(0)
            given.add(name)
            values[name.removeprefix("--").replace("-", "_")] = value
        elif word.startswith("-") and word != "-":
            return None
        elif place < len(positionals):
            values[positionals[place]] = word
            place += 1
        else:
            return None
    if place < (len(positionals) if required is None else required):
        return None
    return values
