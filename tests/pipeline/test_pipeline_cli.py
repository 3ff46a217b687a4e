"""The command line: keys, passphrases, --help everywhere, verify's exit codes, JSON
output, the referee's day by commands, and no traceback for any bad input."""

from __future__ import annotations

import json
import mailbox
import stat
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from adjudicator.campaign import Campaigns
from adjudicator.cli import campaign_cmds, games_cmds, mail_cmds  # noqa: F401  (they register the commands)
from adjudicator.cli.app import app
from adjudicator.fairdice import fingerprint, load_private_key, save_private_key
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import (
    CAMPAIGN,
    PLAYERS,
    REFEREE,
    T0,
    assert_no_traceback,
    batch_count,
    cli,
    command_env,
    email,
    orders_text,
    outgoing,
    parse_eml,
    reports,
)

PASSPHRASE = "tsushima strait 1905"
PLAYERS_TOML = "".join(f'[[player]]\nside = "{p.side}"\naddress = "{p.address}"\npassword = "{p.password}"\n\n'
                       for p in PLAYERS)


def invoke(*args, env: dict | None = None, input: bytes | str | None = None):
    """Run a command in this process (no ADJUDICATOR_ setting from the caller's environment)."""
    clean = {name: None for name in ("ADJUDICATOR_KEY_PASSPHRASE", "ADJUDICATOR_STORE", "ADJUDICATOR_KEY",
                                     "ADJUDICATOR_OUTBOX", "ADJUDICATOR_SMTP_HOST")}
    return CliRunner().invoke(app, [str(a) for a in args], env={**clean, **(env or {})}, input=input)


def assert_clean_failure(result, code: int) -> None:
    """The command stopped with ``code`` and a message, not with an exception."""
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == code, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    assert result.stderr.strip(), "no message on stderr"


@pytest.fixture
def desk(tmp_path, referee_key):
    """A referee's folder: an unprotected key, a players file, and a store holding campaign c1."""
    save_private_key(tmp_path / "referee.key", referee_key, None)
    (tmp_path / "players.toml").write_text(PLAYERS_TOML, encoding="utf-8")
    with Store.open(tmp_path / "campaigns.sqlite3") as store:
        Campaigns(store).create(CAMPAIGN, "port-arthur", PLAYERS, referee_key, referee_address=REFEREE, now=T0)
    return tmp_path


def store_args(desk: Path) -> list:
    return ["--store", desk / "campaigns.sqlite3"]


def key_args(desk: Path) -> list:
    return ["--key", desk / "referee.key"]


# -- keys and passphrases -------------------------------------------------------------------


def test_keys_new_without_a_passphrase_writes_a_private_file_and_prints_its_fingerprint(tmp_path):
    done = cli("keys", "new", tmp_path / "referee.key", "--no-passphrase")

    assert done.returncode == 0, done.stderr
    mode = stat.S_IMODE((tmp_path / "referee.key").stat().st_mode)
    assert mode == 0o600
    key = load_private_key(tmp_path / "referee.key", None)
    assert f"fingerprint: {fingerprint(key.public_key())}" in done.stdout.splitlines()
    again = cli("keys", "new", tmp_path / "referee.key", "--no-passphrase")
    assert again.returncode == 2 and "referee.key" in again.stderr
    assert_no_traceback(again)
    assert load_private_key(tmp_path / "referee.key", None).private_bytes_raw() == key.private_bytes_raw()


def test_a_wrong_passphrase_stops_new_and_adjudicate_with_exit_2_and_a_clear_message(tmp_path):
    key = tmp_path / "referee.key"
    store = tmp_path / "campaigns.sqlite3"
    (tmp_path / "players.toml").write_text(PLAYERS_TOML, encoding="utf-8")
    right = command_env(ADJUDICATOR_KEY_PASSPHRASE=PASSPHRASE)
    wrong = command_env(ADJUDICATOR_KEY_PASSPHRASE="port arthur 1904")
    assert cli("keys", "new", key, env=right).returncode == 0
    assert b"ENCRYPTED" in key.read_bytes()

    refused = cli("new", CAMPAIGN, "--game", "port-arthur", "--players", tmp_path / "players.toml", "--key", key, "--store", store, env=wrong)
    created = cli("new", CAMPAIGN, "--game", "port-arthur", "--players", tmp_path / "players.toml", "--key", key, "--store", store, env=right)
    stopped = cli("adjudicate", CAMPAIGN, "--key", key, "--store", store, env=wrong)
    unasked = cli("adjudicate", CAMPAIGN, "--key", key, "--store", store)

    assert refused.returncode == 2 and "wrong passphrase" in refused.stderr
    assert created.returncode == 0, created.stderr
    assert stopped.returncode == 2 and "wrong passphrase" in stopped.stderr
    assert unasked.returncode == 2 and "ADJUDICATOR_KEY_PASSPHRASE" in unasked.stderr
    for done in (refused, stopped, unasked):
        assert_no_traceback(done)
        assert done.stderr.startswith("adjudicator: ")
    with Store.open(store) as opened:
        assert [c.id for c in opened.campaigns()] == [CAMPAIGN]
        assert batch_count(opened) == 0


# -- help, formats and codes ---------------------------------------------------------------


def every_command(group, path=()):
    """The path of every command and sub-command of a command group."""
    for name, command in sorted(group.commands.items()):
        yield (*path, name)
        if hasattr(command, "commands"):
            yield from every_command(command, (*path, name))


def test_every_command_has_help():
    commands = list(every_command(typer.main.get_command(app)))
    assert {("receive",), ("send",), ("remind",), ("demo",), ("verify",), ("keys", "new"),
            ("sealed", "reveal"), ("status",), ("adjudicate",)} <= set(commands)

    for command in commands:
        result = invoke(*command, "--help")
        assert result.exit_code == 0, (command, result.output)
        assert "Usage:" in result.output and "--help" in result.output, command


def test_verify_help_from_the_installed_command():
    done = cli("verify", "--help")
    assert done.returncode == 0 and "--head" in done.stdout


def test_verify_exits_0_for_a_good_record_1_for_a_tampered_one_2_for_garbage(desk, referee_key):
    with Store.open(desk / "campaigns.sqlite3") as store:
        campaigns = Campaigns(store)
        campaigns.submit(CAMPAIGN, orders_text(), referee_key)
        campaigns.adjudicate(CAMPAIGN, referee_key)
        record = campaigns.export_public(CAMPAIGN)
    lines = record.splitlines()
    batch = next(i for i, line in enumerate(lines) if '"kind":"batch"' in line)
    seed = json.loads(lines[batch])["body"]["seed"]
    lines[batch] = lines[batch].replace(seed, seed[:-1] + ("0" if seed[-1] != "0" else "1"))
    (desk / "good.jsonl").write_text(record, encoding="utf-8")
    (desk / "tampered.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (desk / "garbage.jsonl").write_bytes(b"\x89PNG\r\n\x1a\n not a record at all")

    good = cli("verify", desk / "good.jsonl")
    tampered = cli("verify", desk / "tampered.jsonl")
    garbage = cli("verify", desk / "garbage.jsonl")
    missing = invoke("verify", desk / "missing.jsonl")

    assert good.returncode == 0 and "VERIFIED" in good.stdout
    assert tampered.returncode == 1 and "NOT VERIFIED" in tampered.stdout
    assert garbage.returncode == 2 and garbage.stderr.startswith("adjudicator: ")
    assert_clean_failure(missing, 2)
    for done in (good, tampered, garbage):
        assert_no_traceback(done)
    assert [invoke("verify", desk / name).exit_code for name in ("good.jsonl", "tampered.jsonl", "garbage.jsonl")] \
        == [0, 1, 2]


def test_status_and_history_and_export_give_output_for_scripts(desk):
    one = invoke("status", CAMPAIGN, *store_args(desk), "--format", "json")
    every = invoke("status", *store_args(desk), "--format", "json")
    history = invoke("history", CAMPAIGN, *store_args(desk))
    export = invoke("export", CAMPAIGN, *store_args(desk))

    assert one.exit_code == 0 and json.loads(one.stdout)["waiting"] == {"side": "japan", "ask": "sortie"}
    assert json.loads(every.stdout) == [{"campaign": CAMPAIGN, "game": "port-arthur", "records": 1}]
    assert history.exit_code == 0 and history.stdout.split()[:2] == ["0", "charter"]
    assert export.exit_code == 0 and [json.loads(line)["kind"] for line in export.stdout.splitlines()] == ["charter"]


def test_new_with_an_unknown_option_exits_2_quoting_it(desk):
    done = cli("new", "c2", "--game", "port-arthur", "--players", desk / "players.toml", "-o", "fog=true", *store_args(desk), *key_args(desk))

    assert done.returncode == 2
    assert "'fog'" in done.stderr and "fog_of_war" in done.stderr
    assert_no_traceback(done)
    with Store.open(desk / "campaigns.sqlite3") as store:
        assert [c.id for c in store.campaigns()] == [CAMPAIGN]


# -- the referee's day -------------------------------------------------------------------------


def test_the_referees_day_by_commands(desk):
    box = mailbox.Maildir(desk / "inbox", create=True)
    box.add(email(orders_text()))

    received = invoke("receive", desk / "inbox", *store_args(desk), *key_args(desk))
    adjudicated = invoke("adjudicate", CAMPAIGN, *store_args(desk), *key_args(desk))
    sent = invoke("send", CAMPAIGN, *store_args(desk), "--outbox", desk / "outbox")
    status = invoke("status", CAMPAIGN, *store_args(desk))
    exported = invoke("export", CAMPAIGN, *store_args(desk), "-o", desk / "record.jsonl")
    verified = invoke("verify", desk / "record.jsonl")

    assert received.exit_code == 0 and received.stdout.startswith("accepted")
    assert adjudicated.exit_code == 0 and "Waiting for russia" in adjudicated.stdout
    assert sent.exit_code == 0 and "SMTP not configured" in sent.stdout
    assert "waiting for russia" in status.stdout
    assert exported.exit_code == 0 and verified.exit_code == 0
    written = [parse_eml(p.read_bytes()) for p in (desk / "outbox").glob("*.eml")]
    subjects = sorted(str(m["Subject"]).split(" - ")[-1] for m in written)
    assert subjects == ["[c1] Orders accepted", "report for Japan", "report for Russia"]


def test_the_adjudicate_command_queues_each_players_report(desk):
    box = mailbox.Maildir(desk / "inbox", create=True)
    box.add(email(orders_text()))
    assert invoke("receive", desk / "inbox", *store_args(desk), *key_args(desk)).exit_code == 0

    assert invoke("adjudicate", CAMPAIGN, *store_args(desk), *key_args(desk)).exit_code == 0

    with Store.open(desk / "campaigns.sqlite3") as store:
        assert batch_count(store) == 1
        assert len(reports(store)) == 2


# -- bad input never shows a traceback ----------------------------------------------------------


def bad_inputs(desk: Path) -> list[tuple[list, int, dict]]:
    (desk / "folder").mkdir()
    (desk / "garbage.bin").write_bytes(b"\x00\x01\x02 garbage \xff" * 20)
    (desk / "not-a-store.sqlite3").write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    (desk / "bad.toml").write_text("[[player]\nside = ", encoding="utf-8")
    (desk / "bad.orders").write_text(orders_text(body="sortie:\n  Yamato to the Moon\n"), encoding="utf-8")
    (desk / "wrong-password.orders").write_text(orders_text(password="banzai"), encoding="utf-8")
    (desk / "chain.json").write_text('{"final_seed": "zz"}', encoding="utf-8")
    s, k = store_args(desk), key_args(desk)
    smtp = {"ADJUDICATOR_SMTP_HOST": "127.0.0.1"}
    return [
        (["status", "nosuch", *s], 2, {}),
        (["status", CAMPAIGN, "--store", desk / "folder"], 2, {}),
        (["status", CAMPAIGN, "--store", desk / "garbage.bin"], 2, {}),
        (["status", CAMPAIGN, "--store", desk / "not-a-store.sqlite3"], 2, {}),
        (["status", CAMPAIGN, *s, "--format", "yaml"], 2, {}),
        (["new", "Bad Id!", "--game", "port-arthur", "--players", desk / "players.toml", *s, *k], 2, {}),
        (["new", "c2", "--game", "chess", "--players", desk / "players.toml", *s, *k], 2, {}),
        (["new", "c2", "--game", "port-arthur", "--player", "japan=nobody", *s, *k], 2, {}),
        (["new", "c2", "--game", "port-arthur", "--players", desk / "missing.toml", *s, *k], 2, {}),
        (["new", "c2", "--game", "port-arthur", "--players", desk / "bad.toml", *s, *k], 2, {}),
        (["new", CAMPAIGN, "--game", "port-arthur", "--players", desk / "players.toml", *s, *k], 2, {}),
        (["new", "c2", "--game", "port-arthur", "--players", desk / "players.toml", *s, "--key", desk / "missing.key"], 2, {}),
        (["new", "c2", "--game", "port-arthur", "--players", desk / "players.toml", *s, "--key", desk / "garbage.bin"], 2, {}),
        (["new", "c2", "--game", "port-arthur", "--players", desk / "players.toml", "--deadline-hours", "soon", *s, *k], 2, {}),
        (["new", "c2", "--game", "port-arthur", "--players", desk / "players.toml", "--sealed", "japan=" + str(desk / "garbage.bin"),
          *s, *k], 2, {}),
        (["submit", CAMPAIGN, desk / "missing.orders", *s, *k], 2, {}),
        (["submit", CAMPAIGN, desk / "bad.orders", *s, *k], 1, {}),
        (["submit", CAMPAIGN, desk / "wrong-password.orders", *s, *k], 2, {}),
        (["submit", CAMPAIGN, desk / "garbage.bin", *s, *k], 1, {}),
        (["adjudicate", CAMPAIGN, *s, *k, "--now", "tomorrow"], 2, {}),
        (["adjudicate", "nosuch", *s, *k], 2, {}),
        (["undo", CAMPAIGN, "--reason", "a mistake", *s, *k], 2, {}),
        (["undo", CAMPAIGN, *s, *k], 2, {}),
        (["export", "nosuch", *s], 2, {}),
        (["export", CAMPAIGN, *s, "-o", desk / "folder"], 2, {}),
        (["history", "nosuch", *s], 2, {}),
        (["receive", desk / "missing-inbox", *s, *k], 2, {}),
        (["receive", desk / "garbage.bin", *s, *k], 2, {}),
        (["receive", desk / "folder", *s, *k], 0, {}),
        (["send", "nosuch", *s, "--outbox", desk / "out"], 2, {}),
        (["send", CAMPAIGN, *s, "--outbox", desk / "out"], 2, {**smtp, "ADJUDICATOR_SMTP_SECURITY": "carrier-pigeon"}),
        (["send", CAMPAIGN, *s, "--outbox", desk / "out"], 2, {**smtp, "ADJUDICATOR_SMTP_PORT": "twenty-five"}),
        (["remind", "nosuch", *s], 2, {}),
        (["remind", CAMPAIGN, *s, "--hours", "many"], 2, {}),
        (["keys", "show", "--key", desk / "missing.key"], 2, {}),
        (["keys", "show", "--key", desk / "garbage.bin"], 2, {}),
        (["keys", "new", desk / "referee.key", "--no-passphrase"], 2, {}),
        (["keys", "new", desk / "new.key"], 2, {}),
        (["sealed", "reveal", desk / "chain.json", "1"], 2, {}),
        (["sealed", "reveal", desk / "garbage.bin", "1"], 2, {}),
        (["sealed", "new-chain", CAMPAIGN, "japan", "-o", desk / "referee.key"], 2, {}),
        (["check", desk / "missing.orders"], 2, {}),
        (["check", desk / "garbage.bin"], 2, {}),
        (["check", desk / "bad.orders", "--campaign", CAMPAIGN, "--game", "port-arthur", *s], 1, {}),
        (["check", desk / "bad.orders", "--campaign", "nosuch", *s], 2, {}),
        (["cases", desk / "missing-cases"], 2, {}),
        (["play", "-o", "mines=perhaps"], 2, {}),
        (["play", "-o", "nonsense"], 2, {}),
        (["demo", desk / "demo", "-o", "fog=true"], 2, {}),
        (["verify", desk / "garbage.bin"], 2, {}),
        (["no-such-command"], 2, {}),
        (["status", "--no-such-option"], 2, {}),
    ]


def test_no_command_shows_a_traceback_for_bad_input(desk):
    for args, code, env in bad_inputs(desk):
        result = invoke(*args, env=env)
        assert isinstance(result.exception, (SystemExit, type(None))), (args, repr(result.exception))
        assert result.exit_code == code, (args, result.exit_code, result.output)
        assert "Traceback" not in result.output, args
        if code:
            assert result.output.strip(), args  # a message says what is wrong
    with Store.open(desk / "campaigns.sqlite3") as store:
        assert [c.id for c in store.campaigns()] == [CAMPAIGN]
        assert [e.kind for e in store.entries(CAMPAIGN)] == ["charter"]
        assert outgoing(store) == []


def test_the_installed_command_shows_no_traceback_for_bad_input(desk):
    runs = [
        cli("status", CAMPAIGN, "--store", desk / "garbage.bin"),
        cli("receive", desk / "garbage.bin", *store_args(desk), *key_args(desk)),
        cli("submit", CAMPAIGN, "-", *store_args(desk), *key_args(desk), input=b"\xff\xfe\x00garbage"),
        cli("demo", desk / "demo", "-o", "fog=true"),
    ]
    for done in runs:
        assert done.returncode in (1, 2), done
        assert_no_traceback(done)
        assert done.stderr.strip()


def test_a_mistyped_store_path_is_an_error_not_an_empty_store(tmp_path):
    missing = tmp_path / "no-such.sqlite3"
    done = cli("status", "--store", str(missing))
    assert done.returncode == 2 and "no campaign store at" in done.stderr
    assert not missing.exists()
    assert_no_traceback(done)


def test_option_track_takes_a_comma_separated_list_in_new_and_play(desk):
    track = "Nanshan,Yalu,Hill 203,Port Arthur,Liaoyang,Mukden,Siping"
    created = invoke("new", "c2", "--players", desk / "players.toml", "-o", f"track={track}",
                     *store_args(desk), *key_args(desk))
    assert created.exit_code == 0, created.output
    with Store.open(desk / "campaigns.sqlite3") as store:
        _, match = Campaigns(store).match("c2")
    assert match.state.track == track.split(",")

    played = invoke("play", "--game", "port-arthur", "-o", f"track={track}", "--format", "json")
    assert played.exit_code == 0, played.output
    assert json.loads(played.stdout)["final"]["track"] == track.split(",")


def test_a_players_file_may_ask_for_one_report_per_turn_and_a_wrong_choice_is_refused(desk):
    (desk / "digest.toml").write_text(PLAYERS_TOML.replace('side = "japan"', 'side = "japan"\nreports = "turn"'),
                                      encoding="utf-8")
    created = invoke("new", "c3", "--players", desk / "digest.toml", *store_args(desk), *key_args(desk))
    assert created.exit_code == 0, created.output
    with Store.open(desk / "campaigns.sqlite3") as store:
        assert store.campaign("c3").meta["players"]["japan"]["reports"] == "turn"
    (desk / "bad.toml").write_text(PLAYERS_TOML.replace('side = "japan"', 'side = "japan"\nreports = "weekly"'),
                                   encoding="utf-8")
    refused = invoke("new", "c4", "--players", desk / "bad.toml", *store_args(desk), *key_args(desk))
    assert_clean_failure(refused, 2)
    assert "'weekly'" in refused.stderr and "'turn'" in refused.stderr


@pytest.mark.parametrize("group", ["Japan HQ: togo@japan.test;", "staff: togo@japan.test, spy@japan.test;"])
def test_a_group_address_in_the_players_file_is_refused(desk, group):
    (desk / "group.toml").write_text(PLAYERS_TOML.replace('address = "togo@japan.test"', f'address = "{group}"'),
                                     encoding="utf-8")
    assert group in (desk / "group.toml").read_text(encoding="utf-8")
    refused = invoke("new", "c5", "--players", desk / "group.toml", *store_args(desk), *key_args(desk))
    assert_clean_failure(refused, 2)
    assert "cannot be used in mail" in refused.stderr and "give one plain address" in refused.stderr
    with Store.open(desk / "campaigns.sqlite3") as store:
        assert [c.id for c in store.campaigns()] == [CAMPAIGN]
