"""Card indexes and names: a bad index or a non-text name is a CardError naming it."""

import re

import pytest

import solitaire_solver as ss
from solitaire_solver.cards import CARD_NAMES


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
