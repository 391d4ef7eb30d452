"""The importers' library API (re-exported by :mod:`analyzer.io.importers`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.io.importers._common import Claim, ImportResult
from analyzer.io.importers.registry import IMPORTERS, NAMES
from notation.model import Record
from primitives.cards import rank_name
from primitives.diagnostics import Diagnostic, Span
from replay.scoring import other_team, team_of

if TYPE_CHECKING:
    from replay.results import HandResult, MatchResult

FORMATS: tuple[str, ...] = NAMES

#: name → the importer's module (see :mod:`.registry`)
_MODULES = {imp.name: imp.load() for imp in IMPORTERS}
#: other names accepted for the formats (the presets' names, short forms)
ALIASES: dict[str, str] = {alias: imp.name for imp in IMPORTERS for alias in imp.aliases}
#: the SJN ruleset preset each format's records use
RULES: dict[str, str] = {name: mod.RULES for name, mod in _MODULES.items()}
#: usual file suffixes, used by :func:`detect_format` only to break a tie
_SUFFIXES = {suffix: imp.name for imp in IMPORTERS for suffix in imp.suffixes}


def format_name(fmt: str) -> str | None:
    """The canonical format name for ``fmt`` (an alias or a name), None when unknown."""
    if not isinstance(fmt, str):
        return None
    f = fmt.strip().lower()
    if f in _MODULES:
        return f
    return ALIASES.get(f)


def is_binary(fmt: str | None) -> bool:
    """True for a format whose files are bytes, not text (``game-sav``): read them with
    ``Path.read_bytes`` and pass the bytes to :func:`import_log` / :func:`import_text`."""
    name = format_name(fmt) if isinstance(fmt, str) else None
    from analyzer.io.importers.registry import BY_NAME
    return bool(name and BY_NAME[name].binary)


def detect_format(text: str, filename: str | None = None) -> str | None:
    """The format of ``text`` when it is unambiguous, else None.

    The content decides; ``filename``'s suffix only breaks a tie between
    formats the content fits equally.
    """
    if not isinstance(text, str):
        return None
    # (a bug in a looks_like is not "the format cannot be told": it goes up, to SJ901)
    found = [name for name, mod in _MODULES.items() if mod.looks_like(text)]
    if len(found) == 1:
        return found[0]
    if len(found) > 1 and filename:
        hint = _SUFFIXES.get(Path(str(filename)).suffix.lower())
        if hint in found:
            return hint
    return None


def import_log(fmt: str, text: str | bytes, *, source: str = "") -> ImportResult:
    """Records, diagnostics and claims from ``text`` in format ``fmt``. Never raises."""
    name = format_name(fmt)
    if name is None:
        return ImportResult(diagnostics=[Diagnostic.at(
            "SJ701", Span(1, 1, 1, 2), f"unknown import format {fmt!r}; known: {', '.join(FORMATS)}")])
    if is_binary(name) and isinstance(text, (bytes, bytearray, memoryview)):
        text = bytes(text)             # a binary format (game-sav) reads the bytes themselves
    elif isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", errors="replace")
    if not isinstance(text, (str, bytes)):
        return ImportResult(diagnostics=[Diagnostic.at("SJ701", Span(1, 1, 1, 2), "the log is not text")])
    if isinstance(text, str) and text.startswith("\ufeff") and not is_binary(name):
        text = " " + text[1:]          # a byte-order mark: keep every column where it is
    if isinstance(text, str) and "\r" in text and not is_binary(name):  # lines end where the SJN reader ends them: \n, \r\n, \r
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        return _writable(_MODULES[name].import_log(text, source))
    except MemoryError:
        raise
    except Exception as exc:  # a bug in an importer must not cost the user the diagnostics
        return ImportResult(diagnostics=[Diagnostic.at(
            "SJ901", Span(1, 1, 1, 2), f"internal error: the {name} importer failed on this log "
                                       f"({type(exc).__name__}: {exc}); please report this bug with the log")])


def _writable(res: ImportResult) -> ImportResult:
    """Every record an importer gives can be written as SJN: a play with no cards
    (a log cut inside a play, a play event with an empty list) is dropped with
    SJ705 at its line; a record SJN still cannot write is dropped with SJ705
    (never an internal error when the record is written out)."""
    from notation.writer import representable_problems
    kept = []
    for record in res.records:
        for hand in record.hands:
            for trick in hand.tricks:
                bad = [p for p in trick.plays if not p.cards]
                for p in bad:
                    res.diagnostics.append(Diagnostic.at("SJ705", p.span if p.span.line else Span(1, 1, 1, 2),
                                                         "a play with no cards; skipped"))
                if bad:
                    trick.plays = [p for p in trick.plays if p.cards]
                for p in trick.plays:
                    if p.attempted is not None and not p.attempted:
                        p.attempted = None
            hand.tricks = [t for t in hand.tricks if t.plays]
        problems = representable_problems(record)
        if problems:
            span = record.span if record.span.line else Span(1, 1, 1, 2)
            res.diagnostics.append(Diagnostic.at("SJ705", span, "the record cannot be written as SJN ("
                                                 f"{problems[0]}); skipped"))
            continue
        kept.append(record)
    res.records = kept
    return res


def import_text(fmt: str, text: str | bytes, *, source: str = "", check: bool = True
                ) -> tuple[list[Record], list[Diagnostic]]:
    """``(records, diagnostics)`` from ``text`` in format ``fmt``. Never raises.

    Garbage gives positioned diagnostics (line/column in the source log) and
    the rest is still imported. With ``check`` the log's own statements (trick
    winners and points, totals) are checked against the rules: SJ704 where
    they differ (this replays each record once).
    """
    res = import_log(fmt, text, source=source)
    diags = list(res.diagnostics)
    if check and res.claims:
        diags.extend(check_claims(res.records, res.claims))
    diags.sort(key=lambda d: (d.line, d.column, d.code))
    return res.records, diags


# -- claims ----------------------------------------------------------------------------------------

def check_claims(records: Sequence[Record], claims: Sequence[Claim],
                 match_result: MatchResult | Sequence[MatchResult | None] | None = None) -> list[Diagnostic]:
    """SJ704 for every claim the rules contradict, at the claim's line in the source log.

    ``match_result``: the :class:`replay.results.MatchResult` of ``records[0]``, or
    a list with one per record (None entries are replayed here); by default
    each record is replayed. A claim about a trick that was not played out
    (fewer than four plays), or about the total of an incomplete hand, is not
    checked.
    """
    results, out = _results(records, match_result, {c.record for c in claims})
    for c in claims:
        mr = results[c.record] if 0 <= c.record < len(results) else None
        if mr is None or not 1 <= c.hand <= len(mr.hands):
            continue
        hr = mr.hands[c.hand - 1]
        rules = mr.ruleset.name
        span = Span(c.line, c.column, c.line, c.column + max(1, len(c.name or "") if c.name else 1))
        if c.kind == "total":
            if hr.complete and c.points is not None and c.points != hr.attacker_points:
                out.append(Diagnostic.at("SJ704", span, (
                    f"the log gives the attackers {c.points} points for hand {c.hand}; by the {rules} rules "
                    f"they score {hr.attacker_points} ({hr.points_breakdown()})"), hand=c.hand))
            continue
        if c.kind == "dealer":
            if c.winner is not None and hr.dealer is not None and c.winner != hr.dealer:
                who = _who(_player(records, c.record, hr.dealer), hr.dealer, records, c.record)
                out.append(Diagnostic.at("SJ704", span, (
                    f"the log makes {_who(c.name, c.winner, records, c.record)} the dealer of hand {c.hand}; "
                    f"by the {rules} rules the declarations make {who} the dealer"), hand=c.hand))
            continue
        if c.kind in ("kitty", "outcome"):
            found = _settlement_claim(c, hr, rules)
            if found:
                out.append(Diagnostic.at("SJ704", span, found, hand=c.hand))
            continue
        if c.trick is None or not 1 <= c.trick <= len(hr.tricks):
            continue
        tr = hr.tricks[c.trick - 1]
        if len(tr.plays) < len(hr.seats):
            continue
        problems: list[str] = []
        said: list[str] = []
        if c.winner is not None:
            said.append(f"{_who(c.name, c.winner, records, c.record)} wins trick {c.trick}")
            if c.winner != tr.winner:
                win = tr.play_of(tr.winner)
                cards = _cards(win.cards, hr) if win else ""
                who = _who(_player(records, c.record, tr.winner), tr.winner, records, c.record)
                reason = ""
                said_play = tr.play_of(c.winner)
                if win is not None and said_play is not None and hr.order is not None:
                    from replay.trick import explain_beat
                    from replay.units import decompose
                    lead = decompose(tr.plays[0].cards, hr.order)
                    why = explain_beat(tr.winning_units, said_play.cards, lead, hr.order, hr.ruleset)
                    if why:
                        reason = f", since {why}"
                problems.append(f"{who} wins it with {cards}" + (" (a ruff)" if tr.ruffed else "") + reason)
        if c.points is not None and c.kind == "trick":
            said.append(f"it holds {c.points} points" + (
                f" ({c.kitty_points} of them from the kitty)" if c.kitty_points else ""))
            stated = c.points - (c.kitty_points or 0)
            last = c.trick == len(hr.tricks) and hr.complete
            if stated != tr.points and not (last and c.points == tr.points + hr.kitty_points):
                problems.append(f"the trick holds {tr.points} points" + (
                    f" (+{hr.kitty_points} from the kitty)" if last and hr.kitty_points else ""))
        if c.points is not None and c.kind == "running":
            said.append(f"the attackers have {c.points} points after it")
            if c.points != tr.attacker_points:
                problems.append(f"the attackers have {tr.attacker_points} after trick {c.trick}")
        if problems:
            out.append(Diagnostic.at("SJ704", span, (
                f"the log says {' and '.join(said)}; by the {rules} rules {'; '.join(problems)}"),
                hand=c.hand, trick=c.trick))
    return out


def _settlement_claim(c: Claim, hr: HandResult, rules: str) -> str:
    """The SJ704 message of a ``kitty`` or ``outcome`` claim the rules contradict ("" when they agree)."""
    if not hr.complete:
        return ""
    if c.kind == "kitty":
        mult = hr.multiplier
        raw = hr.kitty_points // mult if mult else None
        said = f"{c.kitty_points} × {c.multiplier} = {c.points}" if c.multiplier is not None else f"{c.points}"
        wrong = c.points != hr.kitty_points or (c.multiplier is not None and mult and c.multiplier != mult) \
            or (c.kitty_points is not None and raw is not None and c.kitty_points != raw)
        if not wrong:
            return ""
        got = (f"{raw} × {mult} = {hr.kitty_points} (the attackers win the last trick)" if mult
               else "nothing (the dealers win the last trick)")
        return f"the log gives a kitty bonus of {said} in hand {hr.number}; by the {rules} rules it is {got}"
    o = hr.outcome
    if o is None or hr.dealer is None:
        return ""
    dealers = team_of(hr.dealer)
    attackers = other_team(dealers)

    def words(dealers_rise: bool | None, levels: int | None, level: int | None, nxt: str | None,
              over: bool | None) -> str:
        side = f"the dealers ({dealers})" if dealers_rise else f"the attackers ({attackers})"
        if dealers_rise is None:
            side = "a side"
        if levels is None:
            part = f"{side} win the hand" + (f" and stand at {rank_name(level)}" if level is not None else "")
        elif levels == 0:
            part = f"{side} take the deal without rising" if not dealers_rise else f"{side} keep the deal"
        else:
            part = f"{side} rise {levels} level{'s' if levels != 1 else ''}"
            if level is not None:
                part += f" to {rank_name(level)}"
        if nxt is not None:
            part += f", {nxt} deals next"
        if over:
            part += ", the match is over"
        return part

    team = dealers if o.dealers_keep else attackers
    wrong = ((c.dealers_rise is not None and c.dealers_rise != o.dealers_keep)
             or (c.points is not None and c.points != o.gained)
             # (a side that rises no level has no new level: the log may then show the hand's level)
             or (c.level is not None and (o.gained if c.points is None else c.points) > 0
                 and c.level != o.levels[team])
             or (c.winner is not None and c.winner != o.next_dealer)
             or (c.over is not None and c.over != o.match_over))
    if not wrong:
        return ""
    return (f"the log says {words(c.dealers_rise, c.points, c.level, c.winner, c.over)} after hand {hr.number}; "
            f"by the {rules} rules {words(o.dealers_keep, o.gained, o.levels[team], o.next_dealer, o.match_over)}")


def _results(records: Sequence[Record], match_result: MatchResult | Sequence[MatchResult | None] | None,
             needed: set[int]) -> tuple[list[MatchResult | None], list[Diagnostic]]:
    """The match result of each record with claims (``needed``; None for the others
    and where the replay failed) and an SJ901
    for each replay that failed: the engine's bug, not the user's (those claims
    are left unchecked)."""
    from replay.game import replay
    from replay.results import MatchResult
    given: list[MatchResult | None] = []
    if isinstance(match_result, MatchResult):
        given = [match_result]
    elif isinstance(match_result, (list, tuple)):
        given = list(match_result)
    out: list[MatchResult | None] = []
    bugs: list[Diagnostic] = []
    for i, rec in enumerate(records):
        mr = given[i] if i < len(given) else None
        if mr is None and i in needed:
            try:
                mr = replay(rec)
            except (MemoryError, KeyboardInterrupt):
                raise
            except Exception as exc:
                line = rec.span.line if rec.span is not None and rec.span.line else 1
                bugs.append(Diagnostic.at("SJ901", Span(line, 1, line, 2), (
                    f"internal error while replaying record {i + 1} to check the log's claims "
                    f"({type(exc).__name__}: {exc}); its claims are not checked; this is a bug in shengji, "
                    f"please report it with the log")))
                mr = None
        out.append(mr)
    return out, bugs


def _who(name: str | None, seat: str, records: Sequence[Record], index: int) -> str:
    if name and name != seat:
        return f"{name} ({seat})"
    return seat


def _player(records: Sequence[Record], index: int, seat: str) -> str | None:
    tag = {"N": "North", "W": "West", "S": "South", "E": "East"}.get(seat, seat)  # P1…P8: tags of their own
    return records[index].tag(tag) if 0 <= index < len(records) else None


def _cards(cards: Sequence[int], hr: HandResult) -> str:
    from replay.texts import cards_text
    return cards_text(cards, hr.order)


__all__ = ["FORMATS", "ALIASES", "RULES", "detect_format", "is_binary",
           "format_name", "import_text", "import_log", "check_claims"]
