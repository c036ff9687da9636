"""Cards, deals and moves: their text forms and every bad-input case of the parser."""

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import solitaire_solver as ss
from solitaire_solver.cards import CARD_NAMES, card_index, value
from solitaire_solver.moves import Move, parse_moves

FULL = " ".join(CARD_NAMES)


def test_card_indexes_follow_rules():
    assert card_index("AC") == 0
    assert card_index("KS") == 51
    assert card_index("TD") == 13 + 9
    assert [value(card_index(r + "H")) for r in "A23456789TJQK"] == list(range(1, 14))


@pytest.mark.parametrize("text", ["10d", "TD", "td", "T♦", "10♦", " td "])
def test_card_spellings(text):
    assert ss.card_name(card_index(text)) == "TD"


@pytest.mark.parametrize("text", ["", "1D", "TX", "ADD", "11C", "♦T", "Z"])
def test_bad_cards(text):
    with pytest.raises(ss.CardError):
        card_index(text)


@pytest.mark.parametrize("seed", [0, 7, 12345, 2**32 - 1, 2**32, 2**32 + 5, 3**90])
def test_seeded_deal_is_python_shuffle(seed):
    # One key word and several (seeds from 2^32 on): the compiled generator deals for the core
    # run, Python's own for the pure one, and both must be random.Random(seed).shuffle.
    pack = list(range(52))
    random.Random(seed).shuffle(pack)
    assert ss.random_deal(seed).cards == tuple(pack)
    assert ss.random_deal(seed) == ss.Deal.from_seed(seed)


def test_a_pack_of_indexes_is_still_checked():
    # Lists of 52 ints take a short path; anything it does not accept gets the full reading.
    assert ss.Deal(tuple(range(52))).cards == tuple(range(52))
    with pytest.raises(ss.DealError, match="card 52: True is not a card"):
        ss.Deal([*range(51), True])
    with pytest.raises(ss.DealError, match="duplicate"):
        ss.Deal([*range(51), 0])
    with pytest.raises(ss.DealError, match="not a card index"):
        ss.Deal([*range(51), 52])


def test_deal_text_forms():
    d = ss.Deal(FULL)
    assert d.cards == tuple(range(52))
    assert ss.Deal(FULL.replace(" ", ",")) == d
    assert ss.Deal(FULL.lower().replace("t", "10")) == d
    assert ss.Deal(list(range(52))) == d
    assert ss.Deal(CARD_NAMES) == d
    assert eval(repr(d), {"Deal": ss.Deal}) == d


@given(st.randoms(use_true_random=False))
def test_deal_round_trip(rnd):
    pack = list(range(52))
    rnd.shuffle(pack)
    d = ss.Deal(pack)
    assert ss.Deal(str(d)) == d
    assert str(ss.Deal(str(d).lower())) == str(d)


def test_bad_token_named_with_position():
    cards = FULL.split()
    cards[4] = "XY"
    with pytest.raises(ss.DealError, match=r"card 5: 'XY' is not a card"):
        ss.Deal(" ".join(cards))


def test_duplicate_named():
    cards = FULL.split()
    cards[10] = cards[3]
    with pytest.raises(ss.DealError, match=r"card 11: 4C is a duplicate \(already card 4\)"):
        ss.Deal(cards)


def test_missing_and_count():
    with pytest.raises(ss.DealError, match=r"this one 51; missing: KS"):
        ss.Deal(FULL.split()[:-1])
    with pytest.raises(ss.DealError, match=r"this one 0"):
        ss.Deal("")


def test_too_many_cards_is_a_duplicate():
    with pytest.raises(ss.DealError, match="duplicate"):
        ss.Deal(FULL + " AC")


@pytest.mark.parametrize("bad", [52, -1, 3.5, None, True])
def test_bad_items(bad):
    cards = list(range(51)) + [bad]
    with pytest.raises(ss.DealError, match="card 52"):
        ss.Deal(cards)


def test_deal_errors_are_value_errors():
    assert issubclass(ss.DealError, ValueError)
    with pytest.raises(ValueError):
        ss.Deal(12)
    with pytest.raises(ss.DealError):
        ss.random_deal("7")
    with pytest.raises(ss.DealError, match="deals seed 7's pack"):
        ss.random_deal(-7)


@given(st.text(max_size=200))
def test_parser_fuzz_never_crashes(text):
    try:
        d = ss.Deal(text)
    except ss.DealError:
        return
    assert sorted(d.cards) == list(range(52))


def test_move_text():
    assert str(Move.from_text("5H+6C")) == "6C+5H"
    assert str(Move.from_text("jh + qd+ks")) == "QD+JH+KS"  # ascending index order
    assert str(Move.from_text("KS")) == "KS"
    assert str(Move.from_text("Draw")) == "draw"
    m = Move.from_text("6C+5H")
    assert Move.from_code(m.code) == m
    assert Move.from_code(Move(word="recycle").code) == Move(word="recycle")


@pytest.mark.parametrize("bad", ["", "+", "5H+", "5H+5H", "5H+XX", "shuffle", "5H 6C"])
def test_bad_moves(bad):
    with pytest.raises(ss.MoveError):
        Move.from_text(bad)


def test_parse_moves_names_position():
    assert [str(m) for m in parse_moves("AD+TD, 4C+7D")] == ["AD+TD", "4C+7D"]
    with pytest.raises(ss.MoveError, match="move 2"):
        parse_moves(["AD+TD", "4C+ZZ"])


@pytest.mark.parametrize("text", ["0>²", "AS>²", "AS>٣"])
def test_pile_number_is_ascii_digits(text):
    with pytest.raises(ss.MoveError, match="the number of a pile"):
        Move.from_text(text)


@given(st.text(max_size=30))
def test_move_parser_fuzz(text):
    try:
        m = Move.from_text(text)
    except ss.MoveError:
        return
    assert Move.from_text(str(m)) == m


_PIECES = st.sampled_from([*CARD_NAMES, "as", "tD", "10h", "A♠", "ZZ", "A", "ASK", " ", ",", ", ",
                           "\n", "\t", "\u3000", "\x0b"])


@pytest.mark.core
@given(st.permutations(range(52)), st.lists(st.sampled_from([" ", ",", ", ", "\n", "\t", "  "]),
                                            min_size=53, max_size=53), st.integers(0, 2),
       st.lists(_PIECES, max_size=6), st.integers(0, 60))
def test_c_reader_reads_as_the_python_reader(pack, seps, case, junk, at):
    """deal.py reads the common pack text in C (_seeded.parse_plain). Where the C reader gives
    cards they must be the Python reader's; every plain pack text (any case, spaces or commas)
    takes the C path; and a text it passes on (None) is read or refused by Python as before."""
    from solitaire_solver import deal as deal_module
    from solitaire_solver.engine import _seeded

    names = [CARD_NAMES[c] for c in pack]
    names = [n.lower() if case == 1 else n if case == 0 else n[0] + n[1].lower() for n in names]
    plain = seps[0] + "".join(n + s for n, s in zip(names, seps[1:]))
    assert _seeded.parse_plain(plain) == tuple(pack)
    words = plain.split()
    text = " ".join(words[:at] + junk + words[at:])
    fast = _seeded.parse_plain(text)
    try:
        compiled, deal_module._C_SEEDED[:] = list(deal_module._C_SEEDED), [None]
        slow = deal_module.Deal(text).cards
    except ss.SolitaireError:
        slow = None
    finally:
        deal_module._C_SEEDED[:] = compiled
    assert fast is None or fast == slow


# Card indexes and names: a bad index or a non-text name is a CardError naming it.

def test_every_index_has_its_name():
    assert [ss.card_name(i) for i in range(52)] == list(CARD_NAMES)
    assert all(ss.card_index(ss.card_name(i)) == i for i in range(52))


@pytest.mark.parametrize("index", [-1, -52, 52, 99, True, False, 1.0, "3", None])
def test_card_name_refuses_a_bad_index(index):
    # -1 once wrapped round to KS, 52 raised IndexError
    with pytest.raises(ss.CardError, match=rf"not a card index: {re.escape(repr(index))}"):
        ss.card_name(index)


@pytest.mark.parametrize("given", [52, None, 1.5, ["AC"], b"AC"])
def test_card_index_refuses_what_is_not_text(given):
    # a non-str once raised AttributeError (.strip)
    with pytest.raises(ss.CardError, match=r"a card is a name such as 'TD', not ") as e:
        ss.card_index(given)
    assert repr(given) in str(e.value)
