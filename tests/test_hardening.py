"""Issue "Hardening", items 1, 4 and 5: each test failed on the code before its fix."""

import io
import sys
import types
import warnings

import pytest

import solitaire_solver as ss
from solitaire_solver import cli, proofs
from solitaire_solver.engine import backend
from solitaire_solver.games import get_game
from solitaire_solver.games.fourteen.rules import PILES, deal_piles, layout_text
from solitaire_solver.games.pyramid.rules import PyramidRules
from solitaire_solver.result import BlockProof, Result, Status

PYRAMID = get_game("pyramid")[0]


def _score_of(deal, variant, moves):
    return PYRAMID.score(deal, PYRAMID.variant(**variant), list(moves))


# -- 1. verify cannot be fooled: score claims -------------------------------------------------------

@pytest.mark.core  # the score and shortest objectives are the core's
def test_a_score_claim_that_a_better_line_beats_is_rejected():
    # Before: any legal prefix passed with the score it reaches, even the empty line.
    deal = ss.random_deal(5)
    var = PYRAMID.variant(passes=1)
    best = ss.solve("pyramid", deal, objective="score", passes=1)
    assert best.score == 50
    for prefix in ((), best.moves[:6]):
        claim = _score_of(deal, var, prefix)
        assert claim < 50
        forged = Result("pyramid", Status.WON, moves=tuple(prefix), variant=var,
                        objective="score", score=claim)
        v = ss.verify("pyramid", deal, forged, passes=1)
        assert v.ok is False, v
        assert "scores more" in v.reason


@pytest.mark.core  # the score and shortest objectives are the core's
def test_the_best_score_checks_and_the_check_is_bounded():
    deal = ss.random_deal(775)   # 3,539 positions under one pass: the check searches them all
    r = ss.solve("pyramid", deal, objective="score", passes=1)
    assert r.status is Status.WON and r.score == -40
    v = ss.verify("pyramid", deal, r, passes=1)
    assert v.ok is True and "best score" in v.reason, v
    short = ss.verify("pyramid", deal, r, passes=1, max_states=20)
    assert short.ok is None and not short and "not checked" in short.reason
    worse = Result("pyramid", Status.WON, moves=r.moves[:-1], variant=r.variant,
                   objective="score", score=_score_of(deal, {"passes": 1}, r.moves[:-1]))
    assert worse.score < -40
    assert ss.verify("pyramid", deal, worse, passes=1).ok is False


@pytest.mark.parametrize("passes,goal", [(1, "all"), (2, "pyramid"), (3, "all"), (3, "pyramid")])
def test_the_reference_best_score_agrees_with_the_core(passes, goal):
    # From positions part-way through a deal, where the whole search is small; the pruning by
    # score_bound is exercised whenever a line clears the pyramid.
    from test_pyramid import core_from, random_midgame

    rules = PyramidRules(passes, goal, True)
    compared = pruned = 0
    for seed in range(40):
        deal, pos = random_midgame(seed + 300, rules, 16)
        out = proofs.best_score(rules, pos, max_states=4000)
        if out.status != "exhausted":
            continue
        status, _, _, _, best = core_from(deal, rules, pos, objective=2)
        assert status == 1 and out.score == best, seed
        end = pos
        for m in out.moves:
            end = rules.play(end, m)
        assert rules.score(end) == best
        compared += 1
        pruned += best >= 20
    # Random play wastes the one pass of passes=1: no line from there clears the pyramid.
    assert compared >= 8 and (pruned >= 1 or passes == 1), (compared, pruned)


@pytest.mark.core  # the score and shortest objectives are the core's
def test_a_score_result_must_say_what_a_score_answer_says():
    deal = ss.random_deal(5)
    var = PYRAMID.variant(passes=1)
    r = ss.solve("pyramid", deal, objective="score", passes=1)
    no_score = Result("pyramid", Status.WON, moves=r.moves, variant=var, objective="score")
    assert ss.verify("pyramid", deal, no_score, passes=1).ok is False
    blocked = Result("pyramid", Status.BLOCKED, variant=var, objective="score", score=r.score,
                     proof=BlockProof(kind="exhaustive", sentence="no line wins"))
    v = ss.verify("pyramid", deal, blocked, passes=1)
    assert v.ok is False and "score" in v.reason
    odd = Result("pyramid", Status.WON, moves=r.moves, variant=var, objective="longest")
    assert ss.verify("pyramid", deal, odd, passes=1).ok is False


def test_a_won_decide_result_must_win():
    deal = ss.random_deal(5)
    r = ss.solve("pyramid", deal, passes=1)
    assert r.won
    prefix = Result("pyramid", Status.WON, moves=r.moves[:-1], variant=r.variant)
    v = ss.verify("pyramid", deal, prefix, passes=1)
    assert v.ok is False and "does not win" in v.reason


# -- 1. verify checks under the caller's game and variant ------------------------------------------

def test_a_result_of_another_variant_is_a_mismatch():
    # Before: verify adopted result.variant, so a line clearing only the pyramid passed as a win
    # of default Pyramid.
    deal = ss.random_deal(1)
    r = ss.solve("pyramid", deal, goal="pyramid")
    assert r.won and not ss.verify("pyramid", deal, list(r.moves)).ok
    v = ss.verify("pyramid", deal, r)
    assert v.ok is False
    assert "'goal': 'pyramid'" in v.reason and "'goal': 'all'" in v.reason
    assert ss.verify("pyramid", deal, r, goal="pyramid").ok is True
    assert ss.verify("pyramid-msc", deal, r).ok is True


def test_a_result_of_another_game_is_a_mismatch():
    # Before: VariantError (elevens has no variant 'reserve'), from the adopted variant.
    deal = ss.random_deal(1)
    r = ss.solve("nestor", deal)
    v = ss.verify("elevens", deal, r)
    assert v.ok is False and v.reason == "the result is for nestor, not elevens"


def test_solve_check_passes_its_own_variant():
    deal = ss.random_deal(1)
    assert ss.solve("pyramid", deal, goal="pyramid", check=True).won


def test_an_unknown_result_is_not_checked():
    deal = ss.random_deal(1)
    v = ss.verify("elevens", deal, Result("elevens", Status.UNKNOWN))
    assert v.ok is None and not v


# -- 4. errors -------------------------------------------------------------------------------------

@pytest.mark.parametrize("lines", [11, 13])
def test_a_fourteen_layout_of_the_wrong_number_of_lines_is_called_a_layout(lines):
    piles = list(deal_piles(ss.random_deal(4).cards))
    text = layout_text(piles[:11] if lines == 11 else piles + [piles[0][:1]])
    assert len(text.splitlines()) == lines
    with pytest.raises(ss.LayoutError, match=f"a Fourteen layout has {PILES} piles.*this one "
                       f"{lines}"):
        ss.solve("fourteen", text)


def test_a_list_of_pile_texts_of_the_wrong_count_is_called_a_layout():
    rows = layout_text(deal_piles(ss.random_deal(4).cards)).splitlines()
    with pytest.raises(ss.LayoutError, match="this one 11"):
        ss.solve("fourteen", rows[:11])


def test_a_pack_on_several_lines_is_still_a_pack():
    deal = ss.random_deal(4)
    names = str(deal).split()
    four_lines = "\n".join(" ".join(names[i:i + 13]) for i in range(0, 52, 13))
    one_a_line = "\n".join(names)
    for text in (four_lines, one_a_line):
        assert get_game("fourteen")[0].read_deal(text, {}) == deal
    with pytest.raises(ss.DealError, match="51"):
        ss.solve("fourteen", "\n".join(names[:51]))


def test_bytes_of_card_text_read_as_text():
    # Before: "card 1: index 65 is not a card index (0..51)".
    deal = ss.random_deal(3)
    assert ss.Deal(str(deal).encode()) == deal
    assert ss.solve("elevens", str(deal).encode("ascii")).won
    piles = layout_text(deal_piles(deal.cards)).encode()
    assert get_game("fourteen")[0].read_deal(piles, {}) == deal
    with pytest.raises(ss.DealError, match="bytes"):
        ss.Deal(bytes(range(52)))
    with pytest.raises(ss.DealError, match="UTF-8"):
        ss.Deal(b"\xff" * 52)


def test_a_set_of_cards_is_no_deal():
    # A set's order follows string hashes, so the same set was a different deal in each run.
    cards = str(ss.random_deal(3)).split()
    for unordered in (set(cards), frozenset(cards)):
        with pytest.raises(ss.DealError, match="dealing order"):
            ss.solve("elevens", unordered)
    assert ss.solve("elevens", cards).won


def test_a_deal_file_without_end_is_refused(monkeypatch, capsys):
    # Before: /dev/zero filled the memory (a MemoryError traceback, exit 1).
    monkeypatch.setattr("sys.stdin", io.StringIO("A" * (cli.MAX_DEAL_TEXT + 1)))
    assert cli.main(["solve", "elevens", "--file", "-"]) == 3
    assert "more than" in capsys.readouterr().err


def test_an_unquoted_deal_before_moves_is_named(capsys):
    # Before: "a deal has 52 cards, this one 1", with no word of the quoting it needs.
    words = str(ss.random_deal(3)).split()
    for command in ("verify", "analyze"):
        assert cli.main([command, "elevens", *words, "AD+TD"]) == 3
        assert "one quoted argument" in capsys.readouterr().err


def test_cli_file_dash_reads_standard_input(monkeypatch, capsys):
    deal = ss.random_deal(3)
    monkeypatch.setattr("sys.stdin", io.StringIO(str(deal) + "\n"))
    assert cli.main(["solve", "elevens", "--file", "-", "--json"]) == 0
    assert '"status": "won"' in capsys.readouterr().out
    line = " ".join(str(m) for m in ss.solve("elevens", deal).moves)
    monkeypatch.setattr("sys.stdin", io.StringIO(str(deal)))
    assert cli.main(["verify", "elevens", "--file", "-", *line.split()]) == 0
    assert capsys.readouterr().out.startswith("VALID")


def test_forcing_the_fallback_warns_once(monkeypatch, pure_backend):
    monkeypatch.setattr(backend, "_warned", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r1 = ss.solve("elevens", ss.random_deal(3))
        r2 = ss.solve("elevens", ss.random_deal(2))
    assert r1.stats["backend"] == r2.stats["backend"] == "reference"
    said = [str(w.message) for w in caught if w.category is RuntimeWarning]
    assert len(said) == 1 and "SOLITAIRE_SOLVER_PURE" in said[0]


def test_an_interrupted_survey_ends_its_progress_line_first(monkeypatch, capsys):
    # The package's name `survey` is the function; the module is in sys.modules.
    survey_module = sys.modules["solitaire_solver.survey.runner"]

    def interrupted(*args, progress=None, **kwargs):
        result = types.SimpleNamespace(interval=(0.1, 0.2), win_rate=0.15)
        progress(types.SimpleNamespace(elapsed=1.0, done=5, total=10, rate=5.0, eta=1.0,
                                       result=result))
        raise KeyboardInterrupt

    monkeypatch.setattr(survey_module, "survey", interrupted)
    assert cli.main(["survey", "elevens", "--count", "10"]) == 130
    err = capsys.readouterr().err
    assert "5/10 deals" in err
    assert err.endswith("\nsolitaire-solver: interrupted\n")


# -- 5. certificates as to_dict() writes them ------------------------------------------------------

class _NoScan(list):
    """A certificate list that fails if the check searches it item by item (quadratic)."""

    def __contains__(self, item):
        raise AssertionError("the certificate was scanned")


def _certified(game, seed, **variant):
    deal = ss.random_deal(seed)
    r = ss.solve(game, deal, certificate=True, **variant)
    assert r.blocked and r.proof.certificate is not None, (game, seed)
    return deal, r


@pytest.mark.parametrize("game,seed,variant", [("fourteen", 5, {}),
                                               ("pyramid", 1312, {"passes": 1})])
def test_a_certificate_in_its_to_dict_form_checks_in_linear_time(game, seed, variant):
    deal, r = _certified(game, seed, **variant)
    listed = r.proof.to_dict()["certificate"]
    assert isinstance(listed, list)
    for cert in (listed, _NoScan(listed)):
        proof = BlockProof(kind="exhaustive", sentence=r.proof.sentence, states=r.proof.states,
                           certificate=cert)
        v = ss.verify(game, deal, proof, **variant)
        assert v.ok is True, v


@pytest.mark.parametrize("bad", [[{"a": 1}], "12345", 7, [[1, [2, {}]]]])
def test_a_malformed_certificate_is_rejected_clearly(bad):
    deal, r = _certified("pyramid", 1312, passes=1)
    proof = BlockProof(kind="exhaustive", sentence=r.proof.sentence, certificate=bad)
    v = ss.verify("pyramid", deal, proof, passes=1)
    assert v.ok is False and "certificate" in v.reason


def test_a_certificate_missing_a_position_is_still_refused():
    deal, r = _certified("pyramid", 1312, passes=1)
    listed = r.proof.to_dict()["certificate"]
    start = PyramidRules(1).key(PyramidRules(1).start(deal))
    rest = [k for k in listed if tuple(k) != start]
    v = ss.verify("pyramid", deal, BlockProof(kind="exhaustive", sentence="",
                                               certificate=rest), passes=1)
    assert v.ok is False and "start position" in v.reason
    some = [k for k in listed if tuple(k) == start] + rest[: len(rest) // 2]
    v = ss.verify("pyramid", deal, BlockProof(kind="exhaustive", sentence="",
                                               certificate=some), passes=1)
    assert v.ok is False and "leads out of the certificate" in v.reason

