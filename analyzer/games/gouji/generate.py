"""Generate complete, legal Gouji matches under a Gouji preset.

:func:`generate_match` shuffles four packs with ``random.Random(seed)``,
deals 36 cards to each of the six seats, makes the pre-play steps the rules
call for (亮3 shows, 点贡 under 打点, 买3 under 憋3, 革命 — two revolts void the
deal, which is dealt again under the same number —, 会3/会4, 明点), then lets
the bots (:mod:`analyzer.games.gouji.bot`) play every action through
:class:`replay.gouji.state.GoujiState`, so every action is one the engine
accepts; marks (`burn`, `fail`, `=k`), the `result` and the `score` lines are
what the engine computes. The same ``(rules, games, seed)`` always gives the
same record, and it replays with no diagnostic.
"""

from __future__ import annotations

import random
from typing import Any

from analyzer.games.gouji.bot import GoujiBot
from notation.gjn_model import (
    Action,
    Buy,
    Dian,
    Game,
    GoujiRecord,
    Lead,
    Point,
    Redeal,
    Remove,
    Result,
    Return,
    Revolt,
    Score,
    SeatCards,
    Show,
    Tag,
    Tribute,
)
from primitives.diagnostics import NO_SPAN
from primitives.gjcards import ANY, BJ, LJ, make
from replay.gouji.board import LET, PASS, counts_of
from replay.gouji.results import score_of
from replay.gouji.rules import PRESETS, GoujiRuleset, preset, resolve
from replay.gouji.state import GoujiState
from replay.gouji.table import SEAT_NAMES, TEAMS
from replay.gouji.tribute import highest_cards, owed_dian, owed_tribute

#: a safety net: no game needs this many actions
_MAX_ACTIONS = 5000


class GenerationError(RuntimeError):
    """The engine refused a move the bots made (a bug in the bots or the engine)."""


def deck() -> list[int]:
    """216 cards: 3s with their suits (亮3 needs them), other ranks suit-free."""
    cards: list[int] = []
    for suit in range(4):
        cards += [make(3, suit)] * 4
    for r in range(4, 16):
        cards += [make(r, ANY)] * 16
    cards += [LJ] * 4 + [BJ] * 4
    return cards


def _take(cards: list[int], rank: int) -> int:
    """Remove and return one card of ``rank`` from ``cards``."""
    for i, c in enumerate(cards):
        if c >> 3 == rank:
            return cards.pop(i)
    raise GenerationError(f"no card of rank {rank} to take")


def generate_match(rules: str = "gouji", games: int = 1, seed: int = 0,
                   overrides: dict[str, str] | None = None) -> GoujiRecord:
    """A match of ``games`` games under the preset ``rules``, with ``overrides``
    (``{tag option: value}``, written as ``[Rule.x]`` tags) if given."""
    if rules not in PRESETS:
        raise GenerationError(f"unknown Gouji preset {rules!r}")
    rs = preset(rules)
    if overrides:
        rs, problems = resolve(rules, {k: (v, NO_SPAN) for k, v in overrides.items()})
        if problems:
            raise GenerationError(problems[0].message)
    rng = random.Random(seed)
    bot = GoujiBot(rng)
    out: list[Game] = []
    prev: dict[str, Any] | None = None
    number = 1
    redeals = 0
    while number <= games:
        game, info = _generate_game(rs, rng, bot, number, prev, force_no_revolt=redeals >= 3)
        out.append(game)
        if info is None:   # a void deal: again under the same number
            redeals += 1
            continue
        redeals = 0
        prev = info
        number += 1
    tags = [Tag(name="Rules", value=rules)]
    tags += [Tag(name=f"Rule.{k}", value=v) for k, v in (overrides or {}).items()]
    tags.append(Tag(name="Seed", value=str(seed)))
    return GoujiRecord(tags=tags, games=out)


def _best_show(cards: list[int]) -> tuple[int, ...] | None:
    best: tuple[int, ...] | None = None
    for suit in range(4):
        threes = tuple(c for c in cards if c == make(3, suit))
        if len(threes) >= 2 and (best is None or len(threes) > len(best)):
            best = threes
    return best


def _generate_game(rs: GoujiRuleset, rng: random.Random, bot: GoujiBot, number: int, prev: dict[str, Any] | None,
                   force_no_revolt: bool) -> tuple[Game, dict[str, Any] | None]:
    cards = deck()
    rng.shuffle(cards)
    hands = [sorted(cards[i * 36:(i + 1) * 36], reverse=True) for i in range(6)]
    game = Game(number=number)
    game.deal = [SeatCards(seat=SEAT_NAMES[s], cards=tuple(hands[s])) for s in range(6)]
    pre = game.preplay
    # 1. 亮3
    liang3 = rs.first_leader == "liang3" or (rs.first_leader == "seed" and rs.bie3 != "on"
                                              and (prev is None or prev["sweep"]))
    shower = -1
    if liang3:
        last = 0
        for s in range(6):
            show = _best_show(hands[s])
            if show and len(show) > last:
                pre.append(Show(seat=SEAT_NAMES[s], cards=show))
                last = len(show)
                shower = s
                if rs.first_leader == "liang3":
                    break
    # 2. 点贡 (打点), judged on the dealt hands
    if rs.dadian == "on" and prev is not None and prev["bukai"] is not None:
        owe = owed_dian(prev["bukai"], prev["points"], rs)
        dealt = [counts_of([c >> 3 for c in h]) for h in hands]
        for (x, y), amount in sorted(owe.items()):
            want = highest_cards(dealt[x], amount, rs)
            if not want:
                continue
            dian = tuple(_take(hands[x], r) for r in want)
            hands[y].extend(dian)
            pre.append(Dian(payer=SEAT_NAMES[x], receiver=SEAT_NAMES[y], cards=dian))
    # 2b. 落贡 and 还贡
    if prev is not None:
        paid: list[tuple[int, int, int]] = []
        for x, y, owed in owed_tribute(prev["places"], prev["sweep"], rs):
            if rs.team_tribute == "optional" and x & 1 == y & 1 and rng.random() < 0.5:
                continue
            want = highest_cards(counts_of([c >> 3 for c in hands[x]]), owed, rs)
            if not want:
                continue
            tribute = tuple(_take(hands[x], r) for r in want)
            hands[y].extend(tribute)
            pre.append(Tribute(payer=SEAT_NAMES[x], receiver=SEAT_NAMES[y], cards=tribute))
            paid.append((x, y, len(tribute)))
        paid.sort(key=lambda t: prev["places"][t[1]])   # returns go 头科 first (§7)
        for x, y, n in paid:
            back = sorted(hands[y], key=lambda c: (c >> 3, rng.random()))[:n]   # his choice: low cards
            for c in back:
                hands[y].remove(c)
            hands[x].extend(back)
            pre.append(Return(payer=SEAT_NAMES[y], receiver=SEAT_NAMES[x], cards=tuple(back)))
    # 3. 买3
    if rs.bie3 == "on":
        for x in range(6):
            h = [c >> 3 for c in hands[x]]
            if 3 in h or not any(r >= 15 for r in h):
                continue
            o = (x + 3) % 6
            seller = -1
            if sum(1 for c in hands[o] if c >> 3 == 3) >= 2:
                seller = o
            else:
                for s in TEAMS[o & 1]:
                    if s != o and sum(1 for c in hands[s] if c >> 3 == 3) >= 2:
                        seller = s
                        break
            if seller < 0:
                continue
            pay_rank = 15 if 15 in h else (16 if 16 in h else 17)
            price = _take(hands[x], pay_rank)
            three = _take(hands[seller], 3)
            hands[seller].append(price)
            hands[x].append(make(3, ANY) if three & 7 != ANY else three)
            pre.append(Buy(buyer=SEAT_NAMES[x], seller=SEAT_NAMES[seller], cards=(price,)))
    # 4. 革命
    rev = -1
    if rs.revolution == "on":
        rebels = []
        for s in range(6):
            test = [c >> 3 for c in (game.deal[s].cards if rs.revolution_check == "dealt" else hands[s])]
            if any(r >= 15 for r in test) or (rs.bie3 == "on" and 3 in test):
                continue
            if force_no_revolt:
                continue
            rebels.append(s)
        for s in rebels:
            pre.append(Revolt(seat=SEAT_NAMES[s]))
        if len(rebels) >= 2:
            pre.append(Redeal())
            return game, None
        if rebels:
            rev = rebels[0]
    # 7. the first leader (needed before 会3: the first leader removes)
    if liang3 and shower >= 0:
        leader = shower
    elif not liang3 and rs.first_leader == "seed" and rs.bie3 != "on" and prev is not None:
        leader = prev["places"].index(6)
    else:
        leader = rng.randrange(6)
    while leader == rev:
        leader = (leader + 1) % 6
    # 5. 会3 / 会4
    if rs.remove == "34" and rs.bie3 != "on" and rng.random() < 0.3:
        ranks: tuple[int, ...] = rng.choice(((3,), (4,), (3, 4)))
        pre.append(Remove(ranks=ranks))
        for s in range(6):
            hands[s] = [c for c in hands[s] if c >> 3 not in ranks]
    # 6. 明点
    points: list[tuple[int, bool]] = []
    if rs.dadian == "on" and rng.random() < 0.3:
        x = rng.randrange(6)
        if x != rev:
            pre.append(Point(seat=SEAT_NAMES[x]))
            points.append((x, False))
    pre.append(Lead(seat=SEAT_NAMES[leader]))

    # -- play ---------------------------------------------------------------------
    counts = [counts_of([c >> 3 for c in h]) for h in hands]
    st = GoujiState(rs, counts, leader=leader, revolutionary=rev)
    held = [list(h) for h in hands]
    n = 0
    actions = game.actions
    while not st.over:
        if n > _MAX_ACTIONS:
            raise GenerationError("a game did not end")
        seat, kind, ranks = bot.choose(st)
        faults = st.push(seat, kind, ranks)
        if faults:
            raise GenerationError(f"game {number}, action {n + 1}: the engine refused "
                                  f"{SEAT_NAMES[seat]} {kind} {ranks}: {faults}")
        if st.ev_ignored:
            continue
        n += 1
        if kind in (PASS, LET):
            actions.append(Action(number=n, seat=SEAT_NAMES[seat], kind=kind))
            continue
        played = tuple(_take(held[seat], r) for r in ranks)
        actions.append(Action(number=n, seat=SEAT_NAMES[seat], kind="play", cards=played, burn=st.ev_burn,
                              fail=st.ev_fail, finish=st.ev_place if st.ev_place and not st.ev_fail else None))
    places = list(st.place)
    order = sorted(range(6), key=lambda s: places[s])
    game.result = Result(seats=tuple(SEAT_NAMES[s] for s in order))
    odd, even, sweep = score_of(places, rs)
    game.score = Score(odd=odd, even=even)
    return game, {"places": places, "sweep": sweep, "bukai": st.bukaidian(), "points": points}


__all__ = ["GenerationError", "deck", "generate_match"]
