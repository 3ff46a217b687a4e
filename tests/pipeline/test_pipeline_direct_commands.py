"""The referee's step commands (``receive``, ``adjudicate``, ``send``, ``step``) start without
the command-line library when their arguments are plain (as from cron). Run so, each says
exactly what the full command line says: the same output, the same diagnostics and the
same exit code, on two copies of the same campaign; misuse still gets the usage message."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.campaign import Campaigns
from adjudicator.cli import campaign_cmds, mail_cmds  # noqa: F401  (they register the commands)
from adjudicator.cli.app import app
from adjudicator.fairdice import save_private_key
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import (
    CAMPAIGN,
    COMMAND,
    PLAYERS,
    REFEREE,
    T0,
    cli,
    command_env,
    email,
    orders_text,
)
from tests.test_cold_imports import PROBE  # a command run in a new process, listing the modules it loaded

NOW = "1904-02-09T12:00:00+00:00"
#: relative to each desk, so that both desks' output reads the same
ENV = {"ADJUDICATOR_STORE": "campaigns.sqlite3", "ADJUDICATOR_KEY": "referee.key", "ADJUDICATOR_KEY_PASSPHRASE": ""}


@pytest.fixture
def desks(tmp_path, referee_key):
    """Two identical referee's folders (store, key, orders mail): one for each path."""
    first = tmp_path / "direct"
    first.mkdir()
    save_private_key(first / "referee.key", referee_key, None)
    with Store.open(first / "campaigns.sqlite3") as store:
        Campaigns(store).create(CAMPAIGN, "port-arthur", PLAYERS, referee_key, referee_address=REFEREE, now=T0)
    (first / "japan.eml").write_bytes(email(orders_text()))
    (first / "russia.eml").write_bytes(email(orders_text("russia", step=2, body="sortie:\n  Novik to Yellow Sea\n"),
                                             sender="makarov@russia.test", message_id="<orders-2@russia.test>"))
    second = tmp_path / "full"
    shutil.copytree(first, second)
    return first, second


def direct(desk: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    done = cli(*args, cwd=desk, env=command_env(**ENV, **(env or {})))
    return done.returncode, done.stdout, done.stderr


def full(desk: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """The command through the full command line (Typer), in this process."""
    clean = {name: None for name in ("ADJUDICATOR_OUTBOX", "ADJUDICATOR_SMTP_HOST", "ADJUDICATOR_MARK_SENT")}
    cwd = os.getcwd()
    os.chdir(desk)
    try:
        result = CliRunner().invoke(app, list(args), env={**clean, **ENV, **(env or {})})
    finally:
        os.chdir(cwd)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def same(desks: tuple[Path, Path], *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run the command both ways on its own desk; they must agree. Returns what they said."""
    said = direct(desks[0], *args, env=env)
    assert full(desks[1], *args, env=env) == said, args
    assert "Traceback" not in said[2]
    return said


def loaded(tmp_path: Path, desk: Path, *args: str) -> set[str]:
    listing = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=desk,
                          env=command_env(**ENV, MODULES_FILE=str(listing)))
    assert done.returncode == 0, done.stderr
    return set(json.loads(listing.read_text()))


def test_a_step_by_commands_says_the_same_on_either_path(desks):
    code, out, err = same(desks, "receive", "japan.eml")
    assert code == 0 and out.startswith("accepted") and "1 accepted" in err
    code, out, _ = same(desks, "adjudicate", CAMPAIGN, "--now", NOW)
    assert code == 0 and "Waiting for russia" in out
    code, out, _ = same(desks, "send", CAMPAIGN)
    assert code == 0 and "SMTP not configured" in out
    code, out, _ = same(desks, "step", CAMPAIGN, "russia.eml", f"--now={NOW}", "--outbox", "outbox")
    assert code == 0 and out.startswith("1 orders accepted, 0 refused; step 2 adjudicated")
    code, out, _ = same(desks, "send", CAMPAIGN, "--mark-sent", "--yes")
    assert code == 0 and "marked sent" in out
    written = [sorted(p.stat().st_size > 0 for p in (desk / "outbox").iterdir()) for desk in desks]
    assert written[0] == written[1] and len(written[0]) >= 6  # each step: a receipt, two reports


def test_json_output_and_flags_are_the_same_on_either_path(desks):
    code, out, _ = same(desks, "receive", "--format", "json", "japan.eml")
    assert code == 0 and json.loads(out)[0]["outcome"] == "accepted"
    code, out, _ = same(desks, "adjudicate", CAMPAIGN, "--format=json", "--reuse-orders", "--now", NOW)
    assert code == 0 and json.loads(out)["waiting"]["side"] == "russia"
    code, out, _ = same(desks, "receive", "japan.eml")  # the same message again
    assert code == 0 and out.startswith("duplicate")
    code, out, _ = same(desks, "send", CAMPAIGN, "--outbox=elsewhere", env={"ADJUDICATOR_MARK_SENT": "yes"})
    assert code == 0 and "marked sent" in out


def test_failures_are_told_the_same_on_either_path(desks):
    for args in (["step", CAMPAIGN, "--store", "missing.sqlite3"], ["step", "no-such-campaign"],
                 ["step", CAMPAIGN, "--now", "yesterday"], ["adjudicate", CAMPAIGN, "--key", "missing.key"],
                 ["receive", "missing.eml"], ["send", "no-such-campaign"]):
        code, out, err = same(desks, *args)
        assert code == 2 and out == "" and err.startswith("adjudicator: "), (args, err)
    code, out, err = same(desks, "send", CAMPAIGN, env={"ADJUDICATOR_SMTP_HOST": "127.0.0.1",
                                                        "ADJUDICATOR_SMTP_PORT": "not-a-port"})
    assert code == 2 and err.startswith("adjudicator: ")


def test_misuse_gets_the_usage_message_from_either_path(desks):
    for args in (["step"], ["step", CAMPAIGN, "--bogus"], ["adjudicate", CAMPAIGN, "--format", "xml"],
                 ["send", CAMPAIGN, "--yes=1"], ["receive"], ["step", CAMPAIGN, "a.eml", "b.eml"]):
        code, out, err = same(desks, *args)
        assert code == 2 and out == "" and ("Usage:" in err or "Error" in err), args
    code, out, err = same(desks, "send", CAMPAIGN, env={"ADJUDICATOR_MARK_SENT": "perhaps"})
    assert code == 2 and "perhaps" in err


def test_a_step_from_cron_loads_neither_the_command_line_library_nor_the_other_commands(tmp_path, desks):
    modules = loaded(tmp_path, desks[0], "step", CAMPAIGN, "japan.eml", "--now", NOW)
    assert not {m for m in modules if m.startswith(("typer", "click", "adjudicator.cli.campaign_cmds",
                                                   "adjudicator.cli.mail_cmds", "adjudicator.tournament"))}
    assert "adjudicator.campaign.mailroom" in modules and "jinja2" in modules  # it did the step
    assert not {m for m in modules if m.startswith(("smtplib", "ssl"))}  # no SMTP server is configured


def test_receive_and_send_load_neither_the_report_templates_nor_smtp(tmp_path, desks):
    modules = loaded(tmp_path, desks[0], "receive", "japan.eml")
    assert "adjudicator.campaign.mailroom" in modules
    assert not {m for m in modules if m.startswith(("jinja2", "smtplib", "ssl", "typer", "click"))}
    modules = loaded(tmp_path, desks[0], "send", CAMPAIGN)
    assert not {m for m in modules if m.startswith(("jinja2", "lark", "smtplib", "ssl", "typer", "click"))}
    modules = loaded(tmp_path, desks[0], "--version")
    assert not {m for m in modules if m.startswith(("typer", "click", "adjudicator.cli.app", "adjudicator.games"))}


def test_the_version_is_printed_as_the_full_command_line_prints_it(desks):
    code, out, err = same(desks, "--version")
    assert (code, err) == (0, "") and out.strip()


def test_a_reader_gone_ends_a_direct_command_quietly(desks):
    """``adjudicator adjudicate c1 --format json | head -0``: no traceback, no message, and
    the exit status of a Unix tool killed by SIGPIPE, as on the full command line."""
    assert direct(desks[0], "receive", "japan.eml")[0] == 0
    process = subprocess.Popen([*COMMAND, "adjudicate", CAMPAIGN, "--format", "json", "--now", NOW], cwd=desks[0],
                               env=command_env(**ENV), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # the reader is gone before the first line is written
    _, err = process.communicate(timeout=120)
    assert (process.returncode, err) == (141, b"")


def test_step_and_send_say_the_same_json_on_either_path(desks):
    def both(*args: str, env: dict[str, str] | None = None) -> dict:
        said = [json.loads(run(desk, *args, env=env)[1]) for run, desk in ((direct, desks[0]), (full, desks[1]))]
        for one in said:   # the files' names are the desks' own: their number is the same
            one["written"] = len(one["written"])
        assert said[0] == said[1], args
        return said[0]

    stepped = both("step", CAMPAIGN, "japan.eml", f"--now={NOW}", "--outbox", "outbox", "--format", "json")
    assert [t["outcome"] for t in stepped["received"]] == ["accepted"]
    assert stepped["batch"] == 1 and stepped["waiting"]["side"] == "russia" and stepped["result"] is None
    assert stepped["written"] >= 3 and stepped["sent"] == 0 and stepped["not_sent"] == []
    assert stepped["said"].startswith("step 1 adjudicated")
    sent = both("send", CAMPAIGN, "--format=json", "--outbox", "outbox", env={"ADJUDICATOR_MARK_SENT": "yes"})
    assert sent == {"written": 0, "outbox": "outbox", "sent": stepped["written"], "smtp": None, "marked_sent": True,
                    "held_back": 0, "not_sent": []}


def test_a_step_whose_mail_cannot_be_sent_exits_1_on_either_path(desks):
    from tests.smtp_loopback import free_port

    down = {"ADJUDICATOR_SMTP_HOST": "127.0.0.1", "ADJUDICATOR_SMTP_PORT": str(free_port()),
            "ADJUDICATOR_SMTP_SECURITY": "none", "ADJUDICATOR_SMTP_TIMEOUT": "5"}
    code, out, err = same(desks, "step", CAMPAIGN, "japan.eml", f"--now={NOW}", "--outbox", "outbox", env=down)
    assert code == 1 and "step 1 adjudicated" in out and ", 0 sent" in out
    assert err.count("not sent, still queued") >= 3
