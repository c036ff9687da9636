"""The generic search: limits end in UNKNOWN (never BLOCKED), the table's budget holds."""

import pytest

import solitaire_solver as ss
from solitaire_solver import _slots
from solitaire_solver.contract import Limits
from solitaire_solver.games import get_game

HARD = ss.random_deal(935)  # the Elevens deal of seeds 0..2999 with the most positions


def every_removal(cards, certificate=False, **limits):
    """The slot core's search of an Elevens deal over every legal removal (no forced line)."""
    spec = {"table": get_game("elevens")[0].compiled(_slots), "cards": cards,
            "mode": _slots.MODE_ALL}
    return _slots.solve(spec, "decide", Limits(**limits), certificate)


@pytest.mark.core
def test_tiny_table_replaces_but_decides_the_same():
    replaced = 0
    for seed in range(300):
        cards = ss.random_deal(seed).cards
        big = every_removal(cards)
        tiny = every_removal(cards, memory_bytes=1)
        assert tiny.status == big.status, seed
        assert tiny.stats["table_capacity"] == 1024
        assert tiny.stats["table_used"] <= 1024
        replaced += tiny.stats["table_replaced"]
    assert replaced > 0
    tiny = every_removal(HARD.cards, memory_bytes=1)
    big = every_removal(HARD.cards)
    assert tiny.status == big.status == "exhausted"
    assert tiny.stats["table_replaced"] > 0 and big.stats["table_replaced"] == 0
    assert tiny.stats["states"] > big.stats["states"]  # re-explored, not lost


@pytest.mark.core
def test_table_grows_within_budget():
    r = every_removal(HARD.cards, memory_bytes=64 << 20)
    st = r.stats
    assert st["table_used"] == st["states"]
    assert st["table_used"] * 2 <= st["table_capacity"]
    assert st["table_bytes"] <= 64 << 20


@pytest.mark.core
def test_state_limit_is_unknown_not_blocked():
    r = ss.solve("elevens", HARD, certificate=True, max_states=10)
    assert r.status is ss.Status.UNKNOWN
    assert ss.solve("elevens", HARD, max_states=3).status is ss.Status.UNKNOWN
    assert r.proof is None and not r.moves
    assert "state limit (10)" in r.reason
    assert ss.verify("elevens", HARD, r).ok is None  # an UNKNOWN claims nothing: not checked
    status, path, stats, cert, *_ = every_removal(HARD.cards, max_states=10)
    assert status == "limit-states" and stats["states"] == 10 and cert is None


@pytest.mark.core
def test_time_limit_is_unknown():
    status, _, stats, *_ = every_removal(HARD.cards, max_seconds=1e-9, memory_bytes=1)
    assert status == "limit-time"
    assert stats["states"] < 54987  # stopped before the end


@pytest.mark.core  # the budget is the core's table's
def test_certificate_over_budget_is_unknown():
    r = ss.solve("elevens", HARD, certificate=True, memory_mb=0.01)
    assert r.status is ss.Status.UNKNOWN
    assert "memory budget" in r.reason


@pytest.mark.parametrize("kw", [{"max_states": 0}, {"max_states": -5}, {"max_seconds": 0},
                                {"memory_mb": 0}, {"max_states": True}])
def test_bad_limits(kw):
    with pytest.raises(ss.SolitaireError):
        ss.solve("elevens", HARD, **kw)


@pytest.mark.core  # the core's table statistics
def test_stats_report_the_table():
    r = ss.solve("elevens", ss.random_deal(3), certificate=True)
    for key in ("states", "table_probes", "table_hits", "table_replaced", "seconds"):
        assert key in r.stats
    assert r.stats["table_probes"] >= r.stats["states"] - 1


@pytest.mark.core
def test_labelled_table_keeps_the_lowest_label():
    """LABELS (csrc/ttable.c): the low bits of k1 are a label; a key is "seen" only with a label
    as low as the stored one, and a lower label replaces it, through growth as well."""
    from solitaire_solver._engine import table_ops

    ops = [("visit", 7, 5), ("visit", 7, 5), ("visit", 7, 9), ("contains", 7, 4),
           ("visit", 7, 3), ("contains", 7, 4), ("contains", 7, 2),
           ("visit", 7, (1 << 24) | 3), ("visit", 8, 3)]
    got, stats = table_ops(ops, label_bits=24)
    assert got == [0, 1, 1, 0, 0, 1, 0, 0, 0]
    assert stats["improved"] == 1 and stats["used"] == 3
    # Without labels the same words are plain distinct keys.
    got, _ = table_ops(ops, label_bits=0)
    assert got == [0, 1, 0, 0, 0, 0, 0, 0, 0]
    # Growth re-inserts by key alone: 20,000 keys, each lowered once, all still found.
    ops = [("visit", i, 10) for i in range(20000)] + [("visit", i, 4) for i in range(20000)]
    ops += [("contains", i, 4) for i in range(20000)] + [("contains", i, 3) for i in range(20000)]
    got, stats = table_ops(ops, label_bits=8, budget_bytes=64 << 20)
    assert stats["replaced"] == 0 and stats["capacity"] > 4096
    assert got == [0] * 40000 + [1] * 20000 + [0] * 20000
    assert stats["improved"] == 20000


@pytest.mark.core
def test_table_grows_by_load_not_by_clusters():
    """The table doubles when half full, not long before: 100,000 keys fit in 2^18 slots (a
    probe window of 8 filled in clusters at a tenth full, and grew it to 2^20). At a budget of
    2^16 slots, 60,000 keys lose fewer than 5% to replacement, and each key missing afterwards
    is counted as replaced."""
    from solitaire_solver._engine import table_ops

    keys = [(k * 0x9E3779B97F4A7C15 % (1 << 52), k % 7) for k in range(1, 100_001)]
    ops = [("visit", a, b) for a, b in keys] + [("contains", a, b) for a, b in keys]
    got, stats = table_ops(ops, budget_bytes=256 << 20)
    assert stats["capacity"] <= 1 << 18 and stats["used"] == 100_000
    assert got == [0] * 100_000 + [1] * 100_000
    few = keys[:60_000]
    ops = [("visit", a, b) for a, b in few] + [("contains", a, b) for a, b in few]
    got, stats = table_ops(ops, budget_bytes=(1 << 16) * 16)
    missing = 60_000 - sum(got[60_000:])
    assert stats["capacity"] == 1 << 16
    assert missing == stats["replaced"] < 3_000
