"""A reader that stops early (``adjudicator ... | head``) ends the command quietly, as
for any Unix tool: no traceback, the exit status of a process killed by SIGPIPE."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("args", [
    ["check", "--format", "json", str(ROOT / "samples" / "port-arthur" / "japan-turn1.orders")],  # direct path
    ["play", "--seed", "1"],                                                                          # command line
])
def test_output_to_a_closed_pipe_ends_quietly_without_a_traceback(args):
    command = [sys.executable, "-c", "from adjudicator.cli.main import run; run()", *args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    process.stdout.close()  # the reader is gone before the first line is written
    _, err = process.communicate(timeout=120)

    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err.decode()
    assert process.returncode == 141
