"""Pictures (docs/pictures.md): every game's SVG names every card still in play exactly once, at
the start and mid-game; the answer page is one file that needs nothing from outside."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from lines import random_moves

import solitaire_solver as ss
from solitaire_solver.cards import CARD_NAMES, pretty
from solitaire_solver.cli import main as cli_main
from solitaire_solver.games.rules import replay
from solitaire_solver.pictures import SHAPES

SVG = "{http://www.w3.org/2000/svg}"

# Every game and preset (elevens-pysolfc and tens-pysolfc have a reserve), and the variants that
# change what is on the table.
CASES = [(name, {}) for name in dict.fromkeys(n for g in ss.GAMES for n in (g.name, *g.presets))
         ] + [
    ("nestor", {"reserve": "open"}),
    ("pyramid", {"passes": 1, "goal": "pyramid"}),
]
CASE_IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in v.items())}" for g, v in CASES]


def rules_of(game: str, variant: dict):
    """The reference rules of a game, alias or preset, under the variant given."""
    g, fixed = ss.get_game(game)
    return g.rules(g.variant(**{**fixed, **variant}))


def random_play(game: str, variant: dict, deal: ss.Deal, steps: int, seed: int) -> list:
    """A line of random legal moves (reference rules), ending early when no move is left."""
    rules = rules_of(game, variant)
    return random_moves(rules, rules.start(deal), random.Random(seed), steps)[0]


def cards_in_play(game: str, variant: dict, deal: ss.Deal, line: list) -> Counter:
    pos = replay(rules_of(game, variant), deal, line)
    if not hasattr(pos, "removed"):  # Montana: the cards in the places (the Aces are out)
        return Counter(CARD_NAMES[c] for c in pos.places if c is not None)
    return Counter(CARD_NAMES[c] for c in range(52) if not pos.removed >> c & 1)


def drawn_cards(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return [e for e in root.iter() if "data-card" in e.attrib]


def test_every_game_has_a_shape():
    for g in ss.GAMES:
        assert g.picture in SHAPES, g.name


@pytest.mark.parametrize(("game", "variant"), CASES, ids=CASE_IDS)
def test_the_svg_names_every_card_in_play_once(game, variant):
    for seed in range(6):
        deal = ss.Deal.from_seed(seed)
        for steps in (0, 3, 12, 60):
            line = random_play(game, variant, deal, steps, seed)
            svg = ss.render_svg(game, deal, variant, after=line)
            cards = drawn_cards(svg)
            assert Counter(e.get("data-card") for e in cards) == cards_in_play(
                game, variant, deal, line), (seed, steps)
            for e in cards:
                assert e.get("data-face") in ("up", "down")
                assert e.get("data-place")
                # A face-up card says what it is; a face-down one keeps it to itself.
                titles = [t.text for t in e.iter(SVG + "title")]
                if e.get("data-face") == "up":
                    assert titles == [pretty(CARD_NAMES.index(e.get("data-card")))]
                else:
                    assert titles == []


@pytest.mark.parametrize(("game", "variant"), CASES, ids=CASE_IDS)
def test_every_html_frame_names_every_card_in_play_once(game, variant):
    # Issue 44, item 3: under elevens-pysolfc and tens-pysolfc a card put into the reserve
    # (`KC>R`) was drawn nowhere, in the SVG and in every frame of the page after it.
    g, fixed = ss.get_game(game)
    var = g.variant(**{**fixed, **variant})
    for seed in range(3):
        deal = ss.Deal.from_seed(seed)
        line = random_play(game, variant, deal, 40, seed)
        # A line to step through, drawn as the page draws a best-score line that does not win.
        r = ss.Result(g.name, ss.Status.WON, moves=tuple(line), variant=var)
        svgs = frames(ss.render_html(game, deal, r))
        assert len(svgs) == len(line) + 1
        for k, svg in enumerate(svgs):
            assert Counter(e.get("data-card") for e in drawn_cards(svg)) == cards_in_play(
                game, variant, deal, line[:k]), (seed, k)


def test_a_card_in_the_reserve_is_drawn_there():
    deal = ss.Deal.from_seed(0)
    for game in ("elevens-pysolfc", "tens-pysolfc"):
        rules = rules_of(game, {})
        pos, line = rules.start(deal), []
        while not pos.reserve:
            moves = rules.moves(pos)
            m = next((m for m in moves if m.reserve), moves[0])
            line.append(m)
            pos = rules.apply(pos, m)
        places = {e.get("data-card"): e.get("data-place")
                  for e in drawn_cards(ss.render_svg(game, deal, after=line))}
        assert len(places) == 52
        assert [places[CARD_NAMES[c]] for c in pos.reserve] == ["reserve"] * len(pos.reserve)


def test_the_marked_cards_are_the_moves_cards():
    deal = ss.Deal.from_seed(4)
    line = random_play("fourteen", {}, deal, 5, 4)
    g, _ = ss.get_game("fourteen")
    pos = replay(g.rules({}), deal, line)
    move = g.rules({}).moves(pos)[0]
    svg = ss.render_svg("fourteen", deal, after=line, mark=move)
    marked = {e.get("data-card") for e in drawn_cards(svg) if e.get("data-marked") == "true"}
    assert marked == {CARD_NAMES[c] for c in move.cards}
    with pytest.raises(ss.MoveError, match="mark"):
        ss.render_svg("fourteen", deal, after=line, mark="KS+KH")


def test_what_is_face_up_is_what_a_player_sees():
    deal = ss.Deal.from_seed(2)
    faces = {e.get("data-card"): e.get("data-face")
             for e in drawn_cards(ss.render_svg("pyramid", deal))}
    # The pyramid and the stock's top card play; the rest of the stock lies face down.
    assert [faces[CARD_NAMES[c]] for c in deal.cards[:29]] == ["up"] * 29
    assert {faces[CARD_NAMES[c]] for c in deal.cards[29:]} == {"down"}
    elevens = {e.get("data-card"): e.get("data-face")
               for e in drawn_cards(ss.render_svg("elevens", deal))}
    assert [elevens[CARD_NAMES[c]] for c in deal.cards[:9]] == ["up"] * 9
    assert {elevens[CARD_NAMES[c]] for c in deal.cards[9:]} == {"down"}


def test_a_bad_input_is_named():
    with pytest.raises(ss.MoveError, match=r"move 1 \(KH\+KS\)"):
        ss.render_svg("elevens", ss.Deal.from_seed(1), after="KS+KH")
    with pytest.raises(ss.UnknownGameError):
        ss.render_svg("no-such-game", ss.Deal.from_seed(1))
    r = ss.solve("elevens", ss.Deal.from_seed(3))
    with pytest.raises(ss.SolitaireError, match="the result is for elevens"):
        ss.render_html("block-ten", ss.Deal.from_seed(3), r)
    with pytest.raises(ss.MoveError, match="move 1 of the answer"):
        ss.render_html("elevens", ss.Deal.from_seed(4), r)


def frames(page: str) -> list[str]:
    return re.findall(r'<div class="frame"[^>]*>(<svg.*?</svg>)</div>', page)


def assert_self_contained(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>")
    # Nothing fetched: no external src or href, no stylesheet or image links, no @import or url().
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page)
    assert not re.search(r"<(link|img|iframe|object|embed)\b", page)
    assert not re.search(r"<script[^>]*\bsrc=", page)
    assert "@import" not in page and "url(" not in page
    # Every reference inside the page points into the page (the suit symbols).
    ids = set(re.findall(r'\bid="([^"]+)"', page))
    assert set(re.findall(r'href="#([^"]+)"', page)) <= ids


def test_a_won_page_steps_through_every_move():
    deal = ss.Deal.from_seed(3)
    r = ss.solve("elevens", deal)
    page = ss.render_html("elevens", deal, r)
    assert_self_contained(page)
    svgs = frames(page)
    assert len(svgs) == len(r.moves) + 1
    assert f"Won in {len(r.moves)} moves" in page
    g, _ = ss.get_game("elevens")
    rules = g.rules(r.variant)
    pos = rules.start(deal)
    for k, svg in enumerate(svgs):
        cards = drawn_cards(svg)
        assert Counter(e.get("data-card") for e in cards) == Counter(
            CARD_NAMES[c] for c in range(52) if not pos.removed >> c & 1)
        marked = {e.get("data-card") for e in cards if e.get("data-marked") == "true"}
        if k < len(r.moves):
            assert marked == {CARD_NAMES[c] for c in r.moves[k].cards}
            pos = rules.apply(pos, r.moves[k])
        else:
            assert marked == set()
    assert page.count("<li><button") == len(r.moves)


def test_a_blocked_page_shows_the_stuck_position_and_the_proof():
    # A forced-line proof: its line is stepped through to the stuck position.
    deal = next(d for d in map(ss.Deal.from_seed, range(50))
                if ss.solve("elevens", d).blocked)
    r = ss.solve("elevens", deal)
    page = ss.render_html("elevens", deal, r)
    assert_self_contained(page)
    assert r.proof.sentence in page
    svgs = frames(page)
    assert len(svgs) == len(r.proof.moves) + 1
    g, _ = ss.get_game("elevens")
    stuck = replay(g.rules({}), deal, r.proof.moves)
    assert Counter(e.get("data-card") for e in drawn_cards(svgs[-1])) == Counter(
        CARD_NAMES[c] for c in range(52) if not stuck.removed >> c & 1)
    # A structural proof: the one position, and the sentence.
    deal = next(d for d in map(ss.Deal.from_seed, range(200))
                if (x := ss.solve("fourteen", d, max_states=1)).blocked
                and x.proof.kind == "structural")
    r = ss.solve("fourteen", deal)
    page = ss.render_html("fourteen", deal, r)
    assert r.proof.sentence in page and len(frames(page)) == 1


def test_an_unknown_page_says_so():
    deal = ss.Deal.from_seed(5)
    r = ss.solve("nestor", deal, max_states=1)
    assert r.status is ss.Status.UNKNOWN
    page = ss.render_html("nestor", deal, r)
    assert_self_contained(page)
    assert "Unknown: the state limit (1) was reached" in page
    assert len(frames(page)) == 1


def test_a_page_from_mid_game_starts_there():
    deal = ss.Deal.from_seed(3)
    full = ss.solve("elevens", deal)
    r = ss.solve("elevens", deal, after=full.moves[:4])
    page = ss.render_html("elevens", deal, r)
    assert "From the position after 4 moves" in page
    first = {e.get("data-card") for e in drawn_cards(frames(page)[0])}
    assert not first & {CARD_NAMES[c] for m in full.moves[:4] for c in m.cards}


def test_cli_show_writes_svg_and_html(tmp_path, capsys):
    svg, html = tmp_path / "p.svg", tmp_path / "p.html"
    assert cli_main(["show", "elevens", "--seed", "3", "--svg", str(svg), "--html",
                     str(html)]) == 0
    out = capsys.readouterr().out
    assert str(svg) in out and str(html) in out and "WON" in out
    assert len(drawn_cards(svg.read_text(encoding="utf-8"))) == 52
    assert_self_contained(html.read_text(encoding="utf-8"))
    # The page's exit code is the verdict's, as for solve: 1 for a block.
    blocked = next(s for s in range(50) if ss.solve("elevens", ss.Deal.from_seed(s)).blocked)
    assert cli_main(["show", "elevens", "--seed", str(blocked), "--html", str(html)]) == 1
    capsys.readouterr()
    assert cli_main(["show", "elevens", "--seed", "3", "--svg",
                     str(tmp_path / "no" / "such" / "dir.svg")]) == 3
    err = capsys.readouterr().err
    assert err.startswith("solitaire-solver: error: cannot write") and err.count("\n") == 1


# render_svg and render_html check their arguments as solve() does: bad moves are a MoveError
# naming the move's number, a bad variant a VariantError, and what is no Result is named.

RENDER_DEAL = ss.random_deal(1)


@pytest.mark.parametrize("render", [
    lambda after: ss.render_svg("pyramid", RENDER_DEAL, after=after),
    lambda after: ss.solve("pyramid", RENDER_DEAL, after=after),
])
def test_bad_moves_are_named_by_number_as_solve_names_them(render):
    with pytest.raises(ss.MoveError, match=r"move 2: not a move: 'foo'"):
        render("draw foo")


@pytest.mark.parametrize("variant", ["open", ["reserve"], 1])
def test_a_variant_that_is_no_dict_is_a_variant_error(variant):
    # "open" once raised "dictionary update sequence element #0 ..."
    with pytest.raises(ss.VariantError, match=rf"variant is a dict .*not {re.escape(repr(variant))}"):
        ss.render_svg("nestor", RENDER_DEAL, variant)


def test_variant_options_are_checked_as_solve_checks_them():
    with pytest.raises(ss.VariantError, match="nestor has no variant 'bogus'"):
        ss.render_svg("nestor", RENDER_DEAL, {"bogus": 1})
    with pytest.raises(ss.VariantError, match="'shut' is not one of closed, open"):
        ss.render_svg("nestor", RENDER_DEAL, {"reserve": "shut"})
    with pytest.raises(ss.VariantError, match="option names are text, not 1"):
        ss.render_svg("nestor", RENDER_DEAL, {1: "open"})
    assert ss.render_svg("nestor", RENDER_DEAL, {"reserve": "open"}).startswith("<svg")


@pytest.mark.parametrize("mark", ["", "KS+KH 4D+TS"])
def test_mark_is_exactly_one_move(mark):
    # "" once raised IndexError; two moves marked the first silently
    with pytest.raises(ss.MoveError, match=rf"mark is one move, not \d: {re.escape(repr(mark))}"):
        ss.render_svg("fourteen", RENDER_DEAL, mark=mark)


@pytest.mark.parametrize("result", ["foo", None, ["draw"]])
def test_render_html_names_a_result_that_is_not_one(result):
    # "foo" once raised AttributeError
    with pytest.raises(ss.SolitaireError, match=rf"result is what solve\(\) returned .*not "
                                                rf"{re.escape(repr(result))}"):
        ss.render_html("pyramid", RENDER_DEAL, result)


class _Status:
    value = '"><script>alert(1)</script>'


@pytest.mark.parametrize("status", ["won", _Status(), None])
def test_render_html_names_a_status_that_is_not_one(status):
    # Issue 44, item 8: a str status gave AttributeError; an object's value went unescaped into
    # the page.
    r = ss.Result("pyramid", status)
    with pytest.raises(ss.SolitaireError, match="the result's status is a Status"):
        ss.render_html("pyramid", RENDER_DEAL, r)


def test_render_html_refuses_a_variant_that_is_no_dict():
    r = ss.solve("pyramid", RENDER_DEAL)
    with pytest.raises(ss.VariantError, match="not 'foo'"):
        ss.render_html("pyramid", RENDER_DEAL, r, "foo")
    assert ss.render_html("pyramid", RENDER_DEAL, r, {}).startswith("<!DOCTYPE html>")
