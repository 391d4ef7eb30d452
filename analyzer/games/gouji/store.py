"""Gouji's tables in the Parquet store (``export --to parquet``; docs/store.md, "Gouji
tables"): one row per record (``gouji_matches``), per game (``gouji_games``) and per
action line (``gouji_plays``), from one replay of each record by the engine
(:func:`replay.gouji.replay`: nothing is recomputed here), and the reading and
replay diagnostics in the store's shared ``diagnostics`` table.

The columns are given by :data:`SCHEMAS` (the store's types: ``analyzer.store.schema``);
the plug-in hands them to the store (:meth:`analyzer.games.Game.store_schemas`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

#: Gouji's own tables (the ``diagnostics`` table is the store's, shared by every game)
TABLES: tuple[str, ...] = ("gouji_matches", "gouji_games", "gouji_plays")

SCHEMAS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "gouji_matches": (
        ("match_id", "string", "a hash of the record's text (20 hex digits), as `matches.match_id`"),
        ("file", "string", "the input file as named on the command line"),
        ("line", "int32", "the record's first line in the file"),
        ("rules", "string", "the Gouji preset the record was replayed by (its `[Rules]` tag, or `--rules`)"),
        ("event", "string", "the `[Event]` tag"),
        ("date", "date32", "the `[Date]` tag as a date, null when not a whole date"),
        ("tags", "map<string,string>", "every tag of the record (the first value of a repeated one)"),
        ("players", "list<string>", "the players' names from `[P1]`…`[P6]`, in seat order (null where untagged)"),
        ("games", "int32", "games in the record (voided deals included)"),
        ("games_complete", "int32", "games played to their end"),
        ("odd_score", "int32", "the odd side's (P1 P3 P5) points summed over the complete games"),
        ("even_score", "int32", "the even side's (P2 P4 P6) points summed over the complete games"),
        ("errors", "int32", "error-severity diagnostics of the record"),
    ),
    "gouji_games": (
        ("match_id", "string", "the match"),
        ("game", "int32", "1-based place of the game in the record"),
        ("number", "int32", "the number written after `game`, null when none"),
        ("rules", "string", "the preset (the match's, repeated for grouping)"),
        ("kind", "string", "`game`, `scoresheet` (a result without actions), `position` or `void` (a redeal)"),
        ("complete", "bool", "the game reached its end"),
        ("leader", "string", "the seat that led first (P1…P6), null when unknown"),
        ("revolutionary", "string", "the seat that revolted (革命), null when none"),
        ("finish_order", "list<string>", "the seats by place, 头科 first (`[P3, P1, …]`; the places known so far)"),
        ("odd_score", "int16", "the odd side's points for the game (null when not complete)"),
        ("even_score", "int16", "the even side's points"),
        ("sweep", "bool", "串三户: one side took places 1–3"),
        ("actions", "int32", "the game's counted actions (plays, passes, lets)"),
        ("gouji_plays", "int16", "够级 plays made"),
        ("burns", "int16", "burns (烧牌) started"),
        ("burns_won", "int16", "burns that emptied the burner's hand"),
        ("burns_failed", "int16", "burns that failed (the burner led without a joker)"),
        ("lets", "int16", "让牌 (lets)"),
    ),
    "gouji_plays": (
        ("match_id", "string", "the match"),
        ("game", "int32", "the game (its place in the record)"),
        ("action", "int32", "1-based place of the action line in the game"),
        ("number", "int32", "the action's count in the game (null for a pass ignored after an unbeatable set)"),
        ("line", "int32", "the action's line in the file"),
        ("seat", "string", "the seat that acted (P1…P6)"),
        ("player", "string", "its name from the tags (the seat when none)"),
        ("kind", "string", "`play`, `pass` or `let`"),
        ("cards", "list<string>", "the set played (`[BJ, 2, 2]`); empty for a pass or a let"),
        ("n_cards", "int16", "how many cards"),
        ("gouji", "bool", "a 够级 play (null where the engine stopped: after the game's end)"),
        ("target", "string", "a 够级 play's target (the player's 对头), else null"),
        ("burn", "bool", "the play burns (烧牌)"),
        ("burned", "string", "the player it burns, or whose burn failed, else null"),
        ("failed_burn", "bool", "a burner's lead without a joker: the burn fails"),
        ("place", "int8", "the place the player took by this action (1–6), else null"),
        ("round_end", "bool", "the action ended the round"),
        ("next_leader", "string", "who leads the next round, when this action ended one"),
    ),
}

_DIAGNOSTICS = ("match_id", "file", "line", "column", "end_line", "end_column", "code", "severity", "message",
                "hand", "trick")


class GoujiRows:
    """The rows of one chunk's Gouji records, column by column (the plug-in's
    :meth:`~analyzer.games.Game.store_rows`)."""

    def __init__(self) -> None:
        self.cols: dict[str, dict[str, list[Any]]] = {
            t: {c: [] for c, _, _ in SCHEMAS[t]} for t in TABLES}
        self.cols["diagnostics"] = {c: [] for c in _DIAGNOSTICS}

    def add(self, record: Any, parse_diags: Iterable[Any], path: str, *, rules: str | None = None,
            fallback_line: int = 1, lines: Sequence[str] | None = None) -> None:
        """One record (None: lines that hold none) and its reading diagnostics. ``lines``:
        the record as written (its ``match_id`` hashes them); None: as GJN writes it."""
        from analyzer.store.rows import match_id_of, tag_date
        from primitives.gjcards import to_str
        from replay.gouji import replay
        from replay.gouji.rules import PRESETS
        diags = list(parse_diags)
        match_id = None
        if record is not None:
            if lines is None:
                from notation import gjn
                from notation._records import split_lines
                lines = split_lines(gjn.write([record]))
            match_id = match_id_of(lines)
            line = record.span.line or fallback_line
            result = replay(record, rules=rules if rules in PRESETS else None)
            diags.extend(result.diagnostics)
            tags: dict[str, str] = {}
            for t in record.tags:
                tags.setdefault(t.name, t.value)
            seats = [f"P{k}" for k in range(1, 7)]
            names = {s: tags.get(s) or s for s in seats}
            rules_name = result.rules.name
            done = [g for g in result.games if g.complete and g.score is not None]
            self._row("gouji_matches", match_id=match_id, file=path, line=line, rules=rules_name,
                      event=tags.get("Event"), date=tag_date(tags.get("Date")), tags=list(tags.items()),
                      players=[tags.get(s) for s in seats], games=len(record.games),
                      games_complete=sum(1 for g in result.games if g.complete),
                      odd_score=sum(g.score["odd"] for g in done if g.score is not None) if done else None,
                      even_score=sum(g.score["even"] for g in done if g.score is not None) if done else None,
                      errors=sum(1 for d in diags if d.severity == "error"))
            for i, (game, res) in enumerate(zip(record.games, result.games), 1):
                self._game(match_id, i, game, res, rules_name, names, to_str)
        cols = self.cols["diagnostics"]
        for d in diags:
            for name, value in (("match_id", match_id), ("file", path), ("line", d.line), ("column", d.column),
                                ("end_line", d.end_line), ("end_column", d.end_column), ("code", d.code),
                                ("severity", d.severity), ("message", d.message), ("hand", d.hand),
                                ("trick", d.trick)):
                cols[name].append(value)

    def _row(self, table: str, **values: Any) -> None:
        for name, column in self.cols[table].items():
            column.append(values.get(name))

    def _game(self, match_id: str, i: int, game: Any, res: Any, rules: str, names: dict[str, str],
              to_str: Any) -> None:
        score = res.score if res.complete else None
        order = sorted(res.places, key=lambda s: res.places[s])
        self._row("gouji_games", match_id=match_id, game=i, number=game.number, rules=rules, kind=res.kind,
                  complete=res.complete, leader=res.leader, revolutionary=res.revolutionary, finish_order=order,
                  odd_score=score["odd"] if score else None, even_score=score["even"] if score else None,
                  sweep=res.sweep, actions=res.actions, gouji_plays=len(res.gouji_plays), burns=len(res.burns),
                  burns_won=sum(res.burns_won.values()), burns_failed=sum(1 for st in res.timeline if st.fail),
                  lets=sum(res.lets.values()))
        steps = res.timeline        # one step per action line until the game ended (then none)
        P = self.cols["gouji_plays"]
        for k, a in enumerate(game.actions):
            step = steps[k] if k < len(steps) else None
            P["match_id"].append(match_id)
            P["game"].append(i)
            P["action"].append(k + 1)
            P["line"].append(a.span.line or None)
            P["seat"].append(a.seat)
            P["player"].append(names.get(a.seat, a.seat))
            P["kind"].append(a.kind)
            P["cards"].append([to_str(c) for c in a.cards])
            P["n_cards"].append(len(a.cards))
            if step is None:
                for c in ("number", "gouji", "target", "burn", "burned", "failed_burn", "place", "round_end",
                          "next_leader"):
                    P[c].append(None)
                continue
            P["number"].append(step.number or None)
            P["gouji"].append(step.gouji)
            P["target"].append(step.aim or None)
            P["burn"].append(step.burn)
            P["burned"].append(step.burned or None)
            P["failed_burn"].append(step.fail)
            P["place"].append(step.place or None)
            P["round_end"].append(step.round_end)
            P["next_leader"].append(step.leads or None)

    def columns(self) -> dict[str, dict[str, list[Any]]]:
        """This chunk's rows as plain lists (Gouji's tables and ``diagnostics``): what a
        worker sends back (no pyarrow there; :func:`analyzer.store.rows.arrow_tables`)."""
        return self.cols

    def tables(self) -> dict[str, Any]:
        """``{table: pyarrow.Table}`` of this chunk (Gouji's tables and ``diagnostics``)."""
        from analyzer.store.rows import arrow_tables
        return arrow_tables(self.cols)
