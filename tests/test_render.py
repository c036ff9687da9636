"""render_svg and render_html check their arguments as solve() does: bad moves are a MoveError
naming the move's number, a bad variant a VariantError, and what is no Result is named."""

import re

import pytest

import solitaire_solver as ss

DEAL = ss.random_deal(1)


@pytest.mark.parametrize("render", [
    lambda after: ss.render_svg("pyramid", DEAL, after=after),
    lambda after: ss.solve("pyramid", DEAL, after=after),
])
def test_bad_moves_are_named_by_number_as_solve_names_them(render):
    with pytest.raises(ss.MoveError, match=r"move 2: not a move: 'foo'"):
        render("draw foo")


@pytest.mark.parametrize("variant", ["open", ["reserve"], 1])
def test_a_variant_that_is_no_dict_is_a_variant_error(variant):
    # "open" once raised "dictionary update sequence element #0 ..."
    with pytest.raises(ss.VariantError, match=rf"variant is a dict .*not {re.escape(repr(variant))}"):
        ss.render_svg("nestor", DEAL, variant)


def test_variant_options_are_checked_as_solve_checks_them():
    with pytest.raises(ss.VariantError, match="nestor has no variant 'bogus'"):
        ss.render_svg("nestor", DEAL, {"bogus": 1})
    with pytest.raises(ss.VariantError, match="'shut' is not one of closed, open"):
        ss.render_svg("nestor", DEAL, {"reserve": "shut"})
    with pytest.raises(ss.VariantError, match="option names are text, not 1"):
        ss.render_svg("nestor", DEAL, {1: "open"})
    assert ss.render_svg("nestor", DEAL, {"reserve": "open"}).startswith("<svg")


@pytest.mark.parametrize("mark", ["", "KS+KH 4D+TS"])
def test_mark_is_exactly_one_move(mark):
    # "" once raised IndexError; two moves marked the first silently
    with pytest.raises(ss.MoveError, match=rf"mark is one move, not \d: {re.escape(repr(mark))}"):
        ss.render_svg("fourteen", DEAL, mark=mark)


@pytest.mark.parametrize("result", ["foo", None, ["draw"]])
def test_render_html_names_a_result_that_is_not_one(result):
    # "foo" once raised AttributeError
    with pytest.raises(ss.SolitaireError, match=rf"result is what solve\(\) returned .*not "
                                                rf"{re.escape(repr(result))}"):
        ss.render_html("pyramid", DEAL, result)


def test_render_html_refuses_a_variant_that_is_no_dict():
    r = ss.solve("pyramid", DEAL)
    with pytest.raises(ss.VariantError, match="not 'foo'"):
        ss.render_html("pyramid", DEAL, r, "foo")
    assert ss.render_html("pyramid", DEAL, r, {}).startswith("<!DOCTYPE html>")
