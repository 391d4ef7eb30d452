"""Write the project's own importer fixtures: invented games in each platform's format.

    python tests/importers/make_fixtures.py

Each game is dealt from a seeded shuffle and played with the engine's own
legal-move API (``replay.legal``), so the games are legal by construction;
the trick results, scores and levels written into the logs are the engine's.
The log *shapes* follow ``shared/real-logs/*/FORMAT.md``; no byte of the
sample logs there is used. The output is deterministic: rerunning the script
rewrites the same files.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from analyzer.io.importers._common import SOURCE_SEATS as SEATS  # noqa: E402  (source seat → SJN seat)
from notation.model import Bury, Declaration, Hand, Levels, Play, Record, SeatCards, Tag, Trick  # noqa: E402
from primitives.cards import BJ, LJ, SUIT_SYMBOLS, points, rank_name  # noqa: E402
from replay.game import replay  # noqa: E402
from replay.legal import legal_follows, single_unit_leads  # noqa: E402
from replay.order import Order  # noqa: E402
from replay.ruleset import preset  # noqa: E402
from replay.trick import check_throw, trick_winner  # noqa: E402
from replay.units import decompose  # noqa: E402

OUT = Path(__file__).resolve().parent / "fixtures"


# -- a legal game, in source seats 0..3 ------------------------------------------------------

def play_out(rs, level, trump, dealer, hands, rng, throw_rate=0.2, max_tricks=None):
    """Play ``hands`` (source seats) to the end; tricks as [(seat, cards, attempted)]."""
    order = Order.for_ruleset(level, trump, rs)
    hold = [Counter(h) for h in hands]
    leader = dealer
    tricks = []
    while sum(hold[leader].values()) and (max_tricks is None or len(tricks) < max_tricks):
        lead, attempted = _lead(rs, order, hold, leader, rng, throw_rate)
        hold[leader].subtract(lead)
        plays = [(leader, lead, attempted)]
        for k in (1, 2, 3):
            s = (leader + k) % 4
            opts = legal_follows(lead, +hold[s], order, rs, limit=40)
            f = rng.choice(opts)
            hold[s].subtract(f)
            plays.append((s, tuple(f), None))
        w = trick_winner([p[1] for p in plays], order, rs).index
        tricks.append(plays)
        leader = plays[w][0]
    return tricks


def _lead(rs, order, hold, leader, rng, throw_rate):
    units = single_unit_leads(+hold[leader], order)
    units.sort(key=lambda u: (u.cards, u.width, u.length))
    u = rng.choice(units)
    if rng.random() < throw_rate:
        same = [v for v in units if order.eff[v.cards[0]] == order.eff[u.cards[0]]
                and not set(v.cards) & set(u.cards)]
        if same:
            v = rng.choice(same)
            tried = tuple(u.cards) + tuple(v.cards)
            if not Counter(tried) - hold[leader] and len(decompose(tried, order)) > 1:
                seats = [str((leader + k) % 4) for k in range(4)]
                chk = check_throw(tried, 0, [+hold[(leader + k) % 4] for k in range(4)], seats, order, rs)
                if chk.blockers:
                    return tuple(chk.forced.cards), tried
                return tried, None
    return tuple(u.cards), None


def to_record(rules, hands_spec):
    """An SJN record (for the engine's verdict on the invented game)."""
    rec = Record(tags=[Tag(name="Rules", value=rules)])
    for n, spec in enumerate(hands_spec, 1):
        h = Hand(number=n, first=SEATS[spec.get("first", 0)])
        if "levels" in spec:
            h.levels = Levels(ns=spec["levels"][0], ew=spec["levels"][1])
        h.dealer = SEATS[spec["dealer"]] if spec.get("dealer") is not None else "?"
        if spec.get("deal"):
            h.deal = [SeatCards(seat=SEATS[s], cards=tuple(spec["deal"][s])) for s in range(4)]
            h.kitty = tuple(spec["kitty"])
        for seat, cards, at in spec.get("declares", ()):
            h.events.append(Declaration(seat=SEATS[seat], cards=tuple(cards), at=at))
        if spec.get("declare_none"):
            from primitives.diagnostics import NO_SPAN
            h.declare_none = NO_SPAN
        h.trump = spec.get("trump")
        if spec.get("bury"):
            h.events.append(Bury(seat=SEATS[spec["dealer"]], cards=tuple(spec["bury"])))
        for plays in spec["tricks"]:
            h.tricks.append(Trick(plays=[Play(seat=SEATS[s], cards=tuple(c),
                                              attempted=tuple(a) if a else None) for s, c, a in plays]))
        rec.hands.append(h)
    return rec


def choose_bury(rs, level, trump, cards):
    order = Order.for_ruleset(level, trump, rs)
    ranked = sorted(cards, key=lambda c: (order.eff[c] == 4, points([c]) > 0, order.key[c], c))
    bury = ranked[:rs.kitty]
    rest = Counter(cards)
    rest.subtract(bury)
    return tuple(bury), tuple(sorted(rest.elements()))


def deal_bids(deck, level, first, policy):
    """Bids made while dealing ``deck`` one card at a time from seat ``first``.

    ``policy`` ``ladder``: a single, then a level pair of another seat.
    ``botzone``: the same (one call, one overcall). ``reinforce``: a single,
    then the same seat's pair of it. Returns [(seat, cards, k, draw index)].
    """
    held = [[] for _ in range(4)]
    bids = []
    for i, c in enumerate(deck[:100]):
        s = (first + i) % 4
        held[s].append(c)
        lv = [x for x in held[s] if x < 52 and x % 13 + 2 == level]
        if not bids and lv and c in lv:
            bids.append((s, (c,), len(held[s]), i))
        elif len(bids) == 1:
            pairs = [x for x, n in Counter(lv).items() if n == 2 and x == c]
            if pairs:
                if policy == "reinforce" and s == bids[0][0] and c == bids[0][1][0]:
                    bids.append((s, (c, c), len(held[s]), i))
                elif policy != "reinforce" and s != bids[0][0]:
                    bids.append((s, (c, c), len(held[s]), i))
    return bids


# -- shengji.fly.dev ---------------------------------------------------------------------------

def fly_code(c):
    if c == LJ:
        return "LJ"
    if c == BJ:
        return "BJ"
    return "SHDC"[c // 13] + rank_name(c % 13 + 2)


def make_fly(seed=11):
    rs = preset("shengji-fly")
    rng = random.Random(seed)
    t = [1763700000.0]
    lines = []
    players = [{"seat": i, "name": n, "is_bot": i != 0} for i, n in enumerate(["mei", "bot-1", "bot-2", "bot-3"])]

    def emit(rnd, e, **fields):
        t[0] += 1.5
        lines.append(json.dumps({"t": round(t[0], 3), "room": "QZXW", "round": rnd, "e": e, **fields}))

    levels = [2, 2]
    banker = None
    specs = []
    for rnd in (1, 2):
        while True:
            deck = [c for c in range(54) for _ in range(2)]
            rng.shuffle(deck)
            level = levels[banker % 2] if banker is not None else 2
            bids = deal_bids(deck, level, 0, "ladder") if rnd == 1 else []
            kitty_first = next((c for c in deck[100:] if c < 52), None)
            if (rnd == 1 and len(bids) == 2) or (rnd == 2 and kitty_first is not None):
                break
        emit(rnd, "round_start", deck=[fly_code(c) for c in deck], banker=banker,
             trump_rank=rank_name(level), levels=[rank_name(x) for x in levels], players=players)
        for s, cards, _k, _i in bids:
            emit(rnd, "declare", seat=s, cards=[fly_code(c) for c in cards], bot=s != 0)
        dealer = bids[-1][0] if rnd == 1 else banker
        trump = (bids[-1][1][0] // 13) if bids else kitty_first // 13
        emit(rnd, "trump", suit="SHDC"[trump], rank=rank_name(level), banker=dealer, declared=bool(bids))
        hands = [list(deck[s:100:4]) for s in range(4)]
        bury, rest = choose_bury(rs, level, trump, hands[dealer] + deck[100:])
        hands[dealer] = list(rest)
        emit(rnd, "bury", seat=dealer, cards=[fly_code(c) for c in bury], bot=dealer != 0)
        tricks = play_out(rs, level, trump, dealer, hands, rng, throw_rate=0.25)
        spec = {"levels": tuple(levels), "dealer": dealer if rnd > 1 else None, "first": 0,
                "deal": [deck[s:100:4] for s in range(4)], "kitty": deck[100:],
                "declares": [(s, c, k) for s, c, k, _ in bids], "declare_none": not bids,
                "trump": trump, "bury": bury, "tricks": tricks}
        if rnd == 1:
            spec["dealer"] = dealer
        specs.append(spec)
        res = replay(to_record("shengji-fly", specs))
        assert not res.errors, res.errors
        hr = res.hands[-1]
        for plays, tr in zip(tricks, hr.tricks):
            for s, cards, attempted in plays:
                extra = {}
                if attempted and s != 0:
                    extra = {"attempted_cards": [fly_code(c) for c in attempted],
                             "engine_resolution": "failed_throw_forced"}
                elif attempted:
                    extra = {"engine_resolution": "failed_throw_forced"}
                emit(rnd, "play", seat=s, cards=[fly_code(c) for c in cards], bot=s != 0, **extra)
            emit(rnd, "trick", winner=SEATS.index(tr.winner), points=tr.points,
                 plays=[{"seat": s, "cards": [fly_code(c) for c in cards]} for s, cards, _ in plays])
        out = hr.outcome
        new_levels = [out.levels["NS"], out.levels["EW"]]
        emit(rnd, "round_end", attacker_points=hr.attacker_points, kitty=[fly_code(c) for c in bury],
             kitty_points=hr.kitty_points, winner_team=0 if (out.dealers_keep == (dealer % 2 == 0)) else 1,
             level_change=out.gained, new_levels=[rank_name(x) for x in new_levels],
             next_banker=SEATS.index(out.next_dealer), game_over=out.match_over)
        if rnd == 1:
            emit(rnd, "chat", seat=1, text="gg", bot=True)
        levels, banker = new_levels, SEATS.index(out.next_dealer)
        # a human's failed throw keeps only the forced cards: the record must say so
        if any(a and s == 0 for plays in tricks for s, _c, a in plays):
            specs[-1]["tricks"] = [[(s, c, a if s != 0 else None) for s, c, a in plays] for plays in tricks]
    (OUT / "fly").mkdir(parents=True, exist_ok=True)
    (OUT / "fly" / "room_QZXW.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


# -- Botzone ---------------------------------------------------------------------------------

_BZ_SCALE = [14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
_BZ_SUITS = "hdsc"          # the judge's suit order
_SJN_SUIT = {"h": 1, "d": 2, "s": 0, "c": 3}


def bz_card(i):
    d = i % 54
    if d == 52:
        return LJ
    if d == 53:
        return BJ
    return _SJN_SUIT[_BZ_SUITS[d % 4]] * 13 + _BZ_SCALE[d // 4] - 2


def make_botzone(seed=5):
    rs = preset("botzone")
    rng = random.Random(seed)
    level = 2
    while True:
        ids = list(range(108))
        rng.shuffle(ids)
        kitty_ids, rest = ids[:8], ids[8:]
        alloc = [rest[p * 25:(p + 1) * 25] for p in range(4)]
        deal_order = [alloc[i % 4][i // 4] for i in range(100)]
        bids = deal_bids([bz_card(i) for i in deal_order], level, 0, "botzone")
        if len(bids) == 2:
            break
    log = []
    banking = {"called": -1, "snatched": -1, "major": "", "banker": -1}
    glob = lambda **kw: {"level": str(level), "banking": dict(banking), **kw}
    bid_at = {i: (s, cards) for s, cards, _k, i in bids}
    held = [[] for _ in range(4)]
    for i in range(100):
        p = i % 4
        card_id = deal_order[i]
        held[p].append(card_id)
        log.append({"output": {"command": "request",
                               "content": {str(p): {"stage": "deal", "deliver": [card_id], "global": glob()}},
                               "display": {"event": {"currplayer": (p - 1) % 4, "action": "deal"}}},
                    "verdict": "OK"})
        resp = []
        if i in bid_at:
            s, cards = bid_at[i]
            want = Counter(cards)
            for cid in held[p]:
                if want[bz_card(cid)] > 0:
                    resp.append(cid)
                    want[bz_card(cid)] -= 1
            major = "n" if cards[0] >= 52 else "shdc"[cards[0] // 13]
            if banking["called"] == -1:
                banking.update(called=p, major=major, banker=p)
            else:
                banking.update(snatched=p, major=major, banker=p)
        log.append({str(p): {"response": resp, "verdict": "OK"}})
    dealer = banking["banker"]
    trump = "shdc".index(banking["major"])
    hand_ids = [list(a) for a in alloc]
    all_ids = hand_ids[dealer] + kitty_ids
    log.append({"output": {"command": "request",
                           "content": {str(dealer): {"stage": "cover", "deliver": kitty_ids, "global": glob()}}},
                "verdict": "OK"})
    bury_cards, _ = choose_bury(rs, level, trump, [bz_card(i) for i in all_ids])
    bury_ids, want = [], Counter(bury_cards)
    for cid in all_ids:
        if want[bz_card(cid)] > 0:
            bury_ids.append(cid)
            want[bz_card(cid)] -= 1
    log.append({str(dealer): {"response": bury_ids, "verdict": "OK"}})
    hand_ids[dealer] = [i for i in all_ids if i not in bury_ids]
    hands = [[bz_card(i) for i in h] for h in hand_ids]
    tricks = play_out(rs, level, trump, dealer, hands, rng, throw_rate=0.2)
    spec = {"levels": (level, level), "dealer": dealer, "first": 0, "deal": [[bz_card(i) for i in a] for a in alloc],
            "kitty": [bz_card(i) for i in kitty_ids], "declares": [(s, c, k) for s, c, k, _ in bids],
            "trump": trump, "bury": bury_cards, "tricks": tricks}
    res = replay(to_record("botzone", [spec]))
    assert not [d for d in res.errors], res.errors
    hr = res.hands[0]
    pool = [list(h) for h in hand_ids]

    def ids_for(p, cards):
        out, want = [], Counter(cards)
        for cid in list(pool[p]):
            if want[bz_card(cid)] > 0:
                out.append(cid)
                want[bz_card(cid)] -= 1
                pool[p].remove(cid)
        return out

    last, last_leader, total = [], dealer, 0
    for _j, (plays, tr) in enumerate(zip(tricks, hr.tricks)):
        cur = []
        for s, cards, _a in plays:
            log.append({"output": {"command": "request",
                                   "content": {str(s): {"stage": "play", "history": [last, list(cur), last_leader,
                                                                                     plays[0][0]],
                                                        "global": glob(total_score=total)}}},
                        "verdict": "OK"})
            played = ids_for(s, cards)
            log.append({str(s): {"response": played, "verdict": "OK"}})
            cur.append(played)
        last, last_leader, total = cur, plays[0][0], tr.attacker_points
    p = hr.attacker_points
    team = [3, 2, 1][0 if p <= 0 else 1 if p < 40 else 2] if p < 80 else -[1, 2, 3][0 if p < 120 else 1 if p < 160 else 2]
    scores = {str(s): (team if s % 2 == dealer % 2 else -team) for s in range(4)}
    log.append({"output": {"command": "finish", "content": scores}, "verdict": "OK"})
    doc = {"log": log, "initdata": {"allocation": alloc, "publiccard": kitty_ids, "seed": str(seed),
                                    "level": str(level)}}
    (OUT / "botzone").mkdir(parents=True, exist_ok=True)
    (OUT / "botzone" / "match_complete.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


# -- 80fen v2 --------------------------------------------------------------------------------

def card80(cid):
    face = cid % 54
    if face >= 52:
        return {"id": cid, "suit": "X", "rank": 15 if face == 52 else 16}
    return {"id": cid, "suit": "SHDC"[face // 13], "rank": face % 13 + 2}


def make_80fen(seed=80):
    rs = preset("80fen")
    rng = random.Random(seed)
    level, first = 2, 1
    while True:
        ids = list(range(108))
        rng.shuffle(ids)
        order_ids = ids[:100]
        kitty_ids = ids[100:]
        bids = deal_bids([i % 54 for i in order_ids], level, first, "reinforce")
        if len(bids) == 2:
            break
    seq = [0]

    def nxt():
        seq[0] += 1
        return seq[0]

    events, draws = [], []
    events.append({"seq": nxt(), "deal": 1, "type": "deal_started",
                   "round": 1, "first": first, "levels": [level, level], "redeals": 0, "dealing": "continuous"})
    events.append({"seq": nxt(), "deal": 1, "type": "cut", "cards": [], "first": first})
    bid_at = {i: (s, cards) for s, cards, _k, i in bids}
    hands = [[] for _ in range(4)]
    for i, cid in enumerate(order_ids):
        s = (first + i) % 4
        hands[s].append(cid)
        draws.append({"seq": nxt(), "seat": s, "card": cid, "dealt": i + 1})
        if i in bid_at:
            _s2, cards = bid_at[i]
            shown = [x for x in hands[s] if x % 54 == cards[0]][:len(cards)]
            events.append({"seq": nxt(), "deal": 1, "type": "declaration", "seat": s,
                           "suit": "SHDC"[cards[0] // 13], "strength": len(cards),
                           "cards": [card80(x) for x in shown]})
    events.append({"seq": nxt(), "deal": 1, "type": "dealing_complete"})
    dealer = bids[-1][0]
    trump = bids[-1][1][0] // 13
    events.append({"seq": nxt(), "deal": 1, "type": "trump_set",
                   "trump": {"rank": level, "suit": "SHDC"[trump]}, "dealer": dealer})
    all_ids = hands[dealer] + kitty_ids
    bury_cards, _ = choose_bury(rs, level, trump, [i % 54 for i in all_ids])
    bury_ids, want = [], Counter(bury_cards)
    for cid in all_ids:
        if want[cid % 54] > 0:
            bury_ids.append(cid)
            want[cid % 54] -= 1
    pool = [list(h) for h in hands]
    pool[dealer] = [i for i in all_ids if i not in bury_ids]
    cards_hands = [[i % 54 for i in h] for h in pool]
    tricks = play_out(rs, level, trump, dealer, cards_hands, rng, throw_rate=0.3)
    spec = {"levels": (level, level), "dealer": dealer, "first": first,
            "deal": [[i % 54 for i in h] for h in hands], "kitty": [i % 54 for i in kitty_ids],
            "declares": [(s, c, k) for s, c, k, _ in bids], "trump": trump, "bury": bury_cards, "tricks": tricks}
    res = replay(to_record("80fen", [spec]))
    assert not res.errors, res.errors
    hr = res.hands[0]

    def pick(p, cards, among=None, remove=True):
        out, want = [], Counter(cards)
        for cid in list(among if among is not None else pool[p]):
            if want[cid % 54] > 0:
                out.append(cid)
                want[cid % 54] -= 1
                if remove:
                    pool[p].remove(cid)
        return out

    for j, (plays, tr) in enumerate(zip(tricks, hr.tricks)):
        for s, cards, attempted in plays:
            if attempted:
                tried = pick(s, attempted, remove=False)
                played = pick(s, cards, among=tried)
                events.append({"seq": nxt(), "deal": 1, "type": "throw_failed", "seat": s,
                               "proposed": [card80(x) for x in tried], "forced": [card80(x) for x in played]})
            else:
                played = pick(s, cards)
            events.append({"seq": nxt(), "deal": 1, "type": "play", "seat": s,
                           "cards": [card80(x) for x in played], "trick": j})
            events.append({"seq": nxt(), "deal": 1, "type": "decision_applied", "seat": s, "phase": "play",
                           "source": "api" if s else "human", "decisionId": f"d{seq[0]}", "version": 1,
                           "requested": True})
        events.append({"seq": nxt(), "deal": 1, "type": "trick", "index": j, "winner": SEATS.index(tr.winner),
                       "points": tr.points})
    out = hr.outcome
    events.append({"seq": nxt(), "deal": 1, "type": "round_scored", "round": 1, "dealer": dealer,
                   "score": {"attackPoints": hr.card_points, "kittyPoints": hr.kitty_points,
                             "multiplier": hr.multiplier, "total": hr.attacker_points,
                             "attackersWin": not out.dealers_keep, "levelsUp": out.gained},
                   "levels": [out.levels["NS"], out.levels["EW"]], "kitty": [card80(x) for x in bury_ids]})
    doc = {"format": "eighty-completed-deal", "version": 2, "gameId": "g-fixture-80", "dealEpoch": 1,
           "ruleset": "shanghai-80fen-0.7.14-v1",
           "rules": {"strictTractorFollow": True, "partialTractorFollow": True, "gates": [2, 5, 10, 13],
                     "fullRebel": False, "speedRun": False, "firstDealer": None, "pointRebelThreshold": 15,
                     "trumpRebelThreshold": 3, "maxRedeal": 3},
           "dealer": dealer, "trump": {"rank": level, "suit": "SHDC"[trump]},
           "levelsBefore": [level, level], "levelsAfter": [out.levels["NS"], out.levels["EW"]],
           "deal": {"first": first, "draws": draws, "hands": hands, "kitty": kitty_ids},
           "buried": bury_ids, "events": events}
    (OUT / "80fen").mkdir(parents=True, exist_ok=True)
    (OUT / "80fen" / "deal_v2.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


# -- shengji.io chat -----------------------------------------------------------------------------

NAMES = ["Ann", "Bo", "Cy", "Di"]


def chat_cards(cards, unicode=False):
    out = []
    for c in cards:
        if c == BJ:
            out.append("\U0001F0CF" if unicode else "HJ")
        elif c == LJ:
            out.append("\U0001F0DF" if unicode else "LJ")
        elif unicode:
            r = c % 13 + 2
            off = {14: 1, 11: 11, 12: 13, 13: 14}.get(r, r)
            out.append(chr(0x1F0A0 + 16 * (c // 13) + off))
        else:
            out.append(rank_name(c % 13 + 2) + SUIT_SYMBOLS[c // 13])
    return "".join(out)


def make_chat(seed=347, n_tricks=8):
    rs = preset("shengji-io")
    rng = random.Random(seed)
    level = 6
    while True:
        deck = [c for c in range(54) for _ in range(2)]
        rng.shuffle(deck)
        hands = [list(deck[s:100:4]) for s in range(4)]
        bid = next((c for c in hands[0] if c < 52 and c % 13 + 2 == level), None)
        if bid is not None:
            break
    trump = bid // 13
    _bury, rest = choose_bury(rs, level, trump, hands[0] + deck[100:])
    hands[0] = list(rest)
    tricks = []
    for _ in range(50):
        tricks = play_out(rs, level, trump, 0, hands, rng, throw_rate=0.3, max_tricks=n_tricks)
        if any(p[0][2] for p in tricks) and any(len(p[0][1]) >= 2 for p in tricks):
            break
    spec = {"levels": (level, level), "dealer": 0, "declares": [(0, (bid,), None)], "trump": trump,
            "tricks": tricks}
    res = replay(to_record("shengji-io", [spec]))
    assert not res.errors, res.errors
    hr = res.hands[0]
    lines = ["GAME: Ann started the game", "", f"GAME: Ann bid {chat_cards([bid])}", "",
             "GAME: Ann picked up the bottom cards", "GAME: Ann put down the bottom cards", "",
             "Bo: good luck all", ""]
    took_back = False
    for plays, tr in zip(tricks, hr.tricks):
        for s, cards, attempted in plays:
            if attempted:
                blocker = tr.blockers[0].seat if tr.blockers else None
                who = NAMES[SEATS.index(blocker)] if blocker else "someone"
                lines.append(f"GAME: {NAMES[s]} tried to throw {chat_cards(attempted, unicode=True)}, "
                             f"but {who} can beat it")
            if s == 1 and not took_back and len(cards) == 1:
                # a play taken back and replaced (shengji.io allows take-backs)
                other = next((c for c in hands[1] if c != cards[0]), cards[0])
                lines.append(f"GAME: Bo played {chat_cards([other])}")
                lines.append("GAME: Bo took back their last play")
                took_back = True
            lines.append(f"GAME: {NAMES[s]} played {chat_cards(cards)}")
        lines.append("")
        who = NAMES[SEATS.index(tr.winner)]
        lines.append(f"GAME: {who} wins the trick and gets {tr.points} points" if tr.points
                     else f"GAME: {who} wins the trick, but gets no points :(")
        lines.append("")
    (OUT / "chat").mkdir(parents=True, exist_ok=True)
    text = "\n".join(lines) + "\n"
    (OUT / "chat" / "paste_ok.txt").write_text(text, encoding="utf-8")
    # the same paste where the site named the wrong winner of one trick (the dispute)
    out, seen = [], 0
    for line in text.split("\n"):
        if " wins the trick" in line:
            seen += 1
            if seen == 5:
                who = line.split("GAME: ", 1)[1].split(" wins", 1)[0]
                wrong = NAMES[(NAMES.index(who) + 1) % 4]
                line = line.replace(f"GAME: {who} wins", f"GAME: {wrong} wins")
        out.append(line)
    (OUT / "chat" / "paste_wrong_winner.txt").write_text("\n".join(out), encoding="utf-8")


# -- shengji-godot (qian-loong): GameLogger JSON and the HTML report ------------------------------

_GD_SUITS = "♠♥♦♣"                       # the game's Card.Suit 0..3 = the project's suits
_GD_SEATS = ("S0 南 / 你", "S1 东", "S2 北 / 搭档", "S3 西")


def gd_card(c):
    if c == BJ:
        return "RedJoker"
    if c == LJ:
        return "BlackJoker"
    return _GD_SUITS[c // 13] + rank_name(c % 13 + 2)


def _gd_bids(hand, level):
    """The declarations a seat may make: (suit, cards), suits first, then 公主 (a joker pair)."""
    out = []
    for suit in range(4):
        lv = suit * 13 + level - 2
        joker = BJ if suit in (1, 2) else LJ
        if lv in hand and joker in hand:
            out.append((suit, (lv, joker)))
    for j in (BJ, LJ):
        if hand.count(j) >= 2:
            out.append((-1, (j, j)))
            break
    return out


def _gd_round(rs, rng, levels, expected, first_round):
    """One round: deal, poll the seats from ``expected``, bury, play out. A spec for to_record + the log's bits."""
    deck = [c for c in range(54) for _ in range(2)]
    rng.shuffle(deck)
    hands = [list(deck[s:100:4]) for s in range(4)]
    kitty = deck[100:]
    history, bid = [], None
    for k in range(4):
        s = (expected + k) % 4
        options = _gd_bids(hands[s], levels[s % 2])
        if not options:
            history.append({"action": "skip", "reason": "no_valid_cards", "seat": s})
        elif rng.random() < 0.25:
            history.append({"action": "skip", "reason": "player_choice" if s == 0 else "ai_pass", "seat": s})
        else:
            suit, cards = options[0]
            history.append({"action": "bid", "seat": s, "suit": suit,
                            "suit_symbol": "公主" if suit < 0 else _GD_SUITS[suit]})
            bid = (s, suit, cards)
            break
    dealer = bid[0] if bid else expected
    trump = (4 if bid[1] < 0 else bid[1]) if bid else 4
    level = levels[dealer % 2]
    with_bottom = hands[dealer] + kitty
    bury, _rest = choose_bury(rs, level, trump, with_bottom)
    played = list(hands)
    played[dealer] = list(_rest)
    return {"deck": deck, "hands": hands, "kitty": kitty, "history": history, "bid": bid, "dealer": dealer,
            "trump": trump, "level": level, "bury": bury, "with_bottom": with_bottom, "play_hands": played}


def _gd_spec(r, levels, tricks):
    return {"levels": tuple(levels), "dealer": r["dealer"], "deal": r["hands"], "kitty": r["kitty"],
            "declares": [(r["bid"][0], r["bid"][2], 25)] if r["bid"] else [],
            "declare_none": r["bid"] is None, "trump": r["trump"], "bury": r["bury"], "tricks": tricks}


def _gd_record(specs):
    rec = to_record("shengji-godot", specs)
    for h in rec.hands:
        h.dealer = "?"                    # the declarer deals (declarer_deals)
    return rec


def make_godot(seed=36):
    """A 3-round match and a 4th round dealt but not played, as the game logs it, and its HTML report."""
    rs = preset("shengji-godot")
    for attempt in range(500):
        rng = random.Random(seed * 1000 + attempt)
        levels, expected = [2, 2], 0
        rounds, specs = [], []
        for n in range(4):
            r = _gd_round(rs, rng, levels, expected, n == 0)
            tricks = [] if n == 3 else play_out(rs, r["level"], r["trump"], r["dealer"], r["play_hands"], rng,
                                                throw_rate=0)
            specs.append(_gd_spec(r, levels, tricks))
            res = replay(_gd_record(specs))
            assert not res.errors, res.errors
            r["result"], r["levels"] = res.hands[-1], list(levels)
            rounds.append(r)
            out = res.hands[-1].outcome
            if out is not None:
                levels = [out.levels["NS"], out.levels["EW"]]
                expected = SEATS.index(out.next_dealer)
        took = any(r["dealer"] != (0 if i == 0 else SEATS.index(rounds[i - 1]["result"].outcome.next_dealer))
                   for i, r in enumerate(rounds[:3]))
        nt = any(r["bid"] and r["bid"][1] < 0 for r in rounds[:3])
        bonus = any(r["result"].kitty_points for r in rounds[:3])
        if took and (nt or bonus):
            break
    (OUT / "godot").mkdir(parents=True, exist_ok=True)
    (OUT / "godot" / "game_log.json").write_text(_gd_json(rounds), encoding="utf-8")
    (OUT / "godot" / "report.html").write_text(_gd_html(rounds[:3]), encoding="utf-8")


def _gd_settlement(r):
    hr, out = r["result"], r["result"].outcome
    dealers = r["dealer"] % 2
    rising = dealers if out.dealers_keep else 1 - dealers
    mult = hr.multiplier
    return {"attack_base_score": hr.card_points, "bottom_bonus": hr.kitty_points, "bottom_multiplier": mult,
            "bottom_score": hr.kitty_points // mult if mult else 0, "dealer_dethroned": not out.dealers_keep,
            "final_score": hr.attacker_points, "game_over": out.match_over,
            "new_dealer": -1 if out.dealers_keep else SEATS.index(out.next_dealer),
            "new_rank": out.levels["NS" if rising == 0 else "EW"] if out.gained else hr.level,
            "new_rank_symbol": rank_name(out.levels["NS" if rising == 0 else "EW"] if out.gained else hr.level),
            "upgrade_levels": out.gained, "upgrading_side": 0 if out.dealers_keep else 1}


def _gd_json(rounds):
    out = []
    for n, r in enumerate(rounds, 1):
        d, hr = r["dealer"], r["result"]
        bid = ({"seat": r["bid"][0], "suit": r["bid"][1], "type": 4 if r["bid"][1] < 0 else 3,
                "suit_symbol": "公主" if r["bid"][1] < 0 else _GD_SUITS[r["bid"][1]]}
               if r["bid"] else {"type": 0})
        left = list(r["with_bottom"])
        idx = []
        for c in r["bury"]:
            i = next(i for i, x in enumerate(left) if x == c and i not in idx)
            idx.append(i)
        tricks = []
        before = 0
        for t in hr.tricks:
            gain = t.points if t.to_attackers else 0
            tricks.append({
                "attack_gain": gain, "attack_score_after": before + gain, "attack_score_before": before,
                "debug": {"domain_info": [], "winner_reason": f"winner={SEATS.index(t.winner)}"},
                "lead_seat": SEATS.index(t.leader),
                "plays": [{"cards": [gd_card(c) for c in p.cards], "pattern": _gd_pattern(p.cards),
                           "seat": SEATS.index(p.seat)} for p in t.plays],
                "trick_num": t.number, "trick_points": t.points, "trick_score": t.points,
                "winner": SEATS.index(t.winner), "winner_side": "attack" if t.to_attackers else "dealer"})
            before += gain
        rnd = {"attack_team": [(d + 1) % 4, (d + 3) % 4], "bid": bid, "bid_history": r["history"],
               "buried_indices": sorted(idx), "dealer": d, "dealer_team": [d, (d + 2) % 4],
               "rank": r["level"], "rank_symbol": rank_name(r["level"]), "round_num": n, "seed": 1000 + n,
               "team_ranks": r["levels"], "team_ranks_symbols": [rank_name(x) for x in r["levels"]],
               "trump_suit": -1 if r["trump"] == 4 else r["trump"],
               "trump_suit_symbol": "公主" if r["trump"] == 4 else _GD_SUITS[r["trump"]],
               "debug": {"bottom_cards": [gd_card(c) for c in r["kitty"]],
                         "buried_cards": [gd_card(c) for c in r["bury"]],
                         "hand_with_bottom": [gd_card(c) for c in r["with_bottom"]],
                         "initial_hands": [[gd_card(c) for c in h] for h in r["hands"]]},
               "tricks": tricks, "settlement": _gd_settlement(r) if hr.outcome else {}}
        if not hr.tricks:
            rnd["_in_progress"] = True
        out.append(rnd)
    doc = {"created_at": "2026-01-02T03:04:05", "rounds": out, "version": 1,
           "rule_config": {"allow_dump": False, "bid_requires_joker": True, "current_rank": 2, "deck_count": 2,
                           "four_same_is_tractor": False, "joker_always_trump": True, "no_skip_enabled": True,
                           "no_skip_ranks": [5, 10, 13], "strict_follow_structure": True,
                           "tractor_allow_rank_card": True, "trump_joker_color_match": True, "trump_mode": 0,
                           "upgrade_threshold": 80}}
    return json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def _gd_pattern(cards):
    if len(cards) == 1:
        return "Single"
    return "Pair" if len(cards) == 2 and cards[0] == cards[1] else "Dump"


def _gd_tokens(cards):
    return "".join(f'<span class="card-token {"red" if c == BJ or (c < 52 and c // 13 in (1, 2)) else "black"}">'
                   f"{gd_card(c)}</span>" for c in cards)


def _gd_html(rounds):
    order_key = {}
    parts = ["<!doctype html>", '<html lang="zh-CN">', "<head>", '  <meta charset="utf-8">',
             "  <title>双升日志复盘 - fixture_game.json</title>", "</head>", "<body>",
             '  <header class="app-header"><h1>双升日志复盘 - fixture_game.json</h1></header>', "  <main>"]
    for n, r in enumerate(rounds, 1):
        hr, out, d = r["result"], r["result"].outcome, r["dealer"]
        order = hr.order
        order_key = order.key

        def sort(cards):
            return sorted(cards, key=lambda c: (-(order.eff[c] == 4), order.eff[c], -order_key[c]))

        bids = ", ".join(f"S{h['seat']} 跳过({h['reason']})" if h["action"] == "skip"
                         else f"S{h['seat']} 亮 {h['suit_symbol']}" for h in r["history"])
        st = _gd_settlement(r)
        ns, ew = r["levels"]
        parts += [f'<section id="round-{n - 1}" class="round-section">', '  <div class="round-grid">',
                  '    <article class="card summary">', f"      <h2>第 {n} 局概览</h2>", '      <div class="kv">',
                  f"        <span>庄家</span><b>{_GD_SEATS[d]}</b>",
                  f"        <span>本局级</span><b>{rank_name(r['level'])}</b>",
                  f"        <span>队伍级</span><b>{rank_name(ns)} / {rank_name(ew)}</b>",
                  f"        <span>主花色</span><b>{'公主' if r['trump'] == 4 else _GD_SUITS[r['trump']]}</b>",
                  f"        <span>亮主</span><b>{bids or '无'}</b>", "      </div>", "    </article>",
                  '    <article class="card summary">', "      <h2>结算与轮庄</h2>", '      <div class="kv">',
                  f"        <span>攻方出牌分</span><b>{st['attack_base_score']}</b>",
                  f"        <span>底牌奖励</span><b>{st['bottom_score']} × {st['bottom_multiplier']} = "
                  f"{st['bottom_bonus']}</b>",
                  f"        <span>最终分</span><b>{st['final_score']}</b>",
                  f"        <span>升级方</span><b>{'庄家方' if out.dealers_keep else '攻方'}</b>",
                  f"        <span>新级</span><b>{st['new_rank_symbol']}</b>",
                  f"        <span>新庄家</span><b>{'不换庄' if out.dealers_keep else _GD_SEATS[st['new_dealer']]}</b>",
                  f"        <span>下局期望庄家</span><b>{_GD_SEATS[SEATS.index(out.next_dealer)]}</b>",
                  "      </div>", "    </article>", '    <article class="card summary wide">',
                  f"      <p><b>底牌：</b>{_gd_tokens(r['kitty'])}</p>",
                  f"      <p><b>埋牌：</b>{_gd_tokens(r['bury'])}</p>", "    </article>",
                  '<article class="card summary wide">', '  <div class="initial-hands">']
        for s in range(4):
            parts += ['<details class="initial-hand">', f"  <summary>{_GD_SEATS[s]} 初始手牌（25 张）</summary>",
                      f'  <div class="hand-cards">{_gd_tokens(sort(r["hands"][s]))}</div>', "</details>"]
        parts += ["</div>", "</article>", "  </div>", '  <div class="trick-list">']
        before = 0
        for t in hr.tricks:
            gain = t.points if t.to_attackers else 0
            side = "攻方" if t.to_attackers else "庄家方"
            parts += ['<details class="trick-card" open>', '  <summary class="">', f"    <span>第 {t.number} 墩</span>",
                      f"    <span>先手 S{SEATS.index(t.leader)} · 赢家 S{SEATS.index(t.winner)} {side} · "
                      f"本墩 {t.points} 分 · 攻方 {before} → {before + gain}</span>", "  </summary>",
                      '  <div class="play-detail">']
            for p in t.plays:
                parts += ['<div class="play-row">', f"  <b>{_GD_SEATS[SEATS.index(p.seat)]}</b>",
                          f"  <span>{_gd_tokens(p.cards)}</span>",
                          f"  <code>{_gd_pattern(p.cards)}</code>", "</div>"]
            parts += ["  </div>", '  <div class="hand-snapshots"><h3>本墩前后手牌</h3>',
                      '<details class="hand-snapshot">', f"  <summary>{_GD_SEATS[SEATS.index(t.leader)]} 手牌</summary>",
                      f'  <div class="hand-cards">{_gd_tokens(t.plays[0].cards)}</div>', "</details>", "</div>",
                      "</details>", ""]
            before += gain
        parts += ["</div>", "</section>", ""]
    parts += ["  </main>", "</body>", "</html>", ""]
    return "\n".join(parts)


if __name__ == "__main__":
    make_fly()
    make_botzone()
    make_80fen()
    make_chat()
    make_godot()
    print("fixtures written to", OUT)
