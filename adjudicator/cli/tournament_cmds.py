"""The referee's tournament commands: ``adjudicator tournament new|register|withdraw|
mail|pair|clock|rule|status|standings|report|export|close|audit``."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Iterator, Optional

import typer

from adjudicator.cli.app import EXIT_PROBLEM, OutputFormat, app, command_group, fail, format_option
from adjudicator.cli.campaign_cmds import KEY_OPTION, NOW_OPTION, STORE_OPTION, load_key, open_store, parse_now, user_errors

tournament_app = command_group(help="Tournaments by email: Swiss, round robin, ladder; standings, ratings, audit.")
app.add_typer(tournament_app, name="tournament")

NAME = typer.Argument(..., help="The tournament's name (as in its charter).")
OUTBOX_OPTION = typer.Option(Path("outbox"), "--outbox", envvar="ADJUDICATOR_OUTBOX",
                             help="Folder for the reports of campaigns stepped by 'clock'. Env: ADJUDICATOR_OUTBOX.")


@contextlib.contextmanager
def referee(store: Path, key: Path, create: bool = False) -> Iterator[tuple]:
    """The referee's tournaments over ``store`` and the private key, errors as one line."""
    from adjudicator.tournament.service import Tournaments

    with user_errors():
        private = load_key(key)
        with open_store(store, create=create) as opened:
            yield Tournaments(opened), private


@tournament_app.command("new")
def new(
    charter: Path = typer.Argument(..., help="The charter (TOML): \\[tournament], \\[scoring], \\[clocks], "
                                   "\\[abandonment], \\[\\[player]], \\[\\[standby]] (docs/tournaments.md)."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    now: Optional[str] = NOW_OPTION,
) -> None:
    """Create a tournament: its signed charter, the commitment to its seed chain, its players."""
    from adjudicator.tournament.charter import load_charter

    with user_errors():
        parsed = load_charter(charter)
    with referee(store, key, create=True) as (tournaments, private):
        state = tournaments.create(parsed, private, parse_now(now))
    typer.echo(f"tournament {state.name} created: {state.format}, {len(state.players)} player(s); "
               f"seed chain committed ({state.charter['chain']['anchor'][:16]}...). "
               f"'adjudicator send {state.name}' writes the opening mail.")


@tournament_app.command()
def register(
    name: str = NAME,
    player: str = typer.Argument(..., help="The player's short name (lowercase letters, digits, '-')."),
    address: str = typer.Option(..., "--address", help="The player's email address."),
    password: Optional[str] = typer.Option(None, "--password", help="The player's password."),
    public_key: Optional[str] = typer.Option(None, "--public-key", help="Or the player's Ed25519 public key."),
    bid: Optional[str] = typer.Option(None, "--bid", help="A standing bid SIDE:AMOUNT for sides by bidding."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
) -> None:
    """Register a player (or change a registered player's bid)."""
    from adjudicator.tournament.charter import entrant

    data = {"name": player, "address": address, "password": password, "public_key": public_key, "bid": bid}
    with referee(store, key) as (tournaments, private):
        tournaments.register(name, entrant(data, "register"), private)
    typer.echo(f"{player} registered in {name}")


@tournament_app.command()
def withdraw(
    name: str = NAME,
    player: str = typer.Argument(..., help="The player."),
    reason: str = typer.Option("withdrawn at the player's request", "--reason", help="Published and mailed."),
    absent_days: Optional[float] = typer.Option(None, "--absent-days", help="Not a withdrawal: an absence of "
                                                "this many days from the player's budget."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    now: Optional[str] = NOW_OPTION,
) -> None:
    """Withdraw a player from further rounds, or (--absent-days) record an absence."""
    with referee(store, key) as (tournaments, private):
        if absent_days is not None:
            tournaments.absence(name, player, absent_days, private, parse_now(now))
        else:
            tournaments.withdraw(name, player, reason, private)
    typer.echo(f"{player}: absent for {absent_days:g} day(s)" if absent_days is not None else f"{player} withdrawn")


@tournament_app.command("mail")
def mail_in(
    source: str = typer.Argument(..., help="A Maildir, an mbox, .eml files, or '-' (one message on stdin)."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    now: Optional[str] = NOW_OPTION,
    format: OutputFormat = format_option(),
) -> None:
    """Registrations, withdrawals and absences by email (docs/tournaments.md); each
    message is answered (queued: 'adjudicator send TOURNAMENT')."""
    from adjudicator.mail import MailError
    from adjudicator.tournament.mailin import take_mail

    with referee(store, key) as (tournaments, private):
        try:
            handled = take_mail(tournaments, source, private, parse_now(now))
        except MailError as err:
            raise fail(str(err))
    if format is OutputFormat.json:
        typer.echo(json.dumps([{"origin": i.origin, "outcome": i.outcome, "detail": i.detail} for i in handled],
                              indent=2))
        return
    for item in handled:
        typer.echo(f"{item.outcome:<9} {item.origin}: {item.detail}")


@tournament_app.command()
def pair(
    name: str = NAME,
    challenge: Optional[str] = typer.Option(None, "--challenge", help="Ladder: CHALLENGER:DEFENDER."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    now: Optional[str] = NOW_OPTION,
    format: OutputFormat = format_option(),
) -> None:
    """Take the finished games' results, then pair the next round from the committed seed
    and create its campaigns; the pairing mail is queued ('adjudicator send NAME')."""
    pair_of = None
    if challenge:
        challenger, _, defender = challenge.partition(":")
        if not defender:
            raise fail(f"--challenge {challenge!r} must read CHALLENGER:DEFENDER")
        pair_of = (challenger, defender)
    with referee(store, key) as (tournaments, private):
        body = tournaments.pair(name, private, parse_now(now), pair_of)
    if format is OutputFormat.json:
        typer.echo(json.dumps(body, indent=2))
        return
    typer.echo(f"round {body['round']} of {name} (seed {body['seed_index']}: {body['seed'][:16]}...):")
    for game in body["games"]:
        typer.echo(f"  {game['game']:<24} " + "  ".join(f"{side}: {player}" for side, player in game["sides"].items()))
    for player in body["byes"]:
        typer.echo(f"  bye: {player}")


@tournament_app.command()
def clock(
    name: str = NAME,
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    outbox: Path = OUTBOX_OPTION,
    now: Optional[str] = NOW_OPTION,
    format: OutputFormat = format_option(),
) -> None:
    """For cron: apply the charter's clocks -- adjudicate steps past their deadline,
    remind silent players, forfeit by the ladder, and take games still running at a
    round's end down the abandonment ladder. Every ruling is recorded and mailed; the
    mail queued (the tournament's and the games') is then sent as 'send' does. Exit 1
    when some mail could not be sent (it stays queued)."""
    import os

    from adjudicator.campaign.mailroom import Mailroom
    from adjudicator.mail import MailError, SmtpSettings

    with referee(store, key) as (tournaments, private):
        try:
            smtp = SmtpSettings.from_env() if os.environ.get("ADJUDICATOR_SMTP_HOST") else None
        except MailError as err:
            raise fail(str(err))
        mailroom = Mailroom(tournaments.campaigns, outbox)
        actions = tournaments.clock(name, private, parse_now(now), after=mailroom.queue_reports)
        written, failures = 0, []
        for owner in [name, *sorted({a.game for a in actions})]:
            files, _, failed = mailroom.send(owner, smtp)
            written += len(files)
            failures += failed
    if format is OutputFormat.json:
        typer.echo(json.dumps({"actions": [{"game": a.game, "what": a.what} for a in actions], "written": written,
                               "outbox": str(outbox), "not_sent": failures}, indent=2))
    else:
        for action in actions:
            typer.echo(f"{action.game}: {action.what}")
        typer.echo(f"{len(actions)} action(s); {written} message(s) in {outbox}", err=True)
    for failure in failures:
        typer.echo(f"not sent, still queued: {failure}", err=True)
    if failures:
        raise typer.Exit(EXIT_PROBLEM)


@tournament_app.command()
def rule(
    name: str = NAME,
    game: str = typer.Argument(..., help="The game (campaign) of the event."),
    rung: str = typer.Argument(..., help="replace, adjudicate, forfeit or no-result."),
    reason: str = typer.Option(..., "--reason", help="Why: published in the record and mailed to the players."),
    side: Optional[str] = typer.Option(None, "--side", help="The silent side (default: the sides the clock finds "
                                       "silent -- defaults played since their last orders -- never merely the side "
                                       "whose turn it is)."),
    overturn: bool = typer.Option(False, "--overturn", help="Overturn the result of a game that has ended over "
                                  "the board (published in the ruling and reported by the audit)."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    now: Optional[str] = NOW_OPTION,
) -> None:
    """Apply one rung of the abandonment ladder to a running game, by the referee's ruling."""
    with referee(store, key) as (tournaments, private):
        done = tournaments.rule(name, game, rung, reason, private, parse_now(now), silent=side, overturn=overturn)
    typer.echo(f"{game}: {done}")


@tournament_app.command()
def status(
    name: str = NAME,
    store: Path = STORE_OPTION,
    format: OutputFormat = format_option(),
) -> None:
    """Rounds, games running and finished, rulings."""
    from adjudicator.fairdice import referee_fingerprint
    from adjudicator.tournament.service import Tournaments

    with user_errors():
        with open_store(store) as opened:
            state = Tournaments(opened).state(name)
    key_fingerprint = referee_fingerprint(state.charter)
    if format is OutputFormat.json:
        typer.echo(json.dumps({
            "tournament": name, "format": state.format, "players": list(state.players),
            "withdrawn": list(state.withdrawn), "rounds": len(state.rounds),
            "running": [s.game for s in state.running()], "results": len(state.results),
            "rulings": state.rulings, "closed": state.closed is not None, "head": state.head,
            "fingerprint": key_fingerprint}, indent=2))
        return
    typer.echo(f"{name}: {state.format}, {len(state.active_players())} active player(s) of {len(state.players)}, "
               f"{len(state.rounds)} round(s) paired" + (", closed" if state.closed else ""))
    typer.echo(f"record head: {state.head}  (pin the audit: 'tournament audit --head')")
    typer.echo(f"referee key fingerprint: {key_fingerprint or '(unreadable key)'}")
    for info in state.rounds:
        typer.echo(f"round {info.number} (ends {info.ends[:10]}):")
        for slot in info.games:
            result = state.results.get(slot.game)
            said = "running" if result is None else (
                "no result" if result.result is None else f"{result.result}: {result.how}")
            typer.echo(f"  {slot.game:<24} " + " v ".join(f"{p} ({s})" for s, p in slot.sides.items()) + f"  {said}")
        for player in info.byes:
            typer.echo(f"  bye: {player}")
    for ruling in state.rulings:
        typer.echo(f"ruling on {ruling['game']}: {ruling['rung']} -- {ruling['reason']}")


def _table(name: str, store: Path) -> tuple[object, list, list]:
    from adjudicator.tournament import standings as standings_module
    from adjudicator.tournament.export import rows
    from adjudicator.tournament.ratings import survey
    from adjudicator.tournament.service import Tournaments, last_seed

    with open_store(store) as opened:
        tournaments = Tournaments(opened)
        state = tournaments.state(name)
        lines = standings_module.compute(state, last_seed(state))
        found = survey(opened)
        addresses = tournaments.addresses(name)
    table = rows(lines, found.ratings, found.reliability, addresses, state.charter["tiebreaks"])
    return state, lines, table


def _public_bundle(store: Path, name: str) -> tuple[str, dict[str, str]]:
    """The tournament's public record and every existing game's, as JSON Lines."""
    from adjudicator.tournament.service import Tournaments

    with open_store(store) as opened:
        tournaments = Tournaments(opened)
        record = "".join(r.to_json_line() + "\n" for r in tournaments.records(name))
        existing = {c.id for c in opened.campaigns()}
        games = {s.game: tournaments.campaigns.export_public(s.game)
                 for s in tournaments.state(name).slots() if s.game in existing}
    return record, games


@tournament_app.command()
def standings(
    name: str = NAME,
    store: Path = STORE_OPTION,
    format: OutputFormat = format_option(),
) -> None:
    """Standings with every tie-break value, ratings (Glicko-2) and reliability, apart."""
    from adjudicator.tournament import standings as standings_module

    with user_errors():
        state, lines, table = _table(name, store)
    if format is OutputFormat.json:
        if state.format == "ladder":
            from adjudicator.tournament.ladder import ladder_order

            typer.echo(json.dumps({"ladder": ladder_order(state), "standings": table}, indent=2))
            return
        typer.echo(json.dumps(table, indent=2))
        return
    if state.format == "ladder":
        from adjudicator.tournament.ladder import render_ladder

        typer.echo(render_ladder(state))
        typer.echo("")
    typer.echo(standings_module.render(lines, state.charter["tiebreaks"]))
    typer.echo("")
    typer.echo(f"{'player':<16}{'rating':>8}{'RD':>7}  {'':<12}{'answered':>9}{'defaults':>9}{'forfeits':>9}")
    for row in table:
        rating = "-" if row["rating"] is None else f"{row['rating']:8.1f}{row['rating_deviation']:7.1f}"
        provisional = "provisional" if row["provisional"] else ""
        typer.echo(f"{row['player']:<16}{rating:>15}  {provisional:<12}{row['answered'] or 0:9d}"
                   f"{row['defaults'] or 0:9d}{row['forfeits'] or 0:9d}")


@tournament_app.command()
def report(
    name: str = NAME,
    mail: bool = typer.Option(False, "--mail", help="Queue the standings mail to every player."),
    store: Path = STORE_OPTION,
) -> None:
    """The standings mail, with the working (printed; --mail queues it for 'send')."""
    from adjudicator.tournament.service import Tournaments, standings_text

    with user_errors():
        state, lines, _ = _table(name, store)
        if mail:
            with open_store(store) as opened:
                Tournaments(opened).queue_standings(name)
    typer.echo(standings_text(state, lines))


EXPORTS = ("csv", "json", "trf", "results", "crosstable", "html")


@tournament_app.command()
def export(
    name: str = NAME,
    format: str = typer.Option("csv", "--format", help="csv or json (standings, ratings, reliability); trf (a FIDE "
                               "Tournament Report File); results (a CSV of every game); crosstable; html (a static "
                               "standings page)."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write here instead of stdout."),
    public: Optional[Path] = typer.Option(None, "--public", help="Write the public bundle (the tournament's "
                                          "record and every game's) to this folder, for 'audit --public'."),
    store: Path = STORE_OPTION,
) -> None:
    """Standings, tie-breaks, ratings and reliability as CSV or JSON; the event as a TRF
    file, a CSV of results, a cross-table or a standings page; or the public bundle."""
    from adjudicator.tournament import publish
    from adjudicator.tournament.export import to_csv, to_json, write_bundle

    if format not in EXPORTS:
        raise fail(f"--format {format!r}: use one of {', '.join(EXPORTS)}")
    with user_errors():
        if public is not None:
            record, games = _public_bundle(store, name)
            written = write_bundle(public, name, record, games)
            typer.echo(f"{len(written)} file(s) written to {public}")
            return
        state, lines, table = _table(name, store)
        if format == "trf":
            text = publish.trf(state, lines)
        elif format == "results":
            text = publish.results_csv(state)
        elif format == "crosstable":
            text = publish.render_cross_table(state, lines) + "\n"
        elif format == "html":
            from adjudicator.campaign.games import support

            text = publish.standings_page(state, lines, support(state.game).title)
        else:
            text = to_csv(table) if format == "csv" else to_json(name, table, {"closed": state.closed is not None})
    if output:
        output.write_text(text, encoding="utf-8")
    else:
        typer.echo(text, nl=False)


@tournament_app.command()
def close(
    name: str = NAME,
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    now: Optional[str] = NOW_OPTION,
) -> None:
    """Close the event: reveal the final tie-break seed, publish and mail the final standings."""
    from adjudicator.tournament import standings as standings_module
    with referee(store, key) as (tournaments, private):
        lines = tournaments.close(name, private, parse_now(now))
        chain = tournaments.state(name).charter["tiebreaks"]
    typer.echo(standings_module.render(lines, chain))


@tournament_app.command()
def audit(
    name: Optional[str] = typer.Argument(None, help="The tournament in the store (or give --public)."),
    public: Optional[Path] = typer.Option(None, "--public", help="A public bundle from 'export --public'."),
    head: Optional[str] = typer.Option(None, "--head", help="The tournament record's head hash, as your latest "
                                       "tournament mail gives it: a record cut short (or with records added) fails."),
    fingerprint: Optional[str] = typer.Option(None, "--fingerprint", help="The referee key's fingerprint, as the "
                                              "referee gave it to you by another channel."),
    store: Path = STORE_OPTION,
    format: OutputFormat = format_option(),
) -> None:
    """Verify every record of the event and every game die by die, from public records
    only; print each player's dice and luck index, and every ruling (one that overturns a
    result over the board is named). Exit 1 if anything does not verify."""
    from adjudicator.tournament.audit import audit_bundle, render_audit
    from adjudicator.tournament.export import read_bundle

    if (name is None) == (public is None):
        raise fail("give a tournament NAME (from the store) or --public FOLDER, not both")
    with user_errors():
        if public is not None:
            try:
                record, games = read_bundle(public)
            except OSError as err:
                raise fail(f"cannot read the public bundle in {public}: {err}")
        else:
            record, games = _public_bundle(store, name)
        result = audit_bundle(record, games, head=head, fingerprint_=fingerprint)
    typer.echo(json.dumps(result.to_json(), indent=2) if format is OutputFormat.json else render_audit(result))
    if not result.verified:
        raise typer.Exit(EXIT_PROBLEM)


@tournament_app.command("site")
def site(
    name: str = NAME,
    output: Path = typer.Option(..., "--output", "-o", help="The folder to write the site into (made if need be)."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
) -> None:
    """The event's public archive: an index of its rounds and games, and each game's site
    (as 'adjudicator site') in OUTPUT/GAME."""
    from adjudicator.cli.campaign_cmds import passphrase_for
    from adjudicator.site.event import build_event_site, event_rounds
    from adjudicator.tournament.service import Tournaments

    with user_errors():
        with open_store(store) as opened:
            tournaments = Tournaments(opened)
            state = tournaments.state(name)
            existing = {c.id for c in opened.campaigns()}
            records = {s.game: tournaments.campaigns.export_public(s.game) for s in state.slots() if s.game in existing}
        private = load_key(key, passphrase_for) if key.is_file() else None
        written = build_event_site(name, event_rounds(state), records, output, private)
    typer.echo(f"site of tournament {name} written to {output}: {len(written.games)} game(s)")


@app.command("balance")
def balance_command(
    game: Optional[str] = typer.Option(None, "--game", help="The game (see 'adjudicator games')."),
    games: int = typer.Option(100, "-n", "--games", help="How many games to play."),
    seed: int = typer.Option(1, "--seed", help="Seed of the dice and the automatic players' choices."),
    option: list[str] = typer.Option([], "--option", "-o", help="Game option NAME=VALUE (repeatable)."),
    format: OutputFormat = format_option(),
) -> None:
    """Play N games between the automatic players; print each side's win rate with a
    95% confidence interval (for choosing sides, bids or a handicap)."""
    from adjudicator.cli.app import chosen_game
    from adjudicator.cli.games_cmds import parse_options
    from adjudicator.tournament.balance import balance, render_balance

    try:
        options = parse_options(option)
    except ValueError as err:
        raise fail(str(err))
    with user_errors():
        report = balance(chosen_game(game, first_by_default=True), games, seed, options)
    if format is OutputFormat.json:
        typer.echo(json.dumps({"game": report.game, "games": report.games, "draws": report.draws,
                               "sides": [{"side": r.side, "wins": r.wins, "rate": round(r.rate, 4),
                                          "ci95": [round(r.low, 4), round(r.high, 4)]} for r in report.sides],
                               "endings": report.endings, "seconds": round(report.seconds, 2)}, indent=2))
        return
    typer.echo(render_balance(report))
