"""The pieces every mistake rule shares: the rule registry (here), the finding
type and severity bands by point cost (:mod:`.findings`) and the per-hand
context with the lazily built endgame solvers (:mod:`.context`), imported
from here.

A rule is a small class registered with :func:`rule`; it has a ``code``
(SJ6xx, a row of :data:`primitives.diagnostics.CODES`), a ``name``, a docstring
(the bad pattern and the better play: shown by ``shengji rules --mistakes``
and in docs/diagnostics.md) and a ``check(ctx)`` method yielding
:class:`Mistake` findings for one hand.

A rule decides no rule of the game: it asks the engine. The position at any
play is :meth:`HandContext.state` (a :class:`replay.state.HandState`: who is
winning the trick so far and who would win it with another play
(``winner_if``), the seats still to play (``to_play``) and whether one can
beat the trick (``can_beat``), the legal follows and the cheapest and
dearest of them (``follow_extremes``), the shown voids, the teams); two
small compositions of those answers are :func:`best_so_far` (context) and
:func:`analyzer.review.mistakes.rules._shared.unbeatable_by`; the exact endgame is
asked of :mod:`analyzer.review.search` about the same states
(:meth:`HandContext.state`, :meth:`HandContext.node`) through
:meth:`HandContext.ask`.
``tests/mistakes/test_rules_layering.py`` checks that no rule module imports
the engine's rule functions itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from analyzer.review.mistakes.context import (
    HandContext,
)
from analyzer.review.mistakes.findings import PRIORITY, Mistake
from primitives.diagnostics import CODES

# -- the registry ----------------------------------------------------------------------

class Rule:
    """Base of the mistake rules (see the module doc)."""

    code: str = ""
    name: str = ""
    #: needs all four hands known and a complete hand (search-based rules)
    needs_search: bool = False

    def check(self, ctx: HandContext) -> Iterable[Mistake]:  # pragma: no cover - abstract
        raise NotImplementedError

    @classmethod
    def summary(cls) -> str:
        return CODES[cls.code].summary if cls.code in CODES else ""

    @classmethod
    def doc(cls) -> str:
        import inspect
        return inspect.cleandoc(cls.__doc__ or "")


#: code → rule instance, in code order (filled by :func:`rule`)
RULES: dict[str, Rule] = {}


def rule(cls: type[Rule]) -> type[Rule]:
    """Class decorator: register a mistake rule under its code."""
    if not cls.code.startswith("SJ6") or cls.code not in CODES:
        raise ValueError(f"{cls.__name__}: {cls.code!r} is not an SJ6xx code of primitives.diagnostics.CODES")
    if cls.name != CODES[cls.code].name:
        raise ValueError(f"{cls.__name__}: name {cls.name!r} differs from CODES ({CODES[cls.code].name!r})")
    if cls.code in RULES:
        raise ValueError(f"{cls.code} is registered twice")
    RULES[cls.code] = cls()
    ordered = dict(sorted(RULES.items()))
    RULES.clear()
    RULES.update(ordered)
    return cls


def selected(code: str, select: Iterable[str] | None) -> bool:
    """``select`` holds codes or code prefixes (``SJ60``); None selects all."""
    if select is None:
        return True
    return any(code.startswith(s) for s in select)


def run_rules(ctx: HandContext, select: Iterable[str] | None) -> Iterator[Mistake]:
    for code, r in RULES.items():
        if not selected(code, select):
            continue
        if r.needs_search and not ctx.searchable:
            continue
        yield from r.check(ctx)



def one_per_play(findings: Iterable[Mistake]) -> list[Mistake]:
    """One finding per play (and per bury): when several rules flag the same
    play, the most specific pattern's finding is kept (:data:`PRIORITY`);
    inside the searched window they all carry the same exact cost."""
    best: dict[tuple[int | None, int | None, str | None, str], Mistake] = {}
    rank = {c: i for i, c in enumerate(PRIORITY)}
    order: list[tuple[int | None, int | None, str | None, str]] = []
    for f in findings:
        key = (f.hand, f.trick, f.seat, f.target)
        if key not in best:
            order.append(key)
            best[key] = f
        elif rank.get(f.code, 99) < rank.get(best[key].code, 99):
            best[key] = f
    return [best[k] for k in order]


__all__ = ["Rule", "RULES", "rule", "selected", "run_rules", "one_per_play"]
