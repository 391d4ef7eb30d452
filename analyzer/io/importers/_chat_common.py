"""What the shengji.io chat log importer (:mod:`analyzer.io.importers.shengji_io_chat`)
reads a line into: its cards, its phrases, and the hands, tricks and plays
it collects."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from analyzer.io.importers._common import comment_text
from notation.model import Note
from primitives.cards import BJ, LJ, SUIT_SYMBOLS, SUIT_SYMBOLS_ALT, parse_rank

RULES = "shengji-io"
FRIENDS_RULES = "shengji-io-friends"
_SUIT_CHARS = {ch: i for i, ch in enumerate(SUIT_SYMBOLS)}
_SUIT_CHARS.update({ch: i for i, ch in enumerate(SUIT_SYMBOLS_ALT)})
_CARD_RE = re.compile(r"(10|[2-9JQKAT])([♠♥♦♣♤♡♢♧])")
_UNICODE_RANKS = {1: 14, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, 11: 11, 13: 12, 14: 13}
_UNICODE_SUITS = {0xA: 0, 0xB: 1, 0xC: 2, 0xD: 3}

GAME_PREFIX = re.compile(r"^\s*GAME:\s?")
ANNOTATION = re.compile(r"\s+#.*$")
LINE_PATTERNS = {
    "played": re.compile(r"^(?P<n>.+?) played (?P<c>\S+)$"),
    "throw": re.compile(r"^(?P<n>.+?) tried to throw (?P<c>\S+), but (?P<b>.+?) can beat it$"),
    "bid": re.compile(r"^(?P<n>.+?) bid (?:(?P<k>[0-9]+) )?(?P<c>\S+)$"),
    "won": re.compile(r"^(?P<n>.+?) wins the trick and gets (?P<p>[0-9]+) points?$"),
    "won0": re.compile(r"^(?P<n>.+?) wins the trick, but gets no points :\($"),
    "kitty": re.compile(r"^(?P<p>[0-9]+) points were buried and are attached to the last trick, "
                        r"with a multiplier of (?P<m>[0-9]+)$"),
    "summary": re.compile(r"^Landlord team (?P<w>won|lost), opposing team (?:only )?collected "
                          r"(?P<p>[0-9]+) points$"),
    "reveal": re.compile(r"^(?P<c>\S+) in kitty$"),
    "takeplay": re.compile(r"^(?P<n>.+?) took back their last play$"),
    "takebid": re.compile(r"^(?P<n>.+?) took back their last bid$"),
    "start": re.compile(r"^(?P<n>.+?) started the game$"),
    "advanced": re.compile(r"^(?P<n>.+?) (?:has advanced to|must defend on) rank (?P<r>\S+)$"),
    "setrank": re.compile(r"^(?P<n>.+?) set their rank to (?P<r>\S+)$"),
    "decks": re.compile(r"^(?P<n>.+?) set the number of decks to (?P<v>[0-9]+|default)$"),
    "kittysize": re.compile(r"^(?P<n>.+?) set the number of cards in the bottom to (?P<v>[0-9]+|default)$"),
    "penalty": re.compile(r"^(?P<n>.+?) (?:set the throw penalty to 10 points per throw|"
                          r"removed the throw penalty)$"),
    "mode": re.compile(r"^(?P<n>.+?) set the game mode to (?P<v>.+)$"),
    "next": re.compile(r"^(?P<n>.+?) will start the next game$"),
}
#: known lines that carry nothing a record needs
SKIP = re.compile(
    r"^(?:.+ has joined the game(?: again, prior connection removed)?|.+ is being shadowed|"
    r".+ has left the game|.+ has joined the team|.+ tried to join the team, but was already a member|"
    r".+ picked up the bottom cards|.+ put down the bottom cards|"
    r".+ revealed a card from the bottom of the deck|The game has finished|.+ ended the game early|"
    r"Landlord team earned a bonus level for defending with a smaller team|.+ reset the game|"
    r".+ (?:set|removed|allowed|required|disallowed|prevented|enabled|disabled|made|hid|protected|changed)"
    r" .+)$")


def parse_cards(text: str) -> tuple[tuple[int, ...], int | None]:
    """Chat card text → cards; the second item is the offset of the first bad character."""
    out: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\ufe0f\u200b\u200d":          # emoji variation selectors, zero-width marks
            i += 1
            continue
        if text.startswith(("HJ", "BJ"), i):
            out.append(BJ)
            i += 2
            continue
        if text.startswith("LJ", i):
            out.append(LJ)
            i += 2
            continue
        cp = ord(ch)
        if 0x1F0A1 <= cp <= 0x1F0DF:
            suit, rank = (cp >> 4) & 0xF, cp & 0xF
            if cp in (0x1F0CF, 0x1F0BF):
                out.append(BJ)
            elif cp == 0x1F0DF:
                out.append(LJ)
            elif suit in _UNICODE_SUITS and rank in _UNICODE_RANKS:
                out.append(_UNICODE_SUITS[suit] * 13 + _UNICODE_RANKS[rank] - 2)
            else:
                return tuple(out), i
            i += 1
            continue
        m = _CARD_RE.match(text, i)
        if m is None:
            return tuple(out), i
        out.append(_SUIT_CHARS[m.group(2)] * 13 + parse_rank(m.group(1)) - 2)
        i = m.end()
    if not out:
        return (), 0
    return tuple(out), None


@dataclass
class ChatPlay:
    name: str
    cards: tuple[int, ...]
    line: int
    col: int
    attempted: tuple[int, ...] | None = None
    note: str | None = None


@dataclass
class ChatTrick:
    plays: list[ChatPlay] = field(default_factory=list)
    winner: str | None = None
    points: int | None = None
    kitty: int | None = None
    line: int = 0
    col: int = 0
    note: str | None = None
    result_line: int = 0
    result_col: int = 0


@dataclass
class ChatHand:
    line: int
    bids: list[ChatPlay] = field(default_factory=list)
    tricks: list[ChatTrick] = field(default_factory=list)
    open: ChatTrick | None = None
    throws: dict[str, tuple[tuple[int, ...], int]] = field(default_factory=dict)
    kitty_pending: int | None = None
    summary: tuple[int, int, int] | None = None     # points, line, col
    reveal: tuple[tuple[int, ...], int] | None = None
    ranks: dict[str, int] = field(default_factory=dict)  # name → rank stated during the hand (set their rank)
    ended: bool = False

    @property
    def empty(self) -> bool:
        return not self.bids and not self.tricks and self.open is None


def note_of(text: str) -> Note:
    return Note(comments=[comment_text(text)])
