"""The review: the exact search (solver) and the mistake rules and verdicts built on it."""
