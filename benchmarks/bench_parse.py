"""Benchmark: parsing orders with the LALR parser against lark's Earley parser.

Generates an orders file of 10,000 lines (every kind of block, written as players
write them: names, lists, conditions, comments and blank lines), then times, in the
same run and on the same grammar (grammar/port-arthur.lark):

- lalr: lark's LALR tables and contextual lexer as the adjudicator runs them on a file
  without mistakes: one fast run of the tables (adjudicator/orders/driver.py), each
  rule reduced by its own function written out from lark's tables
  (adjudicator/orders/driver_build.py), names told from keywords by a letter tree;
- lark loop: the same parser through lark's own parse loop (a token generator and a
  parser state object per token), as a file with mistakes is read;
- stock lark: lark's LALR parser as lark builds it, with ``propagate_positions`` (the
  positions the adjudicator needs): the baseline;
- pipeline: the whole of ``parse_orders`` (cleaning, LALR parse with error recovery,
  names resolved, orders built), on a valid file cut to the size limits (256 KiB,
  5,000 lines: a plan of many steps; the 10,000-line file is larger than an orders
  file may be);
- earley: lark's Earley parser (dynamic lexer) on the same text;
- lalr+cython: stock lark with the lark-cython plugin, when it is installed.

Prints lines per second (median of several runs, CPU time) and the ratios. Targets:
LALR at least 50,000 lines/s and at least 10 times Earley.

    python benchmarks/bench_parse.py [--lines 10000] [--runs 5] [--earley-runs 3]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from adjudicator.orders import MAX_BYTES, MAX_LINES, parse_orders
from adjudicator.orders.driver import parse_fast
from adjudicator.orders.grammar import earley_parser, lalr_parser

GAME = "port-arthur"
HEADER = """campaign: bench-1904
side: Japan
turn: 2
step: 7
password: hunter2
"""
# Entries cycled to fill the file. The sortie block names ships again and again, which
# the grammar reads and the checker refuses: the pipeline is timed on a plan instead.
SORTIE_LINES = [
    "  Mikasa, Asahi to East China Sea",
    "  Fuji to shipyard",
    "  Izumo to Tsushima; Iwate to Tsushima",
    "",
    "  # the cruisers stay near home",
    "  Kasagi and Chitose to Sea of Japan",
    "  land in Yellow Sea, Tsushima",
    "  all to Philippine Sea",
]
PLAN_LINES = [
    "  1. battle in East China Sea if enemy there and stronger there",
    "  2. move squadron from Tsushima to Yellow Sea unless turn >= 4",
    "  3. move Yakumo, Azuma from Japan to Tsushima",
    "",
    "  battle anywhere if faster, else pass",
    "  # pass when ahead",
    "  pass if score > 2",
]


def generate(lines: int) -> str:
    """An orders file of about ``lines`` lines: header, a long sortie, a long plan, policies."""
    out = HEADER.splitlines()
    policies = [
        "reroll: yes if turn < 4",
        "seize: yes",
        "dice: auto",
        "criticals: Tsesarevich, Retvizan",
        "hits:",
        "  protect Mikasa, Asahi",
        "  flip intact first",
        "blockade: yes if score >= 1",
        "mines: Chiyoda, Naniwa",
        "attack: auto",
    ]
    body = lines - len(out) - len(policies) - 2
    out.append("sortie:")
    out += [SORTIE_LINES[i % len(SORTIE_LINES)] for i in range(body // 2)]
    out.append("operations:")
    out += [PLAN_LINES[i % len(PLAN_LINES)] for i in range(body - body // 2)]
    out += policies
    return "\n".join(out) + "\n"


def generate_valid(max_bytes: int, max_lines: int) -> str:
    """A valid orders file as large as the size limits allow: a long operations plan."""
    out = HEADER.splitlines() + ["sortie:"] + [line for line in SORTIE_LINES if "Mikasa" in line]
    out.append("operations:")
    size = sum(len(line) + 1 for line in out)
    i = 0
    while size + len(PLAN_LINES[i % len(PLAN_LINES)]) + 1 < max_bytes - 100 and len(out) < max_lines - 1:
        out.append(PLAN_LINES[i % len(PLAN_LINES)])
        size += len(out[-1]) + 1
        i += 1
    out.append("dice: auto")
    return "\n".join(out) + "\n"


def median_rate(parse, text: str, runs: int) -> float:
    """Lines per second, median of ``runs`` timed runs in CPU time (garbage collection
    paused, as ``parse_orders`` pauses it)."""
    count = text.count("\n")
    rates = []
    for _ in range(runs):
        gc.collect()
        gc.disable()
        start = time.process_time()
        parse(text)
        elapsed = time.process_time() - start
        gc.enable()
        rates.append(count / elapsed)
    return statistics.median(rates)


def _cython_rate(text: str, runs: int) -> float | None:
    """The LALR parser with the lark-cython plugin, when it is installed (optional)."""
    try:
        import lark_cython
    except ImportError:
        return None
    from adjudicator.orders.grammar import open_grammar

    parser = open_grammar(GAME, parser="lalr", maybe_placeholders=False, _plugins=lark_cython.plugins)
    return median_rate(parser.parse, text, runs)


def stock_parser():
    """lark's LALR parser as lark builds it, with the positions the readers need."""
    from adjudicator.orders.grammar import open_grammar

    return open_grammar(GAME, parser="lalr", lexer="contextual", propagate_positions=True,
                        maybe_placeholders=False)


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--lines", type=int, default=10_000)
    args.add_argument("--runs", type=int, default=5)
    args.add_argument("--earley-runs", type=int, default=3)
    args.add_argument("--cold-runs", type=int, default=7)
    options = args.parse_args()

    text = generate(options.lines)
    lalr = lalr_parser(GAME)
    stock = stock_parser()
    earley = earley_parser(GAME)
    valid = generate_valid(MAX_BYTES, MAX_LINES)
    assert parse_fast(lalr, text) == lalr.parse(text) == stock.parse(text)  # warm up; the files are valid
    parse_orders(valid, GAME)

    rates = {"lalr": [], "lark loop": [], "stock lark": [], "pipeline": []}
    for _ in range(options.runs):  # interleaved, so that a busy moment of the machine hits every one
        rates["lalr"].append(median_rate(lambda t: parse_fast(lalr, t), text, 1))
        rates["lark loop"].append(median_rate(lalr.parse, text, 1))
        rates["stock lark"].append(median_rate(stock.parse, text, 1))
        rates["pipeline"].append(median_rate(lambda t: parse_orders(t, GAME), valid, 1))
    lalr_rate, loop_rate, stock_rate, pipeline_rate = (statistics.median(r) for r in rates.values())
    earley_rate = median_rate(earley.parse, text, options.earley_runs)

    print(f"orders file: {text.count(chr(10)):,} lines, {len(text):,} characters, CPU time, median of {options.runs}")
    print(f"lalr        {lalr_rate:10,.0f} lines/s   ({lalr_rate / stock_rate:.2f}x stock lark; target >= 50,000)")
    print(f"lark loop   {loop_rate:10,.0f} lines/s   ({loop_rate / stock_rate:.2f}x stock lark; a file with mistakes)")
    print(f"stock lark  {stock_rate:10,.0f} lines/s   (the baseline: lark's LALR with propagate_positions)")
    print(f"pipeline    {pipeline_rate:10,.0f} lines/s   (parse_orders on {valid.count(chr(10)):,} lines, "
          f"{len(valid) // 1024} KiB)")
    print(f"earley      {earley_rate:10,.0f} lines/s")
    print(f"lalr / earley     = {lalr_rate / earley_rate:8.1f}x   (target >= 10x)")
    cython_rate = _cython_rate(text, options.runs)
    if cython_rate:
        print(f"lalr+cython {cython_rate:10,.0f} lines/s   ({cython_rate / stock_rate:.2f}x stock lark: the "
              "lark-cython plugin, installed here, with lark's own tree builder, no positions)")
    print(f"pipeline / earley = {pipeline_rate / earley_rate:8.1f}x")
    cold = cold_parse(options.cold_runs)
    print(f"cold: load the parser and read a sample orders file in a new process, CPU (median of "
          f"{options.cold_runs}):")
    print(f"  lark's contextual lexer (a regexp per state) {cold['stock'] * 1000:6.1f} ms   (the baseline)")
    print(f"  terminals' regexps shared by every state     {cold['shared'] * 1000:6.1f} ms   "
          f"({cold['stock'] / cold['shared']:.1f}x faster)")
    print(f"  the grammar's kept program (no lark parser)  {cold['kept'] * 1000:6.1f} ms   "
          f"({cold['stock'] / cold['kept']:.1f}x faster; what a check of a file without mistakes does)")


COLD_PROGRAM = """
import sys, time
from adjudicator.orders import driver, grammar
from adjudicator.orders.text import clean
if sys.argv[1] == "stock":
    grammar.share_terminal_regexps = lambda parser: None
text = "\\n".join(clean(open(sys.argv[2], encoding="utf-8").read()).lines) + "\\n"
start = time.process_time()
if sys.argv[1] == "kept":
    assert driver.parse_fast("port-arthur", text) is not None
else:
    grammar.lalr_parser("port-arthur").parse(text)
print(time.process_time() - start)
"""


def cold_parse(runs: int) -> dict[str, float]:
    """CPU seconds to load the parser and parse a sample file, in a new process: lark's
    parser from lark's cache with its own contextual lexer, the same with the terminals'
    regexps shared, and the fast run's program kept for the grammar (no lark parser built)."""
    import subprocess
    import sys
    from pathlib import Path

    sample = Path(__file__).resolve().parent.parent / "samples" / "port-arthur" / "japan-turn1.orders"

    def once(kind: str) -> float:
        done = subprocess.run([sys.executable, "-c", COLD_PROGRAM, kind, str(sample)], capture_output=True,
                              text=True, check=True)
        return float(done.stdout)

    once("shared")  # the grammar caches and the bytecode cache are warm from here on
    once("kept")
    times: dict[str, list[float]] = {"stock": [], "shared": [], "kept": []}
    for _ in range(runs):
        for kind in times:
            times[kind].append(once(kind))
    return {kind: statistics.median(values) for kind, values in times.items()}


if __name__ == "__main__":
    main()
