"""Imperfect-information evaluation: a decision judged from the player's own
point of view.

The exact search sees all four hands; a player does not. To judge a decision
as the player could have made it, the hidden cards are dealt again at
random, consistently with what that player has seen:

* their own holding, every card played so far (all earlier tricks and the
  plays before theirs in this trick), and the kitty when they buried it;
* the hand sizes of the others (and of the kitty, which is hidden from
  everyone but the burier);
* the suits each other player has shown to be out of
  (:meth:`replay.state.HandState.shown_voids`: a follow with fewer cards
  of the led suit than the lead);
* the cards each other player showed in a declaration the engine accepted
  (:func:`declared_cards`) and has not played since: they are in that
  player's hand, or, for the one who buried, in their hand or the kitty
  (:func:`pinned`).

Each sampled deal is solved exactly (:class:`analyzer.review.search.Solver`, one
per sample: the kitty differs) and a candidate play's value is its average
over the samples solved. The random generator is seeded from ``seed``, the
hand, the trick and the play, so a review is deterministic. A sample whose
search passes its share of the node budget is dropped and counted; a
decision with fewer than half its samples solved is not judged.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate
from typing import TYPE_CHECKING, Any, cast

from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.findings import MIN_COST, Mistake
from analyzer.review.search import Position, SearchBudgetExceeded, position_of
from primitives.cards import points
from replay import native
from replay.seats import SEATS as SEAT_ORDER
from replay.shapes import Unit
from replay.trick import check_suited_throw, check_throw, lead_suit
from replay.units import decompose

if TYPE_CHECKING:  # pragma: no cover
    from replay.results import PlayResult

#: hidden deals sampled per decision
SAMPLES = 6
#: deals drawn again, per deal asked, where a throw seen would have been judged otherwise
THROW_REDRAWS = 8
#: the seed of the sampler (combined with hand, trick and play)
SEED = 19
#: nodes the imperfect-information searches of one hand may visit
POV_BUDGET = 12_000


@dataclass(frozen=True, slots=True)
class PovResult:
    """Average values (attacker points from the position) of the candidate
    plays over the deals solved; ``solved`` of ``samples`` deals."""

    values: dict[tuple[int, ...], float]
    samples: int
    solved: int

    @property
    def judged(self) -> bool:
        """At least half of the sampled deals were solved."""
        return self.solved > 0 and 2 * self.solved >= self.samples


def voids(ctx: HandContext, t_index: int, k: int) -> dict[str, set[int]]:
    """The effective suits each seat has shown to be out of before play ``k``
    of trick ``t_index`` (asked of the engine's state after each trick:
    :meth:`replay.state.HandState.shown_voids`)."""
    out: dict[str, set[int]] = {s: set() for s in SEAT_ORDER}
    for ti, t in enumerate(ctx.hand.tricks[:t_index + 1]):
        last = k if ti == t_index else len(t.plays)
        if last < 2 or not t.plays[0].cards:
            continue  # no follow yet (or no lead: nothing shown)
        st = ctx.state(ti, last)
        for s, got in out.items():
            got |= st.shown_voids(s)
    return out


def declared_cards(ctx: HandContext) -> dict[str, tuple[int, ...]]:
    """Every card each seat showed in the declarations the engine accepted
    (:attr:`replay.results.HandResult.declaration_acts`; a ``declare`` line
    lists every card its seat has shown after that act, so the seat's cards
    are the multiset union of its accepted lines). Refused lines show nothing
    the player is sure of; a hand whose lines and acts do not pair up gives
    nothing."""
    rh = ctx.record_hand
    if rh is None:
        return {}
    lines = [e for e in rh.declarations if e.seat in ctx.hand.seats]
    acts = ctx.hand.declaration_acts
    if len(lines) != len(acts):
        return {}
    out: dict[str, Counter[int]] = {}
    for line, act in zip(lines, acts):
        if act != "refused":
            out.setdefault(line.seat, Counter()).__ior__(Counter(line.cards))
    return {s: tuple(sorted(c.elements())) for s, c in out.items()}


def _before(ctx: HandContext, t_index: int, k: int) -> list[tuple[int, list[PlayResult]]]:
    """The tricks before play ``k`` of trick ``t_index``: (index, its plays so far)."""
    tricks = ctx.hand.tricks
    return [(ti, list(tricks[ti].plays[:k] if ti == t_index else tricks[ti].plays))
            for ti in range(min(t_index + 1, len(tricks)))]


def throws_seen(ctx: HandContext, t_index: int, k: int) -> list[tuple[int, tuple[int, ...], tuple[int, ...], bool]]:
    """Each throw (a lead of several units) the table saw checked before play ``k`` of trick
    ``t_index``: (trick index, the cards thrown, the cards played, whether it stood).
    Where the rules check no throw, a throw tells nothing."""
    if ctx.ruleset.throw_check == "none":
        return []
    out = []
    for ti, plays in _before(ctx, t_index, k):
        if plays and plays[0].cards:
            lead = plays[0]
            thrown = tuple(lead.attempted or lead.cards)
            if ctx.is_throw(thrown):
                out.append((ti, thrown, tuple(lead.cards), lead.attempted is None))
    return out


def returned_cards(ctx: HandContext, t_index: int, k: int) -> dict[str, Counter[int]]:
    """The cards each seat's failed throws took back (shown to the table) and not played
    since, before play ``k`` of trick ``t_index``."""
    before = _before(ctx, t_index, k)
    out: dict[str, Counter[int]] = {}
    for j, plays in before:
        if not plays or plays[0].attempted is None:
            continue
        who = plays[0].seat
        back = Counter(plays[0].attempted) - Counter(plays[0].cards)
        for _, later in before[j + 1:]:
            for p in later:
                if p.seat == who:
                    back -= Counter(p.cards)
        got = out.setdefault(who, Counter())
        got |= back
    return {s: c for s, c in out.items() if c}


def throws_agree(ctx: HandContext, t_index: int, k: int, hands: Sequence[Sequence[int]],
                 throws: Sequence[tuple[int, tuple[int, ...], tuple[int, ...], bool]]) -> bool:
    """Would every throw in ``throws`` (:func:`throws_seen`) have been judged as the table saw
    it, had the hidden cards lain as in ``hands`` (the four hands N W S E at the decision)?
    A throw that stood: nobody after the thrower could beat a unit of it; one that failed:
    someone could, and the unit the thrower had to play is one the engine would ask for."""
    if not throws:
        return True
    return _throws_agree(ctx, _throw_views(ctx, t_index, k, throws), hands)


#: what the check of one throw seen reads that no deal changes (:func:`_throw_views`): the
#: throw, the cards played, whether it stood, the seats in turn from the thrower (indices,
#: names), the cards each seat played since the throw (in the order played; of a throw of one
#: suit, only that suit's, as counts), and the throw's suit and units (None: a lead mixing suits)
_ThrowView = tuple[tuple[int, ...], tuple[int, ...], bool, list[int], list[str], list[Any],
                   int | None, tuple[Unit, ...]]


def _throw_views(ctx: HandContext, t_index: int, k: int,
                 throws: Sequence[tuple[int, tuple[int, ...], tuple[int, ...], bool]]) -> list[_ThrowView]:
    """Each of ``throws`` as :func:`_throws_agree` checks it against a deal (once per decision,
    not once per deal)."""
    before = _before(ctx, t_index, k)
    order, eff = ctx.order, ctx.order.eff
    out: list[_ThrowView] = []
    for j, thrown, played, stood in throws:
        suit = lead_suit(thrown, order)
        first = SEAT_ORDER.index(before[j][1][0].seat)
        ring = [(first + n) % 4 for n in range(4)]
        since: list[Any] = [[] for _ in SEAT_ORDER] if suit is None else [{} for _ in SEAT_ORDER]
        for _, plays in before[j:]:
            for p in plays:
                got = since[SEAT_ORDER.index(p.seat)]
                if suit is None:
                    got.extend(p.cards)
                    continue
                for c in p.cards:
                    if eff[c] == suit:
                        got[c] = got.get(c, 0) + 1
        units = () if suit is None else tuple(decompose(thrown, order))
        out.append((thrown, played, stood, ring, [SEAT_ORDER[i] for i in ring], since, suit, units))
    return out


def _throws_agree(ctx: HandContext, views: Sequence[_ThrowView], hands: Sequence[Sequence[int]]) -> bool:
    """:func:`throws_agree` of the throws :func:`_throw_views` prepared, each seat holding its
    hand in ``hands`` and then the cards it played since the throw. A throw of one suit is
    checked on the other seats' cards of its suit only (:func:`replay.trick.check_suited_throw`:
    the engine's check of such a throw, which is all :func:`replay.trick.check_throw` reads
    of the holdings then); a lead mixing suits by :func:`replay.trick.check_throw`."""
    rs, order = ctx.ruleset, ctx.order
    eff = order.eff
    for thrown, played, stood, ring, names, since, suit, units in views:
        if suit is None:
            held = [Counter(h) for h in hands]
            for i, cards in enumerate(since):
                held[i].update(cards)
            chk = check_throw(thrown, 0, [held[i] for i in ring], names, order, rs)
        elif len(units) < 2 or rs.throw_check == "none":
            chk = check_throw(thrown, 0, [{} for _ in ring], names, order, rs, units)
        else:
            suited = []
            for i, name in zip(ring[1:], names[1:]):
                same: dict[int, int] = {}
                for c in hands[i]:
                    if eff[c] == suit:
                        same[c] = same.get(c, 0) + 1
                for c, n in since[i].items():
                    same[c] = same.get(c, 0) + n
                suited.append((name, same))
            chk = check_suited_throw(units, suited, names[1:], order, rs)
        if stood != (not chk.blockers) or (not stood and not chk.accepts(played)):
            return False
    return True


def pinned(ctx: HandContext, seat: str, t_index: int, k: int, slot_of: dict[str, int], kitty_slot: int | None,
           pool: Sequence[int], sizes: dict[int, int], void_of: dict[int, set[int]]) -> list[tuple[int, tuple[int, ...]]]:
    """The hidden cards whose place ``seat`` knows from the declarations
    (:func:`declared_cards`), before play ``k`` of trick ``t_index``: each as
    (card, the slots it may be in). A card another seat declared and has not
    played since is in that seat's hand; the one seat that buried (when
    ``seat`` does not know the kitty: ``kitty_slot``) may have buried it. A
    seat among several buriers (抄底), or whose declared cards cannot all be in
    its hand (a record the engine found at fault), pins nothing; nor does a
    card that is not among the hidden ones. Only what the table saw enters:
    the declarations, the plays and the hidden cards as a set."""
    shown = declared_cards(ctx)
    returned = returned_cards(ctx, t_index, k)
    if not shown and not returned:
        return []
    rh = ctx.record_hand
    buriers: set[str] = {b.seat for b in rh.buries} if rh is not None else set()
    if ctx.burier is not None:
        buriers.add(ctx.burier)
    played: dict[str, Counter[int]] = {}
    for ti, t in enumerate(ctx.hand.tricks[:t_index + 1]):
        for p in t.plays[:k] if ti == t_index else t.plays:
            played.setdefault(p.seat, Counter()).update(p.cards)
    left = Counter(pool)
    eff = ctx.order.eff
    out: list[tuple[int, tuple[int, ...]]] = []
    # the cards a failed throw took back are in the thrower's hand (after any bury) unless played since
    for who, rest in returned.items():
        i = slot_of.get(who)
        if i is None or rest.total() > sizes.get(i, 0) or any(eff[c] in void_of.get(i, ()) for c in rest) \
                or any(left[c] < n for c, n in rest.items()):
            continue
        left -= rest
        out.extend((c, (i,)) for c in sorted(rest.elements()))
    for who, cards in shown.items():
        i = slot_of.get(who)
        if i is None:
            continue   # the deciding player (or a seat not at this table)
        rest = Counter(cards) - played.get(who, Counter()) - returned.get(who, Counter())
        if who in buriers:
            if len(buriers) > 1 or kitty_slot is None:
                continue
            slots: tuple[int, ...] = (i, kitty_slot)
        else:
            if rest.total() > sizes.get(i, 0) or any(eff[c] in void_of.get(i, ()) for c in rest):
                continue
            slots = (i,)
        if any(left[c] < n for c, n in rest.items()):
            continue
        left -= rest
        out.extend((c, slots) for c in sorted(rest.elements()))
    return out


def sample_deals(ctx: HandContext, seat: str, t_index: int, k: int, n: int, seed: int, *,
                 batch: int = 0) -> list[tuple[Position, int]]:
    """Up to ``n`` deals of the hidden cards consistent with what ``seat`` has
    seen before play ``k`` of trick ``t_index``: (position, kitty points).
    ``batch``: the sequential sampling's batch (0: the first; each batch its own seed)."""
    pos = position_of(ctx.state(t_index, k))
    me = SEAT_ORDER.index(seat)
    kitty = tuple(ctx.kitty_cards or ())
    knows_kitty = ctx.burier == seat
    slots = [i for i in range(4) if i != me]
    sizes = {i: len(pos.hands[i]) for i in slots}
    pool = [c for i in slots for c in pos.hands[i]]
    if not knows_kitty:
        sizes[4] = len(kitty)   # the kitty: a fifth "hand", no voids
        pool += list(kitty)
    # the hidden cards as a set the player can know, never in who-holds-what order
    # (the same deals whoever really holds them: nothing hidden leaks into a value)
    pool.sort()
    shown = voids(ctx, t_index, k)
    void_of = {i: shown[SEAT_ORDER[i]] for i in slots}
    void_of[4] = set()
    eff = ctx.order.eff
    pins = pinned(ctx, seat, t_index, k, {SEAT_ORDER[i]: i for i in slots}, None if knows_kitty else 4,
                  pool, sizes, void_of)
    if pins:
        free = Counter(pool) - Counter(c for c, _ in pins)
        pool = sorted(free.elements())
    rng = random.Random(f"{seed}:{ctx.hand.number}:{t_index}:{k}:{seat}" + (f":{batch}" if batch else ""))
    throws = throws_seen(ctx, t_index, k) if len(SEAT_ORDER) == len(pos.hands) == 4 else []
    views = _throw_views(ctx, t_index, k, throws) if throws else []
    out: list[tuple[Position, int]] = []
    redraws = THROW_REDRAWS * n
    dealer = Dealer(pool, sizes, void_of, eff, rng, pins=pins)   # = _deal(pool, sizes, void_of, eff, rng, pins=pins) a deal
    while len(out) < n:
        deal = dealer(n - len(out))
        if deal is None:
            n -= 1     # a dead end of the sampler costs a deal
            continue
        hands = list(pos.hands)
        for i in slots:
            hands[i] = tuple(sorted(deal[i]))
        if views and not _throws_agree(ctx, views, hands):
            redraws -= 1    # the throws seen would have been judged otherwise: not a deal the player can be in
            if redraws < 0:
                break
            continue
        kp = points(deal[4]) if 4 in deal else points(kitty)
        out.append((Position(tuple(hands), pos.leader, pos.plays), kp))
    return out


def _deal(pool: Sequence[int], sizes: dict[int, int], void_of: dict[int, set[int]], eff: Sequence[int],
          rng: random.Random, tries: int = 40, *,
          pins: Sequence[tuple[int, tuple[int, ...]]] = ()) -> dict[int, list[int]] | None:
    """A random assignment of ``pool`` to the slots with their sizes, no card
    to a slot void in its suit (most constrained cards first; retried on a
    dead end). ``pins``: cards (not in ``pool``) each dealt first to one of
    its own slots (:func:`pinned`). Dealt by the native core where it applies
    (:func:`_native_deal`: the same draws, the same deal, the generator left alike)."""
    dealt = _native_deal(pool, sizes, void_of, eff, rng, tries, pins)
    if dealt is not _PYTHON:
        return cast("dict[int, list[int]] | None", dealt)
    # the slots each suit may go to (not void there), in the slots' order, and how many
    open_to = {e: [i for i in sizes if e not in void_of[i]] for e in {eff[c] for c in pool}}
    # each card's open slots and their number (the order cards are dealt in), looked up once
    slots_of = {c: open_to[eff[c]] for c in set(pool)}
    width = {c: len(v) for c, v in slots_of.items()}
    rand = rng.random
    for _ in range(tries):
        cards = list(pool)
        rng.shuffle(cards)
        cards.sort(key=width.__getitem__)
        left = dict(sizes)
        got: dict[int, list[int]] = {i: [] for i in sizes}
        ok = True
        for c, allowed in pins:
            can = [i for i in allowed if left.get(i, 0) > 0 and eff[c] not in void_of[i]]
            if not can:
                ok = False
                break
            i = can[0] if len(can) == 1 else _weighted(can, [left[j] for j in can], rand)
            got[i].append(c)
            left[i] -= 1
        for c in cards if ok else ():
            # :func:`_weighted` over the open slots with cards left, inlined (the hot loop)
            can = []
            cum = []
            total = 0
            for i in slots_of[c]:
                n = left[i]
                if n > 0:
                    total += n
                    cum.append(total)
                    can.append(i)
            if not can:
                ok = False
                break
            i = can[bisect(cum, rand() * (total + 0.0), 0, len(can) - 1)]
            got[i].append(c)
            left[i] -= 1
        if ok:
            return got
    return None


#: :func:`_native_deal`'s answer where the native core does not apply
_PYTHON: Any = object()


def _native_deal(pool: Sequence[int], sizes: dict[int, int], void_of: dict[int, set[int]], eff: Sequence[int],
                 rng: random.Random, tries: int, pins: Sequence[tuple[int, tuple[int, ...]]]) -> Any:
    """:func:`_deal` by the native core (``shengji_native.sample_deal``, ``rng``'s state handed
    over and taken back), or :data:`_PYTHON` where it does not apply (no native core, another
    generator, a slot without its voids, input that may not cross: the Python deal then draws
    from the untouched generator)."""
    mod = native.module()
    if mod is None or type(rng) is not random.Random or len(eff) != 54:
        return _PYTHON
    slots = list(sizes)
    place = {s: i for i, s in enumerate(slots)}
    try:
        voids = [sorted(void_of[s]) for s in slots]
        counts = [sizes[s] for s in slots]
        where = [(c, [place.get(s, len(slots)) for s in allowed]) for c, allowed in pins]
        if not (native.valid_cards(pool) and native.valid_cards(c for c, _ in pins)):
            return _PYTHON
        version, words, gauss = rng.getstate()
        dealt, after = mod.sample_deal(list(eff), list(pool), counts, voids, where, list(words), tries)
    except (KeyError, ValueError, TypeError, OverflowError):
        return _PYTHON
    rng.setstate((version, after, gauss))
    if dealt is None:
        return None
    return {s: list(d) for s, d in zip(slots, dealt, strict=True)}


class Dealer:
    """Successive :func:`_deal` draws from one generator, deal for deal the same.
    Where the native core deals, its arguments are made once and the
    generator's state is carried from one native call to the next without going
    back through ``rng`` (``getstate``/``setstate`` and 625 words converted twice a
    deal were most of a native deal's cost); where the core has
    ``sample_deals``, the deals the caller still wants are drawn in one call
    (:meth:`__call__`'s ``want``: the same deals, in the same order). ``rng`` is
    the dealer's own from then on: it may be left anywhere (the native core's
    state is not written back, and deals may be drawn ahead of those taken)."""

    __slots__ = ("pool", "sizes", "void_of", "eff", "rng", "tries", "pins", "mod", "args", "words", "head",
                 "slots", "ready", "many")

    #: deals one native call draws at most
    CHUNK = 64

    def __init__(self, pool: Sequence[int], sizes: dict[int, int], void_of: dict[int, set[int]],
                 eff: Sequence[int], rng: random.Random, tries: int = 40, *,
                 pins: Sequence[tuple[int, tuple[int, ...]]] = ()) -> None:
        self.pool, self.sizes, self.void_of, self.eff, self.rng = pool, sizes, void_of, eff, rng
        self.tries, self.pins = tries, pins
        self.args: tuple[Any, ...] | None = None
        self.words: Any = None     # the generator's state while the native core carries it
        self.head: Any = None      # (version, gauss) of ``rng``'s state
        self.slots = list(sizes)
        self.ready: list[Any] = []   # deals drawn ahead, the next last
        self.mod: Any = native.module()
        self.many = getattr(self.mod, "sample_deals", None)
        if self.mod is None or type(rng) is not random.Random or len(eff) != 54:
            return
        slots = self.slots
        place = {s: i for i, s in enumerate(slots)}
        try:   # as :func:`_native_deal` makes them
            voids = [sorted(void_of[s]) for s in slots]
            counts = [sizes[s] for s in slots]
            where = [(c, [place.get(s, len(slots)) for s in allowed]) for c, allowed in pins]
            if not (native.valid_cards(pool) and native.valid_cards(c for c, _ in pins)):
                return
        except (KeyError, ValueError, TypeError, OverflowError):
            return
        self.args = (list(eff), list(pool), counts, voids, where)

    def __call__(self, want: int = 1) -> dict[int, list[int]] | None:
        """The next deal (None: the sampler's dead end), as :func:`_deal` would draw it now;
        ``want``: how many deals the caller may still take (this one included)."""
        if self.ready:
            return self._out(self.ready.pop())
        if self.args is not None:
            if self.words is None:
                version, words, gauss = self.rng.getstate()
                self.head, self.words = (version, gauss), words
            eff, pool, counts, voids, where = self.args
            try:
                if self.many is not None and want > 1:
                    dealt, after = self.many(eff, pool, counts, voids, where, self.words, self.tries,
                                             min(want, self.CHUNK))
                    dealt.reverse()
                    self.ready = dealt
                    dealt = self.ready.pop()
                else:
                    dealt, after = self.mod.sample_deal(eff, pool, counts, voids, where, self.words, self.tries)
            except (KeyError, ValueError, TypeError, OverflowError):
                # as :func:`_native_deal`: the Python deal from the generator as the deals so far left it
                self.args = None
                version, gauss = self.head
                self.rng.setstate((version, tuple(self.words), gauss))
            else:
                self.words = after
                return self._out(dealt)
        return _deal(self.pool, self.sizes, self.void_of, self.eff, self.rng, self.tries, pins=self.pins)

    def _out(self, dealt: Any) -> dict[int, list[int]] | None:
        return None if dealt is None else {s: list(d) for s, d in zip(self.slots, dealt, strict=True)}


def _weighted(items: list[int], weights: list[int], rand: Callable[[], float]) -> int:
    """``random.Random.choices(items, weights)[0]`` draw for draw (one ``random()``, the same
    cumulative weights and bisection), without its argument checks."""
    cum = list(accumulate(weights))
    return items[bisect(cum, rand() * (cum[-1] + 0.0), 0, len(items) - 1)]


def average_value(ctx: HandContext, seat: str, t_index: int, k: int, objective: str = "points", *,
                  samples: int | None = None, seed: int = SEED) -> tuple[float, int, int] | None:
    """(average value of the position, deals solved, deals sampled) from
    ``seat``'s point of view, under ``objective`` (``"last_trick"``: the share
    of deals in which the attackers take the last trick under best play)."""
    samples = ctx.samples if samples is None else samples
    if samples <= 0 or ctx.pov_pool <= 0:
        return None
    deals = sample_deals(ctx, seat, t_index, k, samples, seed)
    if not deals:
        return None
    share = ctx.pov_pool / len(deals)
    got = []
    for pos, kp in deals:
        s = ctx.new_solver(kp, objective)
        s.node_limit = int(share)
        try:
            got.append(s.value(pos))
        except SearchBudgetExceeded:
            pass
        finally:
            ctx.pov_pool -= s.nodes
    if not got or 2 * len(got) < samples:
        return None
    return sum(got) / len(got), len(got), samples


def evaluate(ctx: HandContext, seat: str, t_index: int, k: int, candidates: Sequence[tuple[int, ...]], *,
             samples: int | None = None, seed: int = SEED, add_best: bool = False) -> PovResult | None:
    """Average value of each candidate play over sampled deals (see the module
    doc); ``add_best``: each sample's own best play joins the candidates
    (valued in every sample). None when nothing could be judged."""
    samples = ctx.samples if samples is None else samples
    if samples <= 0 or ctx.pov_pool <= 0:
        return None
    deals = sample_deals(ctx, seat, t_index, k, samples, seed)
    if not deals:
        return None
    cands = [tuple(sorted(m)) for m in candidates]
    share = ctx.pov_pool / max(1, len(deals))
    rows: list[tuple[Position, int, dict[tuple[int, ...], int]]] = []
    for pos, kp in deals:
        s = ctx.new_solver(kp)
        s.node_limit = int(share)
        try:
            s.value(pos)
            if add_best:
                m, _ = s.cheapest_best(pos)
                m = tuple(sorted(m))
                # a throw that stands in one sampled deal may fail in another (or in
                # the real one): only single-unit leads and follows join
                if m not in cands and (pos.plays or not ctx.is_throw(m)):
                    cands.append(m)
            rows.append((pos, kp, {m: s.play_value(pos, m) for m in cands}))
        except SearchBudgetExceeded:
            pass
        finally:
            ctx.pov_pool -= s.nodes
    # a candidate added by a later sample is valued in the earlier ones too
    kept = []
    for pos, kp, row in rows:
        missing = [m for m in cands if m not in row]
        if missing:
            s = ctx.new_solver(kp)
            s.node_limit = int(share)
            try:
                row.update({m: s.play_value(pos, m) for m in missing})
            except SearchBudgetExceeded:
                continue
            finally:
                ctx.pov_pool -= s.nodes
        kept.append(row)
    if not kept:
        return PovResult({}, samples, 0)
    values = {m: sum(r[m] for r in kept) / len(kept) for m in cands}
    return PovResult(values, samples, len(kept))


def mark(ctx: HandContext, f: Mistake, ti: int, k: int) -> Mistake:
    """An in-window finding judged again from its player's point of view:
    ``hidden`` is set (True: the loss needed the hidden cards, the play was
    as good on average over the deals the player could not tell apart) and
    the message says so. Findings on failed throws are left as they are."""
    t = ctx.hand.tricks[ti]
    p = t.plays[k]
    if p.attempted or f.best is None:
        return f
    res = evaluate(ctx, p.seat, ti, k, [p.cards, f.best])
    if res is None:
        return f
    got = pov_cost(ctx, p.seat, res, p.cards)
    if got is None:
        return f
    cost, _ = got
    if cost < MIN_COST:
        note = (f" [needed the hidden cards: from what {p.seat} could see, over {res.solved} sampled deals "
                f"the play lost {cost} points on average]")
        return replace(f, message=f.message + note, hidden=True)
    note = f" [from {p.seat}'s own view too: {cost} points lost on average over {res.solved} sampled deals]"
    return replace(f, message=f.message + note, hidden=False)


def pov_cost(ctx: HandContext, seat: str, res: PovResult, played: tuple[int, ...]) -> tuple[int, tuple[int, ...]] | None:
    """(average points the played move lost against the best candidate from
    ``seat``'s point of view, rounded down to a multiple of 5, that candidate)."""
    played = tuple(sorted(played))
    if not res.judged or played not in res.values:
        return None
    att = ctx.is_attacker(seat)
    pick = max if att else min
    best = pick(res.values, key=lambda m: (res.values[m], m == played))
    diff = res.values[best] - res.values[played] if att else res.values[played] - res.values[best]
    return int(max(0.0, diff + 1e-9) // 5) * 5, best


__all__ = ["PovResult", "evaluate", "average_value", "mark", "sample_deals", "voids", "declared_cards", "pinned", "pov_cost", "SAMPLES", "SEED", "POV_BUDGET"]
