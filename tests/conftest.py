import os

import pytest
from hypothesis import HealthCheck, settings

from solitaire_solver.engine.backend import has_core, pure_requested

# `ci` runs more examples; `dev` (the default) keeps the suite quick. HYPOTHESIS_PROFILE=ci.
settings.register_profile("dev", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
# `sanitize`: .ci/sanitize's fuzz run under the sanitizers (tests/test_fuzz.py).
settings.register_profile("sanitize", max_examples=300, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_configure(config):
    # The suite tests the compiled core; importing the source tree without the built extension
    # would silently test the fallback instead.
    if not pure_requested() and not has_core():
        pytest.exit("the compiled core is missing: install the package first (see README.md)",
                    returncode=3)


def pytest_runtest_setup(item):
    # Both backends run the suite (README.md): the fallback run deselects the tests marked
    # `core` with -m "not core". One that is selected anyway fails, rather than passing without
    # testing what it says or being skipped unnoticed.
    if pure_requested() and item.get_closest_marker("core") is not None:
        pytest.fail("this test needs the compiled core, and SOLITAIRE_SOLVER_PURE is set: "
                    "run the fallback's suite with -m \"not core\"", pytrace=False)


@pytest.fixture
def pure_backend(monkeypatch):
    """The pure-Python fallback for one test, as SOLITAIRE_SOLVER_PURE=1 at import would give
    (the backend is chosen once per process; Solvers made before are set aside)."""
    from solitaire_solver import solver
    from solitaire_solver.engine import backend

    monkeypatch.setattr(backend, "PURE", True)
    monkeypatch.setattr(solver, "_SOLVERS", {})
