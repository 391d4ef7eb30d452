"""The SJN record of a shengji.io chat log's hands (see
:mod:`analyzer.io.importers.shengji_io_chat`): fixed partners, or finding
friends when more than four play."""

from __future__ import annotations

from typing import cast

from analyzer.io.importers._chat_common import (
    FRIENDS_RULES,
    RULES,
    ChatHand,
    note_of,
)
from analyzer.io.importers._common import (
    SOURCE_SEATS,
    Claim,
    LogImporter,
    comment_text,
    span_at,
    tags_for,
)
from notation.model import Bury, Declaration, Hand, Levels, Play, PlayerLevels, Record, Seat, Tag, Trick
from primitives.diagnostics import Span


class ChatRecords(LogImporter):
    """The records of :class:`analyzer.io.importers.shengji_io_chat._Importer`."""

    # the importer's state, set by :class:`analyzer.io.importers.shengji_io_chat._Importer`
    rules: dict[str, str]
    friends_mode: bool
    table: int
    after_ranks: list[tuple[int, dict[str, int]]]

    # -- the record ------------------------------------------------------------------------------------
    def record(self, hands: list[ChatHand], seats: dict[str, int]) -> Record:
        players: dict[str, str] = {SOURCE_SEATS[i]: n for n, i in seats.items()}
        extra = [(f"Rule.{k}", v) for k, v in self.rules.items()]
        record = Record(tags=tags_for(event="shengji.io game (chat log)", site="shengji.io", rules=RULES,
                                      players=players, source=self.source, extra=extra))
        team_levels: dict[int, int] = {}          # team (0: source seats 0+2, 1: 1+3) → level
        prev_complete = False
        for hi, h in enumerate(hands):
            number = hi + 1
            hand = Hand(number=number, span=span_at(h.line, 1))
            for name, r in h.ranks.items():
                if name in seats:
                    team_levels[seats[name] % 2] = r
            # declarations
            for b in h.bids:
                if b.name not in seats:
                    self.sink.add("SJ705", span_at(b.line, b.col), f"cannot seat {b.name}, who bids but never "
                                                                    f"plays; the bid is dropped")
                    continue
                hand.events.append(Declaration(seat=SOURCE_SEATS[seats[b.name]], cards=b.cards,
                                               span=span_at(b.line, b.col)))
            decls = hand.declarations
            standing = decls[-1] if decls else None
            if standing is not None:
                c = standing.cards[0]
                hand.trump = 4 if c >= 52 else c // 13
                hand.trump_span = standing.span
            # dealer: the leader of the first trick (the landlord leads a hand's first trick)
            leader = h.tricks[0].plays[0].name if h.tricks else None
            if leader in seats:
                hand.dealer = SOURCE_SEATS[seats[leader]]
                hand.dealer_span = span_at(h.tricks[0].plays[0].line, h.tricks[0].plays[0].col)
            elif standing is not None:
                hand.dealer = standing.seat
            elif number == 1:
                hand.dealer = "?"
            # levels: the standing bid's rank is the dealer team's level
            guessed = False
            if standing is not None and standing.cards[0] < 52 and hand.dealer in SOURCE_SEATS:
                team_levels[SOURCE_SEATS.index(hand.dealer) % 2] = standing.cards[0] % 13 + 2
            lv = dict(team_levels)
            if len(lv) < 2:
                guessed = True
                fill = next(iter(lv.values()), 2)
                lv = {0: lv.get(0, fill), 1: lv.get(1, fill)}
            if number == 1 or not prev_complete or not guessed:
                hand.levels = Levels(ns=lv[0], ew=lv[1], span=span_at(h.line, 1))
                if guessed:
                    hand.comments.append("levels: the chat names only one team's rank (or none); "
                                         "the other team's is set equal")
            # tricks
            for _j, t in enumerate(h.tricks, 1):
                plays = []
                dropped = False
                for p in t.plays:
                    if p.name not in seats:
                        dropped = True
                        continue
                    pl = Play(seat=SOURCE_SEATS[seats[p.name]], cards=p.cards, attempted=p.attempted,
                              span=span_at(p.line, p.col))
                    if p.note:
                        pl.comments.append(comment_text(p.note))
                    plays.append(pl)
                if not plays:
                    continue
                trick = Trick(number=len(hand.tricks) + 1, plays=plays,
                              span=Span(t.line, t.col, t.result_line or t.plays[-1].line, 1))
                if t.note:
                    trick.comments.append(comment_text(t.note))
                hand.tricks.append(trick)
                if dropped:
                    trick.comments.append("plays of unseated players are left out; the trick's stated "
                                          "result is not checked")
                if t.winner is not None and not dropped:
                    rl, rc = t.result_line, t.result_col
                    self.claims.append(Claim(line=rl, column=rc, trick=len(hand.tricks),
                                             winner=SOURCE_SEATS[seats[t.winner]] if t.winner in seats else None,
                                             points=t.points, hand=number, name=t.winner,
                                             kitty_points=t.kitty))
            if h.reveal is not None and hand.dealer in SOURCE_SEATS:
                hand.events.append(Bury(seat=hand.dealer, cards=h.reveal[0], span=span_at(h.reveal[1], 1)))
            if h.summary is not None:
                pts, line, col = h.summary
                hand.points = pts
                hand.points_span = span_at(line, col)
                self.claims.append(Claim(line=line, column=col, trick=None, winner=None, points=pts,
                                         hand=number, kind="total"))
            record.hands.append(hand)
            prev_complete = h.summary is not None
            for idx, ranks in self.after_ranks:
                if idx == hi:
                    for name, r in ranks.items():
                        if name in seats:
                            team_levels[seats[name] % 2] = r
        return record

    # -- finding friends: a table of 4–8 -----------------------------------------------------------
    def friends_record(self, hands: list[ChatHand], seats: dict[str, int]) -> Record:
        """A Finding Friends paste: seats ``P1``…``Pn`` in the order of play (``P1`` leads the
        first trick), ``[Rules "shengji-io-friends"]`` with the table size, the player
        names in ``[P1 "name"]`` tags, each player's own level."""
        from replay.friends import infer_trump

        n = self.table
        # seat numbers are below self.table <= 8: the names are P1..P8
        seat: dict[str, Seat] = {name: cast(Seat, f"P{i + 1}") for name, i in seats.items()}
        extra = [(f"Rule.{k}", v) for k, v in self.rules.items()]
        if n != 5:
            extra.insert(0, ("Rule.players", str(n)))
        record = Record(tags=tags_for(event="shengji.io game (chat log)", site="shengji.io", rules=FRIENDS_RULES,
                                      source=self.source, extra=extra))
        names = sorted(seats, key=seats.__getitem__)
        at = next((k for k, t in enumerate(record.tags) if t.name == "Source"), len(record.tags))
        record.tags[at:at] = [Tag(name=seat[name], value=name) for name in names]
        ranks: dict[str, int] = {}
        for hi, h in enumerate(hands):
            number = hi + 1
            hand = Hand(number=number, span=span_at(h.line, 1))
            ranks.update({name: r for name, r in h.ranks.items() if name in seats})
            for b in h.bids:
                if b.name not in seats:
                    self.sink.add("SJ705", span_at(b.line, b.col), f"cannot seat {b.name}, who bids but never "
                                                                    f"plays; the bid is dropped")
                    continue
                hand.events.append(Declaration(seat=seat[b.name], cards=b.cards, span=span_at(b.line, b.col)))
            decls = hand.declarations
            standing = decls[-1] if decls else None
            leader = h.tricks[0].plays[0].name if h.tricks else None
            if leader in seats:
                hand.dealer = seat[leader]
                hand.dealer_span = span_at(h.tricks[0].plays[0].line, h.tricks[0].plays[0].col)
            elif standing is not None:
                hand.dealer = standing.seat
            elif number == 1:
                hand.dealer = "?"
            if standing is not None:
                c = standing.cards[0]
                hand.trump = 4 if c >= 52 else c // 13
                hand.trump_span = standing.span
                if c < 52 and hand.dealer in seat.values():
                    dealer_name = next(k for k, v in seat.items() if v == hand.dealer)
                    ranks[dealer_name] = c % 13 + 2
            known = dict(ranks)
            levels: dict[str, int] = {seat[name]: known.get(name, 2) for name in names}
            hand.levels = PlayerLevels(levels=levels, span=span_at(h.line, 1))
            if len(known) < len(names) and number == 1:
                hand.comments.append("levels: the chat does not give every player's rank; the others are "
                                     "taken as 2")
            for t in h.tricks:
                plays = [Play(seat=seat[p.name], cards=p.cards, attempted=p.attempted, span=span_at(p.line, p.col),
                              comments=[comment_text(p.note)] if p.note else [])
                         for p in t.plays if p.name in seats]
                if not plays:
                    continue
                trick = Trick(number=len(hand.tricks) + 1, plays=plays,
                              span=Span(t.line, t.col, t.result_line or t.plays[-1].line, 1))
                if t.note:
                    trick.comments.append(comment_text(t.note))
                hand.tricks.append(trick)
                if t.winner is not None and len(plays) == len(t.plays):
                    self.claims.append(Claim(line=t.result_line, column=t.result_col, trick=len(hand.tricks),
                                             winner=seat.get(t.winner), points=t.points, hand=number,
                                             name=t.winner, kitty_points=t.kitty))
            if hand.trump is None and hand.tricks:
                # no bid in the paste: the trump under which every stated winner could win at all
                # (a winner who is not seated names no play: infer_trump would skip the trick anyway)
                said = [(tr.plays, w) for tr, t in zip(hand.tricks, h.tricks)
                        if t.winner and (w := seat.get(t.winner)) is not None]
                level = levels.get(hand.dealer, 2) if hand.dealer else 2
                trump = infer_trump(said, level)
                if trump is not None:
                    hand.trump = trump
                    symbol = "NT" if trump == 4 else "♠♥♦♣"[trump]
                    hand.line_notes["trump"] = note_of(f"not in the paste: {symbol} is the only trump under which "
                                                     f"every stated winner's play can win (level {level})")
            if h.reveal is not None and hand.dealer in seat.values():
                hand.events.append(Bury(seat=hand.dealer, cards=h.reveal[0], span=span_at(h.reveal[1], 1)))
            if h.summary is not None:
                pts, line, col = h.summary
                hand.points = pts
                hand.points_span = span_at(line, col)
                self.claims.append(Claim(line=line, column=col, trick=None, winner=None, points=pts,
                                         hand=number, kind="total"))
            record.hands.append(hand)
            for idx, after in self.after_ranks:
                if idx == hi:
                    ranks.update({name: r for name, r in after.items() if name in seats})
        return record
