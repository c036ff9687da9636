"""Clock: the deal, the forced line, its outcome (won exactly when the fourth King is the last card
turned), the structural proof and its tampering, the layout text, PySolFC's layouts, the win
rate against the exact 1/13."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import solitaire_solver as ss
from solitaire_solver.cards import CARD_NAMES, value
from solitaire_solver.errors import LayoutError, MoveError
from solitaire_solver.games import get_game
from solitaire_solver.games.clock.rules import CENTRE, ClockRules, deal_piles, forced_line
from solitaire_solver.games.rules import replay
from solitaire_solver.moves import Move
from solitaire_solver.result import BlockProof

GAME, _ = get_game("clock")
RULES = ClockRules()
GOLDEN = Path(__file__).resolve().parent / "data" / "pysolfc-layouts" / "737-clock.jsonl"


def test_the_deal_goes_round_thirteen_piles():
    deal = ss.Deal.from_seed(1)
    pos = RULES.start(deal)
    assert pos.down == deal_piles(deal.cards)
    assert all(len(p) == 4 for p in pos.down) and pos.at == CENTRE
    assert pos.down[0][0] == deal.cards[0] and pos.down[CENTRE][-1] == deal.cards[51]
    assert [str(m) for m in RULES.moves(pos)] == [CARD_NAMES[deal.cards[51]]]


def test_the_line_is_forced_and_won_exactly_when_the_last_king_comes_last():
    for seed in range(300):
        deal = ss.Deal.from_seed(seed)
        line, end = forced_line(RULES, deal)
        assert value(line[-1].cards[0]) == 13  # only a King can end the line
        assert sum(value(m.cards[0]) == 13 for m in line) == 4
        assert RULES.won(end) == (len(line) == 52)
        r = ss.solve("clock", deal)
        assert (r.status is ss.Status.WON) == RULES.won(end)
        if r.status is ss.Status.WON:
            assert list(r.moves) == line
        assert ss.verify("clock", deal, r).ok


def test_a_turn_out_of_order_is_refused():
    deal = ss.Deal.from_seed(2)
    first = RULES.moves(RULES.start(deal))[0]
    wrong = Move.remove(((first.cards[0] + 1) % 52,))
    with pytest.raises(MoveError, match="the card turned next is"):
        replay(RULES, deal, [wrong])
    line, _ = forced_line(RULES, deal)
    if len(line) < 52:
        with pytest.raises(MoveError, match="comes after|game is over"):
            replay(RULES, deal, line + [first])


def blocked(seed0: int = 0) -> tuple[ss.Deal, ss.Result]:
    for seed in range(seed0, seed0 + 100):
        deal = ss.Deal.from_seed(seed)
        r = ss.solve("clock", deal)
        if r.status is ss.Status.BLOCKED:
            return deal, r
    raise AssertionError("no blocked deal")


def test_the_proof_of_a_block_is_the_forced_line_and_resists_tampering():
    deal, r = blocked()
    p = r.proof
    assert p.kind == "structural" and p.details["cards_left"] > 0
    assert "fourth King" in p.sentence and len(p.moves) == p.details["turned"]
    assert ss.verify("clock", deal, r).ok
    # from a position along the line too
    assert ss.verify("clock", deal, ss.solve("clock", deal, after=p.moves[:10]),
                     after=p.moves[:10]).ok
    for details in ({**p.details, "turned": p.details["turned"] + 1},
                    {**p.details, "cards_left": 0}, {**p.details, "last": "AS"}):
        forged = ss.Result("clock", ss.Status.BLOCKED, variant={}, proof=BlockProof(
            kind="structural", sentence=p.sentence, details=details))
        assert ss.verify("clock", deal, forged).ok is False
    forged = ss.Result("clock", ss.Status.BLOCKED, variant={}, proof=BlockProof(
        kind="structural", sentence="it cannot be won", details=dict(p.details)))
    assert ss.verify("clock", deal, forged).ok is False
    # a won deal's block is refused
    won = next(ss.Deal.from_seed(s) for s in range(200)
               if ss.solve("clock", ss.Deal.from_seed(s)).status is ss.Status.WON)
    forged = ss.Result("clock", ss.Status.BLOCKED, variant={}, proof=p)
    assert ss.verify("clock", won, forged).ok is False


def test_layout_text_reads_back_and_bad_layouts_are_refused():
    deal = ss.Deal.from_seed(5)
    text = RULES.render(RULES.start(deal))
    assert GAME.read(text, {}) == deal
    bare = "\n".join(line.split(": ", 1)[1] for line in text.splitlines())
    assert GAME.read(bare, {}) == deal
    lines = text.splitlines()
    for bad, why in [("\n".join(lines[:12]), "13 lines"),
                     ("\n".join([lines[1], lines[0]] + lines[2:]), "out of order"),
                     (text.replace(lines[3], lines[3].rsplit(" ", 1)[0]), "3 cards, not 4"),
                     (text.replace(lines[0], lines[0] + " | 2C"), "face-up"),
                     (text.replace(lines[0], "A: XX YY ZZ WW"), "'XX' is not a card")]:
        with pytest.raises(LayoutError, match=why):
            GAME.read(bad, {})


def test_pysolfc_layouts():
    for line in GOLDEN.read_text().splitlines():
        rec = json.loads(line)
        rows = [s["cards"] for s in sorted((s for s in rec["stacks"] if s["kind"] == "rows"),
                                           key=lambda s: s["index"])]
        deal = ss.pysolfc_deal("clock", rec["deal"])
        pos = RULES.start(deal)
        # PySolFC turns the centre's top card at once, and moves a King it turns to the
        # centre's bottom, as our line does with the same cards: its first moves.
        assert [[CARD_NAMES[c] for c in p] for p in pos.down[:CENTRE]] == rows[:CENTRE]
        centre, down = list(pos.down[CENTRE]), 3  # its top card turned up
        while value(centre[-1]) == 13 and down:
            centre.insert(0, centre.pop())
            down -= 1  # the new top card turned up
        assert [CARD_NAMES[c] for c in centre] == rows[CENTRE], rec["deal"]


def test_the_win_rate_agrees_with_one_in_thirteen():
    """3,000 seeded deals: the won share lies within four standard deviations of 1/13 (a wrong
    rule, e.g. a King turned from any pile ending the game, moves it far outside)."""
    r = ss.survey("clock", seeds=range(3000), workers=1)
    assert r.unknown == 0 and r.won + r.blocked == 3000
    p, n = 1 / 13, 3000
    assert abs(r.won / n - p) < 4 * math.sqrt(p * (1 - p) / n), r.won
    lo, hi = r.interval
    assert lo < 0.12 and hi > 0.05


@pytest.mark.core  # the C shuffle deals the batch path's seeds
def test_the_batch_path_gives_solves_records():
    """The survey's batch decider (ClockBatch: the forced line counted on the C shuffle's
    deals) writes, deal by deal, the record solve() gives: seeds on both sides of 0 (the batch
    takes any integer, as random.Random does: -n deals seed n's pack; the library's seeds are 0
    or more), and the same packs given as deals."""
    from solitaire_solver.games import resolve
    from solitaire_solver.survey import records

    game, variant = resolve("clock", {})
    batch = game.batch(variant)
    n, start = 800, -100
    out = [bytearray(n) for _ in range(4)]
    batch.decide_seeds(start, n, *out)
    packs = bytearray()
    for i in range(n):
        deal = ss.Deal.from_seed(abs(start + i))
        packs += bytes(deal.cards)
        rec = records.record("clock", "seed", start + i, ss.solve("clock", deal), 0.0)
        got = ("won" if out[0][i] == 0 else "blocked", out[2][i], out[1][i], out[3][i])
        assert got == (rec["status"], rec["moves"], rec["cards_left"], rec["states"]), start + i
    again = [bytearray(n) for _ in range(4)]
    batch.decide_deals(memoryview(bytes(packs)).cast("B", (n, 52)), *again)
    assert again == out
    won, left_hist, states_hist = batch.tally(bytes(out[0]), bytes(out[1]), bytes(out[3]))
    assert won == out[0].count(0) and sum(left_hist) == n - won and sum(states_hist) == n
    with pytest.raises(ValueError, match="full pack"):
        batch.decide_deals(memoryview(bytes(52)).cast("B", (1, 52)), *again)
    # a survey's seeds are 0 or more: the same counts over the batch's seeds from 0
    won, left_hist, _ = batch.tally(*(bytes(out[k][-start:]) for k in (0, 1, 3)))
    r = ss.survey("clock", seeds=range(0, start + n), workers=1)
    assert r.path == "batch" and r.won == won and r.cards_left == {k: v for k, v in
                                                                  enumerate(left_hist) if v}


def test_the_picture_is_a_clock_face():
    deal = ss.Deal.from_seed(3)
    line, _ = forced_line(RULES, deal)
    svg = ss.render_svg("clock", deal, after=line[:10])
    assert svg.count('data-card="') == 52 and "(next)" in svg
