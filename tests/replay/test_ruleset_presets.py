"""The presets are made without pydantic's validation (``Ruleset.model_construct``,
start-up time): each must be the very ruleset validation makes of the same values."""

from __future__ import annotations

import pytest

from replay.ruleset import PRESETS, Ruleset, preset, resolve


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_preset_is_its_validated_ruleset(name: str) -> None:
    made = preset(name)
    validated = Ruleset(name=name, **PRESETS[name])
    assert made == validated
    assert hash(made) == hash(validated)
    for field in Ruleset.model_fields:
        mine, theirs = getattr(made, field), getattr(validated, field)
        assert (field, mine, type(mine)) == (field, theirs, type(theirs))
    assert made.model_fields_set == validated.model_fields_set
    assert made.model_dump() == validated.model_dump()
    assert resolve(name)[0] == validated and resolve(name)[1] == []


def test_a_preset_is_frozen() -> None:
    with pytest.raises(ValueError):
        preset("standard").decks = 3   # type: ignore[misc]


def test_decks_auto_is_resolved_as_validation_does() -> None:
    rs = preset("shengji-io-friends")
    assert PRESETS["shengji-io-friends"]["decks"] is None
    assert rs.decks == Ruleset(name="x", players=rs.players, partners="friends", decks=None).decks == 2
