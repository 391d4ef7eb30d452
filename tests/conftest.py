"""Test-wide settings: hypothesis runs without per-example deadlines (CI shares
two cores with other work; a slow example is not a failure), and prints its
statistics only when asked."""

from hypothesis import HealthCheck, settings

settings.register_profile("shengji", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("shengji")

# The lint cache stays off in tests (a test that injects a failure with monkeypatch
# must lint again, not read yesterday's findings); tests/cli/test_lint_cache.py turns it on.
import os  # noqa: E402

os.environ.setdefault("SHENGJI_NO_CACHE", "1")
