"""Shared primitives below notation, replay and analyzer: cards (Shengji and Gouji), spans, diagnostics (the one code table)."""
