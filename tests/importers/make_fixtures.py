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

from analyzer.importers._common import SOURCE_SEATS as SEATS  # noqa: E402  (source seat → SJN seat)
from notation.model import Bury, Declaration, Hand, Levels, Play, Record, SeatCards, Tag, Trick  # noqa: E402
from replay.cards import BJ, LJ, SUIT_SYMBOLS, points, rank_name  # noqa: E402
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
            from replay.diagnostics import NO_SPAN
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


if __name__ == "__main__":
    make_fly()
    make_botzone()
    make_80fen()
    make_chat()
    print("fixtures written to", OUT)
