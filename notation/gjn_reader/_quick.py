"""The quick path: the usual action, seat and keyword lines read by one regex."""

from __future__ import annotations

import re

from primitives.diagnostics import NO_SPAN, Span

from ..gjn_model import (
    Action,
)
from ._common import (
    _GROUP_CACHE,
    _SEAT_SET,
    _build_play,
    _Item,
    _line_item,
    _new_action,
    _PlayLine,
    _span_new,
    _span_of,
)

# -- the quick path ------------------------------------------------------------------------

_QUICK_PLAY = re.compile(
    r'[ \t]*+(?:([0-9]++)\.[ \t]*+)?([^\s:;{}\[\]"=.]++):[ \t]*+([^;{}\[\]"]*?)[ \t]*+(;.*)?\Z')
_MARK_WORDS = frozenset(("burn", "fail"))


def _quick_play(text: str, line: int) -> _Item | None:
    """An action or seat line without commentary, read without Lark: the
    same item the grammar gives, or None to leave the line to it."""
    m = _QUICK_PLAY.match(text)
    if m is None:
        return None
    rest = m.group(3)
    number, seat = m.group(1), m.group(2)
    if seat in _SEAT_SET and (number is None or number[0] != "0") and " " not in rest \
            and "\t" not in rest and "=" not in rest and rest:
        # the usual line: one card group, or pass / let, no marks
        start = m.start(3) + 1
        end = start + len(rest)
        cspan = _span_new(Span, (line, start, line, end))
        if rest == "pass" or rest == "let":
            play = _PlayLine(None if number is None else int(number), seat, rest, (), False, False,
                             None, cspan, NO_SPAN)
        else:
            cards = _GROUP_CACHE.get(rest)
            if cards is None or rest in _MARK_WORDS:
                return _quick_play_words(m, text, line)
            play = _PlayLine(None if number is None else int(number), seat, "play", cards, False,
                             False, None, cspan, NO_SPAN)
        first = m.start(1) if number is not None else m.start(2)
        item = _Item("play", play, _span_new(Span, (line, first + 1, line, end)))
        if m.group(4) is not None:
            item.line_comment = m.group(4)[1:].strip()
        return item
    return _quick_play_words(m, text, line)


def _quick_play_words(m: re.Match[str], text: str, line: int) -> _Item | None:
    rest = m.group(3)
    if ":" in rest:
        return None  # `KK P2: QQ`: the grammar explains
    words = []
    for wm in _WORD.finditer(rest):
        words.append((wm.group(), line, m.start(3) + wm.start() + 1))
    if not words:
        return None
    actno = None
    if m.group(1) is not None:
        actno = (m.group(1) + ".", line, m.start(1) + 1)
    seat_w = (m.group(2) + ":", line, m.start(2) + 1)
    first = words[0][0]
    if first in ("pass", "let"):
        if len(words) > 1:
            return None
        play = _build_play(actno, seat_w, (first, words[0]), [])
    else:
        groups = []
        marks = []
        for w in words:
            t = w[0]
            if t in _MARK_WORDS or t[0] == "=":
                marks.append(w)
            elif marks or "=" in t or t.startswith(("pass", "let")):
                return None  # a card after a mark, `KK=1`, `passx`: the grammar decides
            else:
                groups.append(w)
        if not groups:
            return None
        play = _build_play(actno, seat_w, groups, marks)
    start = m.start(1) if m.group(1) is not None else m.start(2)
    last = words[-1]
    span = Span(line, start + 1, line, last[2] + len(last[0]))
    item = _Item("play", play, span)
    if m.group(4) is not None:
        item.line_comment = m.group(4)[1:].strip()
    return item


_WORD = re.compile(r"\S+")

#: the usual action line exactly as the writer writes it: `12. P3: KK`, `13. P4: pass`,
#: `14. P5: LJ 88 burn =2` (one blank between words, no comment)
_FAST_ACTION = re.compile(r'([1-9][0-9]*)\. (P[1-6]): ([^\s;{}\[\]":=]+(?: [^\s;{}\[\]":]+)*)\Z').match
_FINISH_MARKS = {f"={k}": k for k in range(1, 7)}


def _fast_words(m: re.Match[str], rest: str, k: int, start: int, end: int) -> Action | None:
    """An action line of several words (groups, then marks), every group met
    before; None when anything is unusual (the general path decides)."""
    words = rest.split(" ")
    cache = _GROUP_CACHE
    cards: tuple[int, ...] = ()
    n = 0
    for w in words:
        c = cache.get(w)
        if c is None:
            break
        cards += c
        n += 1
    if n == 0:
        return None
    burn = fail = False
    finish = None
    for w in words[n:]:
        if w == "burn" and not burn:
            burn = True
        elif w == "fail" and not fail:
            fail = True
        elif finish is None and w in _FINISH_MARKS:
            finish = _FINISH_MARKS[w]
        else:
            return None
    cards_end = start + sum(len(w) for w in words[:n]) + n - 1
    marks_span = _span_new(Span, (k, cards_end + 1, k, end)) if n < len(words) else NO_SPAN
    return _new_action(_span_new(Span, (k, 1, k, end)), int(m.group(1)), m.group(2), "play", cards, burn,
                       fail, finish, _span_new(Span, (k, start, k, cards_end)), marks_span, [])

#: keyword -> (fewest, most words on the line, the keyword included; None: any)
_ARITY = {"game": (1, 2), "position": (1, None), "point": (2, 3), "show": (3, None),
          "dian": (4, None), "tribute": (4, None), "return": (4, None), "buy": (4, None),
          "revolt": (2, 2), "redeal": (1, 1), "remove": (2, None), "lead": (2, 2),
          "result": (1, None), "score": (5, 5)}
_TWO_SEAT_KW = frozenset(("dian", "tribute", "return", "buy"))


def _quick_keyword(text: str, line: int) -> _Item | None:
    """A keyword line without commentary, read without Lark when its words
    are exactly what the grammar takes (else None: the grammar decides)."""
    if "[" in text or "]" in text or '"' in text:
        return None
    code, sep, comment = text.partition(";")
    words = [(wm.group(), line, wm.start() + 1) for wm in _WORD.finditer(code)]
    if not words:
        return None
    kw = words[0][0]
    arity = _ARITY.get(kw)
    if arity is None or len(words) < arity[0] or (arity[1] is not None and len(words) > arity[1]):
        return None
    rest = words[1:]
    if kw == "show" or kw in _TWO_SEAT_KW:
        k = 1 if kw == "show" else 2
        if any(":" in w[0] for w in rest[:k - 1] + [rest[0]]):
            return None
        if kw in _TWO_SEAT_KW:
            seat = rest[1][0]
            if not seat.endswith(":") or ":" in seat[:-1] or "." in seat or "=" in seat or len(seat) < 2:
                return None
        if any(":" in w[0] or "=" in w[0] for w in rest[k:]):
            return None
    elif any(":" in w[0] for w in rest):
        return None
    item = _line_item(kw, rest, _span_of(words))
    if hasattr(item.value, "comments"):
        item.value.comments = item.comments
    if sep:
        item.line_comment = comment.strip()
    return item


