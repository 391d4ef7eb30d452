"""The ruleset: every variant of RULES.md as an option, and the presets.

``Ruleset`` is a frozen pydantic model (validated at the edge, read as plain
attributes in the hot path). Its pydantic schema is built only when something
validates one (a ``[Rule.x]`` tag, ``Ruleset(...)``): the presets, the usual
record's ruleset, are the tool's own values and are made without it
(:func:`preset`; a test checks each against the validated one), which spares
every command that reads a record ≈ 18 ms of start-up.

``resolve(name, overrides)`` turns a record's ``[Rules]`` / ``[Rule.x]`` tags into a ruleset plus diagnostics (SJ150–SJ152):
an unknown preset or a bad value never raises.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from primitives.cards import ACE, JOKER_LEVEL, KING, parse_rank, rank_name
from primitives.diagnostics import Diagnostic, Span

Declaration = Literal["standard", "tractor97", "campus", "titanic", "ladder", "botzone", "first"]
KittyMultiplier = Literal["by_unit", "by_cards", "by_play_cards", "linear", "titanic",
                          "times_unit", "times_lead_cards", "botzone", "unit_cards"]
Advancement = Literal["standard", "campus", "one-deck", "titanic", "capped"]
LINKS = ("joker", "joker_level", "level", "level_top")


class Ruleset(BaseModel):
    """Every ruleset option (RULES.md). Field docs name the section and seed."""

    #: ``defer_build``: the schema (validator, serializer) is built at the first
    #: validation or dump, not at import (the presets need neither: :func:`preset`)
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: str = "standard"
    #: §1: 1–4 standard 54-card decks
    decks: int = 2
    #: §1: cards left after the deal; None → by decks (1→6, 2→8, 3→6, 4→8)
    kitty_size: int | None = None
    #: §2: both teams start here; None → 2 (3 when two_is_trump)
    start_level: int | None = None
    #: §2: a ``Joker`` level after A (001); that hand is always NT
    joker_level: bool = False
    #: §2: all 2s are trump (常主, 001 "Start From 3")
    two_is_trump: bool = False
    #: §4: the declaration policy
    declaration: Declaration = "standard"
    #: §4 standard: may a declarer reinforce after being overridden (000 note)
    reinforce_after_overridden: bool = True
    #: §4 tractor97 switch 自反: override your own single with a pair of another suit
    self_override: bool = True
    #: §4 tractor97 switch 对家保: partner adds the second copy
    partner_reinforce: bool = False
    #: §4 tractor97 switch 反无将: a joker pair declares NT
    joker_override: bool = True
    #: §8b ladder: ``any`` (same seat may overcall), ``reinforce_only`` (80fen: a single to
    #: a pair of the same suit) or ``reinforce`` (shengji.io ReinforceWhileWinning: the
    #: standing bidder only adds copies of the card it bid, jokers too)
    ladder_self: Literal["any", "reinforce_only", "reinforce"] = "any"
    #: §4 (seed 000 variant): every declaration shows a joker with its level card(s)
    declare_joker: bool = False
    #: §4 (shengji-godot trump_joker_color_match): with ``declare_joker`` the joker is the
    #: level card's colour: BJ (red) with ♥/♦, LJ (black) with ♠/♣
    joker_colour: bool = False
    #: §4 (shengji-godot): on every hand the seat whose declaration stands deals, each seat
    #: declaring with its own team's level; nobody declaring leaves the deal where it was due
    declarer_deals: bool = False
    #: §4 (seeds 000, 002 正常报主): on later hands an attacker may declare with their own
    #: level; if that stands the deal passes to them
    attacker_level: bool = False
    #: §4: first hand's dealer: the last successful declarer, or the first
    first_dealer: Literal["last", "first"] = "last"
    #: §4: what happens when nobody declares
    no_declaration: Literal["redeal", "kitty_card", "no_trump", "kitty_first"] = "redeal"
    #: §4: under ``kitty_card``/``kitty_first``/``no_trump``, a first hand nobody declares on:
    #: the first drawer deals (``first_drawer``, reading 5) or it is dealt again (``redeal``:
    #: shengji.io, whose kitty card needs a dealer, core/src/game_state/draw_phase.rs reveal_card)
    first_hand_undeclared: Literal["first_drawer", "redeal"] = "first_drawer"
    #: §4 (seed 001 variant): a joker turned up from the kitty is skipped, or means NT
    kitty_joker: Literal["skip", "no_trump"] = "skip"
    #: §6: ``strict`` checks every throw; ``none`` lets every throw stand (botzone)
    throw_check: Literal["strict", "none"] = "strict"
    #: §6 (shengji-godot allow_dump=false): may a lead be several units (a throw) at all?
    throws: bool = True
    #: §6: which unit a failed throw must play
    throw_forced: Literal["smallest", "first_blocker", "lowest"] = "smallest"
    #: §6: penalty for a failed throw, counted against the thrower's team
    throw_penalty: Literal["none", "per_card", "per_attempt"] = "none"
    #: §6: how two matching plays of a throw compare
    throw_compare: Literal["largest_unit", "all_units", "highest_card"] = "largest_unit"
    #: §6: shape obligations when following (``shengji_io``: that engine's walk over
    #: fallback shapes, replay/sjio.py)
    follow_policy: Literal["pairs", "strict", "pure_tractor", "shengji_io"] = "pairs"
    #: §6: how a lead is split into units, and with it the throw check and the forced
    #: unit: ``longest`` (longest tractors first, then the widest tuples) or
    #: ``shengji_io`` (that engine's reading, its throw check and forced unit; replay/sjio.py)
    unit_split: Literal["longest", "shengji_io"] = "longest"
    #: §6 / §8b botzone: which cards follow a lead: its ``effective`` suit (trumps are one
    #: suit), or its ``printed`` suit without jokers and level cards (the Botzone judge of
    #: the real log accepted plain ♥ on a ♥2 pair led as trump)
    follow_suit: Literal["effective", "printed"] = "effective"
    #: §3: bridges across the trump ladder
    tractor_links: frozenset[str] = frozenset(LINKS)
    #: §7: kitty multiplier when the attackers win the last trick
    kitty_multiplier: KittyMultiplier = "by_unit"
    #: §7: advancement table
    advancement: Advancement = "standard"
    #: §7: who deals when the dealers keep the deal: the dealer's ``partner`` (the usual
    #: rotation) or the same ``dealer`` again (shengji-godot: 不换庄)
    kept_deal: Literal["partner", "dealer"] = "partner"
    #: §7: levels a jump may not pass (rank ints; 15 = Joker)
    must_play: tuple[int, ...] = (2,)
    #: §8b (80fen): a team on a must-play level leaves it only by winning it as dealers
    must_defend: bool = False
    #: §7 (000 note): levels where an attacker last-trick win with that rank sends the dealers back
    hook_back: tuple[int, ...] = ()
    #: §7: ``reach_top`` | ``defend_top`` | ``none`` | ``hands:N``
    match_end: str = "reach_top"
    #: §7 (002 台上一方): a ``hands:N`` tie goes to the team that deals next, or to the last
    #: hand's dealers
    hands_tie: Literal["next_dealers", "last_dealers"] = "next_dealers"
    # -- finding friends (找朋友): seed 001 §4 選對家, shengji.io "Finding Friends" ----------
    #: players at the table, 4–8 (seats N W S E, or P1…Pn)
    players: int = 4
    #: ``fixed``: partners sit opposite (4 players); ``friends``: the dealer calls friends by a card
    partners: Literal["fixed", "friends"] = "fixed"
    #: friend calls per hand; None → players // 2 − 1 (shengji.io's default)
    friends: int | None = None
    #: who a call makes the friend: ``played`` (shengji.io: whoever plays the called copy,
    #: counting every copy played, the dealer's too) or ``held`` (seed 001: the holder of the
    #: card nearest the dealer in play order; nobody when the dealer holds every copy)
    friend_rule: Literal["played", "held"] = "played"
    #: cards a call may name (shengji.io FriendSelectionPolicy): ``unrestricted`` (no trump:
    #: no joker, level card or trump-suit card), ``trumps_included``, ``highest_not_allowed``
    #: (nor an A; nor a K at level A), ``points_not_allowed`` (nor a 5, 10 or K), ``any``
    friend_cards: Literal["unrestricted", "trumps_included", "highest_not_allowed",
                          "points_not_allowed", "any"] = "any"
    #: may the dealer call a card of which they hold every copy (so playing alone)?
    friend_self_call: bool = True
    #: shengji.io BonusLevelForSmallerLandlordTeam: a dealer team smaller than called that wins gets +1
    friend_bonus: bool = False

    @model_validator(mode="before")
    @classmethod
    def _decks_by_players(cls, data: Any) -> Any:
        return _auto_decks(data)

    @field_validator("decks")
    @classmethod
    def _decks(cls, v: int) -> int:
        if not 1 <= v <= 4:
            raise ValueError("decks must be 1 to 4")
        return v

    @field_validator("players")
    @classmethod
    def _players(cls, v: int) -> int:
        if not 4 <= v <= 8:
            raise ValueError("players must be 4 to 8")
        return v

    @field_validator("friends")
    @classmethod
    def _friends(cls, v: int | None) -> int | None:
        if v is not None and not 0 <= v <= 3:
            raise ValueError("friends must be 0 to 3")
        return v

    @field_validator("tractor_links")
    @classmethod
    def _links(cls, v: frozenset[str]) -> frozenset[str]:
        bad = set(v) - set(LINKS)
        if bad:
            raise ValueError(f"unknown link(s) {', '.join(sorted(bad))}; known: {', '.join(LINKS)}")
        return frozenset(v)

    @field_validator("match_end")
    @classmethod
    def _match_end(cls, v: str) -> str:
        if v in ("reach_top", "defend_top", "pass_top", "none"):
            return v
        if v.startswith("hands:") and v[6:].isdigit() and int(v[6:]) > 0:
            return v
        raise ValueError("match_end is reach_top, defend_top, pass_top, none or hands:N")

    @field_validator("must_play", "hook_back")
    @classmethod
    def _ranks(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        for r in v:
            if not 2 <= r <= JOKER_LEVEL:
                raise ValueError(f"not a level: {r}")
        return tuple(sorted(set(v)))

    @field_validator("start_level")
    @classmethod
    def _start(cls, v: int | None) -> int | None:
        if v is not None and not 2 <= v <= 14:
            raise ValueError(f"not a level: {v}")
        return v

    @model_validator(mode="after")
    def _dealable(self) -> Ruleset:
        n = self.players
        if self.kitty_size is not None:
            cards = 54 * self.decks
            if not 0 <= self.kitty_size < cards or (cards - self.kitty_size) % n:
                raise ValueError(f"a kitty of {self.kitty_size} cards cannot be dealt from {cards} cards "
                                 f"({'four' if n == 4 else n} equal hands of at least one card)")
        if n != 4 and self.partners == "fixed":
            raise ValueError(f"a table of {n} players has no fixed partners: use partners friends")
        return self

    # -- derived values ---------------------------------------------------------
    @property
    def kitty(self) -> int:
        if self.kitty_size is not None:
            return self.kitty_size
        if self.players == 4:
            return {1: 6, 2: 8, 3: 6, 4: 8}[self.decks]
        # shengji.io: what the deal leaves over, topped up by a round of the table below 5 cards
        n = self.players
        k = (54 * self.decks) % n or n
        return k + n if k < 5 else k

    @property
    def hand_size(self) -> int:
        return (54 * self.decks - self.kitty) // self.players

    @property
    def friend_calls(self) -> int:
        """Friend calls per hand (0 with fixed partners)."""
        if self.partners != "friends":
            return 0
        return self.friends if self.friends is not None else max(0, self.players // 2 - 1)

    @property
    def first_level(self) -> int:
        if self.start_level is not None:
            return self.start_level
        return 3 if self.two_is_trump else 2

    @property
    def top_level(self) -> int:
        return JOKER_LEVEL if self.joker_level else ACE

    @property
    def total_points(self) -> int:
        return 100 * self.decks

    @property
    def hands_limit(self) -> int | None:
        return int(self.match_end[6:]) if self.match_end.startswith("hands:") else None


def _auto_decks(data: Any) -> Any:
    """``decks: None`` (``auto``): shengji.io's default, one deck per two players."""
    if isinstance(data, dict) and "decks" in data and data["decks"] is None:
        data = {**data, "decks": max(1, min(4, int(data.get("players", 4) or 4) // 2))}
    return data


# -- presets (RULES.md §8, §8b) --------------------------------------------------
#: an option's value as a preset or a ``[Rule.x]`` tag gives it, before pydantic
#: validates it into the field (``None``: ``auto``)
OptionValue = bool | int | str | frozenset[str] | tuple[int, ...] | None

_BASE: dict[str, OptionValue] = {}

PRESETS: dict[str, dict[str, OptionValue]] = {
    "standard": {},
    "tractor97": {
        "declaration": "tractor97", "no_declaration": "kitty_card", "joker_level": True,
        "joker_override": True, "self_override": False, "partner_reinforce": False,
        "match_end": "none",
    },
    "campus": {
        "declaration": "campus", "throw_penalty": "per_card",
        "tractor_links": frozenset({"joker", "joker_level", "level_top"}),
        "advancement": "campus", "match_end": "hands:17", "first_dealer": "first",
    },
    "one-deck": {
        "decks": 1, "kitty_multiplier": "by_cards", "tractor_links": frozenset(),
        "advancement": "one-deck",
    },
    "titanic": {
        "decks": 3, "declaration": "titanic", "kitty_multiplier": "titanic", "first_dealer": "first",
        "advancement": "titanic", "match_end": "defend_top",
    },
    # shengji.io (rbtying/shengji): the defaults of core/src/settings.rs and the game-state
    # phases that SJN can express (docs/rules.md §8c lists each with its source line)
    "shengji-io": {
        "declaration": "ladder", "ladder_self": "reinforce", "self_override": False,
        "no_declaration": "kitty_first", "kitty_joker": "no_trump", "first_hand_undeclared": "redeal",
        "throw_compare": "all_units", "kitty_multiplier": "times_unit",
        "follow_policy": "shengji_io", "unit_split": "shengji_io", "throw_forced": "first_blocker",
        "joker_level": True, "must_play": (ACE, JOKER_LEVEL), "must_defend": True, "match_end": "none",
    },
    # shengji.io "Finding Friends" (core/src/settings.rs, game_state/*.rs): 4–8 players, one
    # deck per two players, its kitty formula, friends by "the k-th ♥A played", a trump may not
    # be called, a smaller dealer team that wins earns a bonus level
    "shengji-io-friends": {
        "declaration": "ladder", "ladder_self": "reinforce", "self_override": False,
        "no_declaration": "kitty_first", "kitty_joker": "no_trump", "first_hand_undeclared": "redeal",
        "throw_compare": "all_units", "kitty_multiplier": "times_unit",
        "follow_policy": "shengji_io", "unit_split": "shengji_io", "throw_forced": "first_blocker",
        "joker_level": True, "must_play": (ACE, JOKER_LEVEL), "must_defend": True, "match_end": "none",
        "players": 5, "decks": None, "partners": "friends", "friend_rule": "played",
        "friend_cards": "unrestricted", "friend_bonus": True,
    },
    "shengji-fly": {
        "declaration": "ladder", "no_declaration": "kitty_first", "follow_policy": "pure_tractor",
        "kitty_multiplier": "times_lead_cards", "match_end": "defend_top",
    },
    "80fen": {
        "declaration": "ladder", "ladder_self": "reinforce_only", "no_declaration": "no_trump",
        "throw_forced": "lowest",
        "kitty_multiplier": "times_lead_cards", "must_play": (2, 5, 10, KING), "must_defend": True,
    },
    "botzone": {
        "declaration": "botzone", "throw_check": "none", "tractor_links": frozenset({"joker"}),
        "follow_suit": "printed",
        "kitty_multiplier": "botzone", "match_end": "hands:1",
    },
    # qian-loong/shengji-godot (its rule_config and the logs it writes): a level card shows
    # with the joker of its colour, the first declaration stands and its seat deals (at its own
    # team's level), no throws, kitty × the cards of the last trick's largest unit, a kept deal
    # stays with the dealer, rises stop at 5, 10 and K, capped at +3, and a team rising from A wins
    "shengji-godot": {
        "declaration": "first", "declare_joker": True, "joker_colour": True, "declarer_deals": True,
        "no_declaration": "no_trump", "throws": False, "tractor_links": frozenset(),
        "kitty_multiplier": "unit_cards", "advancement": "capped", "kept_deal": "dealer",
        "must_play": (2, 5, 10, KING), "match_end": "pass_top",
    },
}

#: where each option comes from, for ``shengji rules`` and docs/rules.md
SOURCES: dict[str, str] = {
    "decks": "RULES §1; seeds 000, 004",
    "kitty_size": "RULES §1; seeds 000, 004",
    "start_level": "RULES §2; seeds 000, 001",
    "joker_level": "RULES §2; seed 001",
    "two_is_trump": "RULES §2; seeds 000 (note), 001 'Start From 3'",
    "declaration": "RULES §4, §8b; seeds 000, 001, 002, 004; shengji-godot (first)",
    "reinforce_after_overridden": "RULES §4; seed 000 note",
    "self_override": "RULES §4; seed 001 'Zi Fan'",
    "partner_reinforce": "RULES §4; seed 001 'Partner Keep'",
    "joker_override": "RULES §4; seed 001 'Anti Joker'",
    "ladder_self": "RULES §8b (80fen: reinforce only); shengji.io (mechanics/src/bidding.rs valid_bids)",
    "declare_joker": "seed 000 打法差异 (亮主须亮王牌)",
    "joker_colour": "shengji-godot (trump_joker_color_match; docs/rules.md)",
    "declarer_deals": "shengji-godot (the declarer deals, at its team's level; docs/rules.md)",
    "attacker_level": "seeds 000 打法差异, 002 正常报主",
    "first_dealer": "RULES §4; seeds 000/001 last, 002/004 first",
    "kitty_joker": "seed 001 (翻到鬼牌，即視為無主); shengji.io (draw_phase.rs advance: a joker bid is NT)",
    "first_hand_undeclared": "RULES §4 (reading 5); shengji.io (core/src/game_state/draw_phase.rs reveal_card)",
    "no_declaration": "RULES §4, §8b; seeds 001 (kitty card), 002 (redeal)",
    "throw_check": "RULES §8b (botzone judge never checks throws)",
    "throws": "shengji-godot (allow_dump=false; docs/rules.md)",
    "throw_forced": "RULES §6; seed 001; shengji.io; 80fen (lowest)",
    "throw_penalty": "RULES §6; seed 002; shengji.io",
    "throw_compare": "RULES §6; seed 001; shengji.io",
    "follow_policy": "RULES §6; seeds 001, 004; shengji.io (mechanics/src/trick.rs is_legal_play); "
                     "shengji.fly.dev (pure_tractor)",
    "unit_split": "RULES §6; shengji.io (mechanics/src/trick.rs find_plays, from_cards, play_cards)",
    "follow_suit": "RULES §8b; the real Botzone log (docs/rules.md)",
    "tractor_links": "RULES §3; seeds 001, 002",
    "kitty_multiplier": "RULES §7, §8b; seeds 000, 001, 002, 004; shengji-godot (unit_cards)",
    "advancement": "RULES §7; seeds 000, 001, 002, 004; shengji-godot (capped)",
    "kept_deal": "RULES §7; shengji-godot (不换庄: the dealer stays)",
    "must_play": "RULES §7; seed 001; shengji-godot no_skip_ranks",
    "must_defend": "RULES §8b (80fen: the gate must be defended)",
    "hook_back": "RULES §7; seed 000 note",
    "match_end": "RULES §7; seeds 000, 001, 002, 004; shengji-godot (pass_top)",
    "hands_tie": "RULES §7; seed 002 台上一方 (reading)",
    "players": "seed 001 §4 選對家; shengji.io Finding Friends (4–8 players)",
    "partners": "seed 001 §4 (fixed or a called partner); shengji.io Finding Friends",
    "friends": "shengji.io (players // 2 − 1 friends by default)",
    "friend_rule": "shengji.io (the k-th copy played); seed 001 §4 (the holder nearest the dealer)",
    "friend_cards": "shengji.io FriendSelectionPolicy",
    "friend_self_call": "seed 001 §4 (the dealer holding both copies plays alone)",
    "friend_bonus": "shengji.io BonusLevelForSmallerLandlordTeam",
}

OPTION_NAMES: tuple[str, ...] = tuple(f for f in Ruleset.model_fields if f != "name")


def preset(name: str) -> Ruleset:
    """The named preset; KeyError for an unknown name.

    Made without pydantic's validation (``model_construct``: no schema to build at
    start-up): the presets are the tool's own values, already in each field's
    validated form but ``decks: None`` (``auto``), resolved here as the model's
    own validator does; tests/replay/test_ruleset_presets.py checks every preset
    equal to ``Ruleset(name=…, **PRESETS[…])``, field by field and type by type."""
    return Ruleset.model_construct(**_auto_decks({"name": name, **PRESETS[name]}))


# -- option values from tag text ---------------------------------------------------
_TRUE = {"yes", "true", "on", "1"}
_FALSE = {"no", "false", "off", "0"}


def _parse_value(option: str, text: str) -> OptionValue:
    field = Ruleset.model_fields[option]
    ann = field.annotation
    t = text.strip()
    if ann is bool:
        if t.lower() in _TRUE:
            return True
        if t.lower() in _FALSE:
            return False
        raise ValueError(f"expected yes or no, not {t!r}")
    if option in ("decks", "kitty_size", "start_level", "players", "friends"):
        if option == "start_level":
            return parse_rank(t)
        if option in ("decks", "friends") and t.lower() in ("auto", "none", ""):
            return None
        if not t.isdigit():
            raise ValueError(f"expected a number, not {t!r}")
        return int(t)
    if option == "tractor_links":
        low = t.lower()
        if low in ("all", "all four"):
            return frozenset(LINKS)
        if low in ("none", ""):
            return frozenset()
        return frozenset(p.strip() for p in t.replace("+", ",").split(",") if p.strip())
    if option in ("must_play", "hook_back"):
        if t.lower() in ("none", ""):
            return ()
        return tuple(parse_rank(p) for p in t.replace("+", ",").replace("/", ",").split(",") if p.strip())
    return t


def resolve(name: str | None, overrides: dict[str, tuple[str, Span]] | None = None,
            name_span: Span | None = None) -> tuple[Ruleset, list[Diagnostic]]:
    """A ruleset from a preset name and ``{option: (value text, span)}``.

    Bad input yields diagnostics and falls back (unknown preset → ``standard``;
    a bad option is ignored), so replay can go on.
    """
    diags: list[Diagnostic] = []
    pname = name or "standard"
    if not overrides and pname in PRESETS:
        return _preset_ruleset(pname), diags  # the usual record: a preset as is (frozen, shared)
    if pname not in PRESETS:
        diags.append(Diagnostic.at("SJ150", name_span,
                                   f"unknown preset {pname!r}; known: {', '.join(PRESETS)}; using 'standard'"))
        pname = "standard"
    values: dict[str, OptionValue] = {"name": pname, **PRESETS[pname]}
    for option, (text, span) in (overrides or {}).items():
        if option not in OPTION_NAMES:
            diags.append(Diagnostic.at("SJ151", span, f"unknown rule option {option!r}"))
            continue
        try:
            value = _parse_value(option, text)
            Ruleset(**{**values, option: value})  # validate this one option in context
        except (ValueError, ValidationError) as exc:
            msg = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
            diags.append(Diagnostic.at("SJ152", span, f"bad value {text!r} for rule option {option!r}: {msg}"))
            continue
        values[option] = value
    return Ruleset(**values), diags


_PRESET_RULESETS: dict[str, Ruleset] = {}


def _preset_ruleset(name: str) -> Ruleset:
    rs = _PRESET_RULESETS.get(name)
    if rs is None:
        rs = _PRESET_RULESETS[name] = preset(name)
    return rs


def option_text(value: OptionValue) -> str:
    """An option value as written in a ``[Rule.x]`` tag."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, frozenset):
        return ",".join(l for l in LINKS if l in value) or "none"
    if isinstance(value, tuple):
        return ",".join(rank_name(r) for r in value) or "none"
    if value is None:
        return "auto"
    return str(value)


__all__ = ["Ruleset", "PRESETS", "SOURCES", "OPTION_NAMES", "preset", "resolve", "option_text", "LINKS"]
