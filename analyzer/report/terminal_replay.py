"""The table as a player sees it (``shengji replay``): the hands, the
declarations, the tricks (across, or down when the terminal is narrow), the
score and the kitty of each hand of a :class:`replay.results.MatchResult`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from notation.model import Hand, Record
    from replay.order import Order
    from replay.results import HandResult, MatchResult, TrickResult

from rich import box
from rich.console import Console, JustifyMethod
from rich.table import Table
from rich.text import Text

from analyzer.report.console import (
    TAG_OF_SEAT,
    WIN_MARK,
    cards_text,
    fit,
    hand_text,
    trump_text,
)
from notation.reader import escape_controls as inert
from replay.seats import SEATS

# -- replay: the table as a player sees it -------------------------------------------------

def _player(record: Record | None, seat: str) -> str:
    if record is None:
        return ""
    return inert(record.tag(TAG_OF_SEAT.get(seat, seat)) or "")


def hand_header(hand: HandResult, record: Record | None = None) -> Text:
    from primitives.cards import rank_name
    rs = hand.ruleset
    t = Text()
    t.append(f"Hand {hand.number}", style="bold")
    if hand.team is not None:  # finding friends: each player's own level
        levels = "levels " + " ".join(f"{s} {rank_name(v)}" for s, v in hand.levels.items())
    else:
        levels = f"levels NS {rank_name(hand.levels['NS'])} EW {rank_name(hand.levels['EW'])}"
    parts = [f"rules {rs.name}",
             levels,
             f"level {rank_name(hand.level)}",
             f"dealer {hand.dealer or '?'}",
             f"trump {trump_text(hand.trump)}"]
    if hand.declarer:
        parts.append(f"declared by {hand.declarer}")
    t.append(" · " + " · ".join(parts))
    if hand.team is not None and hand.friends:
        from replay.friend_calls import describe_friends
        t.append(f"\nFriends: {describe_friends(hand)}")
    return t


def declarations_text(hand_node: Hand | None) -> Text | None:
    """The ``declare`` lines of a record's hand, in order."""
    if hand_node is None:
        return None
    t = Text()
    if hand_node.declare_none is not None:
        return Text("nobody declared")
    decls = hand_node.declarations
    if not decls:
        return None
    for i, d in enumerate(decls):
        if i:
            t.append("; ")
        t.append(f"{d.seat} ")
        t.append_text(cards_text(d.cards))
        if d.at is not None:
            t.append(f" @{d.at}")
    return t


def hands_table(hands: Sequence[Sequence[int]], order: Order | None, record: Record | None = None, *,
                title: str = "", seats: Sequence[str] = SEATS, marks: dict[str, str] | None = None) -> Table:
    """The hands (by seat: N W S E, or P1…Pn) sorted in trump order; ``marks``
    adds a word after a seat (finding friends: the dealer and revealed friends)."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title=title or None,
                  title_justify="left", title_style="bold")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("n", justify="right")
    table.add_column("cards", overflow="fold")
    for seat, cards in zip(seats, hands):
        label = f"{seat} {marks[seat]}" if marks and seat in marks else seat
        table.add_row(label, _player(record, seat), str(len(cards)), hand_text(cards, order))
    return table


def _play_text(trick: TrickResult, p: Any, order: Order | None) -> Text:
    """One play of a trick: the cards (a failed throw: attempted → played), the winner marked."""
    t = Text()
    if p.attempted:
        t.append_text(cards_text(order.sorted(p.attempted) if order else p.attempted))
        t.append(" → ")
    t.append_text(cards_text(order.sorted(p.cards) if order else p.cards))
    if p.seat == trick.winner:
        t.append(" " + WIN_MARK, style="bold green")
        t.stylize("underline")
    return t


def trick_row(trick: TrickResult, order: Order | None, seats: Sequence[str] = SEATS,
              joins: Sequence[str] = ()) -> list[str | Text]:
    cells: list[str | Text] = [str(trick.number), trick.leader]
    for seat in seats:
        p = trick.play_of(seat)
        cells.append("" if p is None else _play_text(trick, p, order))
    cells += [trick.winner, str(trick.points) if trick.points else "", str(trick.attacker_points),
              _trick_note(trick, joins)]
    return cells


def _trick_note(trick: TrickResult, joins: Sequence[str]) -> str:
    notes = []
    if trick.ruffed:
        notes.append("ruff")
    if trick.failed_throw:
        notes.append("failed throw")
    elif trick.is_throw:
        notes.append("throw")
    if trick.penalty:
        notes.append(f"penalty {trick.penalty:+d}")
    notes.extend(joins)
    return ", ".join(notes)


def _joins(hand: HandResult | None) -> dict[int, list[str]]:
    """Finding friends: who joins the dealer at which trick."""
    joins: dict[int, list[str]] = {}
    if hand is not None and hand.team is not None:
        for f in hand.friends:
            if f.seat is not None and f.trick is not None:
                who = "the dealer takes" if f.seat == hand.dealer else f"{f.seat} joins:"
                joins.setdefault(f.trick, []).append(f"{who} {f.text}")
    return joins


def print_tricks(console: Console, tricks: Sequence[TrickResult], order: Order | None, *, title: str = "",
                 highlight: int | None = None, hand: HandResult | None = None) -> None:
    """The tricks, one column per seat (:func:`tricks_table`), or, where the seats
    do not fit the console's width, one row per play (:func:`tricks_table_vertical`)."""
    table = tricks_table(tricks, order, title=title, highlight=highlight, hand=hand)
    if not fit(console, table):
        table = tricks_table_vertical(tricks, order, title=title, highlight=highlight, hand=hand)
    console.print(table)


def tricks_table_vertical(tricks: Iterable[TrickResult], order: Order | None, *, title: str = "",
                          highlight: int | None = None, hand: HandResult | None = None) -> Table:
    """The tricks one play a row, in the order played (the leader first): for a
    narrow terminal or a wide table (six or eight seats, long throws)."""
    joins = _joins(hand)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title=title or None,
                  title_justify="left", title_style="bold")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("#", "right"), ("seat", "left"), ("cards", "left"), ("won", "left"), ("pts", "right"), ("att", "right"),
        ("note", "left"))
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for t in tricks:
        style = "bold" if highlight == t.number else None
        for k, p in enumerate(t.plays):
            if k == 0:
                table.add_row(str(t.number), p.seat, _play_text(t, p, order), t.winner,
                              str(t.points) if t.points else "", str(t.attacker_points),
                              _trick_note(t, joins.get(t.number, ())), style=style)
            else:
                table.add_row("", p.seat, _play_text(t, p, order), "", "", "", "", style=style)
    return table


def tricks_table(tricks: Iterable[TrickResult], order: Order | None, *, title: str = "",
                 highlight: int | None = None, hand: HandResult | None = None) -> Table:
    """The tricks, one column per seat; ``hand`` (its :class:`HandResult`) gives
    the table's seats and, finding friends, who joins the dealer at which trick."""
    seats = hand.seats if hand is not None else SEATS
    joins = _joins(hand)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title=title or None,
                  title_justify="left", title_style="bold")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("#", "right"), ("lead", "left"), *((s, "left") for s in seats),
        ("won", "left"), ("pts", "right"), ("att", "right"), ("note", "left"))
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for t in tricks:
        table.add_row(*trick_row(t, order, seats, joins.get(t.number, ())),
                      style="bold" if highlight == t.number else None)
    return table


def _marks(hand: HandResult, trick: int) -> dict[str, str] | None:
    """Finding friends: ``dealer`` / ``friend`` after the seats known by trick ``trick``."""
    if hand.team is None or hand.dealer is None:
        return None
    marks = {s: "(friend)" for s in hand.team_at(trick)}
    marks[hand.dealer] = "(dealer)"
    return marks


def score_text(hand: HandResult) -> Text:
    """The hand's final line: points, kitty, level change and next dealer."""
    from primitives.cards import rank_name
    t = Text()
    if hand.redeal:
        t.append("Redeal: nobody declared; no levels change.")
        return t
    if not hand.complete:
        t.append(f"Incomplete hand: {len(hand.tricks)} trick(s) recorded; attackers have "
                 f"{hand.tricks[-1].attacker_points if hand.tricks else 0} so far.")
        return t
    parts = [f"Attackers ({hand.attackers}) {hand.attacker_points} points: {hand.card_points} in tricks"]
    if hand.penalties:
        parts.append(f"{hand.penalties:+d} in penalties")
    if hand.multiplier:
        parts.append(f"{hand.kitty_points} from the kitty (×{hand.multiplier})")
    t.append(", ".join(parts) + ".")
    o = hand.outcome
    if o is not None and hand.team is not None:
        lv = " ".join(f"{s} {rank_name(v)}" for s, v in o.levels.items())
        who = "the dealer's team wins" if o.dealers_keep else "the attackers win"
        bonus = ", a bonus level for a smaller team" if hand.bonus else ""
        t.append(f"\nDealer's team: {' '.join(hand.team)}. Levels after: {lv} (+{o.gained} each, {who}{bonus}); "
                 f"next dealer {o.next_dealer}.")
        if o.match_over:
            t.append(f" Match over: {o.winner} win.")
    elif o is not None:
        lv = f"NS {rank_name(o.levels['NS'])} EW {rank_name(o.levels['EW'])}"
        who = "dealers keep the deal" if o.dealers_keep else "attackers take the deal"
        t.append(f"\nLevels after: {lv} (+{o.gained}, {who}); next dealer {o.next_dealer}.")
        if o.hooked_back:
            t.append(" Hooked back.")
        if o.match_over:
            t.append(f" Match over: {o.winner} wins.")
    return t


def kitty_text(hand: HandResult) -> Text | None:
    if hand.kitty is None and hand.bury is None:
        return None
    t = Text()
    if hand.kitty is not None:
        t.append("Kitty: ")
        t.append_text(cards_text(hand.order.sorted(hand.kitty) if hand.order else hand.kitty))
    if hand.bury is not None:
        if hand.kitty is not None:
            t.append("   ")
        t.append(f"Buried by {hand.dealer}: ")
        t.append_text(cards_text(hand.order.sorted(hand.bury) if hand.order else hand.bury))
    return t


def render_hand(console: Console, hand: HandResult, record: Record | None = None, hand_node: Hand | None = None,
                *, trick: int | None = None, step: Callable[[str], None] | None = None) -> None:
    """One hand: header, declarations, kitty, the four hands, then the tricks.

    ``trick``: show the table as it was before trick ``trick`` and the tricks up
    to it. ``step``: called with a prompt after each trick (``--step``).
    """
    console.print(hand_header(hand, record))
    decl = declarations_text(hand_node)
    if decl is not None:
        console.print(Text("Declarations: ").append_text(decl))
    kt = kitty_text(hand)
    if kt is not None:
        console.print(kt)
    if hand.redeal:
        console.print(score_text(hand))
        return
    order = hand.order
    tricks = hand.tricks
    if trick is not None:
        if not 1 <= trick <= len(tricks):
            raise IndexError(f"hand {hand.number} has {len(tricks)} trick(s); there is no trick {trick}")
        t = tricks[trick - 1]
        console.print(hands_table(t.hands_before, order, record, title=f"Before trick {trick}",
                                  seats=hand.seats, marks=_marks(hand, trick - 1)))
        print_tricks(console, tricks[:trick], order, title="Tricks", highlight=trick, hand=hand)
        return
    start = tricks[0].hands_before if tricks else tuple(hand.start_hands.get(s, ()) for s in hand.seats)
    console.print(hands_table(start, order, record, title="Hands at the first trick", seats=hand.seats,
                              marks=_marks(hand, 0)))
    if step is None:
        if tricks:
            print_tricks(console, tricks, order, title="Tricks", hand=hand)
    else:
        for k, t in enumerate(tricks):
            print_tricks(console, [t], order, hand=hand)
            if k + 1 < len(tricks):
                console.print(hands_table(t.hands_after, order, record, title=f"Before trick {t.number + 1}",
                                          seats=hand.seats, marks=_marks(hand, t.number)))
                step(f"trick {t.number} of {len(tricks)} — Enter for the next")
    console.print(score_text(hand))


def render_replay(console: Console, record: Record, match: MatchResult, *, hand: int | None = None,
                  trick: int | None = None,
                  step: Callable[[str], None] | None = None) -> None:
    """``shengji replay``: every hand (or hand ``hand``) of one record."""
    hands = match.hands
    if hand is not None:
        if not 1 <= hand <= len(hands):
            raise IndexError(f"the record has {len(hands)} hand(s); there is no hand {hand}")
        hands = [hands[hand - 1]]
    for i, h in enumerate(hands):
        if i:
            console.print()
        node = record.hands[h.number - 1] if h.number - 1 < len(record.hands) else None
        render_hand(console, h, record, node, trick=trick, step=step)
    if hand is None and match.winner:
        console.print(Text(f"\nMatch won by {match.winner}.", style="bold"))


def record_title(record: Record, index: int, path: str = "") -> Text:
    tags = {t.name: t.value for t in record.tags}
    bits = [inert(tags[k]) for k in ("Event", "Site", "Date") if k in tags]
    t = Text(f"Record {index}", style="bold")
    if path:  # a file name may come from a directory of uploads: inert too
        t.append(f" ({inert(path)}:{record.span.line})" if record.span.line else f" ({inert(path)})")
    if bits:
        t.append(": " + ", ".join(bits))
    return t
