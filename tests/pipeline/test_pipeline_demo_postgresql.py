"""The demo campaign by email with its store on a real PostgreSQL server (started by
the tests): the same campaign, the same verified record, as on SQLite."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from adjudicator.cli import mail_cmds  # noqa: F401  (registers demo)
from adjudicator.cli.app import app
from adjudicator.store import Store

runner = CliRunner()


def test_the_demo_runs_on_a_postgresql_store_and_verifies(tmp_path: Path, postgres_url: str):
    folder = tmp_path / "demo"
    done = runner.invoke(app, ["demo", str(folder), "--quiet", "--store", postgres_url])
    assert done.exit_code == 0, done.output
    assert "VERIFIED" in done.output
    assert not (folder / "campaigns.sqlite3").exists()
    with Store.open(postgres_url) as store:
        assert [c.id for c in store.campaigns()] == ["demo"]
    again = runner.invoke(app, ["demo", str(tmp_path / "other"), "--quiet", "--store", postgres_url])
    assert again.exit_code == 2 and "already holds" in again.output
