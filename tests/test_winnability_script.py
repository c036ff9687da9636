"""benchmarks/winnability.py --cache-only writes up what a cache holds and decides nothing new."""

from __future__ import annotations

import importlib.util
import os

import solitaire_solver as ss

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "winnability.py")


def load():
    spec = importlib.util.spec_from_file_location("winnability_script", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_cache_only_without_cache_files_decides_nothing_and_keeps_the_rows(tmp_path, monkeypatch):
    # It once ran a variant's whole survey (10^6 Pyramid deals) when its cache file was missing.
    w = load()
    row = ("| pyramid passes=2 | 100,000 | 57,447 | 42,553 | 0 | 57.447% | 57.140% .. 57.753% "
           "(±0.306) | max_seconds=10.0 | none found |")
    doc = tmp_path / "winnability.md"
    doc.write_text("# How often can each game be won?\n\n| game and variant | deals |\n|---|---|\n"
                   + row + "\n")

    def no_survey(*a, **k):
        raise AssertionError("--cache-only decided deals")

    monkeypatch.setattr(w.ss, "survey", no_survey)
    assert w.ss is ss
    w.main(["--only", "pyramid", "--cache", str(tmp_path / "cache"), "--cache-only",
            "--out", str(doc)])
    text = doc.read_text()
    assert row in text
    assert "pyramid passes=2: not run (no cache file)" in text
