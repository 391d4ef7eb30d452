"""The Gouji ruleset: every option of GOUJI.md §8 and the three presets.

``GoujiRuleset`` is a frozen pydantic model (validated at the edge, read as
plain attributes in the hot path). ``resolve(name, overrides)`` turns a
record's ``[Rules]`` / ``[Rule.x]`` tags into a ruleset plus SJ150–SJ152
diagnostics, like :func:`replay.ruleset.resolve` for Shengji.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, ValidationError

from primitives.diagnostics import Diagnostic, Span


class GoujiRuleset(BaseModel):
    """Every Gouji option (GOUJI.md §8); field comments name the section."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "gouji"
    #: §3 how a set beats the top: card by card (position) or by rank (wild)
    compare: Literal["position", "wild"] = "position"
    #: §4 the ask order after a 够级 play
    burn_order: Literal["seed", "online"] = "seed"
    #: §4 the target (对头) is asked once more at the end of a list
    last_word: Literal["none", "opposite"] = "none"
    #: §4 让牌: who may let and what follows
    yield_: Literal["seed", "online", "off"] = "seed"
    #: §1 四户乱缠 when at most four players are present
    chaos: Literal["four", "off"] = "four"
    #: §2.7 how the first leader of a game is found
    first_leader: Literal["seed", "liang3", "given"] = "seed"
    #: §2.5 会3/会4: the first leader may remove the 3s and/or 4s
    remove: Literal["34", "none"] = "34"
    #: §2.3, §3 憋3: 3s only as the last set; 买3
    bie3: Literal["off", "on"] = "off"
    #: §7 打点 (开点, 点贡, 明点/预点)
    dadian: Literal["off", "on"] = "off"
    #: §7 翻车 penalty: single (2/4) or double (4/8)
    fanche: Literal["single", "double"] = "single"
    #: §7 落贡 from the previous game's places
    tribute: Literal["off", "on"] = "off"
    #: §7 which cards a tribute or 点贡 takes
    tribute_cards: Literal["jokers_twos", "any"] = "jokers_twos"
    #: §7 may tribute between teammates be omitted
    team_tribute: Literal["optional", "always"] = "optional"
    #: §7 tribute after a 串三户
    sweep_tribute: Literal["none", "opposite", "normal"] = "none"
    #: §2.4 革命
    revolution: Literal["on", "off"] = "on"
    #: §2.4 which hand a revolt is tested on
    revolution_check: Literal["dealt", "held"] = "dealt"
    #: §6 what a game records
    score: Literal["positive", "zero_sum"] = "positive"
    #: reading (GOUJI.md §4 is silent): may a let be made on a plain play too
    #: (``any``, the default reading of "only Z may let, outside chaos") or
    #: only on a 够级 play (``gouji``)
    let_on: Literal["any", "gouji"] = "any"


#: the option names as written in ``[Rule.x]`` tags (``yield`` is a Python keyword)
TAG_NAMES: dict[str, str] = {f: ("yield" if f == "yield_" else f)
                             for f in GoujiRuleset.model_fields if f != "name"}
FIELD_OF_TAG: dict[str, str] = {v: k for k, v in TAG_NAMES.items()}
OPTION_NAMES: tuple[str, ...] = tuple(TAG_NAMES.values())

#: preset → its options that differ from the defaults (every option is a str Literal)
PRESETS: dict[str, dict[str, str]] = {
    "gouji": {},
    "gouji-bie3": {"remove": "none", "bie3": "on", "dadian": "on"},
    "gouji-online": {
        "burn_order": "online", "last_word": "opposite", "yield_": "online", "first_leader": "liang3",
        "remove": "none", "tribute_cards": "any", "team_tribute": "always", "sweep_tribute": "normal",
        "revolution": "off", "revolution_check": "held", "score": "zero_sum",
    },
}

#: where each option comes from, for ``shengji rules gouji`` (by tag name)
SOURCES: dict[str, str] = {
    "compare": "GOUJI §3; seed 003 (card-by-card beating)",
    "burn_order": "GOUJI §4; seed 003 (teammates, opponents, 对头); zhoujxMT/gouji (online)",
    "last_word": "GOUJI §4; zhoujxMT/gouji (the 对头 asked last)",
    "yield": "GOUJI §4 让牌; seed 003; zhoujxMT/gouji",
    "chaos": "GOUJI §1 四户乱缠; seed 003",
    "first_leader": "GOUJI §2.7 亮3/顶班; seed 003; zhoujxMT/gouji (liang3)",
    "remove": "GOUJI §2.5 会3/会4; seed 003",
    "bie3": "GOUJI §2.3, §3 憋3/买3; seed 003 §26–27",
    "dadian": "GOUJI §7 打点; seed 003 §26–27",
    "fanche": "GOUJI §7 翻车; seed 003",
    "tribute": "GOUJI §7 落贡; seed 003",
    "tribute_cards": "GOUJI §7; seed 003 (jokers and 2s); zhoujxMT/gouji (any)",
    "team_tribute": "GOUJI §7; seed 003 (optional); zhoujxMT/gouji (always)",
    "sweep_tribute": "GOUJI §7 串三户; seed 003 (重新开牌); zhoujxMT/gouji (normal)",
    "revolution": "GOUJI §2.4 革命; seed 003",
    "revolution_check": "GOUJI §2.4; seed 003 (dealt); zhoujxMT/gouji (held)",
    "score": "GOUJI §6 只记正分; seed 003; zhoujxMT/gouji (zero_sum)",
    "let_on": "reading: GOUJI §4 让牌 does not say whether a plain play may be let (default any)",
}

_PRESET_RULESETS: dict[str, GoujiRuleset] = {}


def preset(name: str) -> GoujiRuleset:
    """The named preset (shared, frozen); KeyError for an unknown name."""
    rs = _PRESET_RULESETS.get(name)
    if rs is None:
        rs = _PRESET_RULESETS[name] = GoujiRuleset(name=name, **PRESETS[name])
    return rs


def option_value(rs: GoujiRuleset, tag_name: str) -> str:
    value: str = getattr(rs, FIELD_OF_TAG[tag_name])  # every option is a str Literal
    return value


def resolve(name: str | None, overrides: dict[str, tuple[str, Span]] | None = None,
            name_span: Span | None = None) -> tuple[GoujiRuleset, list[Diagnostic]]:
    """A ruleset from a preset name and ``{tag option: (value text, span)}``.

    An unknown preset (SJ150) falls back to ``gouji``; a bad option (SJ151) or
    value (SJ152) is ignored, so the replay goes on.
    """
    diags: list[Diagnostic] = []
    pname = name or "gouji"
    if not overrides and pname in PRESETS:
        return preset(pname), diags
    if pname not in PRESETS:
        diags.append(Diagnostic.at("SJ150", name_span,
                                   f"unknown Gouji preset {pname!r}; known: {', '.join(PRESETS)}; using 'gouji'"))
        pname = "gouji"
    values: dict[str, str] = {"name": pname, **PRESETS[pname]}
    for option, (text, span) in (overrides or {}).items():
        field = FIELD_OF_TAG.get(option)
        if field is None:
            diags.append(Diagnostic.at("SJ151", span, f"unknown Gouji rule option {option!r}; "
                                                      f"known: {', '.join(OPTION_NAMES)}"))
            continue
        value = text.strip().lower()
        try:
            GoujiRuleset(**{**values, field: value})
        except ValidationError:
            allowed = get_args(GoujiRuleset.model_fields[field].annotation)  # the Literal's values
            diags.append(Diagnostic.at("SJ152", span, f"bad value {text!r} for Gouji rule option {option!r}; "
                                                      f"it takes {', '.join(allowed)}"))
            continue
        values[field] = value
    return GoujiRuleset(**values), diags


__all__ = [
    "FIELD_OF_TAG",
    "OPTION_NAMES",
    "PRESETS",
    "SOURCES",
    "TAG_NAMES",
    "GoujiRuleset",
    "option_value",
    "preset",
    "resolve",
]
