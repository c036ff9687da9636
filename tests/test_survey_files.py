"""Survey files and workers under abuse: bad --out paths, records of the wrong shape, files without
a header, seeds recorded twice, damaged last lines, and pool workers left behind by kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solitaire_solver as ss
from solitaire_solver import cli
from solitaire_solver.errors import SolitaireError
from solitaire_solver.games import get_game
from solitaire_solver.survey.records import header_line
from solitaire_solver.survey.records import read as read_records

needs_batch = pytest.mark.core  # the batch decider is the compiled core's


def survey_file(tmp_path, n=10, name="s.jsonl", **kw):
    path = tmp_path / name
    ss.survey("elevens", seeds=range(n), workers=1, out=str(path), **kw)
    return path


def lines(path):
    return path.read_text().splitlines()


def good(seed=3, **change):
    """A record of the current format (the one survey() writes) with fields changed."""
    rec = {"seed": seed, "game": "elevens", "status": "blocked", "moves": 4, "cards_left": 44,
           "states": 5, "ms": 0.004}
    rec.update(change)
    return rec


def without(key):
    rec = good()
    del rec[key]
    return rec


# -- --out paths ------------------------------------------------------------------------------------

def test_out_naming_a_folder_is_refused(tmp_path, capsys):
    with pytest.raises(SolitaireError, match="folder"):
        ss.survey("elevens", seeds=range(5), workers=1, out=str(tmp_path))
    assert cli.main(["survey", "elevens", "--count", "5", "--workers", "1", "--quiet",
                     "--out", str(tmp_path)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "folder" in err and str(tmp_path) in err


def test_out_in_a_missing_folder_is_refused(tmp_path, capsys):
    target = tmp_path / "no-such-folder" / "s.jsonl"
    with pytest.raises(SolitaireError, match="no-such-folder"):
        ss.survey("elevens", seeds=range(5), workers=1, out=str(target))
    assert cli.main(["survey", "elevens", "--count", "5", "--workers", "1", "--quiet",
                     "--out", str(target)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such-folder" in err
    assert not target.parent.exists()


# -- every record is checked -------------------------------------------------------------------

BAD_RECORDS = [
    ("null", "not a JSON object"),
    ("3", "not a JSON object"),
    ("[1, 2]", "not a JSON object"),
    ('"seed"', "not a JSON object"),
    (json.dumps(good(seed="3")), "seed"),
    (json.dumps(good(seed=3.0)), "seed"),
    (json.dumps(good(seed=True)), "seed"),
    (json.dumps(without("seed")), "seed or deal"),
    (json.dumps({**good(), "deal": "AS 2S"}), "seed or deal"),
    (json.dumps(good(deal="AS 2S 3S", seed=None)).replace('"seed": null, ', ""), "deal"),
    (json.dumps(without("status")), "status"),
    (json.dumps(good(status="lost")), "status"),
    (json.dumps(good(status=None)), "status"),
    (json.dumps(good(status="won", cards_left=3)), "cards_left"),
    (json.dumps(good(status="unknown")), "cards_left"),
    (json.dumps(good(ms=float("nan"))), "finite"),
    (json.dumps(good(ms=float("inf"))), "finite"),
    (json.dumps(good()).replace("0.004", "1e999"), "finite"),
    (json.dumps(good(ms=-1)), "ms"),
    (json.dumps(good(ms="1")), "ms"),
    (json.dumps(good(states=-1)), "states"),
    (json.dumps(good(states=2.5)), "states"),
    (json.dumps(good(moves=-4)), "moves"),
    (json.dumps(good(cards_left=-2)), "cards_left"),
    (json.dumps(good(cards_left=53)), "cards_left"),
    (json.dumps(without("moves")), "moves"),
    (json.dumps(good(game="block-ten")), "block-ten"),
    (json.dumps(without("game")), "game"),
    (json.dumps(good(colour="red")), "colour"),
    ("{not json", "not JSON"),
    ("[" * 100_000, "not JSON"),  # nested past Python's recursion
    ("x" * (1 << 20), "longer than 1,048,576 bytes"),  # read no further than a survey's line
]


@pytest.mark.parametrize("where", ["middle", "last"])
@pytest.mark.parametrize("line, reason", BAD_RECORDS)
def test_a_bad_record_is_refused_with_file_line_and_reason(tmp_path, line, reason, where):
    path = survey_file(tmp_path, 10)
    text = lines(path)
    if where == "middle":
        text.insert(4, line)
        lineno = 5
    else:
        text.append(line)
        lineno = len(text)
    path.write_text("\n".join(text) + "\n")
    before = path.read_bytes()
    with pytest.raises(SolitaireError) as e:
        ss.survey("elevens", seeds=range(20), workers=1, out=str(path))
    msg = str(e.value)
    assert f"{path}, line {lineno}:" in msg and reason in msg
    assert path.read_bytes() == before  # nothing deleted, nothing added


def test_cli_refuses_a_bad_record_in_one_line(tmp_path, capsys):
    path = survey_file(tmp_path, 10)
    with open(path, "a") as f:
        f.write("null\n")
    assert cli.main(["survey", "elevens", "--count", "20", "--workers", "1", "--quiet",
                     "--out", str(path)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}, line 12:" in err and "Traceback" not in err


def test_errors_are_survey_file_errors(tmp_path):
    from solitaire_solver.survey.runner import SurveyFileError

    assert issubclass(SurveyFileError, SolitaireError)
    path = survey_file(tmp_path, 3)
    with open(path, "a") as f:
        f.write("[]\n")
    with pytest.raises(SurveyFileError):
        ss.survey("elevens", seeds=range(5), workers=1, out=str(path))
    with pytest.raises(SurveyFileError):
        ss.survey("elevens", seeds=range(5), workers=1, out=str(tmp_path))


# -- the header ---------------------------------------------------------------------------------

def test_a_file_without_header_is_refused(tmp_path):
    path = survey_file(tmp_path, 10)
    path.write_text("\n".join(lines(path)[1:]) + "\n")
    before = path.read_bytes()
    with pytest.raises(SolitaireError, match=r"line 1: .*header"):
        ss.survey("elevens", seeds=range(20), workers=1, out=str(path))
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_survey_is_left_alone(tmp_path):
    # One line without its newline, as a kill would leave a header: but it is not one, so it is
    # the user's file, not a survey cut short.
    path = tmp_path / "notes.txt"
    path.write_text("my notes")
    with pytest.raises(SolitaireError, match="line 1"):
        ss.survey("elevens", seeds=range(5), workers=1, out=str(path))
    assert path.read_text() == "my notes"


@pytest.mark.parametrize("header, reason", [
    ({"survey": "elevens", "variant": {}, "format": 99}, "format 99"),
    ({"survey": "elevens", "variant": []}, "variant"),
    ({"survey": 3, "variant": {}}, "survey"),
    ({"survey": "elevens", "variant": {}, "extra": 1}, "extra"),
])
def test_a_bad_header_is_refused(tmp_path, header, reason):
    path = survey_file(tmp_path, 5)
    path.write_text("\n".join([json.dumps(header)] + lines(path)[1:]) + "\n")
    before = path.read_bytes()
    with pytest.raises(SolitaireError, match=reason) as e:
        ss.survey("elevens", seeds=range(5), workers=1, out=str(path))
    assert f"{path}, line 1:" in str(e.value)
    assert path.read_bytes() == before


def test_a_second_header_of_another_survey_is_refused(tmp_path):
    path = survey_file(tmp_path, 5)
    with open(path, "a") as f:
        f.write(json.dumps({"survey": "block-ten", "variant": {}, "format": 2}) + "\n")
    with pytest.raises(SolitaireError, match="line 7: .*block-ten"):
        ss.survey("elevens", seeds=range(5), workers=1, out=str(path))


def test_files_joined_end_to_end_resume(tmp_path):
    # Two parts of one survey joined with `cat`: the second header repeats the first.
    a = survey_file(tmp_path, 50, name="a.jsonl")
    b = tmp_path / "b.jsonl"
    ss.survey("elevens", seeds=range(50, 90), workers=1, out=str(b))
    joined = tmp_path / "ab.jsonl"
    joined.write_bytes(a.read_bytes() + b.read_bytes())
    r = ss.survey("elevens", seeds=range(100), workers=1, out=str(joined))
    assert r.resumed == 90 and r.deals == 100
    assert r.won == ss.survey("elevens", seeds=range(100), workers=1).won


# -- records say their game ------------------------------------------------------------------

@pytest.mark.parametrize("kw", [{}, {"max_states": 10**6}])  # batch and generic paths
@pytest.mark.parametrize("by_seed", [True, False])
def test_records_name_their_game(tmp_path, kw, by_seed):
    path = tmp_path / "g.jsonl"
    src = {"seeds": range(30)} if by_seed else {"deals": [str(ss.random_deal(s)) for s in range(9)]}
    ss.survey("block-ten", workers=1, out=str(path), **src, **kw)
    header, *recs = (json.loads(x) for x in lines(path))
    assert header == {"survey": "block-ten", "variant": {}, "format": 2}
    assert recs and all(r["game"] == "block-ten" for r in recs)


def test_files_of_the_previous_format_are_resumed(tmp_path):
    # Format 1: the header has no "format" and the records no "game".
    path = survey_file(tmp_path, 40)
    old = [json.dumps({"survey": "elevens", "variant": {}})]
    for x in lines(path)[1:]:
        rec = json.loads(x)
        del rec["game"]
        old.append(json.dumps(rec))
    path.write_text("\n".join(old) + "\n")
    r = ss.survey("elevens", seeds=range(60), workers=1, out=str(path))
    assert r.resumed == 40 and r.deals == 60
    again = ss.survey("elevens", seeds=range(60), workers=1, out=str(path))
    assert again.resumed == 60 and again.won == r.won
    with open(path, "a") as f:
        f.write(json.dumps(good(game="block-ten", seed=100)) + "\n")
    with pytest.raises(SolitaireError, match="block-ten"):
        ss.survey("elevens", seeds=range(60), workers=1, out=str(path))


# -- a seed recorded twice ---------------------------------------------------------------------

def test_a_seed_recorded_twice_with_different_results_is_refused(tmp_path):
    path = survey_file(tmp_path, 10)
    rec = json.loads(lines(path)[4])
    seed = rec["seed"]
    rec["states"] += 1
    with open(path, "a") as f:
        f.write(json.dumps(rec) + "\n")
    before = path.read_bytes()
    with pytest.raises(SolitaireError, match=rf"line 12: seed {seed} .* line 5"):
        ss.survey("elevens", seeds=range(10), workers=1, out=str(path))
    assert path.read_bytes() == before


def test_a_seed_recorded_twice_alike_counts_once(tmp_path):
    path = survey_file(tmp_path, 10)
    rec = json.loads(lines(path)[4])
    rec["ms"] = rec["ms"] * 3 + 1  # another run's timing of the same deal
    with open(path, "a") as f:
        f.write(json.dumps(rec) + "\n")
    r = ss.survey("elevens", seeds=range(10), workers=1, out=str(path))
    assert r.resumed == 10 and r.deals == 10


def test_a_deal_recorded_twice_with_different_results_is_refused(tmp_path):
    path = tmp_path / "d.jsonl"
    deals = [str(ss.random_deal(s)) for s in range(6)]
    ss.survey("elevens", deals=deals, workers=1, out=str(path))
    rec = json.loads(lines(path)[2])
    rec["status"] = "won" if rec["status"] != "won" else "blocked"
    rec["cards_left"] = 0 if rec["status"] == "won" else 40
    with open(path, "a") as f:
        f.write(json.dumps(rec) + "\n")
    with pytest.raises(SolitaireError, match="line 8: deal .* line 3"):
        ss.survey("elevens", deals=deals, workers=1, out=str(path))


def test_retry_unknown_decides_them_again_and_the_decision_stands(tmp_path, capsys):
    # A survey run with a tight limit leaves UNKNOWN deals; retrying them with no limit decides
    # every one, and the file then reads as the survey run without a limit.
    path = tmp_path / "u.jsonl"
    first = ss.survey("elevens", seeds=range(12), workers=1, out=str(path), max_states=2)
    assert first.unknown > 0
    plain = ss.survey("elevens", seeds=range(12), workers=1)
    again = ss.survey("elevens", seeds=range(12), workers=1, out=str(path), retry_unknown=True)
    assert again.resumed == 12 - first.unknown
    assert (again.won, again.blocked, again.unknown) == (plain.won, plain.blocked, 0)
    assert len(lines(path)) == 1 + 12 + first.unknown  # appended; the old lines stay
    resumed = ss.survey("elevens", seeds=range(12), workers=1, out=str(path))
    assert resumed.resumed == 12 and (resumed.won, resumed.unknown) == (plain.won, 0)
    # Without retry_unknown an unknown deal stays as it was recorded.
    kept = tmp_path / "k.jsonl"
    ss.survey("elevens", seeds=range(12), workers=1, out=str(kept), max_states=2)
    assert ss.survey("elevens", seeds=range(12), workers=1, out=str(kept)).unknown == first.unknown
    assert cli.main(["survey", "elevens", "--count", "12", "--workers", "1", "--out", str(kept),
                     "--retry-unknown", "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["unknown"] == 0
    with pytest.raises(SolitaireError, match="out="):
        ss.survey("elevens", seeds=range(3), workers=1, retry_unknown=True)
    assert cli.main(["survey", "elevens", "--count", "3", "--retry-unknown"]) != 0
    assert "--out" in capsys.readouterr().err


def test_a_later_unknown_takes_nothing_from_a_decision(tmp_path):
    path = survey_file(tmp_path, 10)
    rec = json.loads(lines(path)[4])
    rec.update(status="unknown", cards_left=None, states=2)
    with open(path, "a") as f:
        f.write(json.dumps(rec) + "\n")
    r = ss.survey("elevens", seeds=range(10), workers=1, out=str(path))
    plain = ss.survey("elevens", seeds=range(10), workers=1)
    assert r.resumed == 10 and (r.won, r.blocked, r.unknown) == (plain.won, plain.blocked, 0)


_OUTCOME = {"won": (24, 0, 30), "blocked": (4, 44, 5), "unknown": (0, None, 2)}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from(["won", "blocked", "unknown"])),
                max_size=12))
def test_a_file_reads_as_its_first_decision_per_seed(tmp_path_factory, recs):
    # Any sequence of records: a seed reads as its first decision (later unknowns take nothing
    # from it), as unknown when it has none, and two different decisions are refused.
    path = tmp_path_factory.mktemp("recs") / "r.jsonl"
    text = header_line("elevens", {})
    for seed, status in recs:
        moves, left, states = _OUTCOME[status]
        text += json.dumps({"seed": seed, "game": "elevens", "status": status, "moves": moves,
                            "cards_left": left, "states": states, "ms": 0.01}) + "\n"
    path.write_text(text)
    decided: dict = {}
    clash = False
    for seed, status in recs:
        if status != "unknown":
            clash |= decided.setdefault(seed, status) != status
    if clash:
        with pytest.raises(SolitaireError, match="another result"):
            read_records(str(path), "elevens", {}, "seed")
        return
    got = {k: v[0] for k, v in read_records(str(path), "elevens", {}, "seed").items()}
    assert got == {seed: decided.get(seed, "unknown") for seed, _ in recs}


# -- the last line ------------------------------------------------------------------------------

def test_a_complete_garbage_last_line_is_refused_not_deleted(tmp_path):
    path = survey_file(tmp_path, 10)
    with open(path, "a") as f:
        f.write("garbage\n")
    before = path.read_bytes()
    with pytest.raises(SolitaireError, match="line 12"):
        ss.survey("elevens", seeds=range(10), workers=1, out=str(path))
    assert path.read_bytes() == before


def test_the_partial_last_line_is_dropped_and_said(tmp_path):
    path = survey_file(tmp_path, 10)
    text = path.read_bytes()
    path.write_bytes(text[:-9])  # a kill mid-write: the last line loses its end and newline
    with pytest.warns(UserWarning, match=rf"{path}, line 11: .*partial") as caught:
        r = ss.survey("elevens", seeds=range(10), workers=1, out=str(path))
    assert len(caught) == 1
    assert r.resumed == 9 and r.deals == 10
    assert sorted(json.loads(x)["seed"] for x in lines(path)[1:]) == list(range(10))


def test_a_partial_header_is_dropped_and_said(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text('{"survey": "elev')
    with pytest.warns(UserWarning, match="partial"):
        r = ss.survey("elevens", seeds=range(10), workers=1, out=str(path))
    assert r.resumed == 0 and len(lines(path)) == 11


def test_no_warning_for_a_whole_file(tmp_path, recwarn):
    path = survey_file(tmp_path, 10)
    ss.survey("elevens", seeds=range(10), workers=1, out=str(path))
    assert not [w for w in recwarn if "partial" in str(w.message)]


def test_cli_says_the_partial_line_was_dropped(tmp_path, capsys):
    path = survey_file(tmp_path, 10)
    path.write_bytes(path.read_bytes()[:-9])
    assert cli.main(["survey", "elevens", "--count", "10", "--workers", "1", "--quiet",
                     "--out", str(path)]) == 0
    err = capsys.readouterr().err
    assert "solitaire-solver: warning:" in err and "line 11" in err and "partial" in err
    assert err.count("\n") == 1


# -- the game is asked, not the module named ---------------------------------------------------

@needs_batch
def test_survey_asks_the_game_for_its_batch_decider(monkeypatch):
    g, _ = get_game("elevens")
    asked = []

    def no_batch(variant):
        asked.append(variant)
        return None

    monkeypatch.setattr(g, "batch", no_batch)
    r = ss.survey("elevens", seeds=range(20), workers=1)
    assert r.path == "generic" and asked
    monkeypatch.undo()
    assert ss.survey("elevens", seeds=range(20), workers=1).path == "batch"


# -- workers do not outlive the survey ---------------------------------------------------------

def _children(pid: int) -> list[int]:
    kids = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            # The command name (2nd field) may hold spaces; the fields after it do not.
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(name))
    return kids


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has exited; only its parent has not reaped it


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2 if hasattr(os, "sched_getaffinity") else False,
                    reason="a survey starts no more worker processes than cores (docs/surveys.md)")
@pytest.mark.parametrize("limits, watch", [
    ("", "prctl"),                     # batch work units, the kernel signals the workers
    (", max_states=10**6", "prctl"),   # generic work units
    ("", "poll"),                      # prctl refused (an option it does not know): the watch thread
])
def test_workers_exit_when_the_survey_is_killed(limits, watch):
    # (The module by sys.modules: `solitaire_solver.survey.runner` as an attribute is the function.)
    code = ("import importlib, solitaire_solver as ss\n"
            "sv = importlib.import_module('solitaire_solver.survey.runner')\n"
            + ("sv._PR_SET_PDEATHSIG = -1\n" if watch == "poll" else "")
            + f"ss.survey('elevens', seeds=range(10**12), workers=2, chunk_size=10**5{limits})\n")
    proc = subprocess.Popen([sys.executable, "-c", code])
    kids: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(kids) < 2 and proc.poll() is None:
            time.sleep(0.1)
            kids = _children(proc.pid)
        assert len(kids) >= 2, "the survey's workers did not start"
        time.sleep(0.5)  # let them take work
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(map(_running, kids)):
            time.sleep(0.1)
        assert not [k for k in kids if _running(k)], "workers outlived the survey"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for k in kids:
            if _running(k):
                os.kill(k, signal.SIGKILL)
