"""The compiled orders grammar is cached on disk under a name that holds the grammar's
hash, the Python version and Lark's version: tables pickled by another Python or
another Lark are never loaded, and an edited grammar is compiled afresh."""

from __future__ import annotations

import subprocess
import sys
from collections import namedtuple

import lark

from adjudicator.orders import grammar

GAME = "port-arthur"


def test_the_cache_file_is_named_by_python_and_lark_versions(tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path))
    name = grammar._cache_file(GAME, "lalr")
    python = f"{sys.implementation.name}{sys.version_info[0]}{sys.version_info[1]}"
    assert f"-{python}-" in name and f"-lark{lark.__version__}-" in name
    Version = namedtuple("Version", "major minor micro releaselevel serial")
    monkeypatch.setattr(sys, "version_info", Version(3, 99, 0, "final", 0))
    assert grammar._cache_file(GAME, "lalr") != name


def test_a_parser_compiled_in_one_process_is_loaded_from_the_cache_in_the_next(tmp_path):
    program = ("from adjudicator.orders.grammar import lalr_parser; "
               "print(lalr_parser('port-arthur').parse('campaign: c1\\nside: japan\\n').data)")
    env = {"ADJUDICATOR_CACHE": str(tmp_path), "PATH": ""}
    first = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    [cached] = list(tmp_path.glob("orders-port-arthur-lalr-*.cache"))
    stamp = cached.stat().st_mtime_ns
    second = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True)
    assert second.stdout == first.stdout and cached.stat().st_mtime_ns == stamp
