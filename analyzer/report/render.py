"""Rich rendering for the terminal: cards with coloured suits, the table as a
player sees it (``shengji replay``), the report (``--format term``), the
ruleset tables (``shengji rules``).

Nothing here checks a rule or computes a score: every value comes from
``replay`` (a :class:`replay.game.MatchResult`) or from a report dict built
by :mod:`analyzer.report.model`. Output is plain when the console has no colour
(pipes, ``NO_COLOR``, tests), so it can be compared with golden files.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import IO, TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from notation.model import Hand, Record
    from replay.game import HandResult, MatchResult, TrickResult
    from replay.order import Order

from rich import box
from rich.console import Console, Group, JustifyMethod
from rich.table import Table
from rich.text import Text

from analyzer.io.safetext import InertConsole
from notation.reader import escape_controls as inert
from primitives.cards import JOKER_SUIT, format_cards, parse_cards, suit_of
from replay.order import NT
from replay.seats import SEATS

SEAT_NAMES = {"N": "North", "W": "West", "S": "South", "E": "East"}
TAG_OF_SEAT = {"N": "North", "W": "West", "S": "South", "E": "East"}
#: default console width when the output is not a terminal (stable golden files)
DEFAULT_WIDTH = 100

SUIT_STYLE = {0: "bold", 1: "bold red", 2: "bold red", 3: "bold", JOKER_SUIT: "bold magenta"}
BIG_JOKER_STYLE = "bold red"
WIN_MARK = "*"
#: between the effective suits of a hand (trumps first)
SUIT_GAP = " │ "


#: the blanks (and colour codes among them) that end a line
_LINE_END_BLANKS = re.compile(r"(?:[ \t]|\x1b\[[0-9;]*m)+(?=\n)")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class _Trimmed:
    """A text stream that drops the spaces Rich pads a line's end with (tables
    fill their width): no output line ends in blanks. Colour codes stay."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(_LINE_END_BLANKS.sub(lambda m: "".join(_ANSI.findall(m.group())), text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Console(InertConsole):
    """The CLI's console: every table printed is first fitted to the width
    (:func:`fit`), so Rich does not cut a card or a header where the columns'
    longest words fit."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        for o in objects:
            if isinstance(o, Table):
                fit(self, o)
        super().print(*objects, **kwargs)


def make_console(*, stderr: bool = False, width: int | None = None, color: bool | None = None,
                 file: IO[str] | None = None) -> Console:
    """A console for the CLI: colour only on a terminal (and never under ``NO_COLOR``),
    a fixed width when not a terminal (``COLUMNS`` wins)."""
    stream = file if file is not None else (sys.stderr if stderr else sys.stdout)
    is_tty = hasattr(stream, "isatty") and stream.isatty()
    if width is None and not is_tty:
        try:
            width = int(os.environ.get("COLUMNS", "")) or DEFAULT_WIDTH
        except ValueError:
            width = DEFAULT_WIDTH
    no_color = bool(os.environ.get("NO_COLOR")) or (color is False)
    return _Console(file=cast("IO[str]", _Trimmed(stream)), width=width, force_terminal=True if color else None,
                   no_color=no_color, highlight=False, emoji=False, soft_wrap=False,
                   color_system="auto" if not no_color and (is_tty or color) else None)


# -- cards --------------------------------------------------------------------------------

def trump_text(trump: int | None) -> str:
    if trump is None:
        return "?"
    return "NT" if trump == NT else "♠♥♦♣"[trump]


def cards_text(cards: Sequence[int] | str, *, style: bool = True) -> Text:
    """Cards as a Rich Text, grouped by suit (``♠AKK ♥10 9``), ♥♦ red."""
    if isinstance(cards, str):
        cards = parse_cards(cards)
    out = Text()
    groups = _groups(cards)
    for i, (suit, group) in enumerate(groups):
        if i:
            out.append(" ")
        text = format_cards(group, unicode=True)
        if not style:
            out.append(text)
        elif suit == JOKER_SUIT:
            for k, c in enumerate(group):
                if k:
                    out.append(" ")
                out.append(format_cards([c]), style=BIG_JOKER_STYLE if c == 53 else "bold")
        else:
            out.append(text, style=SUIT_STYLE.get(suit, ""))
    return out


def _groups(cards: Sequence[int]) -> list[tuple[int, list[int]]]:
    groups: list[tuple[int, list[int]]] = []
    for c in cards:
        s = suit_of(c)
        if groups and groups[-1][0] == s:
            groups[-1][1].append(c)
        else:
            groups.append((s, [c]))
    return groups


def hand_text(cards: Sequence[int], order: Order | None) -> Text:
    """A hand as a player holds it: trumps first (high to low), then each suit,
    effective suits separated by a wide gap."""
    if order is None:
        return cards_text(sorted(cards))
    cards = order.sorted(cards)
    by_eff: list[tuple[int, list[int]]] = []
    for c in cards:
        e = order.eff[c]
        if by_eff and by_eff[-1][0] == e:
            by_eff[-1][1].append(c)
        else:
            by_eff.append((e, [c]))
    out = Text()
    for i, (_e, group) in enumerate(by_eff):
        if i:
            out.append(SUIT_GAP, style="dim")
        out.append_text(cards_text(group))
    return out


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
        from replay.friends import describe_friends
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


def fit(console: Console, table: Table) -> bool:
    """Fit ``table`` to the console's width without cutting a word (a card group,
    a header): False when even each column at its longest word is too wide.
    Rich would narrow the widest columns evenly and then cut words in every
    column; here a table too wide gets each column its longest word plus a
    share of the room left, in proportion to what its longest line needs more."""
    unbounded = console.options.update_width(1 << 16)  # measures not clamped to the width
    ranges = [table._measure_column(console, unbounded, column) for column in table.columns]
    extra = table._extra_width
    room = console.width - extra
    least = sum(r.minimum for r in ranges)
    most = sum(r.maximum for r in ranges)
    if least > room:
        return False
    if most <= room:
        return True
    spare = room - least
    wants = [r.maximum - r.minimum for r in ranges]
    total = sum(wants)
    given = [r.minimum + (spare * w // total if total else 0) for r, w in zip(ranges, wants, strict=True)]
    for column, width in zip(table.columns, given, strict=True):
        column.width = max(1, width - table._get_padding_width(column._index))
    return True


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
    if path:
        t.append(f" ({path}:{record.span.line})" if record.span.line else f" ({path})")
    if bits:
        t.append(": " + ", ".join(bits))
    return t


# -- report (--format term) -------------------------------------------------------------------

def render_report(console: Console, report: dict[str, Any]) -> None:
    """A report dict (:func:`analyzer.report.model.build_report`) for the terminal (every
    string in it shown inert: :func:`analyzer.io.safetext.inert_tree`)."""
    from analyzer.io.safetext import inert_tree
    from analyzer.report import text as rep
    report = inert_tree(report)
    for m_index, m in enumerate(report["matches"]):
        if m_index:
            console.print()
        console.print(Text(rep.match_title(m, report.get("path", "")), style="bold underline"))
        console.print(f"Rules: {m['ruleset']['name']}" + (
            " (" + ", ".join(f"{k}={v}" for k, v in m["ruleset"]["overrides"].items()) + ")"
            if m["ruleset"]["overrides"] else ""))
        for h_index, h in enumerate(m["hands"], 1):
            console.print()
            console.print(Text(rep.hand_title(h), style="bold"))
            for line in rep.hand_facts(h):
                console.print(_md_cards(line))
            if h["tricks"]:
                problems: dict[int, list[dict[str, Any]]] = {}
                for d in h["diagnostics"]:
                    if d.get("trick") is not None:
                        problems.setdefault(d["trick"], []).append(d)
                table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
                for name, justify in _REPORT_TRICK_COLUMNS:
                    table.add_column(name, justify=justify)
                for t in h["tricks"]:
                    plays = Text()
                    for k, p in enumerate(t["plays"]):
                        if k:
                            plays.append("  ")
                        plays.append(f"{p['seat']}: ")
                        if p["attempted"]:
                            plays.append_text(cards_text(p["attempted"]))
                            plays.append(" → ")
                        plays.append_text(cards_text(p["cards"]))
                        if p["seat"] == t["winner"]:
                            plays.append(" " + WIN_MARK, style="bold green")
                    note = Text(rep.trick_note(t))
                    for d in problems.get(t["number"], ()):  # the problems of this trick, on its row
                        note.append(", " if note else "")
                        note.append(d["code"], style="red" if d["severity"] == "error" else "yellow")
                    table.add_row(str(t["number"]), t["leader"], plays, t["winner"],
                                  str(t["points"]) if t["points"] else "", str(t["attacker_points"]),
                                  note)
                console.print(table)
            for line in rep.hand_result_lines(h):
                console.print(line)
            for d in h["diagnostics"]:
                console.print(Text(f"  {d['line']}:{d['column']}: {d['code']} {d['message']}",
                                   style="yellow" if d["severity"] != "error" else "red"))
            for d in rep.hand_mistakes(m, h_index):
                console.print(Text(f"  mistake, trick {d.get('trick') or '-'} ({d['line']}:{d['column']}): "
                                   f"{d['code']} {d['message']}", style="magenta"))
        console.print()
        console.print(Text("Level progression", style="bold"))
        console.print(progression_table(m))
        console.print()
        console.print(Text("Players", style="bold"))
        console.print(players_table(m))
        if m.get("review"):
            render_review(console, m)
        other = [d for d in m["diagnostics"] if d["hand"] is None]
        for d in other:
            console.print(Text(f"  {d['line']}:{d['column']}: {d['code']} {d['message']}"))


_REPORT_TRICK_COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (
    ("#", "right"), ("lead", "left"), ("plays", "left"), ("won", "left"), ("pts", "right"), ("att", "right"),
    ("note", "left"))


def _md_cards(line: str) -> Text:
    """A fact line whose cards are already in suit symbols: colour the card groups."""
    out = Text()
    for k, part in enumerate(re.split(r"([♠♥♦♣][0-9AJQKT]*)", line)):
        if k % 2:
            out.append(part, style=SUIT_STYLE[1] if part[0] in "♥♦" else SUIT_STYLE[0])
        else:
            out.append(part)
    return out


def progression_table(m: dict[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    if any("team" in h for h in m["hands"]):  # finding friends: each player's level
        from analyzer.report.text import levels_text
        for name in ("hand", "dealer", "levels", "attackers", "result"):
            table.add_column(name)
        for p in m["progression"]:
            table.add_row(str(p["hand"]), p["dealer"] or "?", levels_text(p["before"]),
                          "" if p["attacker_points"] is None else str(p["attacker_points"]), p["result"])
        if m["progression"] and m["progression"][-1]["after"]:
            last = m["progression"][-1]
            table.add_row("end", last["next_dealer"] or "", levels_text(last["after"]), "",
                          f"{m['winner']} win" if m["winner"] else "")
        return table
    for name in ("hand", "dealer", "NS", "EW", "attackers", "result"):
        table.add_column(name)
    for p in m["progression"]:
        table.add_row(str(p["hand"]), p["dealer"] or "?", p["before"]["NS"], p["before"]["EW"],
                      "" if p["attacker_points"] is None else str(p["attacker_points"]), p["result"])
    if m["progression"]:
        last = m["progression"][-1]
        if last["after"]:
            table.add_row("end", last["next_dealer"] or "", last["after"]["NS"], last["after"]["EW"], "",
                          f"{m['winner']} wins" if m["winner"] else "")
    return table


def players_table(m: dict[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    from analyzer.report.text import mistakes_summary
    with_notes = bool(m.get("annotations"))
    columns: list[tuple[str, JustifyMethod]] = [
        ("seat", "left"), ("player", "left"), ("tricks", "right"), ("points", "right"),
        ("ruffs", "right"), ("throws", "right"), ("failed", "right"), ("diagnostics", "left")]
    if with_notes:
        columns.append(("mistakes", "left"))
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for seat, p in m["players"].items():
        row = [seat, p["name"] or "", str(p["tricks_won"]), str(p["points_won"]), str(p["ruffs"]),
               str(p["throws"]), str(p["failed_throws"]), ", ".join(p["diagnostics"])]
        if with_notes:
            row.append(mistakes_summary(p))
        table.add_row(*row)
    return table


def render_review(console: Console, m: dict[str, Any]) -> None:
    """The mistake review: per player and per hand, points lost, bands,
    accuracy; the window searched per hand; the worst mistakes first."""
    from analyzer.report import text as rep
    review = m["review"]
    console.print()
    console.print(Text("Mistake review", style="bold"))
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for k, name in enumerate(rep.REVIEW_COLUMNS):
        table.add_column(name, justify="left" if k < 2 else "right")
    for row in rep.review_rows(review, m["players"]):
        table.add_row(*row)
    console.print(table)
    hands = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    hands.add_column("hand", justify="right")
    hands.add_column("searched exactly")
    for s in review["players"]:
        hands.add_column(f"{s} lost/acc", justify="right")
    for h in review["hands"]:
        cells = []
        for s in review["players"]:
            p = h["players"][s]
            cells.append(f"{p['points_lost']}/{rep.percent(p['accuracy'])}")
        hands.add_row(str(h["hand"]), rep.window_text(h), *cells)
    console.print(hands)
    verdicts = rep.decision_rows(review)
    if verdicts:
        console.print(Text("Decisions with a verdict", style="bold"))
        dt = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        for name in rep.DECISION_COLUMNS[:-1]:
            dt.add_column(name, overflow="fold")
        for row in verdicts:
            dt.add_row(*row[:-1])
        console.print(dt)
    worst = sorted(((s, w) for s in review["players"] for w in review["players"][s]["worst"]),
                   key=lambda sw: (sw[1]["level_change"] is None, -sw[1]["cost"]))
    if worst:
        console.print(Text("Worst mistakes first", style="bold"))
        for s, w in worst:
            where = f"hand {w['hand']}, trick {w['trick']}" if w.get("trick") else f"hand {w['hand']}, bury"
            console.print(Text(f"  {s} {w['code']} {where}: {w['message']}", style="magenta"))


# -- rules ------------------------------------------------------------------------------------

def presets_table(rows: Sequence[tuple[str, str]]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("preset", style="bold")
    table.add_column("differs from standard", overflow="fold")
    for name, diff in rows:
        table.add_row(name, diff)
    return table


def options_table(rows: Sequence[tuple[str, str, str, bool]], title: str = "") -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title=title or None,
                  title_justify="left", title_style="bold")
    table.add_column("option", no_wrap=True)
    table.add_column("value", overflow="fold")
    table.add_column("", width=1)
    table.add_column("source", overflow="fold")
    for option, value, source, differs in rows:
        table.add_row(option, value, "*" if differs else "", source, style="bold" if differs else None)
    return table


__all__ = ["make_console", "cards_text", "hand_text", "hands_table", "tricks_table", "render_hand",
           "render_replay", "render_report", "presets_table", "options_table", "trump_text",
           "record_title", "progression_table", "players_table", "render_review", "Group"]
