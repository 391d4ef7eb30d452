"""Test-wide settings: hypothesis runs without per-example deadlines (CI shares
two cores with other work; a slow example is not a failure), and prints its
statistics only when asked."""

from hypothesis import HealthCheck, settings

settings.register_profile("shengji", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("shengji")
