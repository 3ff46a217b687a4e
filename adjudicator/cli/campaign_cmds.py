"""The referee's and the players' campaign commands: keys, new, submit, adjudicate,
undo, replace, status, history, orders, export, verify."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Iterator, Optional

import typer

from adjudicator.cli import plain, step_core
from adjudicator.cli.app import (
    EXIT_PROBLEM, OutputFormat, app, chosen_game, command_group, fail, format_option, game_option,
)
from adjudicator.cli.plain import DEFAULT_KEY, DEFAULT_STORE, Failed, run_told, store_location, told
from adjudicator.cli.status_cmd import submission

keys_app = command_group(help="The referee's signing key.")
app.add_typer(keys_app, name="keys")
sealed_app = command_group(help="Sealed mode: a player's own seed chain, so nobody can foresee the dice.")
app.add_typer(sealed_app, name="sealed")

STORE_OPTION = typer.Option(
    Path(DEFAULT_STORE), "--store", envvar="ADJUDICATOR_STORE", parser=store_location,
    help="The campaign store: an SQLite file, or a postgresql:// URL. Env: ADJUDICATOR_STORE.",
)
KEY_OPTION = typer.Option(
    Path(DEFAULT_KEY), "--key", envvar="ADJUDICATOR_KEY",
    help="The referee's private key file. Env: ADJUDICATOR_KEY; its passphrase: ADJUDICATOR_KEY_PASSPHRASE.",
)
NOW_OPTION = typer.Option(None, "--now", help="Pretend the time is this (ISO 8601), e.g. to apply deadlines in tests.")


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn the library's errors into one clear line on stderr and a script-friendly
    exit code: never a traceback (:func:`adjudicator.cli.plain.told`)."""
    try:
        yield
    except Exception as error:  # noqa: BLE001 - told when it is a known failure, else raised
        code = told(error, sys.stderr)
        if code is None:
            raise
        raise typer.Exit(code)


@contextlib.contextmanager
def _as_exit() -> Iterator[None]:
    """A :class:`~adjudicator.cli.plain.Failed` told, as :func:`fail` tells it."""
    try:
        yield
    except Failed as failed:
        raise fail(str(failed), failed.code)


def told_code(code: int) -> None:
    """End a command that ran through :func:`adjudicator.cli.plain.run_told` with its code."""
    if code:
        raise typer.Exit(code)


def open_store(path: Path, create: bool = False):
    """The campaign store at ``path``; only 'new' (``create``) may start a new one, so
    that a mistyped path is an error, not an empty store."""
    with _as_exit():
        return plain.open_store(path, create)


def passphrase_for(path: Path) -> Optional[str]:
    """The key's passphrase: from ADJUDICATOR_KEY_PASSPHRASE, else asked for on a terminal."""
    if "ADJUDICATOR_KEY_PASSPHRASE" in os.environ:
        return os.environ["ADJUDICATOR_KEY_PASSPHRASE"] or None
    if sys.stdin.isatty():
        return typer.prompt(f"Passphrase for {path} (empty if none)", hide_input=True, default="",
                            show_default=False) or None
    return None


def load_key(path: Path):
    with _as_exit():
        return plain.load_key(path, passphrase_for)


def parse_now(text: Optional[str]) -> Optional[datetime]:
    with _as_exit():
        return plain.parse_now(text)


# -- keys ----------------------------------------------------------------------------------


@keys_app.command("new")
def keys_new(
    path: Path = typer.Argument(Path("referee.key"), help="Where to write the private key (readable by you only)."),
    passphrase: bool = typer.Option(True, "--passphrase/--no-passphrase",
                                    help="Protect the key with a passphrase (asked for, or ADJUDICATOR_KEY_PASSPHRASE)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing key file."),
) -> None:
    """Make a new Ed25519 referee key; show its public key and fingerprint."""
    from adjudicator.fairdice import fingerprint, generate_keypair, public_key_to_text, save_private_key

    secret = None
    if passphrase:
        secret = os.environ.get("ADJUDICATOR_KEY_PASSPHRASE")
        if secret is None:
            if not sys.stdin.isatty():
                raise fail("a passphrase is needed: set ADJUDICATOR_KEY_PASSPHRASE, or use --no-passphrase")
            secret = typer.prompt("Passphrase for the new key", hide_input=True, confirmation_prompt=True)
    with user_errors():
        private, public = generate_keypair()
        save_private_key(path, private, secret or None, overwrite=overwrite)
    typer.echo(f"private key: {path} (mode 600; keep it safe, never send it)")
    typer.echo(f"public key:  {public_key_to_text(public)}")
    typer.echo(f"fingerprint: {fingerprint(public)}")
    typer.echo("Give players the fingerprint by another channel so they can check the charter's key.")


@keys_app.command("show")
def keys_show(path: Path = KEY_OPTION) -> None:
    """Show the public key and fingerprint of a private key file."""
    from adjudicator.fairdice import fingerprint, public_key_to_text

    with user_errors():
        public = load_key(path).public_key()
    typer.echo(f"public key:  {public_key_to_text(public)}")
    typer.echo(f"fingerprint: {fingerprint(public)}")


@app.command()
def sign(
    orders_file: Path = typer.Argument(..., help="Your orders file ('-' for standard input)."),
    key: Path = typer.Option(..., "--key", help="Your private key (from 'adjudicator keys new')."),
    game: Optional[str] = game_option(),
) -> None:
    """Sign an orders file with your key (for players who sign instead of a password):
    prints the orders with a 'signature:' line added."""
    from adjudicator.campaign.signing import sign_orders

    with user_errors():
        data = sys.stdin.buffer.read() if str(orders_file) == "-" else orders_file.read_bytes()
        name = chosen_game(game, text=data, path=None if str(orders_file) == "-" else orders_file)
        typer.echo(sign_orders(data, load_key(key), name), nl=False)


# -- sealed mode ----------------------------------------------------------------------------


@sealed_app.command("new-chain")
def sealed_new_chain(
    campaign: str = typer.Argument(..., help="The campaign the chain is for."),
    side: str = typer.Argument(..., help="Your side."),
    output: Path = typer.Option(..., "--output", "-o", help="Where to keep your secret chain (mode 600)."),
    length: int = typer.Option(1000, help="How many steps the chain serves."),
) -> None:
    """Make your secret seed chain; print the commitment to give the referee."""
    from adjudicator.fairdice import SeedChain

    chain = SeedChain.generate(campaign, length, owner=side.lower())
    try:
        descriptor = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise fail(f"{output} exists already: a chain is made once; choose another file name")
    except OSError as err:
        raise fail(f"cannot write {output}: {err.strerror}")
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump(chain.to_secret_dict(), handle)
    typer.echo(json.dumps(chain.commitment().to_dict(), indent=2))
    typer.echo(f"Your chain is in {output}: keep it secret. Send the commitment above to the referee.", err=True)


@sealed_app.command("reveal")
def sealed_reveal(
    chain_file: Path = typer.Argument(..., help="Your secret chain file."),
    step: int = typer.Argument(..., help="The step your orders are for."),
) -> None:
    """Print the 'reveal:' line for your orders for STEP."""
    from adjudicator.fairdice import SeedChain

    with user_errors():
        chain = SeedChain.from_secret_dict(json.loads(chain_file.read_text(encoding="utf-8")))
        typer.echo(f"reveal: {chain.reveal(step).hex()}")


# -- campaigns ----------------------------------------------------------------------------


#: A player's choice of reports in the players file: one per step, or one per turn.
REPORT_CHOICES = ("step", "turn")


def players_absence_budget(players_file: Optional[Path]) -> dict[str, int] | None:
    """The campaign's own absence budget from the players file's top-level keys
    ``absence_days_a_year`` and ``absence_days_at_most`` (None: the defaults)."""
    import tomllib

    from adjudicator.campaign.roster import absence_budget_of

    if players_file is None:
        return None
    return absence_budget_of(tomllib.loads(players_file.read_text(encoding="utf-8")), str(players_file))


def players_press(players_file: Optional[Path]) -> dict | None:
    """The campaign's press settings from the players file's top-level keys ``press``
    and ``press_delay_hours`` (None: no press, the default)."""
    import tomllib

    from adjudicator.campaign.roster import press_of

    if players_file is None:
        return None
    return press_of(tomllib.loads(players_file.read_text(encoding="utf-8")), str(players_file))


def players_bounce_grace(players_file: Optional[Path]) -> float | None:
    """The campaign's own ``bounce_grace_hours`` from the players file's top-level key
    (None: the default, :mod:`adjudicator.campaign.delivery`)."""
    import tomllib

    from adjudicator.campaign.delivery import grace_of

    if players_file is None:
        return None
    return grace_of(tomllib.loads(players_file.read_text(encoding="utf-8")), str(players_file))


def read_players(players_file: Optional[Path], player: list[str]):
    """Players from a TOML file ([[player]] side, address, password or public_key, and
    optionally reports = "turn" for one report per turn, and language = "fr" for mail in
    French) and from --player
    SIDE=ADDRESS:PASSWORD options."""
    import tomllib

    from adjudicator.campaign import Player
    from adjudicator.i18n import DEFAULT_LANGUAGE, UnknownLanguage, check_language

    found = []
    if players_file is not None:
        try:
            data = tomllib.loads(players_file.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            raise fail(f"cannot read the players file {players_file}: {err}")
        for entry in data.get("player", []):
            if not isinstance(entry, dict) or "side" not in entry or "address" not in entry:
                raise fail(f"{players_file}: each [[player]] needs side and address (and password or public_key)")
            reports = entry.get("reports", "step")
            if reports not in REPORT_CHOICES:
                raise fail(f"{players_file}: reports = {reports!r} for {entry['side']}; it is one of "
                           f"{', '.join(map(repr, REPORT_CHOICES))} (a report per step, or one per turn)")
            try:
                language = check_language(entry.get("language", DEFAULT_LANGUAGE), "language")
            except UnknownLanguage as err:
                raise fail(f"{players_file}: {err}, for {entry['side']}")
            found.append(Player(str(entry["side"]), str(entry["address"]), entry.get("password"),
                                entry.get("public_key"), reports, language=language))
    for text in player:
        side, sep, rest = text.partition("=")
        address, sep2, password = rest.partition(":")
        if not sep or not sep2 or not address or not password:
            raise fail(f"--player takes SIDE=ADDRESS:PASSWORD, got {text!r}")
        found.append(Player(side.strip(), address.strip(), password))
    return found


@app.command()
def new(
    campaign: Optional[str] = typer.Argument(None, help="The campaign's id: lower-case letters, digits and hyphens "
                                             "(leave out with --roster)."),
    game: Optional[str] = game_option(),
    players_file: Optional[Path] = typer.Option(None, "--players", help="A TOML file of \\[\\[player]] side, address, "
                                                "password (or public_key)."),
    player: list[str] = typer.Option([], "--player", help="SIDE=ADDRESS:PASSWORD (repeatable; the password is "
                                     "then in your shell history: prefer --players)."),
    option: list[str] = typer.Option([], "--option", "-o", help="Campaign option NAME=VALUE (repeatable)."),
    deadline_hours: float = typer.Option(72.0, help="Hours players have for each step's orders."),
    referee_address: str = typer.Option("referee@localhost", "--from", help="The referee's email address."),
    sealed: list[str] = typer.Option([], "--sealed", help="SIDE=FILE: a player's chain commitment (from "
                                     "'sealed new-chain'); give one per side for a sealed campaign."),
    roster: Optional[Path] = typer.Option(None, "--roster", help="A TOML file of \\[\\[player]] (name, address, "
                                          "password) and \\[\\[campaign]] (id, players = {SIDE = NAME}): creates them "
                                          "all, each player's password hashed once (docs/leagues.md)."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    now: Optional[str] = NOW_OPTION,
) -> None:
    """Create a campaign (or, with --roster, many): its signed charter commits the referee's
    dice seeds. An opening mail to every player is queued (the situation, the first
    question, how to reply): 'send' it."""
    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.delivery import with_grace
    from adjudicator.campaign.mailroom import Mailroom
    from adjudicator.cli.games_cmds import parse_options
    from adjudicator.fairdice import fingerprint

    game = chosen_game(game, first_by_default=True)
    if (campaign is None) == (roster is None):
        raise fail("give a campaign id, or --roster FILE for many campaigns (not both)")
    if roster is not None and (players_file or player or sealed):
        raise fail("--roster names the players itself: leave out --players, --player and --sealed")
    players = read_players(players_file, player) if roster is None else []
    with user_errors():
        absence_budget = players_absence_budget(players_file)
        press = players_press(players_file)
        grace = players_bounce_grace(players_file)
        try:
            options = parse_options(option)
        except ValueError as err:
            raise fail(str(err))
        if roster is not None:
            return new_from_roster(roster, game, options, deadline_hours, referee_address, store, key, now)
        chains = {}
        for item in sealed:
            side, sep, path = item.partition("=")
            if not sep:
                raise fail(f"--sealed takes SIDE=FILE, got {item!r}")
            chains[side.strip().lower()] = json.loads(Path(path).read_text(encoding="utf-8"))
        private = load_key(key)
        with open_store(store, create=True) as opened:
            campaigns = Campaigns(opened)
            log = campaigns.create(campaign, game, players, private, options=options,
                                   deadline_hours=deadline_hours, referee_address=referee_address,
                                   player_chains=chains or None, now=parse_now(now),
                                   absence_budget=absence_budget, press=press,
                                   after=with_grace(grace, Mailroom(campaigns, Path("outbox")).queue_opening))
    typer.echo(f"campaign {campaign} created ({game}); charter hash {log.records[0].hash}")
    typer.echo(f"an opening mail to each of the {len(players)} players is queued: 'send' it")
    typer.echo(f"referee key fingerprint: {fingerprint(private.public_key())}")


def new_from_roster(roster: Path, game: str, options: dict, deadline_hours: float, referee_address: str,
                    store: Path, key: Path, now: Optional[str]) -> None:
    """'new --roster': every campaign of the roster the store lacks, with its opening mails."""
    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.games import support
    from adjudicator.campaign.mailroom import Mailroom
    from adjudicator.campaign.roster import create_roster, read_roster
    from adjudicator.fairdice import fingerprint

    try:
        text = roster.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise fail(f"cannot read the roster {roster}: {err}")
    read = read_roster(text, str(roster), support(game).game().sides)
    private = load_key(key)
    with open_store(store, create=True) as opened:
        campaigns = Campaigns(opened)
        outcome = create_roster(campaigns, read, game, private, options=options, deadline_hours=deadline_hours,
                                referee_address=referee_address, now=parse_now(now),
                                after=Mailroom(campaigns, Path("outbox")).queue_opening,
                                progress=lambda made: typer.echo(f"campaign {made} created ({game})"))
    for there in outcome.already_there:
        typer.echo(f"campaign {there} is already in the store with these players: left as it is")
    typer.echo(f"{len(outcome.created)} campaign(s) created, each with an opening mail to its players queued: "
               "'send' them" if outcome.created else "nothing to create: every campaign of the roster is there")
    typer.echo(f"referee key fingerprint: {fingerprint(private.public_key())}")


@app.command()
def submit(
    campaign: str = typer.Argument(..., help="The campaign."),
    orders_file: Path = typer.Argument(..., help="A player's orders file ('-' for standard input)."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    format: OutputFormat = format_option(),
) -> None:
    """Take in a player's orders file by hand (mail goes through 'receive')."""
    from adjudicator.campaign import Campaigns

    data = sys.stdin.buffer.read() if str(orders_file) == "-" else None
    with user_errors():
        data = data if data is not None else orders_file.read_bytes()
        with open_store(store) as opened:
            receipt = Campaigns(opened).submit(campaign, data, load_key(key))
    typer.echo(json.dumps(receipt.to_json(), indent=2) if format is OutputFormat.json else receipt.render())


@app.command()
def adjudicate(
    campaign: str = typer.Argument(..., help="The campaign."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    now: Optional[str] = NOW_OPTION,
    format: OutputFormat = format_option(),
    reuse_orders: bool = typer.Option(False, "--reuse-orders", help="After an undo: let the orders sent for the "
                                      "voided steps answer what the fresh orders and confirmations leave open "
                                      "(else they are not used; every side's fresh contribution is needed either way)."),
) -> None:
    """Run the game as far as the orders on file allow, with the next batch of dice;
    queue each player's report (then 'send' them)."""
    told_code(run_told(lambda: step_core.adjudicate(campaign, store, key, now, format.value, reuse_orders, sys.stdout,
                                                    sys.stderr, passphrase_for), sys.stderr))


@app.command()
def undo(
    campaign: str = typer.Argument(..., help="The campaign."),
    reason: str = typer.Option(..., help="Why (published in the record, for the players)."),
    back_to: Optional[int] = typer.Option(None, help="Void every batch after this one (default: the last batch)."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
) -> None:
    """Void the last adjudicated step (recorded publicly; revealed dice stay revealed)."""
    from adjudicator.campaign import Campaigns

    with user_errors():
        with open_store(store) as opened:
            target = Campaigns(opened).undo(campaign, load_key(key), reason, back_to)
    typer.echo(f"campaign {campaign} is back after batch {target}; every player's notice is queued ('send')")


@app.command()
def pause(
    campaign: str = typer.Argument(..., help="The campaign."),
    until: Optional[str] = typer.Option(None, "--until", help="The day play starts again, at 00:00 UTC "
                                        "(YEAR-MONTH-DAY, after today)."),
    end: bool = typer.Option(False, "--end", help="Instead: end the pause in force now."),
    reason: str = typer.Option(..., help="Why (published in the record, for the players)."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    now: Optional[str] = NOW_OPTION,
) -> None:
    """Pause the campaign by the referee's ruling (no player's consent needed), or end
    the pause in force: recorded publicly, every player told (then 'send')."""
    from adjudicator.campaign.pause import read_date, rule_pause

    if (until is None) == (not end):
        raise fail("give --until YEAR-MONTH-DAY (the day play starts again) or --end, not both", 2)
    with user_errors():
        day = None if end else read_date(until, "--until: ")
        with open_store(store) as opened:
            heading, _ = rule_pause(opened, campaign, load_key(key), day, reason, parse_now(now))
    typer.echo(f"campaign {campaign}: {heading.lower()}; every player's notice is queued ('send')")


@app.command()
def replace(
    campaign: str = typer.Argument(..., help="The campaign."),
    side: str = typer.Argument(..., help="The side that gets a new player."),
    player: str = typer.Option(..., "--player", help="The new player: 'Name <address>' (the name goes into the "
                               "public record, the address never)."),
    password: Optional[str] = typer.Option(None, "--password", help="The new player's password (asked for, "
                                           "unseen, when left out; given here it is in your shell history)."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    now: Optional[str] = NOW_OPTION,
) -> None:
    """Give a side a new player from the open step on: the old password stops working,
    the newcomer gets a briefing, the other sides are told; recorded publicly (then 'send')."""
    from adjudicator.campaign.replacement import replace_player

    if password is None:
        password = typer.prompt("The new player's password", hide_input=True, confirmation_prompt=True)
    with user_errors():
        with open_store(store) as opened:
            done = replace_player(opened, campaign, side, player, password, load_key(key), parse_now(now))
    typer.echo(f"campaign {campaign}: {done.side} is played by {done.player} from step {done.step} "
               f"(record {done.record}); the briefing and the notices are queued ('send')")


@app.command()
def status(
    campaign: Optional[str] = typer.Argument(None, help="The campaign (none: list every campaign)."),
    store: Path = STORE_OPTION,
    format: OutputFormat = format_option(),
) -> None:
    """Where a campaign stands: turn, phase, the question open, the deadline."""
    from adjudicator.cli.status_cmd import status as print_status

    code = print_status(campaign, store, format.value, sys.stdout, sys.stderr)
    if code:
        raise typer.Exit(code)


@app.command()
def history(
    campaign: str = typer.Argument(..., help="The campaign."),
    store: Path = STORE_OPTION,
    format: OutputFormat = format_option(),
) -> None:
    """Every record of a campaign, one line each (orders with their time and sender),
    then the mail refused or ignored."""
    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.mail_intake import MAIL_LOG
    from adjudicator.campaign.replacement import stored_tenures, tenure_lines

    with user_errors():
        with open_store(store) as opened:
            campaigns = Campaigns(opened)
            log = campaigns.log(campaign)
            mail_log = campaigns.meta(campaign).get(MAIL_LOG, [])
            played = stored_tenures(opened, campaign)
    rows = _history_rows(log)
    mail = [{k: item.get(k) for k in ("at", "sender", "message_id", "outcome", "detail")} for item in mail_log]
    if format is OutputFormat.json:
        typer.echo(json.dumps({"records": rows, "mail": mail,
                               "tenures": {side: [t.to_json() for t in held] for side, held in played.items()}},
                              indent=2))
        return
    for row in rows:
        typer.echo(f"{row['seq']:5d}  {row['kind']:<8} {row['detail']}")
    if tenure_lines(played):  # sides given a new player: who played which steps
        typer.echo("\nPlayers of each side given a new player:")
    for line in tenure_lines(played):
        typer.echo(f"  {line}")
    if mail:
        typer.echo("\nMail refused or ignored:")
    for item in mail:
        typer.echo(f"  {item['at']}  {item['outcome']:<8} from {item['sender'] or '(no address)'}: {item['detail']}")


def _history_rows(log) -> list[dict]:
    """One row per record: its number, kind and what it says (orders: when and from whom)."""
    from adjudicator.campaign.history_words import record_detail

    received = {o.record_seq: o for o in log.orders}
    rows = []
    for record in log.records:
        detail = record_detail(record.kind, record.body)
        if record.kind == "orders":
            detail += submission(received[record.seq])
        row = {"seq": record.seq, "kind": record.kind, "detail": detail}
        if record.kind == "orders":
            orders = received[record.seq]
            row |= {"side": orders.side, "step": orders.step, "received_at": orders.received_at,
                    "sender": orders.sender}
        rows.append(row)
    return rows


@app.command("orders")
def orders_in_force(
    campaign: str = typer.Argument(..., help="The campaign."),
    side: str = typer.Argument(..., help="The side whose orders in force to show."),
    store: Path = STORE_OPTION,
) -> None:
    """The text of the orders in force for a side at the open step (this step's orders
    over its standing orders), as adjudication would use them. No password is shown."""
    from adjudicator.campaign import Campaigns

    with user_errors():
        with open_store(store) as opened:
            orders = Campaigns(opened).orders_in_force_for(campaign, side.lower())
    if orders is None or not orders.blocks:
        typer.echo(f"no orders in force for {side.lower()} in campaign {campaign}", err=True)
        raise typer.Exit(EXIT_PROBLEM)
    typer.echo(orders.canonical_text(), nl=False)


@app.command()
def export(
    campaign: str = typer.Argument(..., help="The campaign."),
    public: bool = typer.Option(True, "--public", help="The public record (the only export there is)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to this file (default: stdout)."),
    verifier: bool = typer.Option(False, "--verifier", help="Also write verify.html beside the output: the "
                                  "browser verifier, with the record inside it (needs --output)."),
    store: Path = STORE_OPTION,
) -> None:
    """Write the campaign's signed public record (JSON Lines; no secret in it)."""
    from adjudicator.campaign import Campaigns

    if verifier and output is None:
        raise fail("--verifier writes verify.html beside the record: give the record's file with --output")
    with user_errors():
        with open_store(store) as opened:
            text = Campaigns(opened).export_public(campaign)
        if output is None:
            typer.echo(text, nl=False)
        else:
            output.write_text(text, encoding="utf-8")
            typer.echo(f"public record written to {output}", err=True)
        if verifier and output is not None:
            from adjudicator.campaign.verifier import PAGE_NAME, verifier_page

            page = output.parent / PAGE_NAME
            page.write_text(verifier_page(text), encoding="utf-8")
            typer.echo(f"browser verifier written to {page}: open it in any browser to check the record", err=True)


@app.command()
def verify(
    record: Path = typer.Argument(..., help="A public record (from 'export --public'); '-' for stdin."),
    head: Optional[str] = typer.Option(None, "--head", help="The record's head hash from your latest report: "
                                       "also detects records cut off the end."),
    format: OutputFormat = format_option(),
    fingerprint: Optional[str] = typer.Option(None, "--fingerprint", help="The referee key's fingerprint as "
                                              "the referee gave it to you: a record signed by another key fails."),
) -> None:
    """Check every signature, seed and die, replay the game, and show the dice table.
    Exit 0 verified, 1 not verified, 2 unusable input."""
    from adjudicator.cli.verify_cmd import verify as run_verify

    raise typer.Exit(run_verify(str(record), head, format.value, sys.stdout, sys.stderr, fingerprint))
