"""A record written with compass seats whose plays include a numbered seat
(``P2``) is replayed as finding friends with SJ526, as
:func:`replay.friends.needs_friends` decides (NOTATION.md "Seats"; RULES.md
"Finding friends"). These cases check that :func:`replay.game.replay` gives
the result of that decision made beforehand, wherever the numbered seat
stands (a later hand, a redeal hand whose tricks
are not replayed, the first play of a hand without a dealer, a hand whose
seat lines are partly left out)."""

import pytest

from notation import parse
from primitives.diagnostics import Diagnostic
from replay.friends import needs_friends, table_seats
from replay.game import replay, ruleset_for
from replay.hand import Table
from replay.match import replay_match

_HAND = ("hand {n}\nlevels NS 2 EW 2\n{dealer}trump S\n{deal}{extra}"
         "1. N: SA  W: S3  S: S4  E: S5\n2. N: HA  W: H3  S: H4  E: H5\n")
_DEAL = "N: SA HA\nW: S3 H3\nS: S4 H4\nE: S5 H5\n"
_BURY = "kitty D2 D3\nbury N: D2 D3\n"  # every hand known: the seats are read by the trick loop


def _text(*hands: str) -> str:
    return "[Rules \"standard\"]\n\n" + "\n".join(hands)


def _hand(n: int = 1, dealer: str = "dealer N\n", deal: str = _DEAL, extra: str = _BURY) -> str:
    return _HAND.format(n=n, dealer=dealer, deal=deal, extra=extra)


def _decided_beforehand(record):
    """`replay` as it was before issue 22's change: every seat looked at first."""
    ruleset, diags = ruleset_for(record)
    if ruleset.partners == "friends" or needs_friends(record):
        if ruleset.partners != "friends":
            where = record.hands[0].span if record.hands else record.span
            diags.append(Diagnostic.at("SJ526", where, f"this record has friend lines, players' own levels "
                                                       f"or numbered seats, but the rules ({ruleset.name}) "
                                                       f"have fixed partners: replayed as finding friends "
                                                       f"(use `[Rules \"shengji-io-friends\"]`)"))
            ruleset = ruleset.model_copy(update={"partners": "friends"})
        return replay_match(record, ruleset, diags, Table.of(table_seats(record, ruleset), friends=True))
    return replay(record)


def _summary(match):
    return ([(d.code, d.message, d.line, d.column, d.hand, d.trick) for d in match.diagnostics],
            match.ruleset.partners, match.winner,
            [(h.seats, h.dealer, h.trump, h.team, h.complete, h.attacker_points, h.start_hands,
              [(t.number, t.winner, t.points, [p.seat for p in t.plays]) for t in h.tricks])
             for h in match.hands])


CASES = {
    "a numbered seat in a trick": _text(_hand().replace("2. N: HA  W: H3", "2. N: HA  P2: H3")),
    "a numbered seat leading": _text(_hand().replace("2. N: HA  W: H3  S: H4  E: H5",
                                                     "2. P1: HA  W: H3  S: H4  E: H5")),
    "in the second hand only": _text(_hand(), _hand(2).replace("1. N: SA  W: S3", "1. N: SA  P3: S3")),
    "in a redeal hand": _text(_hand(extra=_BURY + "redeal\n").replace("2. N: HA  W: H3", "2. N: HA  P2: H3"),
                              _hand(2)),
    "the first play of a hand without a dealer": _text(
        _hand(dealer="").replace("1. N: SA  W: S3  S: S4  E: S5", "1. P1: SA  W: S3  S: S4  E: S5")),
    "a seat line left out": _text(_hand(deal=_DEAL.replace("W: S3 H3\n", "")).replace(
        "2. N: HA  W: H3", "2. N: HA  P2: H3")),
    "no bury (the dealer's hand rebuilt)": _text(_hand(extra="").replace("2. N: HA  W: H3", "2. N: HA  P2: H3")),
    "compass seats only": _text(_hand(), _hand(2)),
    "a seat line left out, compass seats": _text(_hand(deal=_DEAL.replace("W: S3 H3\n", ""))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_numbered_play_sends_the_record_to_finding_friends(name):
    records, _ = parse(CASES[name])
    record = records[0]
    match = replay(record)
    assert _summary(match) == _summary(_decided_beforehand(record))
    numbered = "compass" not in name
    assert needs_friends(record) is numbered
    assert ("SJ526" in [d.code for d in match.diagnostics]) is numbered
    assert (match.ruleset.partners == "friends") is numbered
