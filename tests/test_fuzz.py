"""Fuzz tests: random input to the parsers and to every core through the contract
(solitaire_solver/engine/contract.py, docs/architecture.md).

Bad input may raise a ValueError subclass of solitaire_solver.errors and nothing else. A core must
not crash on any deal, on any position legal play reaches, with any limits (tiny tables
included), with or without a certificate, for every objective of its game; its answers are
checked where that is cheap: a line it returns is legal under the reference rules and a won line
wins, a limit it reports is one that was set, its moves and successors are the reference rules'.

The normal suite runs a few examples of each test. .ci/sanitize runs many more
(HYPOTHESIS_PROFILE=sanitize) against a build with AddressSanitizer and UndefinedBehaviorSanitizer,
where a memory error or undefined behaviour in the C code aborts the run: most of what these
tests are for is seen there, not in their assertions.
"""

from __future__ import annotations

import itertools
import os
import random

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from lines import random_line

import solitaire_solver as ss
from solitaire_solver.cards import CARD_NAMES
from solitaire_solver.deal import Deal
from solitaire_solver.engine.backend import core_module
from solitaire_solver.engine.contract import STATUSES, CoreRun, Limits
from solitaire_solver.errors import SolitaireError, VariantError
from solitaire_solver.games import GAMES
from solitaire_solver.games.nestor.rules import NestorLayout
from solitaire_solver.moves import Move, parse_moves

pytestmark = [pytest.mark.core, pytest.mark.fuzz]

#: The normal suite (the `dev` profile) runs each test briefly; any other profile, such as
#: .ci/sanitize's, runs the profile's count.
BRIEF = os.environ.get("HYPOTHESIS_PROFILE", "dev") == "dev"


def examples(brief: int) -> settings:
    return settings(max_examples=brief) if BRIEF else settings()


CORE_GAMES = [g for g in GAMES if g.core]


def game_id(g) -> str:
    return g.name


# -- the parsers ------------------------------------------------------------------------------------

#: Near-misses of the words the parsers read: card forms they accept, forms they must refuse,
#: layout labels, move words and joiners.
ODD_WORDS = ("10H", "t\u2666", "k\u2660", "1C", "XX", "AS+KH", "5h + 6c", "draw", "recycle",
             "Stock:", "stock", "STOCK :", "Waste:", "Pass:", "-", "+", ",", "\u2665", "10",
             "..", "0", "52", "\x00", "\u00e9")
WORDS = st.sampled_from(CARD_NAMES) | st.sampled_from(ODD_WORDS) | st.text(max_size=4)
SEPARATORS = st.sampled_from((" ", "  ", ",", ", ", "\t", "\n", "\r\n", "\n\n", "+"))


@st.composite
def texts(draw) -> str:
    """Words of cards, near-misses and noise, on one line or many."""
    return "".join(w + draw(SEPARATORS) for w in draw(st.lists(WORDS, max_size=70)))


@st.composite
def mutated(draw, text: str) -> str:
    """A valid text with a few edits: a word dropped, replaced or doubled, lines dropped,
    doubled or swapped."""
    lines = [line.split(" ") for line in text.split("\n")]
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        edit = draw(st.sampled_from(("drop", "replace", "double", "drop line", "double line",
                                     "swap lines")))
        if edit == "drop line":
            del lines[i]
        elif edit == "double line":
            lines.insert(i, list(lines[i]))
        elif edit == "swap lines":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif lines[i]:
            words = lines[i]
            j = draw(st.integers(0, len(words) - 1))
            if edit == "drop":
                del words[j]
            elif edit == "replace":
                words[j] = draw(WORDS)
            else:
                words.insert(j, words[j])
    return "\n".join(" ".join(words) for words in lines)


#: Anything a caller might pass as a card.
CARD_LIKE = (st.integers(-3, 60) | st.sampled_from(CARD_NAMES) | WORDS | st.none() | st.booleans()
             | st.floats(allow_nan=True) | st.just(b"AS"))
PILES = st.lists(st.lists(CARD_LIKE, max_size=7) | texts(), max_size=14)


@st.composite
def deal_inputs(draw, game):
    """What a caller might hand to read_deal: text, valid texts edited, lists of cards, piles."""
    deal = Deal(draw(st.permutations(range(52))))
    rules = game.rules(game.variant())
    drawn = rules.render(rules.start(deal))
    return draw(st.one_of(
        texts(), mutated(str(deal)), mutated(drawn), st.lists(CARD_LIKE, max_size=60), PILES,
        st.just(list(deal.cards[:-1]) + [draw(CARD_LIKE)]), st.binary(max_size=60),
        st.just(drawn.split("\n")),
    ))


@pytest.mark.parametrize("game", GAMES, ids=game_id)
@examples(25)
@given(data=st.data())
def test_read_deal_reads_a_deal_or_says_what_is_wrong(game, data):
    raw = data.draw(deal_inputs(game))
    try:
        deal = game.read_deal(raw, game.variant())
    except SolitaireError:
        return
    assert isinstance(deal, Deal)
    assert sorted(deal.cards) == list(range(52))


@pytest.mark.parametrize("game", GAMES, ids=game_id)
@examples(10)
@given(cards=st.permutations(range(52)))
def test_read_deal_reads_back_the_pack_and_the_drawn_layout(game, cards):
    deal = Deal(cards)
    var = game.variant()
    assert game.read_deal(str(deal), var) == deal
    assert game.read_deal(list(cards), var) == deal
    # A game that reads layouts reads its own drawing of the start position back to that
    # position; the slot games' drawing is not a layout, and is refused as one.
    rules = game.rules(var)
    drawn = rules.render(rules.start(deal))
    try:
        back = game.read_deal(drawn, var)
    except SolitaireError:
        return
    assert rules.render(rules.start(back)) == drawn


@examples(60)
@given(text=texts() | mutated("5H+6C QD+JH+KS draw AS recycle") | st.text())
def test_move_parser_reads_a_move_or_says_what_is_wrong(text):
    try:
        move = Move.from_text(text)
    except SolitaireError:
        pass
    else:
        assert Move.from_text(str(move)) == move
    try:
        moves = parse_moves(text)
    except SolitaireError:
        return
    assert parse_moves([str(m) for m in moves]) == moves


@pytest.mark.parametrize("game", GAMES, ids=game_id)
@examples(8)
@given(cards=st.permutations(range(52)), line=st.lists(WORDS, max_size=12))
def test_verify_checks_any_line_or_says_what_is_wrong(game, cards, line):
    try:
        verdict = ss.verify(game.name, Deal(cards), line)
    except SolitaireError:
        return
    assert verdict.ok in (True, False)


# -- the cores ------------------------------------------------------------------------------------

#: Values to try for options that list no choices (each game's default is always one of them).
OPTION_VALUES = {"passes": (1, 2, 3, 5, "unlimited")}


def game_variants(game) -> list[dict]:
    """Every variant the game has: each combination of its options' values that it accepts
    (not every combination is a variant: Tens' PySolFC reserves go with rank quartets only)."""
    names = list(game.options)
    pools = []
    for name in names:
        opt = game.options[name]
        values = opt.choices if opt.choices is not None else OPTION_VALUES.get(name, ())
        pools.append((opt.default, *values))
    out: list[dict] = []
    for combo in itertools.product(*pools):
        var = game.variant(**dict(zip(names, combo)))
        try:
            game.rules(var)
        except VariantError:
            continue
        if var not in out:
            out.append(var)
    return out


@st.composite
def variants(draw, game) -> dict:
    return draw(st.sampled_from(game_variants(game)))


@st.composite
def deals(draw, game) -> Deal:
    """A random pack; for Nestor sometimes a layout as typed (any ranks in any column)."""
    if game.name == "montana":
        # Its redeals shuffle with the deal's own generator: a seeded deal carries it.
        return Deal.from_seed(draw(st.integers(0, 1 << 64)))
    cards = draw(st.permutations(range(52)))
    if game.name == "nestor" and draw(st.booleans()):
        return NestorLayout([cards[6 * i:6 * i + 6] for i in range(8)], cards[48:])
    return Deal(cards)


def positions_along(rules, deal, rng: random.Random, plies: int) -> list:
    """The positions of a random line of legal play, from the start (at most plies moves)."""
    start = rules.start(deal)
    return [start] + [pos for _, pos in random_line(rules, start, rng, plies)]


def winning_line(game, var, rules, deal, plies: int) -> list:
    """The positions of the first plies moves of a win the core finds from the start (only the
    start when it finds none soon): random play seldom keeps a deal winnable, and a search from
    a position that can still be won is the one that reaches the code returning a line."""
    core = core_module(game.core)
    spec = game.core_spec(deal, var, "decide", False)
    run = core.solve(spec, "decide", Limits(20000), False)
    pos = rules.start(deal)
    line = [pos]
    if run.status == "won":
        for m in game.core_line(core, spec, deal, None, run.path)[:plies]:
            pos = rules.play(pos, m)
            line.append(pos)
    return line


LIMITS = st.builds(
    Limits,
    max_states=st.integers(1, 1000),
    max_seconds=st.sampled_from((0.0, 0.0, 1e-9, 1e-4, 1e-2)),
    # Tiny tables (a table has at least 1024 slots; the certificate shares the budget) and
    # room enough for a short search to finish.
    memory_bytes=st.integers(1, 4096) | st.sampled_from((1 << 16, 1 << 20)),
)



def replay(game, core, spec, rules, pos, path):
    """The position the core's line reaches from pos; MoveError (a failure) at an illegal move."""
    for m in game.core_line(core, spec, None, pos, path):
        pos = rules.play(pos, m)
    return pos


@pytest.mark.parametrize("game", CORE_GAMES, ids=game_id)
@examples(12)
@given(data=st.data())
def test_core_search_from_a_random_position(game, data):
    var = data.draw(variants(game), label="variant")
    deal = data.draw(deals(game), label="deal")
    rules = game.rules(var)
    core = core_module(game.core)
    if data.draw(st.booleans(), label="on a winning line"):
        line = winning_line(game, var, rules, deal, data.draw(st.integers(0, 60), label="plies"))
    else:
        line = positions_along(rules, deal, data.draw(st.randoms(use_true_random=False)),
                           data.draw(st.integers(0, 60), label="plies"))
    pos = line[-1]
    objective = data.draw(st.sampled_from(game.objectives), label="objective")
    certificate = data.draw(st.booleans(), label="certificate")
    limits = data.draw(LIMITS, label="limits")
    extra = data.draw(st.sampled_from(core.SEARCH_MODES), label="spec extra")
    try:
        spec = game.core_spec(deal, var, objective, certificate)
    except SolitaireError:
        return  # an objective this variant does not have (Pyramid's score beyond 3 passes)
    spec = dict(spec, **extra)
    if len(line) > 1 or data.draw(st.booleans(), label="root given at the start"):
        spec["root"] = game.core_position(pos, var)

    # The depth-first walk's keys computed ahead (engine/_engine.pyx, descend) from the first
    # slot, or as by default only once the table is large.
    from solitaire_solver.engine import _engine

    ahead = data.draw(st.booleans(), label="keys ahead from the first slot")
    old = _engine.set_prefetch_homes(0) if ahead else None
    try:
        run = core.solve(spec, objective, limits, certificate)
    finally:
        if ahead:
            _engine.set_prefetch_homes(old)

    assert isinstance(run, CoreRun)
    assert run.status in STATUSES
    event(f"{objective}: {run.status}")
    assert isinstance(run.stats, dict) and run.stats.get("states", 0) >= 0
    if run.status == "limit-time":
        assert limits.max_seconds > 0
    end = replay(game, core, spec, rules, pos, run.path)
    if run.status == "won" and objective != "score":
        assert rules.won(end)
    if objective == "score" and run.best is not None and pos.cleared_in == 0:
        # The value of the line found is the score it reaches (the score of a position whose
        # pyramid was cleared before the root depends on a pass the root does not hold).
        assert rules.score(end) == run.best
    if run.certificate is not None:
        assert run.status == "exhausted" and certificate
        keys = {game.certificate_key(r, a, var) for r, a in run.certificate}
        assert rules.key(pos) in keys




CHECKING_GAMES = [g for g in CORE_GAMES if getattr(core_module(g.core), "CHECKS_POSITIONS", False)]


def ask_every_entry(core, spec: dict, position: int, aux: int, seed: int) -> int:
    """Give (position, aux) to each of the core's contract entries that take a position
    (expand, step, random_win, playouts, solve's spec["root"]), briefly; returns how many took
    it (the others raised ValueError or OverflowError, which is all they may raise)."""
    asks = [lambda: core.expand(spec, position, aux)]
    if hasattr(core, "step"):
        asks.append(lambda: core.step(spec, position, aux))
    if hasattr(core, "random_win"):
        asks.append(lambda: core.random_win(spec, position, aux, 200, 0.0, 1 << 20))
    if hasattr(core, "playouts"):
        asks.append(lambda: core.playouts(spec, position, aux, 3, seed, 200))
    asks.append(lambda: core.solve(dict(spec, root=(position, aux)), "decide", Limits(200),
                                   False))
    took = 0
    for ask in asks:
        try:
            ask()
        except (ValueError, OverflowError):
            continue
        took += 1
    return took


@pytest.mark.parametrize("game", CHECKING_GAMES, ids=game_id)
@examples(20)
@given(data=st.data())
def test_core_expand_of_any_word_lists_moves_or_refuses_it(game, data):
    """A core that checks the positions given to it (CHECKS_POSITIONS, engine/contract.py)
    lists the moves of any int or raises ValueError, never reads past its tables (the
    sanitizer job runs this); so do its other entries that take a position."""
    var = data.draw(variants(game), label="variant")
    core = core_module(game.core)
    spec = game.core_spec(data.draw(deals(game), label="deal"), var, "decide", False)
    bits = data.draw(st.sampled_from([64, 128, 320, 384]), label="bits")
    position = data.draw(st.integers(0, 2**bits - 1), label="position")
    aux = data.draw(st.integers(0, 2**64 - 1) | st.just(0), label="aux")
    event(f"entries that took it: {ask_every_entry(core, spec, position, aux, 1)}")


@st.composite
def near_positions(draw, game, var, deal) -> tuple[int, int]:
    """A position of the deal that random play reaches, packed for the core
    (Game.core_position), then changed in a few bits of either word: most such words are
    no position, and some are one that play does not reach."""
    rules = game.rules(var)
    line = positions_along(rules, deal, draw(st.randoms(use_true_random=False)),
                           draw(st.integers(0, 60)))
    removed, aux = game.core_position(line[-1], var)
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            aux ^= 1 << draw(st.integers(0, 63))
        else:
            removed ^= 1 << draw(st.integers(0, max(63, removed.bit_length() + 6)))
    return removed, aux


@pytest.mark.parametrize("game", CHECKING_GAMES, ids=game_id)
@examples(20)
@given(data=st.data())
def test_core_entries_of_a_near_position_take_it_or_refuse_it(game, data):
    """Words a few bits away from a position (near_positions) reach the checks that random
    words seldom pass: each entry lists, walks or searches from them or raises ValueError, and
    never reads past its tables (the sanitizer job runs this)."""
    var = data.draw(variants(game), label="variant")
    deal = data.draw(deals(game), label="deal")
    core = core_module(game.core)
    spec = game.core_spec(deal, var, "decide", False)
    removed, aux = data.draw(near_positions(game, var, deal), label="position")
    event(f"entries that took it: {ask_every_entry(core, spec, removed, aux, 2)}")


@pytest.mark.parametrize("game", CHECKING_GAMES, ids=game_id)
@examples(8)
@given(data=st.data())
def test_a_checking_core_takes_every_position_play_reaches(game, data):
    """A core's check refuses no position of the game: each position of a random line played to
    its end (at most 400 moves), packed by the plug-in (Game.core_position), and each successor
    the core lists there (which a rating walks on with step) is taken by expand, and the last
    one by every entry that takes a position."""
    var = data.draw(variants(game), label="variant")
    deal = data.draw(deals(game), label="deal")
    rules = game.rules(var)
    core = core_module(game.core)
    spec = game.core_spec(deal, var, "decide", False)
    spec.pop("root", None)
    line = positions_along(rules, deal, data.draw(st.randoms(use_true_random=False)), 400)
    for pos in line:
        removed, aux = game.core_position(pos, var)
        for _, r, a in core.expand(spec, removed, aux):
            core.step(spec, r, a)
    assert ask_every_entry(core, spec, removed, aux, 3) == 5


@pytest.mark.parametrize("game", CORE_GAMES, ids=game_id)
@examples(6)
@given(data=st.data())
def test_core_expand_along_a_random_line(game, data):
    var = data.draw(variants(game), label="variant")
    deal = data.draw(deals(game), label="deal")
    rules = game.rules(var)
    core = core_module(game.core)
    spec = game.core_spec(deal, var, "decide", False)
    pruned = getattr(core, "PRUNED_EXPAND", None)
    for pos in positions_along(rules, deal, data.draw(st.randoms(use_true_random=False)), 60):
        removed, aux = game.core_position(pos, var)
        listed = core.expand(spec, removed, aux)
        want = {m: rules.key(rules.apply(pos, m)) for m in rules.moves(pos)}
        if not game.core_words_are_moves:
            # Words by class of rows (fifteens-pysolfc): the same positions follow.
            assert len({w for w, _, _ in listed}) == len(listed)
            assert {game.certificate_key(r, a, var) for _, r, a in listed} == set(want.values())
            continue
        have = {Move.from_code(w): game.certificate_key(r, a, var) for w, r, a in listed}
        assert len(have) == len(listed)
        assert have == want, rules.render(pos)
        if pruned is not None:
            extra, legal = pruned
            some = core.expand(dict(spec, **extra), removed, aux)
            if legal:
                assert {Move.from_code(w): game.certificate_key(r, a, var)
                        for w, r, a in some}.items() <= want.items()


@pytest.mark.parametrize("game", CORE_GAMES, ids=game_id)
@examples(6)
@given(data=st.data())
def test_solve_and_verify_agree(game, data):
    # The whole path through the API: a deal as text, the core, the proof, and verify()
    # replaying the answer. verify()'s re-search is bounded (solve(check=True) is not: a
    # blocked Pyramid deal proved by the relaxed search can take minutes to re-search).
    var = data.draw(variants(game), label="variant")
    deal = data.draw(deals(game), label="deal")
    objective = data.draw(st.sampled_from(game.objectives), label="objective")
    try:
        # the deal as the game reads it, as text (Montana's seeded deal of fewer ranks shuffles
        # those cards alone: its text is the deal read, not the pack's seeded order)
        r = ss.solve(game, str(game.read(deal, var)), objective=objective,
                     max_states=data.draw(st.integers(1, 3000), label="max_states"),
                     memory_mb=data.draw(st.sampled_from((1e-6, 1e-3, 0.05, 4)), label="MiB"),
                     certificate=data.draw(st.booleans(), label="certificate"), **var)
    except SolitaireError:
        return  # an objective this variant does not have
    assert r.status in (ss.Status.WON, ss.Status.BLOCKED, ss.Status.UNKNOWN)
    verdict = ss.verify(game, deal, r, max_states=3000, **var)
    assert verdict.ok is not False, verdict.reason


BATCH_GAMES = [g for g in CORE_GAMES if g.batch(g.variant()) is not None]


@pytest.mark.parametrize("game", BATCH_GAMES, ids=game_id)
@examples(10)
@given(rows=st.lists(st.permutations(range(52)), min_size=1, max_size=5),
       bad=st.lists(st.binary(min_size=52, max_size=52), max_size=2),
       start=st.integers(-(2**63), 2**63 - 1), count=st.integers(0, 5))
def test_batch_decider_agrees_with_solve(game, rows, bad, start, count):
    var = game.variant()
    batch = game.batch(var)
    core = core_module(game.core)

    def verdict(deal):
        run = core.solve(game.core_spec(deal, var, "decide", False), "decide", Limits(), False)
        return 0 if run.status == "won" else 1

    n = len(rows)
    status, left, moves, states = (bytearray(n) for _ in range(4))
    batch.decide_deals(memoryview(bytearray(sum(rows, []))).cast("B", (n, 52)), status, left,
                       moves, states)
    assert list(status) == [verdict(Deal(r)) for r in rows]
    for raw in bad:
        out = bytearray(1)
        try:
            batch.decide_deals(memoryview(bytearray(raw)).cast("B", (1, 52)), out, out, out, out)
        except ValueError:
            continue
        assert sorted(raw) == list(range(52))
    count = min(count, 2**63 - start)
    status, left, moves, states = (bytearray(count) for _ in range(4))
    batch.decide_seeds(start, count, status, left, moves, states)
    # the batch takes any integer, as random.Random does (-n deals seed n's pack)
    assert list(status) == [verdict(Deal.from_seed(abs(s))) for s in range(start, start + count)]
    won, left_hist, states_hist = batch.tally(status, left, states)
    assert won == list(status).count(0) and sum(states_hist) == count


@examples(15)
@given(seed=st.integers(0, 2**32), n=st.integers(0, 6000), keys=st.integers(1, 4000),
       label_bits=st.integers(0, 12), budget=st.integers(0, 1 << 16) | st.just(64 << 20))
def test_transposition_table_never_finds_a_key_it_was_not_given(seed, n, keys, label_bits,
                                                                budget):
    # Tiny budgets make the table replace keys; a search may then explore a position twice,
    # but a key the table says it holds (with a label as low) must have been stored.
    from solitaire_solver.engine._engine import table_ops

    rng = random.Random(seed)
    pool = [(rng.getrandbits(64), rng.getrandbits(63 - label_bits) << label_bits)
            for _ in range(keys)]
    ops = []
    for _ in range(n):
        k0, k1 = rng.choice(pool)
        ops.append((rng.choice(("visit", "visit", "contains")), k0,
                    k1 | rng.getrandbits(label_bits) if label_bits else k1))
    got, stats = table_ops(ops, label_bits=label_bits, budget_bytes=budget)
    lowest: dict = {}
    mask = (1 << label_bits) - 1
    for (op, k0, k1), found in zip(ops, got):
        key, label = (k0, k1 & ~mask), k1 & mask
        if found:
            assert key in lowest and lowest[key] <= label, (op, k0, k1)
        if op == "visit":
            lowest[key] = min(label, lowest.get(key, label))
    # The capacity counts homes; a full table's windows also fill its tail (31 slots past the
    # last home, csrc/ttable.c), so it may hold that many keys more.
    assert stats["used"] <= stats["capacity"] + 31
