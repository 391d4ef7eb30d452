"""Games as plug-ins: the :class:`Game` interface and the one registry that every
command asks what a file is and what to do with it.

A game (Shengji, Gouji, a third one) is one package below ``analyzer/games/``
whose ``plugin`` module holds a :class:`Game`; :data:`PLUGINS` names them by
import string, in the order a file's content is asked about, and they are
imported only when a command first asks (``shengji --help`` imports none).
Tests add a game with :func:`register`. This module imports nothing of the
analyzer (it sits in io, at the bottom, since telling what a file is is the
first step of reading it): the plug-ins sit above the capabilities they wire
(lint, report, store, play) and are reached only through :data:`PLUGINS`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

#: the registered games, by import string ``module:attribute`` (the one registration list)
PLUGINS: tuple[str, ...] = (
    "analyzer.games.shengji.plugin:GAME",
    "analyzer.games.gouji.plugin:GAME",
)

#: what :meth:`Game.detect` says of a text that is none of a game's notations
UNKNOWN = "unknown"

#: ``(record or None, diagnostics)`` for each record read
ReadResult = tuple[Any, list[Any]]
#: a game's lint check of one record: ``(record | None, parse diagnostics, start line) -> diagnostics``
Checker = Callable[[Any, Sequence[Any], int], list[Any]]


class Game:
    """What the commands need of a game. Every member has a default that says
    "not for this game" where a game may lack it (a store table, a review, a bot).

    Attributes: :attr:`name` (``[Game]``-like tag value, ``--rules`` presets are
    told apart by :meth:`presets`), :attr:`title`, :attr:`notation` (the text
    notation it writes: ``convert --to``, ``fmt``), :attr:`suffixes` (files that
    are surely this game's: directory arguments list them, no importer is asked),
    :attr:`kinds` (what :meth:`detect` calls its inputs), :attr:`tags` (the tags
    that claim a text whatever its name), :attr:`store_tables` (the Parquet tables
    ``export --to parquet`` writes of its records; none: :attr:`store_note` says why
    a file is skipped; the columns of those the store does not define itself come
    from :meth:`store_schemas`, their rows from :meth:`store_rows`)."""

    name: str = ""
    title: str = ""
    notation: str = ""
    suffixes: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    store_tables: tuple[str, ...] = ()
    store_note: str | None = None

    # -- reading and writing ----------------------------------------------------------------
    def detect(self, head: str, path: str) -> str:
        """The kind of a text (its first bytes ``head``, its ``path``), or :data:`UNKNOWN`."""
        return UNKNOWN

    def read(self, source: str | Iterable[str], kind: str, *, start_line: int = 1) -> Iterator[ReadResult]:
        """``(record | None, diagnostics)`` per record of ``source`` (a text or its lines)."""
        raise NotImplementedError

    def claims(self, head: str, kind: str) -> bool:
        """Does a text another game's reader would read as ``kind`` say by its tags that it
        is this game's (``[Game "gouji"]`` in a misnamed ``.sjn``)? The store asks, so as
        not to read such a file as the other game's (:func:`claimant`)."""
        return False

    def holds(self, record: Any) -> bool:
        """Does ``record`` hold anything (not a chunk of bad lines only)?"""
        return True

    def write(self, records: Sequence[Any], *, unicode: bool = False) -> str:
        """The records in the game's notation (:attr:`notation`)."""
        raise NotImplementedError

    def to_json(self, record: Any, *, spans: bool = False) -> str:
        """One record as the tool's JSON."""
        raise NotImplementedError

    # -- rules -------------------------------------------------------------------------------
    def presets(self) -> Sequence[str]:
        """The names of the game's rule presets (``--rules``)."""
        return ()

    def preset_rows(self) -> list[tuple[str, str]]:
        """``(preset, what it changes)`` for ``shengji rules``."""
        return []

    def option_table(self, preset: str) -> tuple[list[tuple[str, str, str, bool]], str]:
        """``(rows, title)`` of ``shengji rules PRESET``: (option, value, source, differs)."""
        raise NotImplementedError

    # -- the commands ------------------------------------------------------------------------
    def lint_checker(self, rules: str | None, mistakes: Callable[..., Any] | None) -> Checker:
        """The check of one record (reading, the game's replay, the mistakes) for lint,
        looked up once per file (``rules``: ``--rules``, whichever game it names)."""
        raise NotImplementedError

    def lint_mode(self, kind: str) -> str:
        """How lint reads an input of ``kind``: ``lines`` (streamed, ``; noqa`` comments
        honoured), ``whole`` (a small file read whole, else streamed: faster, the same
        findings) or ``records`` (read whole by the reader, no ``noqa``: JSON)."""
        return "lines"

    def splits(self, kind: str) -> bool:
        """Does lint cut a huge file of ``kind`` into record chunks (``--jobs``)?"""
        return False

    # -- the Parquet store (export --to parquet, stats) ---------------------------------------
    def store_schemas(self) -> dict[str, tuple[tuple[str, str, str], ...]]:
        """The columns ``(name, type, meaning)`` of the store tables this game defines
        (those of :attr:`store_tables` the store does not know itself; types as in
        ``analyzer.store.schema``). Imports nothing heavy: ``stats`` asks it to read a store."""
        return {}

    def store_rows(self) -> Any:
        """A fresh row builder for one chunk of this game's records: ``.add(record,
        diagnostics, path, rules=…, fallback_line=…, lines=…)`` per record read, then
        ``.columns()`` → ``{table: {column: list of values}}`` (the ``diagnostics`` table
        included; plain data: the export's workers never import pyarrow, the exporting
        process makes the Arrow tables by the tables' schemas).
        None: the store's own (Shengji's) rows."""
        return None

    def replay(self, src: Any, file: str, *, hand: int | None, trick: int | None, step: bool,
               record: int | None, rules: str | None) -> None:
        """``shengji replay``: the records of ``src`` as the players saw them."""
        raise NotImplementedError

    def report(self, src: Any, file: str, fmt: str, output: str | None, *, force: bool, rules: str | None,
               mistakes: bool, progress: bool, jobs: int = 1) -> None:
        """``shengji report``: the report (the model, its rendering, the viewer page);
        ``jobs``: the mistake review's worker processes (``--mistakes --jobs``)."""
        raise NotImplementedError

    def convert(self, src: Any, to: str, output: str | None, *, spans: bool, unicode: bool) -> None:
        """``shengji convert``: the records as ``to`` (:attr:`notation` or ``json``)."""
        raise NotImplementedError

    def fmt(self, src: Any, path: str, *, unicode: bool, check: bool, diff: bool, write_back: bool,
            err: Callable[[str], None]) -> bool | None:
        """``shengji fmt`` of one file: changed (or would), unchanged, or None (not formatted)."""
        raise NotImplementedError

    def not_formatted(self, kind: str) -> str | None:
        """Why ``fmt`` leaves an input of ``kind`` alone (e.g. JSON), or None to format it."""
        return None

    def generate(self, rules: str, count: int, seed: int, *, players: int | None,
                 games: int | None, bot: str = "plain") -> tuple[str, str, list[str]]:
        """``shengji generate``: ``(text, default file name, notes)`` of a match played by bots
        (``bot``: which bots, ``plain``, ``strong`` or ``view``, ``generate --bot``)."""
        raise NotImplementedError

    def bot(self) -> Any:
        """The game's bot (the hand state a player sees and a move), or None."""
        return None

    def review(self) -> Callable[..., Any] | None:
        """The game's mistake review (``report --mistakes``), or None."""
        return None

    #: ``shengji annotate``: ``annotate(src, out, *, rules, endgame, prefixes, unicode, err,
    #: progress) -> (annotations, records, summary lines)``, or None (no mistake rules)
    annotate: Callable[..., tuple[int, int, list[str]]] | None = None


_games: list[Game] | None = None
_extra: list[Game] = []


def _load(spec: str) -> Game:
    module, _, attr = spec.partition(":")
    game: Game = getattr(importlib.import_module(module), attr)
    return game


def games() -> list[Game]:
    """Every registered game, in registration order (loaded on first use)."""
    global _games
    if _games is None:
        _games = [_load(spec) for spec in PLUGINS]
    return _games + _extra


def register(game: Game) -> Game:
    """Add ``game`` to the registry (tests; a plug-in outside :data:`PLUGINS`); returns it."""
    if game not in _extra:
        _extra.append(game)
    return game


def unregister(game: Game) -> None:
    """Take a game :func:`register` added out again."""
    if game in _extra:
        _extra.remove(game)


def by_kind(kind: str) -> Game:
    """The game whose inputs are of ``kind`` (KeyError if none)."""
    for game in games():
        if kind in game.kinds:
            return game
    raise KeyError(kind)


def by_preset(name: str | None) -> Game | None:
    """The game one of whose presets is ``name``, or None."""
    if name is None:
        return None
    for game in games():
        if name in game.presets():
            return game
    return None


def all_presets() -> list[str]:
    """Every preset of every game, game by game."""
    return [p for game in games() for p in game.presets()]


def suffixes() -> tuple[str, ...]:
    """The suffixes that say a file is one of the games' notations (``.sjn``, ``.gjn``, …)."""
    return tuple(s for game in games() for s in game.suffixes)


def detect(head: str, path: str) -> str:
    """The kind of an input (``head``: its first bytes): the game that claims the
    suffix of ``path`` tells; else the first game that knows the content; else
    :data:`UNKNOWN`."""
    suffix = _suffix(path)
    if suffix:
        for game in games():
            if suffix in game.suffixes:
                return game.detect(head, path)
    for game in games():
        kind = game.detect(head, path)
        if kind != UNKNOWN:
            return kind
    return UNKNOWN


def claimant(path: str, kind: str) -> Game | None:
    """The game that claims the file ``path``, told as ``kind``, by its tags
    (:meth:`Game.claims`; another game than the kind's), or None."""
    others = [g for g in games() if kind not in g.kinds]
    if not others:
        return None
    try:
        with open(path, "rb") as f:
            head = f.read(HEAD_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return None
    return next((g for g in others if g.claims(head, kind)), None)


#: how much of the start of a file :func:`claimant` reads
HEAD_BYTES = 64 * 1024


def _suffix(path: str) -> str:
    base = path.replace("\\", "/").rsplit("/", 1)[-1]
    dot = base.rfind(".")
    return base[dot:].lower() if dot > 0 else ""


def notation_names() -> str:
    """``SJN and GJN`` (the games' notations, for messages)."""
    names = [g.notation.upper() for g in games() if g.notation]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
