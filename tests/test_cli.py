"""The command line: verdicts, exit codes 0/1/2/3, one-line errors, JSON."""

import json
import os
import random
import re
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from lines import random_moves

import solitaire_solver as ss
from solitaire_solver import cli
from solitaire_solver.cli import main
from solitaire_solver.engine import backend


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def without_time(out: str) -> str:
    """The output with its last line's time left out: two runs take different times."""
    return re.sub(r", [0-9.]+ ms\)$", ")", out.rstrip("\n"))


def seed_with(status, game="elevens"):
    return next(s for s in range(1000) if ss.solve(game, ss.random_deal(s)).status is status)


def test_solve_won_prints_layout_and_moves(capsys):
    s = seed_with(ss.Status.WON)
    code, out, _ = run(capsys, "solve", "elevens", "--seed", str(s))
    assert code == 0
    assert "WON in" in out and " JS " in out and "♠" not in out  # letters unless --unicode
    r = ss.solve("elevens", ss.random_deal(s))
    assert f"  1. {r.moves[0]}" in out
    code, pretty, _ = run(capsys, "solve", "elevens", "--seed", str(s), "--unicode")
    assert code == 0 and " J♠ " in pretty and without_time(pretty).replace("♠", "S") \
        .replace("♣", "C").replace("♥", "H").replace("♦", "D") == without_time(out)


def test_solve_blocked_and_json(capsys):
    s = seed_with(ss.Status.BLOCKED)
    code, out, _ = run(capsys, "solve", "elevens", "--seed", str(s))
    assert code == 1 and "BLOCKED: stuck after" in out
    code, out, _ = run(capsys, "solve", "eleven", "--seed", str(s), "--json")
    data = json.loads(out)
    assert code == 1 and data["status"] == "blocked"
    assert data["proof"]["kind"] == "forced-line"


def test_solve_from_text_and_file(capsys, tmp_path):
    d = ss.random_deal(3)
    code, out, _ = run(capsys, "solve", "elevens", str(d))
    assert code == 0
    code2, out2, _ = run(capsys, "solve", "elevens", *str(d).split())
    assert code2 == 0 and without_time(out2) == without_time(out)
    f = tmp_path / "deal.txt"
    f.write_text(str(d).replace(" ", "\n"))
    assert run(capsys, "solve", "elevens", "--file", str(f))[0] == 0


def test_unknown_with_limit(capsys):
    code, out, _ = run(capsys, "solve", "elevens", "--seed", "935", "--certificate",
                       "--max-states", "5")
    assert code == 2 and "UNKNOWN" in out


def test_verify(capsys):
    d = ss.random_deal(3)
    r = ss.solve("elevens", d)
    moves = [str(m) for m in r.moves]
    assert run(capsys, "verify", "elevens", str(d), *moves)[0] == 0
    code, out, _ = run(capsys, "verify", "elevens", "--seed", "3", *moves[:-1])
    assert code == 1 and out.startswith("INVALID")
    code, out, _ = run(capsys, "verify", "elevens", "--seed", "3", "2C+3C", "--json")
    assert code == 1 and json.loads(out)["ok"] is False


def blocked_position(game):
    """A seed, and a line of random legal moves from its deal (text, maybe empty), after which
    the game is blocked, shown within 20,000 positions (both backends decide it quickly)."""
    g, fixed = ss.get_game(game)
    rules = g.rules(g.variant(**fixed))
    for seed in range(3, 60):
        rng = random.Random(seed)
        pos, line = rules.start(ss.random_deal(seed)), []
        for _ in range(10):
            after = " ".join(map(str, line))
            if ss.solve(game, ss.random_deal(seed), after=after, max_states=20000).blocked:
                return seed, after
            more, pos = random_moves(rules, pos, rng, 6)
            line += more
    raise AssertionError(f"no blocked position of {game}")


@pytest.mark.parametrize("game", ["baroness-pysolfc", "fifteens-pysolfc"])
def test_a_certificate_in_json_is_verified_from_the_file(capsys, tmp_path, game):
    # Issue 44, item 2: `solve baroness-pysolfc --seed 3 --certificate --json` once died with a
    # TypeError (its keys hold None); the JSON of a fifteens-pysolfc certificate (nested keys)
    # was "not a position key" to verify.
    seed, after = blocked_position(game)
    code, out, err = run(capsys, "solve", game, "--seed", str(seed), "--after", after,
                         "--certificate", "--json", "--max-states", "20000")
    assert code == 1 and err == ""
    data = json.loads(out)
    assert data["proof"]["kind"] == "exhaustive" and data["proof"]["certificate"]
    path = tmp_path / "answer.json"
    path.write_text(out)
    code, out, _ = run(capsys, "verify", game, "--seed", str(seed), "--result", str(path))
    if after:  # the position the answer is for is named, not taken from the answer
        assert code == 1 and "name those moves with after=" in out
    code, out, _ = run(capsys, "verify", game, "--seed", str(seed), "--result", str(path),
                       "--after", after)
    assert code == 0 and out.startswith("VALID: ") and "the certificate is closed" in out
    data["proof"]["certificate"] = data["proof"]["certificate"][:-1]
    path.write_text(json.dumps(data))
    code, out, _ = run(capsys, "verify", game, "--seed", str(seed), "--result", str(path),
                       "--after", after, "--json")
    assert code == 1 and json.loads(out)["ok"] is False
    assert run(capsys, "verify", game, "--seed", str(seed + 1), "--result", str(path))[0] == 1


@pytest.mark.parametrize("text,needle", [
    ("not json", "is not the JSON of an answer"),
    ("[1, 2]", "the result is a JSON object"),
    ('{"game": "baroness"}', "the result has no status"),
    ('{"game": "baroness", "status": "lost"}', "status is one of won, blocked, unknown"),
    ('{"game": "baroness", "status": "won", "moves": "KS"}', "moves is a list of moves"),
    ('{"game": "baroness", "status": "won", "moves": ["ZZ"]}', "the result's moves: move 1"),
    ('{"game": "baroness", "status": "won", "colour": 1}', "unknown fields: colour"),
    ('{"game": "baroness", "status": "blocked", "proof": {"kind": "exhaustive", "sentence": "",'
     ' "certificate": [[1, {}]]}}', "item 0 of the certificate is not a position key"),
])
def test_a_result_that_is_not_one_is_named(capsys, tmp_path, text, needle):
    path = tmp_path / "answer.json"
    path.write_text(text)
    code, out, err = run(capsys, "verify", "baroness", "--seed", "3", "--result", str(path))
    assert code == 3 and out == "" and needle in err and err.count("\n") == 1


@pytest.mark.parametrize("data,needle", [
    (b'{"game": "' + bytes(range(128, 256)) + b'"}', "is not UTF-8 text"),
    (b"[" * 100_000, "nested too deep"),
    (b'{"game": ' + b"[" * 100_000, "nested too deep"),
    (b"\0" * (3 << 20), "not JSON text"),
])
def test_a_result_file_of_no_json_is_one_line(capsys, tmp_path, data, needle):
    """Bytes that are no answer's JSON (binary, nested past Python's recursion, a stream of
    NULs as from /dev/zero, refused at its first piece) are named in one line, exit 3."""
    path = tmp_path / "answer.json"
    path.write_bytes(data)
    code, out, err = run(capsys, "verify", "baroness", "--seed", "3", "--result", str(path))
    assert code == 3 and out == "" and needle in err and err.count("\n") == 1


def test_a_full_standard_output_is_one_line():
    """An answer that cannot be written (standard output on a full disk) is said in one line,
    exit 3, no traceback."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    # The child imports the same package as the tests, not a source tree in the working
    # directory; under SOLITAIRE_SOLVER_PURE its fallback's warning comes first.
    env = {**os.environ, "PYTHONPATH": str(Path(ss.__file__).parent.parent)}
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "solitaire_solver.cli", "solve", "elevens",
                            "--seed", "3"], stdout=full, stderr=subprocess.PIPE, text=True,
                           timeout=120, env=env, cwd=os.path.expanduser("~"))
    errors = [ln for ln in p.stderr.splitlines() if ln.startswith("solitaire-solver: error")]
    assert p.returncode == 3 and len(errors) == 1, p.stderr
    assert "No space left" in errors[0] and "Traceback" not in p.stderr
    assert p.stderr == errors[0] + "\n" or backend.pure_requested(), p.stderr


@pytest.mark.parametrize("argv,needle", [
    (["solve", "elevens", "AS 2H"], "52 cards"),
    (["solve", "nosuchgame", "--seed", "1"], "unknown game"),
    (["solve", "elevens", "--seed", "1", "-o", "passes=2"], "no variant"),
    (["solve", "elevens", "--seed", "1", "-o", "junk"], "name=value"),
    (["solve", "elevens"], "give the deal"),
    (["solve", "elevens", "--file", "/nonexistent/deal.txt"], "cannot read"),
    (["solve", "elevens", "--seed", "1", "--max-states", "0"], "max_states"),
    (["verify", "elevens", "--seed", "1", "5H+ZZ"], "move 1"),
    (["solve", "elevens", "--seed", "x"], "cannot read a whole number from 'x'"),
    (["solve", "elevens", "--seed", "9" * 5000], "(5000 characters)"),
    (["solve", "elevens", "--seed", "1", "--max-seconds", "soon"], "cannot read a number"),
    # random.Random(-1) is random.Random(1): -1 once dealt seed 1's pack under another name.
    (["solve", "elevens", "--seed", "-1"], "a seed is 0 or more, not -1"),
    (["survey", "elevens", "--start", "-2", "--count", "4"], "a seed is 0 or more, not -2"),
    # --start names a seed: with --pysolfc it was once ignored, surveying the range given.
    (["survey", "pyramid", "--pysolfc", "1-3", "--start", "5"], "--start names the first seed"),
    (["frobnicate"], "invalid choice"),
    # An empty path was once taken for no option: show printed the text, survey kept no file.
    (["show", "elevens", "--seed", "1", "--svg", ""], "--svg takes a file path, not ''"),
    (["show", "elevens", "--seed", "1", "--html", ""], "--html takes a file path, not ''"),
    (["show", "elevens", "--seed", "1", "--svg", " ", "--html", "p.html"], "--svg takes"),
    (["survey", "elevens", "--count", "2", "--out", ""], "--out takes a file path, not ''"),
    (["verify", "elevens", "--seed", "1", "--result", ""], "--result takes a file path"),
])
def test_bad_input_is_one_line_and_exit_3(capsys, argv, needle):
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own errors leave through SystemExit
        code = e.code
    out, err = capsys.readouterr()
    assert code == 3
    assert needle in err and len(err.strip().splitlines()) == 1 and out == ""


def test_survey_refuses_an_empty_out():
    with pytest.raises(ss.SolitaireError, match="out is the path of a survey file, not ''"):
        ss.survey("elevens", seeds=range(2), out="")


def test_analyze_json_of_a_deal_never_winnable_gives_the_proof(capsys):
    # Issue 44, item 8: the text printed the proof of the deal's block, the JSON dropped it.
    seed = seed_with(ss.Status.BLOCKED)
    r = ss.solve("elevens", ss.random_deal(seed))
    first = str(r.proof.moves[0])
    code, out, _ = run(capsys, "analyze", "elevens", "--seed", str(seed), first)
    assert code == 1 and r.proof.sentence in out
    code, out, _ = run(capsys, "analyze", "elevens", "--seed", str(seed), first, "--json")
    data = json.loads(out)
    assert code == 1 and data["winnable"] is False and data["blunder"] is None
    assert data["proof"] == json.loads(cli._json(r.proof.to_dict()))  # letters, as --json writes


def test_one_is_singular(capsys):
    # Issue 44, item 8: "won in 1 moves", "1 positions".
    deal = ss.random_deal(3)
    line = ss.solve("elevens", deal).moves
    before_last = " ".join(map(str, line[:-1]))
    code, out, _ = run(capsys, "solve", "elevens", "--seed", "3", "--after", before_last)
    assert code == 0 and "WON in 1 move:" in out
    assert str(ss.solve("elevens", deal, after=line[:-1])).startswith("won in 1 move: ")
    assert "(1 move wins from here)" in str(ss.hint("elevens", deal, after=line[:-1]))
    assert str(ss.analyze("elevens", deal, line[:1])) == "the line of 1 move stays winnable"
    assert "after 1 move</title>" in ss.render_svg("elevens", deal, after=line[:1])
    page = ss.render_html("elevens", deal, ss.solve("elevens", deal, after=line[:-1]))
    assert "From the position after 1 move:" not in page and "Won in 1 move." in page
    page = ss.render_html("elevens", deal, ss.solve("elevens", deal, after=line[:1]))
    assert "From the position after 1 move:" in page
    v = ss.verify("fourteen", ss.random_deal(1), ss.BlockProof(kind="exhaustive", sentence=""),
                  max_states=1)
    assert v.reason == "not checked: the re-search reached 1 state"
    # A stuck position: the one position reachable, its certificate of one key.
    g, _ = ss.get_game("fourteen")
    rules = g.rules({})
    for seed in range(50):
        d = ss.random_deal(seed)
        pos, stuck = rules.start(d), []
        while rules.moves(pos):
            stuck.append(rules.moves(pos)[-1])
            pos = rules.apply(pos, stuck[-1])
        if not rules.won(pos):
            break
    r = ss.solve("fourteen", d, after=stuck, certificate=True)
    assert r.proof.sentence.startswith("no line of play wins: the only reachable position was "
                                       "explored")
    assert ss.verify("fourteen", d, r, after=stuck).reason.endswith(
        ": the certificate is closed: 1 position, none won")
    r = ss.solve("fourteen", d, after=stuck)
    assert "explored 1 position," in r.proof.sentence
    v = ss.verify("fourteen", d, ss.BlockProof(kind="exhaustive", sentence=""), after=stuck)
    assert v.reason.endswith(": a re-search explored 1 position, none won")
    texts = [ss.position("elevens", deal, after=line[:k]).text for k in range(len(line))]
    assert any("stock: 1 card, next" in t for t in texts)
    assert not any("stock: 1 cards" in t for t in texts)


def test_games_lists_every_game(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    for g in ss.GAMES:
        assert g.name in out


def test_console_entry_point_exit_code():
    # The child imports the same package as the tests, not a source tree in the working directory.
    env = {**os.environ, "PYTHONPATH": str(Path(ss.__file__).parent.parent)}
    run_cli = partial(subprocess.run, capture_output=True, text=True, env=env,
                      cwd=os.path.expanduser("~"))
    p = run_cli([sys.executable, "-m", "solitaire_solver", "solve", "elevens", "AS"])
    assert p.returncode == 3
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    p = run_cli([sys.executable, "-m", "solitaire_solver", "solve", "elevens", "--seed"])
    assert p.returncode == 3 and "Traceback" not in p.stderr
    p = run_cli([sys.executable, "-m", "solitaire_solver", "solve", "elevens", "--seed", "3"])
    # Nothing on stderr but, under SOLITAIRE_SOLVER_PURE, the one warning that says so.
    quiet = "" if not backend.pure_requested() else p.stderr
    assert p.returncode == 0 and "WON" in p.stdout and p.stderr == quiet
    assert (not quiet or "SOLITAIRE_SOLVER_PURE is set" in quiet) and "Traceback" not in quiet


def test_output_cut_short_by_the_reader_gives_no_traceback():
    # `solitaire-solver solve ... | head -0`: the reader is gone before the answer is written.
    env = {**os.environ, "PYTHONPATH": str(Path(ss.__file__).parent.parent)}
    p = subprocess.Popen([sys.executable, "-m", "solitaire_solver", "solve", "elevens", "--seed",
                          "3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                         cwd=os.path.expanduser("~"))
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 141
    assert "Traceback" not in err and "Broken pipe" not in err


def test_cards_print_as_letters_where_standard_output_has_no_suit_symbols():
    # Before: a slot game's drawing (solve's, and its proof's) printed suit symbols, and on an
    # ascii or cp1252 standard output solve died with UnicodeEncodeError; --json carried them.
    env = {**os.environ, "PYTHONPATH": str(Path(ss.__file__).parent.parent)}
    won, blocked = seed_with(ss.Status.WON), seed_with(ss.Status.BLOCKED)
    r = ss.solve("elevens", ss.random_deal(blocked))
    line = [str(m) for m in r.proof.moves]

    def cli(encoding, *argv):
        p = subprocess.run([sys.executable, "-m", "solitaire_solver", *argv], capture_output=True,
                           text=True, env={**env, "PYTHONIOENCODING": encoding},
                           cwd=os.path.expanduser("~"))
        assert "Traceback" not in p.stderr, (argv, p.stderr)
        assert p.stdout.isascii() or encoding == "utf-8", argv
        return p.returncode, p.stdout

    for encoding in ("ascii", "cp1252"):
        code, out = cli(encoding, "solve", "elevens", "--seed", str(won))
        assert code == 0 and "WON in" in out and re.search(r"\b[2-9TJQKA][CDHS]  ", out)
        code, out = cli(encoding, "solve", "elevens", "--seed", str(blocked))
        assert code == 1 and out.count(r.proof.position.splitlines()[0].translate(LETTERS)) == 1
        code, out = cli(encoding, "solve", "elevens", "--seed", str(blocked), "--json")
        data = json.loads(out)
        assert code == 1 and "\\u26" not in out
        assert data["proof"]["position"] == r.proof.position.translate(LETTERS)
    # Every other command that prints cards, and PySolFC's layout.
    for argv, expected in ((["show", "elevens", "--seed", str(blocked)], 0),
                           (["show", "elevens", "--seed", str(blocked), "--json"], 0),
                           (["hint", "tens", "--seed", "1"], 1),
                           (["verify", "elevens", "--seed", str(blocked), *line], 1),
                           (["analyze", "elevens", "--seed", str(blocked), *line], 1),
                           (["solve", "fifteens", "--pysolfc", "5"], None)):
        code, out = cli("ascii", *argv)
        assert code == expected if expected is not None else code in (0, 1), argv
    # Symbols where asked for; where standard output cannot print them, one line and exit 3.
    code, out = cli("utf-8", "solve", "elevens", "--seed", str(won), "--unicode")
    assert code == 0 and not out.isascii()
    p = subprocess.run([sys.executable, "-m", "solitaire_solver", "solve", "elevens", "--seed",
                        str(won), "--unicode"], capture_output=True, text=True,
                       env={**env, "PYTHONIOENCODING": "ascii"}, cwd=os.path.expanduser("~"))
    assert p.returncode == 3 and "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines()[-1].startswith("solitaire-solver: error: standard output")


LETTERS = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S"})


class _Terminal:
    """A stderr that says it is a terminal and keeps what is written."""

    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("tty", [True, False])
def test_a_long_search_says_it_is_still_searching_on_a_terminal(capsys, monkeypatch, tty):
    """On a terminal a search past cli.STILL_AFTER seconds redraws one line on stderr each second
    and wipes it before the answer; elsewhere (a pipe, a file) nothing is added."""
    monkeypatch.setattr(cli, "STILL_AFTER", 0.05)
    err = _Terminal()
    if not tty:
        err.isatty = lambda: False  # type: ignore[method-assign]
    monkeypatch.setattr(sys, "stderr", err)
    handler = signal.getsignal(signal.SIGALRM)
    assert main(["solve", "montana", "--seed", "0", "--max-seconds", "1.2"]) == 2
    out = capsys.readouterr().out
    assert "UNKNOWN" in out and "still searching" not in out
    if tty:
        lines = err.text.split("\r")
        assert lines[1].startswith("solve: still searching, 0 s") and lines[-1] == "\033[K"
        assert any(x.startswith("solve: still searching, 1 s") for x in lines)
    else:
        assert err.text == ""
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) == handler


def test_large_counts_are_grouped(capsys):
    # A proof's or a report's count of positions reads as 220,223, not 220223.
    r = ss.solve("monte-carlo", ss.pysolfc_deal("monte-carlo", 10))
    assert r.proof.sentence == "no line of play wins: all 15,208 reachable positions were explored"
    code, out, _ = run(capsys, "solve", "monte-carlo", "--pysolfc", "10")
    assert code == 1 and "(15,208 states, " in out  # 1: blocked


def test_a_pysolfc_number_of_montana_with_fewer_ranks_says_which_cards_it_plays(capsys):
    # PySolFC deals all 13 ranks; ranks=6 plays the cards Ace to 6 of that layout, in its order:
    # the line under the layout says so (the layout alone misled a reader).
    code, out, _ = run(capsys, "solve", "montana", "--pysolfc", "5", "-o", "ranks=6",
                       "--max-states", "200000")
    assert code in (0, 1, 2)
    layout = out.split("\n\n")[0]
    assert layout.startswith("PySolFC Montana (game 53)")
    assert layout.endswith("ranks=6: the game of the cards A to 6 of each suit, in the order "
                           "PySolFC dealt them (docs/montana.md)")
    code, out, _ = run(capsys, "solve", "montana", "--pysolfc", "5", "--max-states", "1000")
    assert "ranks=" not in out.split("\n\n")[0]
