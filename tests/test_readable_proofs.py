"""Proofs a person can read (issue 17, item 6): where a pruning rule ends the search at the root,
the proof names the rule and the cards, and verify() checks that sentence's claim."""

from __future__ import annotations

import dataclasses

import pytest
from lines import random_moves

import solitaire_solver as ss
from solitaire_solver.cards import CARD_NAMES
from solitaire_solver.deal import Deal
from solitaire_solver.engine.backend import core_module
from solitaire_solver.games import GAMES, get_game
from solitaire_solver.games.pyramid.game import waiting_sentence
from solitaire_solver.games.rules import replay
from solitaire_solver.result import BlockProof, Result, key_to_json

PYRAMID, _ = get_game("pyramid")


def test_pyramid_seed_4_says_which_cards_cannot_leave():
    # Before: "no line of play wins even with unlimited passes: a search of 2 sets of removed
    # cards found none". AS and AD each need a Queen they can meet: QH lies under both, QS and QD
    # are above or under them, so only QC (in the stock) is left for the two of them.
    deal = Deal.from_seed(4)
    r = ss.solve("pyramid", deal)
    assert r.blocked and r.proof.kind == "structural"
    assert r.proof.details["cards"] == ["AS", "AD"]
    assert r.proof.details["partners"] == ["QC"]
    s = r.proof.sentence
    assert s.startswith("AS (row 2 place 2) and AD (row 5 place 2) cannot both be removed")
    assert "the only Queen" in s and "QC" in s and "QH" in s
    assert ss.verify("pyramid", deal, r).ok is True



def test_pyramid_sentence_says_an_ace():
    # PySolFC's Pyramid number 10**20: QH and QS each need an Ace, and only AD can meet them.
    # The sentence once read "each leaves only with a Ace of its own".
    r = ss.solve("pyramid-pysolfc", ss.pysolfc_deal("pyramid", 10**20))
    assert r.blocked and r.proof.details["cards"] == ["QH", "QS"]
    assert "each leaves only with an Ace of its own" in r.proof.sentence
    assert "the only Ace that can be available" in r.proof.sentence


def test_pyramid_proof_written_when_read_pickles_and_compares_whole():
    # The sentence and details are written on first reading (result.py, _Lazy): a proof
    # pickled before anyone read them (a survey worker's) still carries them, and compares equal
    # to the one read in place.
    import pickle

    deal = Deal.from_seed(4)
    sent = pickle.loads(pickle.dumps(ss.solve("pyramid", deal)))
    here = ss.solve("pyramid", deal)
    assert sent.proof.details["partners"] == ["QC"] and sent.proof.sentence.startswith("AS ")
    assert sent == here and sent.proof.to_dict() == here.proof.to_dict()
    assert ss.verify("pyramid", deal, sent).ok is True

@pytest.mark.parametrize("tamper", [
    lambda p: dataclasses.replace(p, sentence=p.sentence.replace("AD", "AH")),
    lambda p: dataclasses.replace(p, details={**p.details, "cards": ["AS", "AH"]}),
    lambda p: dataclasses.replace(p, details={**p.details, "cards": ["AS"]}),
    lambda p: dataclasses.replace(p, details={**p.details, "partners": []}),
    lambda p: dataclasses.replace(p, details={**p.details, "cards": ["AS", "QC"]}),
    lambda p: dataclasses.replace(p, details={**p.details, "cards": ["AS", "XX"]}),
    lambda p: dataclasses.replace(p, details={**p.details, "cards": "AS"}),
])
def test_pyramid_partner_claim_resists_tampering(tamper):
    deal = Deal.from_seed(4)
    proof = ss.solve("pyramid", deal).proof
    assert ss.verify("pyramid", deal, tamper(proof)).ok is False


def test_pyramid_partner_claim_is_checked_under_the_variant():
    # AH (row 7 place 7) meets QS and QD, so AS and AH are not short of Queens: the claim made
    # for one pair of cards does not carry over to another.
    deal = Deal.from_seed(4)
    proof = ss.solve("pyramid", deal).proof
    forged = dataclasses.replace(proof, details={"rule": "partners", "cards": ["AS", "AH"],
                                                 "partners": ["QC"]})
    assert ss.verify("pyramid", deal, forged).ok is False
    # Under goal `pyramid` only the pyramid's cards must leave: the same two Aces still cannot.
    r = ss.solve("pyramid", deal, goal="pyramid")
    assert r.proof.kind == "structural" and ss.verify("pyramid", deal, r, goal="pyramid").ok


@pytest.mark.core
def test_pyramid_root_cut_by_the_dead_rule_is_always_explained():
    # Wherever the core's dead test (MATCHING, or DEADLOCK: about 1 deal in 100 besides) fires at
    # the start, the proof names the cards and checks; where it does not, there is no structural
    # proof. Both goals, seeds 0..2999.
    core = core_module("games.pyramid._core")
    fired = waiting = 0
    for goal in ("all", "pyramid"):
        var = PYRAMID.variant(goal=goal)
        for seed in range(3000):
            deal = Deal.from_seed(seed)
            dead = core.dead(deal.cards, 0, 3, goal == "all")
            proof = PYRAMID.structural_proof(deal, var)
            assert (proof is not None) == dead, (goal, seed)
            fired += dead
            if proof is not None and proof.details["rule"] == "waiting":
                waiting += 1
                assert not core.dead(deal.cards, 0, 3, goal == "all", deadlock=False)
                assert ss.verify(PYRAMID, deal, proof, goal=goal).ok is True
            elif proof is not None and seed % 10 == 0:
                assert ss.verify(PYRAMID, deal, proof, goal=goal).ok is True
    assert fired > 300 and waiting > 30


def test_pyramid_waiting_cards_state_their_steps():
    # Seed 356: no Jack is in the stock, so 2C waits; the stock's Sevens, 7D and 7S, are the
    # only ones 6C and 6H (stock cards, which must go with goal all) can meet, so 6S waits on
    # 7C (TAKEN). 7C covers 2C, so 7C leaves before 2C and 6S (with it) does too (FOLLOW); 6S
    # covers 2C's Jacks, JD and JS, so they leave before 2C, its only partners.
    deal = Deal.from_seed(356)
    r = ss.solve("pyramid", deal)
    assert r.blocked and r.proof.kind == "structural"
    assert r.proof.details == {"rule": "waiting",
                               "steps": [["6S", ["6D", "QS"], ["2C"]], ["2C", []]]}
    s = r.proof.sentence
    assert s.startswith("2C (row 2 place 2) has no partner left in the stock or the waste, and "
                        "6S (row 2 place 1) has 7D and 7S left in the stock or the waste, but they "
                        "are taken (6C and 6H can meet only 7D and 7S)")
    assert "6S can leave only with 7C, and 6D and QS must leave before it, so before 6S, and 7C " \
           "must leave before 2C, so 6S must too" in s
    assert s.endswith("2C can meet only JD and JS, which must leave before 2C, so 2C can never "
                      "leave")
    assert ss.verify("pyramid", deal, r).ok is True
    # The proofs the rule gave before TAKEN and before FOLLOW still check, with their sentences:
    # 2C can leave only with JD or JS, which both cover 6S; and 7C can leave only with 6S,
    # which JC, JD, 2S and JS cover, while 7C covers 2C.
    rules = PYRAMID.rules(PYRAMID.variant())
    for old in ([["2C", [], ["6S"]], ["7C", []]], [["7C", ["JC", "JD", "2S", "JS"]], ["2C", []]]):
        steps = [(CARD_NAMES.index(x), *([CARD_NAMES.index(c) for c in cs] for cs in rest))
                 for x, *rest in old]
        before = BlockProof(kind="structural",
                            sentence=waiting_sentence(rules, rules.start(deal), steps),
                            details={"rule": "waiting", "steps": old})
        assert ss.verify("pyramid", deal, before).ok is True, old
    assert "7C can leave only with 6S, and JC, JD, 2S and JS must leave before it" in \
        before.sentence
    # Seed 64: a cycle. 6H can leave only with 7C, which 6D covers; 6D only with 7D or 7H,
    # which 6H covers.
    r64 = ss.solve("pyramid", Deal.from_seed(64))
    assert r64.proof.details == {"rule": "waiting", "steps": [["6H", ["6D"]], ["6D", []]]}
    assert ss.verify("pyramid", Deal.from_seed(64), r64).ok is True
    # Tampered: a card with a partner in the stock, a fact that does not hold, steps that end
    # with every card free to leave, a step after the end, a card that does not exist, the
    # sentence.
    for steps, why in (([["8S", []]], "without a partner"),
                       ([["7C", ["JC", "JD", "2S", "JS", "6D"]], ["2C", []]], "need not leave"),
                       ([["2C", [], ["6S", "7C"]], ["7C", []]], "not every partner of 2C"),
                       ([["2C", [], []], ["7C", []]], "not a card and one or two lists"),
                       ([["2C", [], ["6S"], []], ["7C", []]], "not a card and one or two lists"),
                       ([["2C", [], ["6S"]], ["7C", [], ["6S"]]], "no partner left"),
                       ([["7C", ["JC"]]], "no card that can never leave"),
                       ([["7C", ["JC", "JD", "2S", "JS"]], ["2C", []], ["2C", []]], "goes on"),
                       ([["ZZ", []]], "not a card"), ("7C", "lists its steps"),
                       ([], "lists its steps")):
        bad = dataclasses.replace(r.proof, details={"rule": "waiting", "steps": steps})
        v = ss.verify("pyramid", deal, bad)
        assert v.ok is False and why in v.reason, (steps, v.reason)
    bad = dataclasses.replace(r.proof, sentence=r.proof.sentence.replace("6S", "6H", 1))
    assert ss.verify("pyramid", deal, bad).ok is False


def test_pyramid_without_stock_waste_pairs_names_two_stock_cards():
    # With stock-waste pairs off, two stock cards never leave together: an Ace whose Queens are
    # all in the stock, or beneath or above it, is stuck. Seeds 0..199 hold such a deal.
    var = PYRAMID.variant(stock_waste_pairs=False)
    found = 0
    for seed in range(200):
        deal = Deal.from_seed(seed)
        if PYRAMID.structural_proof(deal, PYRAMID.variant()) is not None:
            continue
        proof = PYRAMID.structural_proof(deal, var)
        if proof is None:
            continue
        found += 1
        assert "stock" in proof.sentence
        assert ss.verify(PYRAMID, deal, proof, stock_waste_pairs=False).ok is True
        assert ss.verify(PYRAMID, deal, proof).ok is False  # with those pairs it does not hold
    assert found


FOURTEEN_REST = ["5D 6D 8D 9D", "TD JD QD 2H", "3H 4H 5H 6H", "8H 9H TH JH",
                 "QH 2S 3S 4S", "5S 6S 8S 9S", "TS JS QS 3D", "4D 2D 4C 6C"]


@pytest.mark.parametrize("first, cards", [
    (["7C 7D 7H AC 2C", "3C 5C 7S 8C 9C", "TC JC QC KC AD", "KD AH KH AS KS"], "7C 7D 7H"),
    (["AC AD KC KD KH", "2C 3C 5C 7C 8C", "9C TC JC 7D AH", "QC AS 7H KS 7S"], "AC AD KC KD KH"),
])
def test_fourteen_structural_sentence_names_the_cards(first, cards):
    # Fourteen's dead rule at the start (one pile holds too many cards of a pair of ranks) is
    # its structural proof; the sentence names the pile's cards of those ranks, and verify
    # refuses a card list that is not the pile's.
    text = "\n".join(first + FOURTEEN_REST)
    r = ss.solve("fourteen", text)
    assert r.proof.kind == "structural" and f"({cards})" in r.proof.sentence
    assert ss.verify("fourteen", text, r).ok is True
    wrong = cards.split()[:-1] + ["QS"]
    forged = dataclasses.replace(r.proof, details={**r.proof.details, "cards": wrong},
                                 sentence=r.proof.sentence.replace(cards, " ".join(wrong)))
    assert ss.verify("fourteen", text, forged).ok is False


SLOT_GAMES = [g for g in GAMES if g.core == "games.slots._core" and g.table_of(g.variant()).confluent]


@pytest.mark.parametrize("game", SLOT_GAMES, ids=lambda g: g.name)
def test_slot_stuck_sentence_names_the_showing_cards(game):
    from solitaire_solver.cards import CARD_NAMES

    for seed in range(40):
        deal = Deal.from_seed(seed)
        r = ss.solve(game, deal)
        if r.blocked:
            break
    assert r.blocked and r.proof.kind == "forced-line"
    showing = r.proof.details["showing"]
    assert showing and all(name in r.proof.sentence for name in showing)
    assert ss.verify(game, deal, r).ok is True
    # Name a card that is not showing: rejected.
    other = next(n for n in CARD_NAMES if n not in r.proof.sentence)
    forged = dataclasses.replace(r.proof, sentence=r.proof.sentence.replace(showing[0], other, 1))
    assert ss.verify(game, deal, forged).ok is False


# -- certificates in JSON (issue 44, item 2) --------------------------------------------------------
# Every game's and preset's certificate, written by to_json() and read back by from_json(), is the
# same set of the reference rules' keys and checks; one key fewer does not. Baroness with to_empty
# keys hold None (to_json once failed sorting them), Fifteens under PySolFC's rules nested tuples
# (verify once called the JSON form "not a position key").

EVERY_NAME = list(dict.fromkeys(n for g in GAMES for n in (g.name, *g.presets)))


def _certified_json(name: str):
    """A BLOCKED result with a certificate, from a deal's start or a random line's position."""
    import random

    g, fixed = ss.get_game(name)
    rules = g.rules(g.variant(**fixed))
    for seed in range(40):
        deal = Deal.from_seed(seed)
        rng = random.Random(seed)
        pos, line = rules.start(deal), []
        for _ in range(10):
            r = ss.solve(name, deal, after=line, certificate=True, max_states=20000)
            if r.blocked and r.proof.certificate is not None and r.proof.states > 1:
                return deal, r
            more, pos = random_moves(rules, pos, rng, 6)
            line += more
    raise AssertionError(f"no certified block for {name}")


#: Games whose every block is proved structurally before any search (Clock: its forced line, a
#: structural proof), so no answer of theirs holds a certificate; test_every_answer_survives_...
#: below reads their proofs back.
NO_CERTIFICATE = ("clock",)


@pytest.mark.parametrize("name", [n for n in EVERY_NAME if n not in NO_CERTIFICATE])
def test_every_certificate_survives_json_and_checks(name):
    import json

    deal, r = _certified_json(name)
    text = r.to_json()
    back = Result.from_json(text)
    assert back.proof.certificate == r.proof.certificate
    assert back.to_dict() == r.to_dict() and back.after == r.after
    assert ss.verify(name, deal, back, after=back.after).ok is True
    # The listed keys checked as an exhaustive proof (a forced line's proof checks its line).
    listed = json.loads(text)["proof"]["certificate"]
    rules = ss.get_game(name)[0].rules(back.variant)
    start_key = key_to_json(rules.key(replay(rules, deal, back.after)))
    for cert in (listed, back.proof.certificate):
        v = ss.verify(name, deal, BlockProof(kind="exhaustive", sentence="", certificate=cert),
                      after=back.after)
        assert v.ok is True, v
    # Tampered: one key other than the start's left out.
    dropped = next(k for k in reversed(listed) if k != start_key)
    fewer = [k for k in listed if k != dropped]
    v = ss.verify(name, deal, BlockProof(kind="exhaustive", sentence="", certificate=fewer),
                  after=back.after)
    assert v.ok is False and "certificate" in v.reason
    if r.proof.kind == "exhaustive":
        data = json.loads(text)
        data["proof"]["certificate"] = fewer
        tampered = Result.from_json(json.dumps(data))
        assert ss.verify(name, deal, tampered, after=back.after).ok is False
        assert "certificate" in ss.verify(name, deal, tampered, after=back.after).reason


#: Games whose deals the pure-Python search decides from the start only past the test's states
#: (Calculation: the core's restarts find its wins); they need the core here.
ANSWER_NEEDS_CORE = ("calculation", "calculation-pysolfc")


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.core) if n in ANSWER_NEEDS_CORE
                                  else n for n in EVERY_NAME])
def test_every_answer_survives_json_and_checks(name):
    # Won lines, forced lines and structural proofs read back from JSON check as they were.
    checked = set()
    decided = left_open = 0
    # The first six deals each game decides within the limit; Montana's full deal seldom does,
    # so a game stops after twenty deals left open (Montana has decided a block and two wins).
    for seed in range(60):
        if decided == 6 or left_open == 20:
            break
        deal = Deal.from_seed(seed)
        r = ss.solve(name, deal, max_states=20000)
        if r.status is ss.Status.UNKNOWN:
            left_open += 1
            continue
        decided += 1
        back = Result.from_json(r.to_json())
        assert back.to_dict() == r.to_dict()
        v = ss.verify(name, deal, back, max_states=20000)
        assert v.ok is not False, (seed, v)
        if v.ok:
            checked.add(r.proof.kind if r.proof else "won")
    assert checked, name
