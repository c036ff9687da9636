import os

from hypothesis import HealthCheck, settings

# `ci` runs more examples; `dev` (the default) keeps the suite quick. HYPOTHESIS_PROFILE=ci.
settings.register_profile("dev", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
