"""Many campaigns from a roster ('adjudicator new --roster'): each player's password is
hashed once for all their campaigns, each campaign is made as 'new' makes it (charter,
opening mails), the roster is checked whole before anything is written, and a roster
run again creates only what is missing."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from adjudicator.campaign import campaign as campaign_module
from adjudicator.campaign.errors import BadAddress
from adjudicator.campaign.mailroom import Mailroom
from adjudicator.campaign.passwords import password_matches
from adjudicator.campaign.roster import BadRoster, create_roster, read_roster
from adjudicator.cli import campaign_cmds  # noqa: F401  (registers the commands)
from adjudicator.cli.app import app
from adjudicator.fairdice import save_private_key
from adjudicator.store import Store

SIDES = ("japan", "russia")
PLAYERS = {"togo": ("togo@example.org", "Togo1904"), "makarov": ("makarov@example.org", "Makarov1904"),
           "kamimura": ("kamimura@example.org", "Kamimura1904")}
FIXTURES = [("club-1", "togo", "makarov"), ("club-2", "kamimura", "togo"), ("club-3", "makarov", "kamimura")]


def roster_text(fixtures=FIXTURES, players=PLAYERS) -> str:
    text = "".join(f'[[player]]\nname = "{name}"\naddress = "{address}"\npassword = "{password}"\n\n'
                   for name, (address, password) in players.items())
    return text + "".join(f'[[campaign]]\nid = "{ident}"\nplayers = {{ japan = "{japan}", russia = "{russia}" }}\n\n'
                          for ident, japan, russia in fixtures)


def count_hashes(monkeypatch) -> list[str]:
    made: list[str] = []
    real = campaign_module.hash_password

    def counted(password):
        made.append(password)
        return real(password)

    monkeypatch.setattr(campaign_module, "hash_password", counted)
    return made


def test_each_players_password_is_hashed_once_and_the_same_hash_opens_each_of_their_campaigns(
        campaigns, referee_key, monkeypatch, tmp_path):
    made = count_hashes(monkeypatch)
    outcome = create_roster(campaigns, read_roster(roster_text(), "league.toml", SIDES), "port-arthur", referee_key,
                            after=Mailroom(campaigns, tmp_path / "outbox").queue_opening)
    assert outcome.created == ("club-1", "club-2", "club-3") and outcome.already_there == ()
    assert sorted(made) == sorted(password for _, password in PLAYERS.values())  # one hash per player
    togo_in_1 = campaigns.store.derived("club-1", "password:japan")
    togo_in_2 = campaigns.store.derived("club-2", "password:russia")
    assert togo_in_1 == togo_in_2 and password_matches("Togo1904", togo_in_2)
    assert not password_matches("Makarov1904", togo_in_2)
    for ident, japan, russia in FIXTURES:
        meta = campaigns.store.campaign(ident).meta
        assert meta["players"]["japan"]["address"] == PLAYERS[japan][0]
        assert meta["players"]["russia"]["address"] == PLAYERS[russia][0]
        assert sorted(m.recipient for m in campaigns.store.outbox(ident)) == sorted(
            [PLAYERS[japan][0], PLAYERS[russia][0]])  # the opening mails, as 'new' queues them


def test_a_roster_run_again_creates_only_what_is_missing(campaigns, referee_key):
    create_roster(campaigns, read_roster(roster_text(FIXTURES[:1]), "league.toml", SIDES), "port-arthur", referee_key)
    charter = campaigns.log("club-1").records[0].hash
    outcome = create_roster(campaigns, read_roster(roster_text(), "league.toml", SIDES), "port-arthur", referee_key)
    assert outcome.created == ("club-2", "club-3") and outcome.already_there == ("club-1",)
    assert campaigns.log("club-1").records[0].hash == charter  # left as it was


def test_a_campaign_already_there_with_other_players_stops_the_roster_before_anything_is_made(campaigns, referee_key):
    create_roster(campaigns, read_roster(roster_text([("club-3", "togo", "makarov")]), "league.toml", SIDES),
                  "port-arthur", referee_key)
    with pytest.raises(BadRoster, match="club-3.*already in the store with other players"):
        create_roster(campaigns, read_roster(roster_text(), "league.toml", SIDES), "port-arthur", referee_key)
    assert [c.id for c in campaigns.store.campaigns()] == ["club-3"]


@pytest.mark.parametrize("fixtures, players, complaint", [
    ([("club-1", "togo", "nobody")], PLAYERS, "gives russia to 'nobody', who is not a \\[\\[player\\]\\]"),
    ([("club-1", "togo", "togo")], PLAYERS, "one player on two sides"),
    ([("club-1", "togo", "makarov"), ("club-1", "makarov", "togo")], PLAYERS, "listed twice"),
    ([("Club 1", "togo", "makarov")], PLAYERS, "campaign id 'Club 1'"),
    ([], PLAYERS, "no \\[\\[campaign\\]\\]"),
    (FIXTURES, {**PLAYERS, "togo": ("togo@example.org", "")}, "'togo' needs a password or a public_key"),
])
def test_a_wrong_roster_is_refused_whole_saying_what_is_wrong(fixtures, players, complaint):
    with pytest.raises(BadRoster, match=complaint):
        read_roster(roster_text(fixtures, players), "league.toml", SIDES)


def test_a_roster_side_the_game_does_not_have_is_refused():
    text = roster_text().replace('japan = "togo"', 'england = "togo"', 1)
    with pytest.raises(BadRoster, match="names sides england, russia; this game needs one player for each of"):
        read_roster(text, "league.toml", SIDES)


def test_a_bad_address_stops_the_roster_before_any_campaign_is_made(campaigns, referee_key):
    players = {**PLAYERS, "kamimura": ("kamimura@example.org, spy@example.org", "Kamimura1904")}
    with pytest.raises(BadAddress, match="cannot be used in mail"):
        create_roster(campaigns, read_roster(roster_text(players=players), "league.toml", SIDES), "port-arthur",
                      referee_key)
    assert campaigns.store.campaigns() == []


def invoke(*args):
    clean = {name: None for name in ("ADJUDICATOR_KEY_PASSPHRASE", "ADJUDICATOR_STORE", "ADJUDICATOR_KEY")}
    return CliRunner().invoke(app, [str(a) for a in args], env=clean)


def test_new_with_a_roster_creates_every_campaign_and_new_with_one_id_still_works(tmp_path, referee_key):
    save_private_key(tmp_path / "referee.key", referee_key, None)
    (tmp_path / "league.toml").write_text(roster_text(), encoding="utf-8")
    (tmp_path / "players.toml").write_text(
        '[[player]]\nside = "japan"\naddress = "a@example.org"\npassword = "pw1"\n\n'
        '[[player]]\nside = "russia"\naddress = "b@example.org"\npassword = "pw2"\n', encoding="utf-8")
    common = ("--game", "port-arthur", "--store", tmp_path / "s.sqlite3", "--key", tmp_path / "referee.key")
    made = invoke("new", "--roster", tmp_path / "league.toml", *common)
    assert made.exit_code == 0, made.output
    assert "3 campaign(s) created" in made.stdout and "campaign club-2 created" in made.stdout
    again = invoke("new", "--roster", tmp_path / "league.toml", *common)
    assert again.exit_code == 0 and "club-1 is already in the store" in again.stdout
    single = invoke("new", "solo", "--players", tmp_path / "players.toml", *common)
    assert single.exit_code == 0, single.output
    with Store.open(tmp_path / "s.sqlite3") as store:
        assert [c.id for c in store.campaigns()] == ["club-1", "club-2", "club-3", "solo"]
    for wrong in (("new", *common), ("new", "x", "--roster", tmp_path / "league.toml", *common),
                  ("new", "--roster", tmp_path / "league.toml", "--players", tmp_path / "players.toml", *common),
                  ("new", "--roster", tmp_path / "missing.toml", *common)):
        refused = invoke(*wrong)
        assert refused.exit_code == 2 and "Traceback" not in refused.output and refused.stderr.strip()
