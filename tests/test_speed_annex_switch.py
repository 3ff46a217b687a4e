"""ADJUDICATOR_LIBRARIES_ONLY=1 turns the speed annex off (adjudicator/speed.py): orders
are read by lark alone, every command line by Typer, dataclasses compile as they do;
what the adjudicator answers is the same."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.orders import parse_orders
from adjudicator.orders import recovery
from tests.pipeline.pipeline_helpers import command_env

SAMPLES = sorted((Path(__file__).resolve().parents[1] / "samples" / "port-arthur").glob("*.orders"))


def test_the_switch_reads_orders_with_lark_alone_and_the_same_orders_come_out(monkeypatch):
    assert SAMPLES
    fast = [parse_orders(path.read_text(encoding="utf-8"), "port-arthur") for path in SAMPLES]
    monkeypatch.setenv("ADJUDICATOR_LIBRARIES_ONLY", "1")

    def no_fast_run(*_):
        raise AssertionError("the fast run was used with the switch on")

    monkeypatch.setattr(recovery, "parse_fast", no_fast_run)
    assert [parse_orders(path.read_text(encoding="utf-8"), "port-arthur") for path in SAMPLES] == fast


WHICH_PATH = ("import atexit, os, sys; sys.argv = ['adjudicator', *sys.argv[1:]]; "
              "atexit.register(lambda: os.write(2, b'typer loaded\\n' if 'typer' in sys.modules else b'')); "
              "from adjudicator.cli.main import run; run()")


@pytest.mark.parametrize("switch", ["", "1"])
def test_a_command_says_the_same_with_the_libraries_only(switch):
    argv = [sys.executable, "-c", WHICH_PATH, "check", str(SAMPLES[0])]
    plain = subprocess.run(argv, capture_output=True, text=True, env=command_env(), timeout=60)
    chosen = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                            env=command_env(ADJUDICATOR_LIBRARIES_ONLY=switch))
    assert (chosen.returncode, chosen.stdout) == (plain.returncode, plain.stdout)
    assert plain.returncode == 0 and "typer loaded" not in plain.stderr  # the direct path
    assert ("typer loaded" in chosen.stderr) == (switch == "1")


def test_the_switch_writes_outgoing_mail_with_the_email_package_byte_for_byte(monkeypatch):
    from datetime import datetime, timezone

    from adjudicator.mail import outgoing_mail

    fields = dict(sender="referee@adjudicator.test", to="togo@japan.test", subject="[c1] Orders accepted",
                  text="Orders accepted.\n", message_id="<r-1@adjudicator.test>", in_reply_to="<o-1@japan.test>",
                  date=datetime(1904, 2, 8, 23, 30, tzinfo=timezone.utc))
    direct = outgoing_mail(**fields)
    monkeypatch.setenv("ADJUDICATOR_LIBRARIES_ONLY", "1")
    assert outgoing_mail(**fields) == direct
