"""PySolFC game numbers: every golden layout PySolFC dealt (tests/data/pysolfc-layouts) is what our
deal of that number shows; the number's range and the games PySolFC lacks are refused; the
PySolFC presets; the command line's --pysolfc."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import solitaire_solver as ss
from solitaire_solver import cli
from solitaire_solver.games import get_game
from solitaire_solver.pysolfc import (
    MAX_NUMBER,
    PYSOLFC_GAMES,
    PySolFCError,
    dealt_order,
    pysolfc_game,
    pysolfc_preset,
    read_number,
)

GOLDEN = Path(__file__).parent / "data" / "pysolfc-layouts"
NUMBERS = [1, 2, 3, 100, 1000, 31999, 32000, 32001, 123456, 1000000, 123456789012]


def registered(game: str) -> bool:
    try:
        get_game(game)
    except ss.UnknownGameError:
        return False
    return True


#: The PySolFC games of the registry (Baroness and Monte Carlo once their branch is merged).
OURS = [p for p in PYSOLFC_GAMES if registered(p.game)]


def records(p, after=False):
    """The golden lines of a game: the deals as dealt (after=True: also the lines of what was
    done after the deal, Montana's redeals: tests/test_montana.py)."""
    path = GOLDEN / f"{p.id}-{p.title.lower().replace(' ', '-')}.jsonl"
    recs = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return recs if after else [r for r in recs if not r.get("after")]


def stacks(rec, kind):
    return [s["cards"] for s in sorted((s for s in rec["stacks"] if s["kind"] == kind),
                                       key=lambda s: s["index"])]


def names(cards):
    return [ss.card_name(c) for c in cards]


def test_every_golden_file_has_its_eleven_numbers():
    assert {p.id for p in PYSOLFC_GAMES} == {int(f.name.split("-")[0])
                                             for f in GOLDEN.glob("*.jsonl")}
    for p in PYSOLFC_GAMES:
        # Accordion's file holds each number twice, dealt under both settings of PySolFC's
        # accordion_deal_all (tests/data/pysolfc-layouts/README.md): the first of each here.
        first: dict = {}
        for r in records(p):
            first.setdefault(r["deal"], r)
        recs = list(first.values())
        assert [r["deal"] for r in recs] == NUMBERS
        assert {r["game_id"] for r in recs} == {p.id}
        # numbers below 32000 are FreeCell deals, shown by PySolFC as msN
        assert [r["rng"] == "LCRandom31" for r in recs] == [n < 32000 for n in NUMBERS]


@pytest.mark.parametrize("p", PYSOLFC_GAMES, ids=lambda p: p.title)
def test_the_talon_deals_our_pack_order(p):
    """For every game (ours or not yet), the cards PySolFC laid out, read in the order its talon
    dealt them, are dealt_order(number): the foundations' start cards (Calculation), rows (Fourteen
    and Clock round-robin), then the waste, then the talon from its top (its last card) down;
    Nestor column by column, then its four reserves."""
    for rec in records(p):
        if rec.get("accordion_deal_all") is False:
            continue  # PySolFC's other setting deals three piles and keeps the rest in its talon
        order = names(dealt_order(rec["deal"], p.id))
        rows = stacks(rec, "rows")
        if p.piles and not p.pile_size:
            dealt = [order[j::p.piles] for j in range(p.piles)]
            if p.game == "clock":
                # PySolFC turns the centre's top card; a King turned goes to the centre's
                # bottom and the next card is turned, while face-down cards are left.
                centre, down = dealt[-1], len(dealt[-1]) - 1
                while centre[-1][0] == "K" and down:
                    centre.insert(0, centre.pop())
                    down -= 1
            assert rows == dealt, rec["deal"]
            continue
        if p.game == "montana":
            # an Ace goes to the invisible internals[0], leaving its place empty
            aces = iter(stacks(rec, "internals")[0])
            assert [r[0] if r else next(aces) for r in rows] == order, rec["deal"]
            continue
        laid = [c for f in stacks(rec, "foundations") for c in f]
        laid += [c for r in rows for c in r] + [c for r in stacks(rec, "reserves") for c in r]
        laid += [c for w in stacks(rec, "waste") for c in w]
        talon = stacks(rec, "talon")[0]
        assert laid + talon[::-1] == order, rec["deal"]


@pytest.mark.parametrize("p", OURS, ids=lambda p: p.title)
def test_our_deal_of_the_number_shows_pysolfcs_layout(p):
    """ss.pysolfc_deal(game, N) laid out by our own rules shows what PySolFC showed for N."""
    g = get_game(p.game)[0]
    preset = pysolfc_preset(p.id)
    var = g.variant(**get_game(preset)[1]) if preset else g.variant()
    rules = g.rules(var)
    for rec in records(p):
        n = rec["deal"]
        deal = ss.pysolfc_deal(p.id, n)
        assert ss.pysolfc_deal(p.game if p.id != 193 else "relaxed-pyramid-pysolfc", n) == deal
        pos = rules.start(deal)
        rows = stacks(rec, "rows")
        talon = stacks(rec, "talon")[0] if stacks(rec, "talon") else []
        if p.game == "pyramid":
            assert names(pos.pyramid) == [r[0] for r in rows], n
            waste = stacks(rec, "waste")[0]
            if preset is not None:  # PySolFC's rules: its first card already on the waste
                assert names(pos.waste) == waste and names(pos.stock) == talon[::-1], n
            assert names(deal.cards[28:]) == waste + talon[::-1], n
        elif p.game == "fourteen":
            assert [names(pile) for pile in pos.piles] == rows, n
        elif p.game == "nestor":
            from solitaire_solver.games.nestor.rules import layout_of
            columns, stock = layout_of(deal)
            assert [names(c) for c in columns] == rows[:8], n
            assert names(stock) == [r[0] for r in rows[8:]], n
        elif p.game == "montana":
            assert [ss.card_name(c) if c is not None else None for c in pos.places] == [
                r[0] if r else None for r in rows], n
        elif p.game == "calculation":  # under the preset: PySolFC's start cards and stock
            assert [names(f) for f in pos.foundations] == stacks(rec, "foundations"), n
            assert names(pos.stock) == stacks(rec, "waste")[0] + talon[::-1], n
        elif p.game == "clock":  # round the table; the centre's Kings: tests/test_clock.py
            assert [names(pile) for pile in pos.down[:12]] == rows[:12], n
        elif hasattr(pos, "slots"):
            assert names(pos.slots) == [r[0] for r in rows], n
            assert names(pos.stock) == talon[::-1], n
        else:  # Baroness, Monte Carlo: the layout's cards, then the stock in dealing order
            laid = [c for r in rows for c in r]
            assert names(deal.cards[: len(laid)]) == laid, n
            assert names(deal.cards[len(laid):]) == talon[::-1], n


#: Where pysol-cards deals otherwise than PySolFC (docs/pysolfc.md, "pysol-cards"): the number
#: and why. Every other number of the comparison below gives the same pack order.
PYSOL_CARDS_DIFFER = {
    # pysol-cards switches to Mersenne Twister one number later (game_num <= 32000 is FreeCell's);
    # PySolFC deals 32000 by Mersenne Twister (the golden layouts of 32000 above).
    32000: "FreeCell generator in pysol-cards, Mersenne Twister in PySolFC",
    # pysol-cards' LCRandom31 takes seeds from 1; PySolFC's from 0.
    0: "refused by pysol-cards",
    "ms0": "refused by pysol-cards",
}


def test_the_shuffle_agrees_with_pysol_cards_where_pysolfc_does():
    """pysol-cards, by PySolFC's maintainer, deals PySolFC's numbers with code of its own: over
    more than 10,000 numbers of both generators, the boundary between them and ms numbers up to
    2**33 - 1, its shuffled pack is ours, but for the numbers it deals otherwise than PySolFC."""
    random_ = pytest.importorskip("pysol_cards.random")
    from pysol_cards.cards import createCards
    from pysol_cards.random_base import RandomBase

    def theirs(number):
        ms = isinstance(number, str)
        which = RandomBase.DEALS_MS if ms else RandomBase.DEALS_PYSOLFC
        pack = random_.shuffle(createCards(1), int(number[2:]) if ms else number, which)
        # Its cards are (rank 1..13, suit C S H D); the list's last card is dealt first.
        return [ss.card_index("A23456789TJQK"[c.rank - 1] + c.suit_s()) for c in reversed(pack)]

    rng = random.Random(44)
    numbers = [*range(0, 2000), *rng.sample(range(2000, 31800), 1500), *range(31800, 34000),
               2**31, 2**32, 2**63, 10**20 - 1, 10**20]
    # Mersenne Twister numbers of every length up to PySolFC's twenty digits
    numbers += {rng.randrange(34000, 10 ** rng.randint(5, 20)) for _ in range(2500)}
    ms = [*range(0, 500, 7), *(rng.randrange(1 << 33) for _ in range(2500)), 31999, 32000, 40000,
          2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**33 - 1]
    numbers += [f"ms{n}" for n in ms]
    assert len(set(numbers)) > 10_000
    differ = {}
    for n in numbers:
        try:
            same = theirs(n) == dealt_order(n)
        except ValueError:  # pysol-cards refuses the number (ours is refused by no number here)
            same = None
        if not same:
            differ[n] = same
    assert set(differ) == set(PYSOL_CARDS_DIFFER)
    # What each difference is: 32000 dealt as ms32000; 0 a FreeCell deal of ours, refused there.
    assert theirs(32000) == dealt_order("ms32000") != dealt_order(32000)
    assert differ[0] is None and differ["ms0"] is None and dealt_order(0) == dealt_order("ms0")


def test_numbers_and_their_range():
    assert read_number(31999) == (31999, True)
    assert read_number(32000) == (32000, False)
    assert read_number("ms1") == (1, True) and read_number(" 123456 ") == (123456, False)
    # msN is the FreeCell generator whatever N: ms1 is game 1, ms40000 is not game 40000
    assert dealt_order("ms1") == dealt_order(1)
    assert dealt_order("ms40000") != dealt_order(40000)
    assert read_number(MAX_NUMBER) == (MAX_NUMBER, False)
    for bad, why in [(-1, "0 to"), (MAX_NUMBER + 1, "0 to"), ("ms8589934592", "ms0 to"),
                     ("12a", "not a PySolFC game number"), (1.5, "is an integer"),
                     (True, "is an integer"),
                     # digits to str.isdigit() that int() refuses, or that are not ASCII
                     ("²", "not a PySolFC game number"), ("ms²", "not a PySolFC game number"),
                     ("٣", "not a PySolFC game number")]:
        with pytest.raises(PySolFCError, match=why):
            ss.pysolfc_deal("elevens", bad)
    assert issubclass(PySolFCError, ValueError)


def test_numbers_of_thousands_of_digits_are_refused_as_numbers_pysolfc_does_not_deal(capsys):
    # Before: int() of a text past Python's 4300 digits raised a bare ValueError (a traceback on
    # the command line), as did str() of such an int in the message.
    long = "1" * 4400
    for bad, why in [(long, "0 to"), ("ms" + long, "ms0 to"), (10**5000, "0 to"),
                     (-(10**5000), "0 to"), ("x" * 5000, "not a PySolFC game number")]:
        with pytest.raises(PySolFCError, match=why) as e:
            ss.pysolfc_deal("elevens", bad)
        assert len(str(e.value)) < 200  # the number is cut short, not quoted whole
    # Zeros in front change nothing, however many (PySolFC shows twenty digits).
    assert read_number("0" * 5000 + "32001") == (32001, False)
    assert read_number("ms" + "0" * 5000 + "7") == (7, True)
    for command in ("solve", "hint", "show", "verify", "analyze"):
        for number in (long, "ms" + long):
            assert cli.main([command, "elevens", "--pysolfc", number]) == 3
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "PySolFC game number" in err and len(err) < 250
    assert cli.main(["survey", "elevens", "--pysolfc", f"1-{long}", "--quiet"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "0 to" in err and len(err) < 250


def test_a_survey_of_more_numbers_than_len_counts_is_refused(capsys):
    # Before: PySolFC's whole range, or --count 10**19, raised OverflowError from len(range).
    for argv in (["--pysolfc", "0-100000000000000000000"], ["--pysolfc", "7", "--count", str(10**19)],
                 ["--count", str(10**19)]):
        assert cli.main(["survey", "thirteens", *argv, "--quiet"]) == 3
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "more deals than a survey counts" in err


def test_games_pysolfc_lacks_are_refused():
    with pytest.raises(PySolFCError, match="PySolFC has no block-elevens"):
        ss.pysolfc_deal("block-elevens", 5)
    with pytest.raises(PySolFCError, match="game id 1 is not one we solve"):
        ss.pysolfc_deal(1, 5)
    with pytest.raises(ss.UnknownGameError):
        ss.pysolfc_deal("klondike", 5)
    assert pysolfc_game("matrimony").id == 235 and pysolfc_game(193).title == "Relaxed Pyramid"
    assert pysolfc_game("relaxed-pyramid-pysolfc").id == 193
    assert pysolfc_game("pyramid").id == 38


def test_nestor_deals_are_packs_our_rectified_deal_turns_into_pysolfcs_columns():
    p = pysolfc_game("nestor")
    for n in NUMBERS + list(range(40000, 40200)):
        deal = ss.pysolfc_deal("nestor", n)
        cards = dealt_order(n, "nestor")
        assert type(deal) is ss.Deal  # no column repeats a rank: a plain pack
        from solitaire_solver.games.nestor.rules import deal_layout
        columns, stock = deal_layout(deal.cards)
        assert [list(c) for c in columns] == [cards[6 * i: 6 * i + 6] for i in range(8)]
        assert list(stock) == cards[48:]
    assert p.preset == "nestor-pysolfc"


# -- PySolFC's rules ------------------------------------------------------------------------------

@pytest.mark.core  # (Pyramid deals take the reference search minutes)
def test_pyramid_pysolfc_starts_one_draw_in():
    """PySolFC's Pyramid deals its first stock card to the waste (Pyramid.startGame): the preset
    decides the position after our `draw`, and is won no more often than our start."""
    g = get_game("pyramid")[0]
    assert get_game("pyramid-pysolfc")[1]["first_to_waste"] is True
    assert get_game("relaxed-pyramid-pysolfc")[1]["goal"] == "pyramid"
    for seed in range(12):
        d = ss.random_deal(seed)
        r = ss.solve("pyramid-pysolfc", d)
        assert r.status == ss.solve("pyramid", d, after="draw").status, seed
        if r.won:  # (a block's exhaustive proof is checked by a slow reference search)
            assert ss.verify("pyramid-pysolfc", d, r).ok, seed
            assert not ss.verify("pyramid", d, r).ok  # a line from one draw in
        rules = g.rules(g.variant(first_to_waste=True))
        start = rules.start(d)
        assert start.waste == (d.cards[28],) and len(start.stock) == 23


def test_nestor_pysolfc_plays_the_open_reserve():
    assert get_game("nestor-pysolfc")[1] == {"reserve": "open"}
    d = ss.pysolfc_deal("nestor", 123456)
    r = ss.solve("nestor-pysolfc", d)
    assert r.status in (ss.Status.WON, ss.Status.BLOCKED) and r.variant == {"reserve": "open"}
    if r.won:
        assert ss.verify("nestor-pysolfc", d, r).ok


def test_the_rules_to_solve_each_number_under():
    assert pysolfc_preset("pyramid") == "pyramid-pysolfc"
    assert pysolfc_preset(193) == "relaxed-pyramid-pysolfc"
    assert pysolfc_preset("nestor") == "nestor-pysolfc"
    for same in ("fourteen", "block-ten", "simple-pairs", "thirteens"):
        assert pysolfc_preset(same) == same


# -- the command line -----------------------------------------------------------------------------

@pytest.mark.core  # (Pyramid deals take the reference search minutes)
def test_cli_solve_shows_pysolfcs_layout_and_names_the_number(capsys):
    code = cli.main(["solve", "pyramid", "--pysolfc", "123456"])
    out, err = capsys.readouterr()
    assert code in (0, 1)
    assert out.startswith("PySolFC Pyramid (game 38), number 00000000000000123456:\n")
    rec = next(r for r in records(pysolfc_game(38)) if r["deal"] == 123456)
    assert "  waste: " + stacks(rec, "waste")[0][0] in out
    assert "talon: 23 cards" in out and "pyramid-pysolfc" in err  # PySolFC's rules differ
    code = cli.main(["solve", "pyramid-pysolfc", "--pysolfc", "123456", "--json"])
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert err == "" and code == {"won": 0, "blocked": 1}[data["status"]]
    info = data["pysolfc"]
    assert (info["game"], info["number"], info["rules"]) == (38, "00000000000000123456",
                                                              "pyramid-pysolfc")
    assert [c for row in info["layout"]["rows"] for c in row] == [r[0] for r in stacks(rec,
                                                                                      "rows")]
    assert ss.verify("pyramid-pysolfc", ss.pysolfc_deal("pyramid", 123456),
                     data["moves"]).ok is (data["status"] == "won")


def test_cli_every_deal_command_takes_a_number(capsys):
    assert cli.main(["show", "elevens", "--pysolfc", "ms1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pysolfc"]["number"] == "ms1"
    assert data["pysolfc"]["layout"]["rows"] == [["JD", "2D", "9H"], ["JC", "5D", "7H"],
                                                 ["7C", "5H", "KD"]]
    r = ss.solve("thirteens", ss.pysolfc_deal("thirteens", 32001))
    line = [str(m) for m in r.moves] if r.won else ["KS"]
    code = cli.main(["verify", "thirteens", "--pysolfc", "32001", *line])
    out = capsys.readouterr().out
    assert out.startswith("PySolFC Thirteens (game 593), number 00000000000000032001:")
    assert code == (0 if r.won else 1)
    assert cli.main(["hint", "fourteen", "--pysolfc", "7", "--json"]) in (0, 1)
    assert json.loads(capsys.readouterr().out)["pysolfc"]["game"] == 96
    assert cli.main(["analyze", "thirteens", "--pysolfc", "32001", *line[:1]]) in (0, 1)
    assert "number 00000000000000032001" in capsys.readouterr().out


def test_cli_refuses_bad_numbers_and_two_deals(capsys):
    for argv, why in [(["solve", "elevens", "--pysolfc", "-3"], "not a PySolFC game number"),
                      (["solve", "elevens", "--pysolfc", "1", "--seed", "1"], "one of them"),
                      (["solve", "block-elevens", "--pysolfc", "1"], "PySolFC has no"),
                      (["survey", "elevens", "--pysolfc", "9-3"], "below the first")]:
        assert cli.main(argv) == 3
        err = capsys.readouterr().err
        assert why in err and err.count("\n") == 1


def test_cli_survey_of_numbers_writes_the_winnable_ones(tmp_path, capsys):
    out = tmp_path / "s.jsonl"
    code = cli.main(["survey", "simple-pairs", "--pysolfc", "31900-32100", "--won-only",
                     "--quiet", "--workers", "1", "--out", str(out)])
    printed, err = capsys.readouterr()
    won = [n for n in range(31900, 32101)
           if ss.solve("simple-pairs", ss.pysolfc_deal("simple-pairs", n)).won]
    assert code == 0 and printed.split() == [str(n) for n in won] and "win rate" in err
    recs = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    assert sorted(r["pysolfc"] for r in recs if r["status"] == "won") == won
    # resumed: the file's numbers are not decided again, and still listed
    assert cli.main(["survey", "simple-pairs", "--pysolfc", "31900", "--count", "202",
                     "--won-only", "--quiet", "--workers", "1", "--out", str(out)]) == 0
    again = capsys.readouterr().out.split()
    extra = ss.solve("simple-pairs", ss.pysolfc_deal("simple-pairs", 32101)).won
    assert again == [str(n) for n in won + [32101] * extra]
    # a survey file of numbers is not resumed as one of seeds
    assert cli.main(["survey", "simple-pairs", "--count", "5", "--quiet", "--out",
                     str(out)]) == 3
    assert "in a survey of seeds or deals" in capsys.readouterr().err


def test_a_pysolfc_survey_as_a_subprocess():
    run = subprocess.run([sys.executable, "-m", "solitaire_solver", "survey", "thirteens",
                          "--pysolfc", "1-50", "--won-only", "--quiet", "--workers", "1"],
                         capture_output=True, text=True, check=True)
    won = [n for n in range(1, 51) if ss.solve("thirteens", ss.pysolfc_deal(593, n)).won]
    assert run.stdout.split() == [str(n) for n in won]
