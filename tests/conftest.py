import os

from hypothesis import HealthCheck, settings

# `ci` runs more examples; `dev` (the default) keeps the suite quick. HYPOTHESIS_PROFILE=ci.
settings.register_profile("dev", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_configure(config):
    # The suite tests the compiled core; importing the source tree without the built extension
    # would silently test the fallback instead.
    from solitaire_solver.backend import has_core, pure_requested

    if not pure_requested() and not has_core():
        import pytest

        pytest.exit("the compiled core is missing: install the package first (see README.md)",
                    returncode=3)
