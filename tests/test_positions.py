"""Games in progress: deciding a position mid-game, hints, where a line went wrong, drawing a
position (docs/notation.md, "Positions")."""

from __future__ import annotations

import json
import random

import pytest
from lines import random_moves, removing_first

import solitaire_solver as ss
from solitaire_solver.cli import main as cli_main
from solitaire_solver.engine.search import reference_search
from solitaire_solver.games import GAMES
from solitaire_solver.moves import Move

#: Variants whose reference searches stay short enough for many positions. Pyramid's, PySolFC's
#: Fifteens' and Accordion's searches are too long for the pure-Python fallback (a deal our
#: Fifteens loses can take it minutes, an Accordion row of twenty piles lost as long), so their
#: cases need the core.
NEEDS_CORE = ("pyramid", "fifteens-pysolfc", "accordion")
#: Montana's full deal seldom ends within a short reference search: its small ranks do.
SMALL = {"montana": {"ranks": 5, "redeals": 1}}
#: Games whose positions early in a deal take minutes to decide (a Calculation deal keeps 48
#: stock cards to turn): tests/test_calculation.py decides its positions late in the game.
LATE_ONLY = ("calculation",)
CASES = [(g.name, SMALL.get(g.name, {})) for g in GAMES if g.name not in NEEDS_CORE + LATE_ONLY] + [
    pytest.param("pyramid", {"passes": 1, "goal": "pyramid"}, marks=pytest.mark.core,
                 id="pyramid-1-pass"),
    pytest.param("fifteens-pysolfc", {}, marks=pytest.mark.core, id="fifteens-pysolfc"),
    pytest.param("accordion", {}, marks=pytest.mark.core, id="accordion"),
    ("nestor", {"reserve": "open"})]
#: Plies of random play where the default (1..15) leaves only positions that win: an Accordion
#: deal is lost, if ever, near its end (docs/accordion.md).
PLIES = {"accordion": (1, 45)}


def random_play(game, deal, rng, plies, **variant):
    """A random line (PySolFC's Fifteens: removing_first), its rules, the position it reaches."""
    g, _ = ss.get_game(game)
    rules = g.rules(g.variant(**variant))
    prefer = removing_first(rules) if game == "fifteens-pysolfc" else None
    line, pos = random_moves(rules, rules.start(deal), rng, plies, prefer)
    return line, rules, pos


@pytest.mark.parametrize("game,variant", CASES)
def test_solve_after_agrees_with_the_reference_from_the_same_position(game, variant):
    rng = random.Random(7)
    seen = {ss.Status.WON: 0, ss.Status.BLOCKED: 0}
    for seed in range(15 if game == "pyramid" else 40):
        deal = ss.random_deal(seed)
        line, rules, pos = random_play(game, deal, rng, rng.randrange(*PLIES.get(game, (1, 16))),
                                       **variant)
        ref = reference_search(rules, pos, max_states=3000)
        if ref.status not in ("won", "exhausted"):
            continue
        r = ss.solve(game, deal, after=line, **variant)
        assert r.after == tuple(line)
        assert r.status is (ss.Status.WON if ref.status == "won" else ss.Status.BLOCKED), seed
        seen[r.status] += 1
        if r.won:  # the answer continues from the position
            p = pos
            for m in r.moves:
                p = rules.play(p, m)
            assert rules.won(p), seed
        assert ss.verify(game, deal, r, after=line, **variant).ok, seed
    assert seen[ss.Status.WON] and seen[ss.Status.BLOCKED], seen


def test_an_illegal_move_is_refused_with_its_number():
    deal = ss.random_deal(1)
    r = ss.solve("pyramid", deal)
    line = [str(m) for m in r.moves[:3]] + ["KS"]
    with pytest.raises(ss.MoveError, match=r"^move 4 \(KS\)"):
        ss.solve("pyramid", deal, after=line)
    with pytest.raises(ss.MoveError, match="move 2"):
        ss.solve("pyramid", deal, after="KD XX")


def test_a_won_position_needs_no_move():
    deal = ss.random_deal(1)
    r = ss.solve("elevens", deal)
    assert r.won
    done = ss.solve("elevens", deal, after=r.moves)
    assert done.won and done.moves == ()
    h = ss.hint("elevens", deal, after=r.moves)
    assert h.move is None and "already won" in str(h)
    with pytest.raises(ss.MoveError, match="after the deal is already won"):
        ss.solve("elevens", deal, after=list(r.moves) + [r.moves[0]])


@pytest.mark.core  # the score and shortest objectives are the core's
def test_shortest_counts_from_the_position():
    deal = ss.random_deal(2)
    full = ss.solve("pyramid", deal, objective="shortest")
    assert full.won
    k = 5
    rest = ss.solve("pyramid", deal, objective="shortest", after=full.moves[:k])
    assert rest.won and len(rest.moves) == len(full.moves) - k


@pytest.mark.parametrize("game,variant", CASES)
def test_hint_is_the_first_move_of_a_winning_line(game, variant):
    rng = random.Random(3)
    for seed in range(15):
        deal = ss.random_deal(seed)
        line, rules, pos = random_play(game, deal, rng, 4, **variant)
        h = ss.hint(game, deal, after=line, **variant)
        if h.move is None:
            assert not h.result.won or not h.result.moves
            continue
        after = rules.play(pos, h.move)
        # Playing the hint keeps the game winnable.
        assert ss.solve(game, deal, after=line + [h.move], **variant).won, seed
        assert rules.key(after) is not None


def test_hint_and_analyze_refuse_the_score_objective():
    deal = ss.random_deal(1)
    for ask in (lambda: ss.hint("pyramid", deal, passes=1, objective="score"),
                lambda: ss.analyze("pyramid", deal, "draw", passes=1, objective="score")):
        with pytest.raises(ss.SolitaireError, match="'score'"):
            ask()


@pytest.mark.core  # the score and shortest objectives: the compiled core only
def test_the_score_objective_wins_where_no_line_wins():
    # Why hint and analyze refuse it: Pyramid seed 1 with one pass cannot be won, yet its
    # best-score line is a WON answer (with cards left), which a hint would call winnable.
    deal = ss.random_deal(1)
    assert not ss.solve("pyramid", deal, passes=1).won
    assert ss.solve("pyramid", deal, passes=1, objective="score").won
    assert ss.hint("pyramid", deal, passes=1, objective="shortest").move is None


def decided_by_solving(game, deal, line, claim, **variant):
    """(winnable, blunder) as solve() finds them, each of analyze's claims checked by deciding
    the prefixes it names. Winnable prefixes come first: a position that can be won after k
    moves can be won after fewer (play on along the line to it), so the first lost prefix is
    the one after a winnable one, and deciding those two settles where play went wrong."""
    def won(k):
        return ss.solve(game, deal, after=line[:k], **variant).won

    winnable, blunder = claim
    if not won(0):
        return False, None
    if won(len(line)):
        return True, None
    assert blunder is not None, "analyze says the line keeps a win: it does not"
    return True, blunder if won(blunder - 1) and not won(blunder) else "no boundary there"


#: Deals analysed per game: fewer where a deal's block takes the pure-Python search seconds
#: (Baroness seed 9), and every game still shows lines with and without a blunder.
ANALYZED = {"pyramid": 5, "baroness": 9}


@pytest.mark.parametrize("game,variant", CASES)
def test_analyze_agrees_with_solving_the_prefixes_it_names(game, variant):
    rng = random.Random(1)
    found = 0
    for seed in range(ANALYZED.get(game, 12)):
        deal = ss.random_deal(seed)
        line, rules, _ = random_play(game, deal, rng, 30, **variant)
        a = ss.analyze(game, deal, line, **variant)
        winnable, blunder = decided_by_solving(game, deal, line, (a.winnable, a.blunder), **variant)
        assert (a.winnable, a.blunder) == (winnable, blunder), seed
        assert a.decided <= 2 + max(1, len(line)).bit_length()
        if blunder is not None:
            found += 1
            assert a.before.won and a.before.after == tuple(line[: blunder - 1])
            assert a.after.blocked and a.after.after == tuple(line[:blunder])
            if found == 1:  # without a certificate, verify re-searches in pure Python: once
                assert ss.verify(game, deal, a.after, after=line[:blunder], **variant).ok
            assert f"move {blunder} ({line[blunder - 1]})" in str(a)
    g = ss.get_game(game)[0]
    # Per variant: Tens under PySolFC's rules (reserves=pysolfc) is order-dependent, the rest not.
    table = getattr(g, "table_of", None)
    if table(g.variant(**variant)).confluent if table else g.order_independent:
        assert not found  # there the order of play cannot lose a winnable deal (docs/proofs.md)
    else:
        assert found, "no line with a blunder among the samples"


def test_position_as_text_unicode_and_json():
    deal = ss.random_deal(4)
    p = ss.position("pyramid", deal, after=["draw"])
    data = json.loads(json.dumps(p.to_dict()))
    assert data["after"] == ["draw"] and data["won"] is False
    assert data["layout"]["waste"] == [ss.card_name(deal.cards[28])]
    assert data["legal"] == [str(m) for m in p.legal]
    assert len(data["layout"]["pyramid"]) == 28
    assert "♠" in p.unicode or "♣" in p.unicode or "♥" in p.unicode or "♦" in p.unicode
    assert all(ch not in p.ascii for ch in "♠♣♥♦")
    # Every card of the deal is named once in the layout data, or is gone.
    names = json.dumps(data["layout"])
    for c in deal.cards:
        assert ss.card_name(c) in names


def test_cli_hint_analyze_show(capsys):
    deal = ss.random_deal(3)
    r = ss.solve("pyramid", deal)
    good = " ".join(str(m) for m in r.moves[:4])
    assert cli_main(["hint", "pyramid", "--seed", "3", "--after", good]) == 0
    assert capsys.readouterr().out.startswith(f"play {r.moves[4]}")
    assert cli_main(["show", "pyramid", "--seed", "3", "--after", good, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["after"] == good.split()
    # A line that stays winnable exits 0; one that throws the game away exits 1.
    assert cli_main(["analyze", "pyramid", "--seed", "3", *good.split()]) == 0
    assert "stays winnable" in capsys.readouterr().out
    rng = random.Random(0)
    for seed in range(30):
        d = ss.random_deal(seed)
        line, _, _ = random_play("fourteen", d, rng, 30)
        a = ss.analyze("fourteen", d, line)
        if a.blunder is not None:
            code = cli_main(["analyze", "fourteen", "--seed", str(seed), *map(str, line)])
            out = capsys.readouterr().out
            assert code == 1 and f"move {a.blunder}" in out
            break
    else:
        pytest.fail("no Fourteen line with a blunder")
    assert cli_main(["hint", "pyramid", "--seed", "3", "--after", "KS"]) == 3
    assert "move 1 (KS)" in capsys.readouterr().err


def test_moves_in_result_json_name_the_start():
    deal = ss.random_deal(1)
    r = ss.solve("fourteen", deal, after=[Move.from_text("5C+9C")])
    assert r.to_dict()["after"] == ["5C+9C"]
