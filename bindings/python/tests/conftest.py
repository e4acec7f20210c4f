import os

from hypothesis import HealthCheck, settings

# Deterministic, bounded property tests: CI runs them on a shared 2-core machine.
settings.register_profile(
    "default",
    max_examples=int(os.environ.get("TEXTCODEC_HYPOTHESIS_EXAMPLES", "150")),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")
