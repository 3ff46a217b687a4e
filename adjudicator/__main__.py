from adjudicator.cli.main import run

run()
