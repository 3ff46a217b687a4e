"""The fast run of the LALR tables (adjudicator/orders/driver.py), the factored keyword
lookaheads and the one-function node builders read every orders text exactly as lark
does: the same tree, every token with the same type, text and place, every node
starting at the same line and column as lark's own ``propagate_positions`` says; and
where lark finds a mistake the fast run gives up, so that the line-by-line parser
reports it. Checked on the sample files of every game, their canonical texts, long
generated files, fuzzed files and texts made of each grammar's words (hypothesis);
and through ``parse_orders``: the same orders or the same problems, with or without
the fast run."""

from __future__ import annotations

import marshal
import random
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import lark
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from adjudicator.orders import OrdersError, driver, grammar, parse_orders, recovery
from adjudicator.orders.driver import may_start_with_space, parse_fast, tables_of
from adjudicator.orders.grammar import factored_keywords, keyword_of, lalr_parser, letter_tree, open_grammar
from adjudicator.orders.text import clean

from fuzz_orders import mutated_files

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["port-arthur", "russo-japanese-war", "tsushima-1905"]


@lru_cache(maxsize=None)
def stock(game: str) -> Lark:
    """lark's own LALR parser and tree builder, with its own positions: the reference."""
    return open_grammar(game, parser="lalr", lexer="contextual", propagate_positions=True,
                        maybe_placeholders=False)


def shape(node):
    """Everything the readers can see of a tree: rule names, tokens with their types and
    places, where each node starts."""
    if isinstance(node, Token):
        return ("token", node.type, str(node), node.start_pos, node.line, node.column, node.end_line,
                node.end_column, node.end_pos)
    meta = node._meta
    start = None if meta is None or meta.empty else (meta.line, meta.column)
    return (node.data, start, tuple(shape(c) for c in node.children))


def reference(game: str, text: str):
    try:
        return shape(stock(game).parse(text))
    except UnexpectedInput:
        return None


def assert_reads_as_lark(game: str, text: str) -> None:
    expected = reference(game, text)
    fast = parse_fast(lalr_parser(game), text)
    assert (None if fast is None else shape(fast)) == expected
    if expected is not None:  # lark's own loop with our node builders gives the same too
        assert shape(lalr_parser(game).parse(text)) == expected


def sample_texts(game: str) -> list[str]:
    folder = ROOT / "samples" / game
    return [p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.suffix in (".orders", ".txt")
            and "report" not in p.name]


def parser_text(text: str) -> str:
    return clean(text).text


@pytest.mark.parametrize("game", GAMES)
def test_every_sample_file_reads_as_lark_reads_it(game):
    texts = sample_texts(game)
    assert texts
    for text in texts:
        assert_reads_as_lark(game, parser_text(text))
        assert_reads_as_lark(game, parser_text(text * 30))  # long files: every lexer state's union in use
        canonical = parse_orders(text, game).canonical_text()
        assert_reads_as_lark(game, parser_text(canonical))


def test_the_benchmark_files_read_as_lark_reads_them():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_parse import generate, generate_valid
    finally:
        sys.path.pop(0)
    assert_reads_as_lark("port-arthur", generate(3000))
    assert_reads_as_lark("port-arthur", generate_valid(64 * 1024, 2000))


def test_fuzzed_files_read_as_lark_reads_them():
    for text in mutated_files(seed=12, count=150):
        try:
            prepared = parser_text(text)
        except OrdersError:
            continue
        assert_reads_as_lark("port-arthur", prepared)


def words_of(game: str) -> list[str]:
    """Each keyword of ``game``'s grammar, in two spellings, with names, numbers,
    punctuation, line ends, comments and noise."""
    parser = lalr_parser(game)
    keywords = sorted({k for t in parser.terminals if (k := keyword_of(parser, t.name))})
    return [*keywords, *(k.upper() for k in keywords), *(k + ":" for k in keywords), "Mikasa", "Yellow Sea",
            '"Fuji"', "Tsushima", "East China Sea", "Japan", "Russia", "c1", "x", "1", "3", "12", "1.", "2)",
            "+1", "-2", "3.5", ",", ";", ":", "<", ">=", "=", "#", "# note", "\n", "\n  ", "\n\n", "  ", "@",
            "é", "Tokiwa’s", "re-roll", "Port Arthur", "S3", "P12", "DR", "counter-torpedo"]


@pytest.fixture(params=[0, 10**9], ids=["unions-at-once", "each-terminal-only"])
def hot(request, monkeypatch):
    """The fast run's lexer states matching with their union regexps from the first
    token on, or with each terminal's own regexp throughout."""
    monkeypatch.setattr(driver, "HOT_STATE_MATCHES", request.param)
    tables_of.cache_clear()
    yield
    tables_of.cache_clear()


@pytest.mark.parametrize("game", GAMES)
def test_texts_of_the_grammars_words_read_as_lark_reads_them(game, hot):
    words = words_of(game)

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.sampled_from(words), max_size=50), st.sampled_from([" ", "", "\n"]))
    def same(chosen, joiner):
        assert_reads_as_lark(game, joiner.join(chosen) + "\n")

    same()


def test_a_space_is_skipped_only_where_no_terminal_tried_first_may_start_with_one():
    for regexp in [r"[ \t\x0c]+", r"x?[ ]", r"\s", r"[^a]", r".", r"[^#]", r"(?:a|\ b)", r"(?=a) ", r"[\x00-\x7f]"]:
        assert may_start_with_space(regexp), regexp
    for regexp in [r"[^\W\d_][\w\-]*", r"[^\s#:](?:\S|[ \t\f]+(?=[^\s#]))*", r"[^\s#]\S*", r"#[^\n]*",
                   r"(\r?\n[ \t\f]*(#[^\n]*)?)+", r"(?i:(?!(?:to|at)(?!\w))[a-z]+(?:[ \t]+[a-z]+)*)", r"\d+[.)]"]:
        assert not may_start_with_space(regexp), regexp


# -- the factored keyword lookaheads match what the plain lists match ------------------------

KEYWORDISH = st.text(alphabet="abcdefghilmnoprstuvwxyzAEOST -'’é1_\t,:", max_size=24)


@pytest.mark.parametrize("game", GAMES)
def test_each_factored_terminal_matches_what_the_grammar_writes(game):
    plain = {t.name: t.pattern for t in stock(game).terminals}
    factored = [t for t in lalr_parser(game).terminals if t.pattern.value != plain[t.name].value]
    assert factored or game == "russo-japanese-war"  # every game has a name-like terminal
    keywords = sorted({k for t in stock(game).terminals if (k := keyword_of(stock(game), t.name))})

    for terminal in factored:
        before = re.compile(plain[terminal.name].to_regexp())
        after = re.compile(terminal.pattern.to_regexp())
        probes = [k + tail for k in keywords for tail in ("", " ", "s", "-x", " to Port", "’s")]

        @settings(max_examples=300, deadline=None)
        @given(st.one_of(KEYWORDISH, st.sampled_from(probes).flatmap(lambda p: KEYWORDISH.map(lambda s: p + s))))
        def same(text):
            found_before, found_after = before.match(text), after.match(text)
            assert (found_before and found_before.group(0)) == (found_after and found_after.group(0))

        for probe in probes:
            found_before, found_after = before.match(probe), after.match(probe)
            assert (found_before and found_before.group(0)) == (found_after and found_after.group(0)), probe
        same()


def test_a_letter_tree_matches_exactly_its_words():
    words = ["to", "top", "turn", "re\\-roll", "reroll", "a", "at", "attack"]
    tree = re.compile(f"{letter_tree(words)}$", re.I)
    for word in ["to", "top", "turn", "re-roll", "reroll", "a", "at", "attack", "TOP", "Re-Roll"]:
        assert tree.match(word), word
    for word in ["t", "tu", "re", "rerol", "attac", "tops", "ab", "re-rol", ""]:
        assert not tree.match(word), word
    assert factored_keywords("[a-z]+") == "[a-z]+"


# -- through the whole front end -------------------------------------------------------------


def outcome(text: str, game: str):
    try:
        return ("orders", parse_orders(text, game))
    except OrdersError as err:
        return ("problems", err.problems)


@pytest.mark.parametrize("game", GAMES)
def test_parse_orders_gives_the_same_with_or_without_the_fast_run(game, monkeypatch):
    texts = sample_texts(game)
    rng = random.Random(12)
    texts += [t.replace(w, w[:-1], 1) for t in texts for w in rng.sample(t.split(), 3) if len(w) > 2]
    if game == "port-arthur":
        texts += list(mutated_files(seed=7, count=60))
    fast = [outcome(t, game) for t in texts]
    monkeypatch.setattr(recovery, "parse_fast", lambda parser, text: None)
    slow = [outcome(t, game) for t in texts]
    assert fast == slow
    assert any(kind == "problems" for kind, _ in fast) and any(kind == "orders" for kind, _ in fast)


# -- the program of a game's grammar, kept in the cache folder ---------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_kept_program_of_a_game_reads_as_lark_reads_it(game):
    for text in sample_texts(game):
        prepared = parser_text(text)
        fast = driver.parse_fast(game, prepared)
        assert (None if fast is None else shape(fast)) == reference(game, prepared)


@pytest.mark.parametrize("game", GAMES)
def test_each_terminal_made_from_the_kept_engine_code_is_the_regexp_python_compiles(game):
    program = driver.program_of(game)
    for name, pattern in program.patterns.items():
        assert program.regexp(name) == re.compile(pattern, program.flags), name


def test_a_line_end_is_counted_only_in_terminals_that_may_hold_one():
    for regexp in [r"(\r?\n[ \t\f]*(#[^\n]*)?)+", r"\s+", r"[^a]", r".", r"[\x00-\x7f]", r"\W", r"(?:a|\n)"]:
        assert driver.may_hold_line_end(regexp), regexp
    for regexp in [r"[^\W\d_][\w'\-]*(?:[ \t]+[a-z]+)*", r"#[^\n]*", r'"[^"\n]*"', r"[^\s#]\S*", r"\d+",
                   r"(?i:sortie)", r"(?!\n)[a-z]"]:
        assert not driver.may_hold_line_end(regexp), regexp


def run_in_new_process(program: str, cache) -> str:
    env = {"ADJUDICATOR_CACHE": str(cache), "PATH": ""}
    done = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


LOADS = """
from adjudicator.orders import grammar, parse_orders
text = open("samples/port-arthur/japan-turn1.orders", encoding="utf-8").read()
print(parse_orders(text, "port-arthur").canonical_text(), grammar.lalr_parser.cache_info().currsize)
"""


def test_a_new_process_reads_a_file_without_mistakes_from_the_kept_program_without_building_lark(tmp_path):
    first = run_in_new_process(LOADS, tmp_path)
    [kept] = tmp_path.glob("orders-port-arthur-fast-*.cache")
    stamp = kept.stat().st_mtime_ns
    second = run_in_new_process(LOADS, tmp_path)
    assert second.split()[:-1] == first.split()[:-1]
    assert second.split()[-1] == "0"  # lark's parser was not built
    assert kept.stat().st_mtime_ns == stamp  # and the program was read, not written again


def test_the_kept_program_is_named_by_grammar_python_lark_and_its_code(tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path))
    digest = driver._code_digest()
    name = grammar.cache_name("port-arthur", "fast", extra=digest)
    assert f"-lark{lark.__version__}-" in name and name.endswith(f"-{digest}.cache")
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    assert driver._code_digest() != digest


def test_a_damaged_kept_program_is_written_again(tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path))
    driver.program_of.cache_clear()
    try:
        text = parser_text(sample_texts("port-arthur")[0])
        expected = shape(driver.parse_fast("port-arthur", text))
        [kept] = tmp_path.glob("orders-port-arthur-fast-*.cache")
        for damage in (b"", b"not marshal", kept.read_bytes()[:100], marshal.dumps({"START": 1})):
            kept.write_bytes(damage)
            driver.program_of.cache_clear()
            assert shape(driver.parse_fast("port-arthur", text)) == expected
            assert kept.read_bytes() != damage
    finally:
        driver.program_of.cache_clear()


def test_a_kept_program_that_another_user_could_have_written_is_not_run(tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path))
    driver.program_of.cache_clear()
    try:
        text = parser_text(sample_texts("port-arthur")[0])
        expected = shape(driver.parse_fast("port-arthur", text))
        [kept] = tmp_path.glob("orders-port-arthur-fast-*.cache")
        planted = compile("raise SystemExit('planted code ran')", "<planted>", "exec")
        kept.write_bytes(marshal.dumps(planted))
        kept.chmod(0o666)
        driver.program_of.cache_clear()
        assert shape(driver.parse_fast("port-arthur", text)) == expected  # written afresh, not run
    finally:
        driver.program_of.cache_clear()
