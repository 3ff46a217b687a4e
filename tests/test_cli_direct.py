"""The arguments of the commands that start without the command-line library: the plain
forms are read; anything else is left to the full command line (None), which answers
with its usual usage message."""

from __future__ import annotations

from adjudicator.cli.direct import read_arguments

OPTIONS = {"--campaign": None, "--format": "text"}


def test_positionals_and_options_in_either_form_and_order():
    assert read_arguments(["f.orders"], ["file"], OPTIONS) == {"file": "f.orders", "campaign": None, "format": "text"}
    assert read_arguments(["--format", "json", "f", "--campaign=c-1"], ["file"], OPTIONS) == \
        {"file": "f", "campaign": "c-1", "format": "json"}
    assert read_arguments(["-"], ["file"], OPTIONS)["file"] == "-"  # standard input
    assert read_arguments(["--campaign", "-", "f"], ["file"], OPTIONS)["campaign"] == "-"
    assert read_arguments([], ["campaign"], {}, required=0) == {"campaign": None}


def test_anything_else_is_left_to_the_full_command_line():
    for argv in ([], ["a", "b"], ["--help"], ["-h", "f"], ["f", "--bogus", "x"], ["f", "--format"],
                 ["f", "--format", "--campaign", "c"], ["f", "--format", "json", "--format", "text"], ["--", "f"],
                 ["--form", "json", "f"]):
        assert read_arguments(argv, ["file"], OPTIONS) is None, argv
