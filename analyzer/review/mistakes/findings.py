"""What a mistake finding is: :class:`Mistake` (a diagnostic with the cost,
band and better play of a decision), the severity bands by point cost
(:func:`band`) and which code wins when several rules flag one play
(:data:`PRIORITY`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from primitives.diagnostics import Diagnostic

#: costs below this are not reported (points come in steps of 5)
MIN_COST = 5
#: severity bands: (band, lowest cost); a level outcome change is always a blunder;
#: below MIN_COST a finding is a *note* (an event worth knowing that cost nothing)
BANDS = (("blunder", 40), ("mistake", 20), ("inaccuracy", MIN_COST), ("note", 0))
#: the bands that count as mistakes (a note does not)
MISTAKE_BANDS = ("inaccuracy", "mistake", "blunder")
#: the note a hand gets when the node budget cut its searched window short
WINDOW_CODE = "SJ690"
#: the note each finding-friends hand gets from the fast pass (no exact window there)
FRIENDS_CODE = "SJ691"
#: which code a play's one finding carries when several rules flag it: the most
#: specific pattern first, SJ610 (the bare search verdict) last
PRIORITY = ("SJ601", "SJ602", "SJ606", "SJ604", "SJ605", "SJ611", "SJ610")


def band(cost: int, level_change: bool = False) -> str:
    """``note`` (under 5 points: nothing lost), ``inaccuracy`` (5–15 points),
    ``mistake`` (20–35), ``blunder`` (≥ 40, or any change of the hand's level
    outcome). One rule for every code."""
    if level_change:
        return "blunder"
    for name, low in BANDS:
        if cost >= low:
            return name
    return "note"


@dataclass(frozen=True, slots=True)
class Mistake(Diagnostic):
    """A :class:`~primitives.diagnostics.Diagnostic` (severity ``info``) with what
    :func:`analyzer.review.mistakes.annotate` and reports need besides the position.

    ``target`` says which record element the finding belongs to: ``"play"``
    (the play of ``seat`` in trick ``trick``) or ``"bury"`` (the hand's last
    bury). ``cost`` is in attacker points (always ≥ 0, against ``seat``'s
    team); ``level_change`` tells how the hand's outcome would have differed.
    """

    seat: str | None = None
    target: str = "play"
    cost: int = 0
    band: str = ""
    level_change: str | None = None
    best: tuple[int, ...] | None = None
    #: judged from the player's own point of view (sampled hidden hands): True when
    #: the loss needed the hidden cards, False when it did not, None when not judged
    hidden: bool | None = None


def pattern_text(f: Mistake) -> str:
    """A pattern finding's text without its band and hindsight cost head (what
    the full review attaches to a valued decision as its explanation)."""
    msg = f.message
    if f.level_change and f.level_change in msg:
        msg = msg[msg.index(f.level_change) + len(f.level_change):]
        return msg[2:] if msg.startswith(": ") else msg
    _head, sep, rest = msg.partition(": ")
    return rest if sep else msg


def as_note(f: Mistake, valued: str | None = None) -> Mistake:
    """A pattern finding with no significant expected loss behind it, kept as a
    note (cost 0). ``valued``: what the decision's value showed, when it was
    valued (the note then says so rather than "not valued")."""
    head = f"a pattern seen in hindsight; {valued}" if valued else "a pattern seen in hindsight, not valued"
    return replace(f, message=f"note ({head}): {pattern_text(f)}", cost=0, band="note",
                   level_change=None)
