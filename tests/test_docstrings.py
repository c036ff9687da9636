"""The examples in the modules' docstrings run and print what they say."""

import doctest
import importlib

import pytest

MODULES = ["solitaire_solver", "solitaire_solver.solver", "solitaire_solver.pysolfc",
           "solitaire_solver.survey.runner", "solitaire_solver.rating"]


@pytest.mark.core  # Pyramid's one-pass searches: slow in the pure-Python fallback
@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name):
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder(exclude_empty=True).find(module, name, globs={}):
        runner.run(test)
    outcome = runner.summarize(verbose=False)
    assert outcome.attempted > 0 and outcome.failed == 0, name
