"""Continue a recorded match in the 1997 Tractor game: write the state after the
record's last hand into its save file (``GAME.SAV``).

The state is what the engine's replay says (``HandOutcome.levels`` and
``.next_dealer`` of the last hand), never recomputed here; only bytes 0–2 of
the save change (:func:`analyzer.io.importers.gamesav.patch`). :func:`plan`
decides everything and writes nothing; the caller writes ``plan.data``
atomically (:func:`analyzer.io.atomic.write_bytes_atomic`) unless it refuses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from analyzer.io.importers import gamesav as G
from primitives.cards import rank_name

if TYPE_CHECKING:
    from notation.model import Record
    from replay.results import MatchResult


class ExportRefused(Exception):
    """The export cannot be done (the message says why); no ``--force`` changes that."""


@dataclass
class SavePlan:
    """What writing into a save would do."""

    before: bytes                       # bytes 0–2 as they are (fewer for a short file)
    after: bytes                        # bytes 0–2 to write
    data: bytes                         # the whole new file
    size: int
    state_before: G.SaveState
    levels: dict[str, int]              # the state written
    dealer: str
    hands: int                          # hands of the record replayed
    #: why the save does not hold the record's start (None: it does); ``--force`` writes anyway
    mismatch: str | None = None
    #: things worth saying that do not stop the export
    notes: list[str] = field(default_factory=list)

    @property
    def changes(self) -> bool:
        return self.before != self.after


def _levels_text(levels: Mapping[str, int | None]) -> str:
    def lv(v: int | None) -> str:
        return rank_name(v) if isinstance(v, int) and v in range(2, 16) else ("?" if v is None else str(v))
    return f"NS {lv(levels.get('NS'))} EW {lv(levels.get('EW'))}"


def state_after(match: MatchResult, record: Record | None = None) -> tuple[dict[str, int], str]:
    """Levels and next dealer after the last hand of a replayed match (``MatchResult``).

    Raises :class:`ExportRefused` when the replay does not know them (no hand,
    an incomplete last hand, a redealt first hand without a dealer).
    """
    if not match.hands:
        raise ExportRefused("the record has no hand: there is no state after it to write")
    if getattr(match.hands[0], "team", None) is not None:
        raise ExportRefused("the record is a finding-friends match (players on levels of their own): "
                            "the 1997 game's save holds two fixed teams")
    last = match.hands[-1]
    written = record.hands[-1].number if record is not None and len(record.hands) == len(match.hands) else None
    label = f"hand {written or last.number}"
    if last.redeal:
        if last.dealer is None or last.levels is None:
            raise ExportRefused(f"{label} was redealt before anybody dealt: the next dealer "
                                f"is not known yet")
        return dict(last.levels), last.dealer
    if last.outcome is None:
        why = ("nobody deals it" if last.dealer is None else
               f"{len(last.tricks)} trick{'s' if len(last.tricks) != 1 else ''} recorded")
        raise ExportRefused(f"{label} is not complete ({why}): the levels and the next dealer "
                            f"after it are not known; finish the hand or leave it out")
    return dict(last.outcome.levels), last.outcome.next_dealer


def record_start(record: Record, match: MatchResult) -> tuple[dict[str, int], str | None]:
    """The record's starting state: the first hand's levels (as the replay took
    them) and its written dealer (None for ``dealer ?`` or no dealer line)."""
    first = match.hands[0]
    written = record.hands[0].dealer if record.hands else None
    return dict(first.levels), (written if written in G.BYTE_OF_SEAT else None)


def plan(record: Record, save: bytes, *, rules: str | None = None, match: MatchResult | None = None) -> SavePlan:
    """What to write into the save ``save`` (its bytes) to continue ``record``.

    Raises :class:`ExportRefused` when it cannot be written at all (a short
    save, a state the game cannot hold, no state after the record). A save
    whose current state is not the record's start gives ``plan.mismatch``.
    """
    from replay.game import replay
    if match is None:
        match = replay(record, rules=rules)
    levels, dealer = state_after(match, record)
    current = G.read_state(save)
    if current.size < G.STATE_SIZE:
        raise ExportRefused(f"the save file is {current.size} byte{'s' if current.size != 1 else ''} long: "
                            f"it is not a save of the game (the state takes bytes 0–2)")
    try:
        data = G.patch(save, levels, dealer)
    except G.SaveEncodingError as exc:
        raise ExportRefused(f"after its last hand the record is at {_levels_text(levels)}, dealer "
                            f"{dealer}: {exc}") from None
    notes: list[str] = []
    if match.ruleset.name != G.RULES:
        notes.append(f"the record is played by the {match.ruleset.name} rules; the game plays on by its own "
                     f"({G.RULES})")
    errors = [d for d in match.diagnostics if d.severity == "error"]
    if errors:
        notes.append(f"the record has {len(errors)} error finding{'s' if len(errors) != 1 else ''} "
                     f"(shengji lint shows them); the state written is the one the rules give")
    start_levels, start_dealer = record_start(record, match)
    differs = []
    if current.levels != start_levels:
        differs.append(f"levels {_levels_text(current.levels)} (the record starts at "
                       f"{_levels_text(start_levels)})")
    if start_dealer is None:
        notes.append("the record's first hand has no dealer written (declaring decides): only the levels "
                     "were compared with the save")
    elif current.dealer != start_dealer:
        differs.append(f"dealer {current.dealer or '?'} (the record starts with dealer {start_dealer})")
    mismatch = None
    if differs:
        mismatch = "the save holds " + " and ".join(differs)
        if current.findings:
            mismatch += "; " + "; ".join(f.message for f in current.findings)
    return SavePlan(before=bytes(save[:G.STATE_SIZE]), after=data[:G.STATE_SIZE], data=data, size=len(save),
                    state_before=current, levels=levels, dealer=dealer, hands=len(match.hands),
                    mismatch=mismatch, notes=notes)


def describe(plan: SavePlan, name: str) -> str:
    """The bytes before and after, for ``--dry-run`` and the confirmation."""
    after_state = G.read_state(plan.after)
    return (f"{name} ({plan.size} bytes), bytes 0–2:\n"
            f"  before  {G.hex_bytes(plan.before):<8}  {plan.state_before.text()}\n"
            f"  after   {G.hex_bytes(plan.after):<8}  {after_state.text()}\n")


# -- the command ---------------------------------------------------------------------------

def run_command(record_path: str, into: str, *, force: bool = False, dry_run: bool = False,
                record_index: int | None = None, rules: str | None = None) -> int:
    """``shengji export game-sav RECORD --into SAVE``: the exit status (or exits via ``fail``)."""
    import typer

    from analyzer.io.atomic import same_file, write_bytes_atomic
    from analyzer.io.echo import fail
    from analyzer.io.inputs import diag_line as _diag_line
    from analyzer.io.inputs import load_records, read_bytes, read_text
    if record_path != "-" and same_file(record_path, into):
        # --force overrides "the save does not hold the record's start", never "the save is the input"
        fail(f"{into} is the record file {record_path}; refusing to write into it (even with --force)", 2)
    text = read_text(record_path)
    name = "<stdin>" if record_path == "-" else record_path
    records, diags = load_records(text, record_path)
    reading = [d for d in diags if d.severity == "error"]
    for d in diags:
        typer.echo(_diag_line(name, d), err=True)
    if reading:
        fail(f"{name}: not exported: {len(reading)} reading error(s); fix them first (shengji lint shows them)", 1)
    if not records:
        fail(f"{name}: no record found", 1)
    if record_index is None:
        if len(records) > 1:
            fail(f"{name} holds {len(records)} records; choose one with --record N", 2)
        record_index = 1
    elif record_index > len(records):
        fail(f"{name} has {len(records)} record(s); there is no record {record_index}", 2)
    record = records[record_index - 1]
    if into == "-":
        fail("--into must name a save file (it is changed in place)", 2)
    save = read_bytes(into)
    try:
        p = plan(record, save, rules=rules)
    except ExportRefused as exc:
        fail(f"{into}: not written: {exc}", 1)
    for note in p.notes:
        typer.echo(f"shengji: note: {note}", err=True)
    typer.echo(describe(p, into), nl=False)
    if not p.changes and p.state_before.complete:
        typer.echo(f"{into} already holds the state after {name}; nothing {'would be ' if dry_run else ''}written")
        return 0
    if p.mismatch is not None:
        if not force:
            fail(f"{into}: not written: {p.mismatch}; this save is not where {name} starts "
                 f"(use --force to write it anyway)", 1)
        typer.echo(f"shengji: warning: {p.mismatch}; written anyway (--force)", err=True)
    if dry_run:
        typer.echo(f"dry run: {into} not changed")
        return 0
    try:
        write_bytes_atomic(into, p.data)
    except OSError as exc:
        fail(f"cannot write {into}: {exc.strerror or exc}", 2)
    typer.echo(f"wrote {into}: bytes 0–2 ({p.size - G.STATE_SIZE} other bytes unchanged)", err=True)
    return 0
