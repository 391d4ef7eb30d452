"""Gouji (够级) in the analyzer: its lint and report, bot, generator and viewer."""
