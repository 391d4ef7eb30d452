"""The boundary: what crosses is validated in Python, a panic comes back as an
exception the commands report as SJ901, and the switch and the fallback work."""

from __future__ import annotations

import pytest

from analyzer.review.search import Solver
from analyzer.review.search.position import position
from primitives.cards import parse_cards as C
from replay import native
from replay.order import Order
from replay.ruleset import Ruleset, preset


def test_a_panic_is_an_internal_error_not_a_crash():
    mod = native.module()
    with pytest.raises(mod.InternalError, match="a test panic"):
        mod._panic_for_tests()
    assert issubclass(mod.InternalError, RuntimeError)   # an Exception: lint and the commands make it SJ901


def test_bad_input_is_refused_before_the_core():
    rules = native.rules_for(Order(2, 1), preset("standard"))
    with pytest.raises((ValueError, OverflowError, TypeError)):
        rules.legal_follows([54], [1])
    with pytest.raises((ValueError, OverflowError, TypeError)):
        rules.legal_follows([1], [-1])
    with pytest.raises(ValueError):
        rules.trick_result([])
    with pytest.raises(ValueError):
        native.module().NativeRules(16, 1, False, 15, 2, True, True, 0, 0, 0, 0, False, 0, False)
    with pytest.raises(ValueError):   # follow_policy 4: none
        native.module().NativeRules(2, 1, False, 15, 2, True, True, 0, 0, 0, 4, False, 0, True)


def test_positions_that_cannot_cross_are_searched_in_python():
    rs = preset("standard")
    order = Order.for_ruleset(2, 1, rs)
    s = Solver(order, rs, "N", 0)
    assert s.engine == "native"
    # hands of different sizes (no position of a real hand): the Python search answers
    odd = position([C("SA S3"), C("S4"), C("S5 S6"), C("S7 S8")], "N")
    from analyzer.review.search.tree import crossable
    assert not crossable(odd.hands, odd.leader, odd.plays)
    assert crossable(position([C("SA"), C("S4"), C("S5"), C("S7")], "N").hands, 0, ())


def test_a_ruleset_with_an_option_the_port_does_not_know_stays_in_python(monkeypatch):
    rs = preset("standard")
    assert native.ported(rs)
    monkeypatch.setattr(native, "PORTED_OPTIONS", native.PORTED_OPTIONS - {"throw_penalty"})
    assert native.ported(rs)                       # at its default: nothing to play differently
    assert not native.ported(preset("campus"))     # per_card penalties: not known now
    native.rules_for.cache_clear()
    assert native.rules_for(Order(2, 1), preset("campus")) is None
    native.rules_for.cache_clear()


def test_switching_off_and_on():
    try:
        native.set_enabled(False)
        assert not native.available() and native.backend().startswith("python")
        assert Solver(Order(2, 1), preset("standard"), "N").engine == "python"
    finally:
        native.set_enabled(True)
    assert native.available() and native.backend().startswith("native")
    assert Solver(Order(2, 1), Ruleset(), "N").engine == "native"


def test_shengji_io_presets_are_native():
    """shengji.io's own unit reading, throw check and follow walk (``unit_split``/``follow_policy:
    shengji_io``, replay/sjio.py) are ported (native/src/sjio*.rs): those presets search natively."""
    for name in ("shengji-io", "shengji-io-friends"):
        rs = preset(name)
        assert rs.follow_policy == "shengji_io" and rs.unit_split == "shengji_io"
        assert native.ported(rs)
        assert native.rule_args(Order.for_ruleset(2, 1, rs), rs)[-1] is True
    assert Solver(Order.for_ruleset(2, 1, preset("shengji-io")), preset("shengji-io"), "N").engine == "native"
