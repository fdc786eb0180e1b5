"""Fuzzing spec text (canastra check): arbitrary text, token soup, and the
small test spec and the real specs with lines dropped, repeated, swapped,
cut or spoiled (numbers of thousands of digits, escapes, deep nesting,
absurd decks and deals). Every input is refused with file:line:column, or
checks under every reading; and a spec that checks can be played: a hand
of self-play ends, or stops on the spec's own rule error, never on a crash."""
from __future__ import annotations

import tempfile
from pathlib import Path

from fuzzing import bounded, fuzz_settings, mutated_text, positioned
from hypothesis import given
from hypothesis import strategies as st

from canastra_ref.dsl.build import build, chain
from canastra_ref.dsl.loader import check_file, spec_file
from canastra_ref.dsl.parser import parse_text
from canastra_ref.engine.play import StuckError, self_play
from canastra_ref.engine.rules import Engine
from canastra_ref.errors import CanastraError, ErrorList, RuleError
from canastra_ref.paths import SPEC_DIR, SPEC_SUFFIX

MINIMAL = (Path(__file__).parent / "data" / "minimal.canastra").read_text(encoding="utf-8")
SPECS = {path.name: path.read_text(encoding="utf-8") for path in sorted(SPEC_DIR.glob("*" + SPEC_SUFFIX))}
TOKENS = ["ruleset", "article", "informative", "because", "dispute", "reading", "default", "on",
          "def", "override", "exception", "when", "unless", "under", "and", "or", "not", "yes", "no",
          "=", "==", "<=", ">", "->", "..", ".", ",", ":", "[", "]", "(", ")", "-", "+", "*", "/",
          "@7", "@", "\"x\"", "\"", "4..A", "team.score", "meld.size", "deck.decks", "12", "0",
          "\n", "\n  ", "#", "\t", "é", "then",
          # what used to escape as tracebacks, hangs or crashes in play (issue 17)
          "9" * 5000, "9007199254740992", '"a\\x"', '"\\N{FOO}"', '"\\u12"', '"café \\"x\\""',
          "not " * 200 + "yes", " + ".join(["1"] * 300), "(" * 300 + "1" + ")" * 300, "[" * 100 + "]" * 100,
          "deck.decks = 50000000", "deck.jokers = 90", "deal.cards = 60", "deal.cards = 0", "draw.cards = 0",
          "table.players = 5", "ruleset other-name", "extends " + "x" * 300, "\x00", "\x1b[2J"]
PLACE = Path(tempfile.mkdtemp(prefix="canastra-fuzz-specs-"))


def _run(text: str) -> None:
    with bounded():
        try:
            build([parse_text(text, "fuzz.canastra")])
        except (CanastraError, ErrorList) as exc:
            positioned(exc)


@fuzz_settings(300)
@given(st.text(max_size=200))
def test_arbitrary_text(text):
    _run(text)


@fuzz_settings(300)
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_token_soup(tokens):
    _run('ruleset fuzz "t"\n' + " ".join(tokens))


@fuzz_settings(300)
@given(mutated_text([MINIMAL], TOKENS))
def test_mutated_spec(text):
    _run(text)


@fuzz_settings(60)
@given(name=st.sampled_from(sorted(SPECS)), data=st.data(), seed=st.integers(0, 2 ** 31))
def test_a_mutated_rulebook_is_refused_or_playable(name, data, seed):
    """canastra check on a file among the real specs (a variant finds its base),
    then, when it checks, a hand of self-play under its default readings."""
    directory = PLACE / "specs"
    directory.mkdir(exist_ok=True)
    for other, text in SPECS.items():
        (directory / other).write_text(text, encoding="utf-8")
    path = directory / name
    path.write_text(data.draw(mutated_text([SPECS[name]], TOKENS)), encoding="utf-8", errors="surrogatepass")
    with bounded():
        _, errors = check_file(path, directory)
        for error in errors:
            positioned(error)
        if errors:
            return
        try:
            engine = Engine(build(chain(spec_file(path.name[:-len(SPEC_SUFFIX)], directory),
                                        lambda rid: spec_file(rid, directory))))
            for _ in self_play(engine, seed, 1):
                pass
        except (RuleError, StuckError):          # the spec's own gap or contradiction, met in play
            pass
