"""Moves built from indexes and core codes: what no move is raises a MoveError naming it."""

import pytest

import solitaire_solver as ss
from solitaire_solver.moves import (
    MAX_PILE,
    MAX_PLACE,
    PILE_SHIFT,
    RESERVE_FLAG,
    WORDS,
    Move,
    parse_moves,
    word_code,
)


def test_remove_sorts_its_cards_as_from_text_does():
    m = Move.remove([12, 0])
    assert m == Move.from_text("KC+AC") and str(m) == "AC+KC"
    assert Move.from_text(str(m)) == m


def test_remove_refuses_a_repeated_card():
    # once built "2C+2C", a move from_text refuses
    with pytest.raises(ss.MoveError, match=r"2C \(1\) is twice in \[1, 1\]"):
        Move.remove([1, 1])


@pytest.mark.parametrize("card", [99, 52, -1, True, 1.0, "AC"])
def test_remove_refuses_what_is_not_a_card_index(card):
    with pytest.raises(ss.MoveError, match=rf"not a card index: {card!r} in the removal"):
        Move.remove([0, card])


def test_remove_refuses_no_cards_and_no_list():
    # from_text reads no move from "": an empty removal is no move either
    with pytest.raises(ss.MoveError, match="at least one card"):
        Move.remove([])
    with pytest.raises(ss.MoveError, match="list of card indexes, not 5"):
        Move.remove(5)


@pytest.mark.parametrize("card", [52, -1, True])
def test_one_card_moves_refuse_a_bad_card(card):
    with pytest.raises(ss.MoveError, match=rf"not a card index: {card!r}"):
        Move.to_reserve(card)
    with pytest.raises(ss.MoveError, match=rf"not a card index: {card!r}"):
        Move.to_pile(card, 1)


def test_every_kind_of_move_round_trips_through_its_code():
    moves = ([Move(word=w) for w in WORDS] + [Move.remove([c]) for c in range(52)]
             + [Move.remove([0, 12, 51]), Move.to_reserve(51)]
             + [Move.to_pile(7, p) for p in range(1, MAX_PILE + 1)]
             + [Move.to_place(7, k, n) for k in "FP" for n in range(1, MAX_PLACE + 1)])
    for m in moves:
        assert Move.from_code(m.code) == m
        assert ss.moves.from_codes([m.code]) == [m]


@pytest.mark.parametrize("code", [-1, -(1 << 63), 1 << 64])
def test_from_code_refuses_a_code_out_of_range(code):
    # -1 once read as AC>R
    with pytest.raises(ss.MoveError, match=rf"not a move code: {code} "):
        Move.from_code(code)


@pytest.mark.parametrize("code", [
    0,                                            # no card, no word
    word_code("draw") | word_code("deal"),        # two words
    word_code("draw") | 1,                        # a word with a card
    RESERVE_FLAG,                                 # a reserve move of no card
    RESERVE_FLAG | 0b11,                          # ... of two cards
    RESERVE_FLAG | 1 << PILE_SHIFT | 1,           # into the reserve and onto pile 1
    (MAX_PILE + 2 * MAX_PLACE + 1) << PILE_SHIFT | 1,  # past the last pile, F and P
    3 << PILE_SHIFT | 0b11,                       # two cards onto one pile
    word_code("redeal") | 1 << PILE_SHIFT,        # a word onto a pile
])
def test_from_code_refuses_a_code_no_move_has(code):
    for _ in range(2):  # the cache of known moves must not keep it either
        with pytest.raises(ss.MoveError, match=rf"not a move code: {code} .*no move has it"):
            Move.from_code(code)
    with pytest.raises(ss.MoveError, match=rf"not a move code: {code} "):
        ss.moves.from_codes([1, code])


@pytest.mark.parametrize("code", [True, 1.0, "1", None])
def test_from_code_refuses_what_is_not_an_integer(code):
    with pytest.raises(ss.MoveError, match=rf"a move code is an integer, not {code!r}"):
        Move.from_code(code)


def test_spaces_around_the_arrow_keep_a_move_whole():
    # Before: "4H > 1" in a line of moves was read as three moves, the second of them ">".
    assert parse_moves("TC+3D 4H > 1, JS >R  QC + KH") == [
        Move.from_text("TC+3D"), Move.from_text("4H>1"), Move.from_text("JS>R"),
        Move.from_text("QC+KH")]
