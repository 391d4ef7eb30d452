"""The optional native play-phase core: the ``shengji-native`` extension (Rust, PyO3).

``native/`` ports the play phase of this package (card order, units and
tractors, follow obligations, throws and their failure, trick winners, points,
penalties, the last trick's multiplier), the endgame search of
:mod:`analyzer.review.search` and the bots' trick play of the review's play-outs
(:mod:`analyzer.play.trick_play`, ``NativeRules.bot_playout``, used by
:func:`analyzer.review.mistakes.decisions.play_to_end`) to Rust. The Python engine stays the specification and
the fallback: the extension is used only when it is importable, not disabled
(``SHENGJI_NATIVE=0`` in the environment) and knows every play-phase option of
the ruleset at hand (a ruleset with an option the port does not know is played
in Python). ``tests/native`` drives both on random positions of every preset.

This module decides nothing itself: it loads the extension, says which search
is in use (:func:`backend`, shown by ``shengji --version``) and turns an
:class:`~replay.order.Order` and a :class:`~replay.ruleset.Ruleset` into the
extension's compact options (:func:`rules_for`), validated here before they
cross. The extension never panics across the boundary: a panic comes back as
``shengji_native.InternalError`` (a ``RuntimeError``), which the commands
report as internal error SJ901.
"""

from __future__ import annotations

import os
from functools import lru_cache
from types import ModuleType
from typing import Any

from replay.order import NT, Order
from replay.ruleset import LINKS, Ruleset

#: the environment variable that turns the extension off (``0``) or makes it required (``1``:
#: an import failure is an error, not a fallback; the CI's native leg sets it)
ENV = "SHENGJI_NATIVE"


class NativeRequired(RuntimeError):
    """``SHENGJI_NATIVE=1`` but the extension cannot be used (missing, or built from another
    version of ``native/``): a set-up error the command reports as one line, not a bug. Not an
    ``ImportError``: the fallbacks that catch one must not hide it."""


def _load() -> tuple[ModuleType | None, str]:
    setting = os.environ.get(ENV, "").strip().lower()
    if setting in ("0", "no", "off", "false"):
        return None, f"python (native core disabled: {ENV}={os.environ[ENV]})"
    try:
        import shengji_native
    except ImportError as exc:
        if setting in ("1", "yes", "on", "true"):
            raise NativeRequired(f"{ENV}={os.environ[ENV]} but the shengji-native extension is missing ({exc}): "
                                 f"install it (pip install ./native) or unset {ENV}") from exc
        return None, "python (the shengji-native extension is not installed)"
    version = getattr(shengji_native, "__version__", "?")
    missing = [name for name in _API if not hasattr(shengji_native, name.split(".")[0])
               or ("." in name and not hasattr(getattr(shengji_native, name.split(".")[0]), name.split(".")[1]))]
    if missing:   # an extension built from another version of native/: not this package's port
        if setting in ("1", "yes", "on", "true"):
            raise NativeRequired(f"{ENV}={os.environ[ENV]} but the installed shengji-native {version} lacks "
                                 f"{', '.join(missing)}: reinstall it from this package's native/ or unset {ENV}")
        return None, f"python (the installed shengji-native {version} does not match this shengji)"
    return shengji_native, f"native (shengji-native {version})"


#: what this package calls on the extension (an older build lacking any of it is not used)
_API = ("InternalError", "FEATURES", "NativeRules.legal_follows", "NativeRules.check_throw", "NativeRules.trick_result",
        "NativeSolver.search", "NativeSolver.table_move", "NativeSolver.trim", "NativeSolver.playout",
        "NativeRules.bot_playout", "NativeRules.follow_options", "NativeRules.bot_playouts", "sample_deal")


_loaded, _loaded_backend = _load()
_module, _backend = _loaded, _loaded_backend


def module() -> ModuleType | None:
    """The extension module, or None (not installed, or disabled)."""
    return _module


def available() -> bool:
    return _module is not None


def backend() -> str:
    """Which search and play-phase core this process uses, in words (``shengji --version``)."""
    return _backend


def set_enabled(enabled: bool) -> None:
    """Use the extension (as loaded at start: not when missing or disabled by the environment)
    or not, from now on: the differential tests ask both engines in one process."""
    global _module, _backend
    if enabled:
        _module, _backend = _loaded, _loaded_backend
    else:
        _module, _backend = None, "python (native core switched off)"
    rules_for.cache_clear()


# -- the options that cross -------------------------------------------------------------------

_FORCED = ("smallest", "first_blocker", "lowest")
_PENALTY = ("none", "per_card", "per_attempt")
_COMPARE = ("largest_unit", "all_units", "highest_card")
_FOLLOW = ("pairs", "strict", "pure_tractor", "shengji_io")
_KITTY = ("by_unit", "by_cards", "by_play_cards", "linear", "titanic", "times_unit", "times_lead_cards", "botzone",
          "unit_cards")
_LINK_BITS = {"joker": 1, "joker_level": 2, "level": 4, "level_top": 8}

#: the ruleset options the port knows; each is either played by the native core
#: or plays no part in a trick (declarations, scoring tables, the match, friends)
PORTED_OPTIONS = frozenset((
    "name", "decks", "kitty_size", "start_level", "joker_level", "two_is_trump", "declaration",
    "reinforce_after_overridden", "self_override", "partner_reinforce", "joker_override", "ladder_self",
    "declare_joker", "attacker_level", "first_dealer", "no_declaration", "kitty_joker", "throw_check",
    "throw_forced", "throw_penalty", "throw_compare", "follow_policy", "follow_suit", "tractor_links",
    "kitty_multiplier", "advancement", "must_play", "must_defend", "hook_back", "match_end", "hands_tie",
    "players", "partners", "friends", "friend_rule", "friend_cards", "friend_self_call", "friend_bonus",
    # shengji-godot (h36): declarations, dealing and the match; ``throws: no`` (no throw
    # candidates among the search's leads: NativeRules' ``throws``)
    "joker_colour", "declarer_deals", "throws", "kept_deal",
    # h29: the first hand's dealer when nobody declares (not a trick option); ``unit_split``:
    # shengji.io's reading of a lead, its throw check and forced unit (replay/sjio.py; with
    # ``follow_policy: shengji_io`` and its winner of a throw, native/src/sjio*.rs)
    "first_hand_undeclared", "unit_split",
))


def ported(ruleset: Ruleset) -> bool:
    """Does the native core know every option of ``ruleset`` that is not at its default?
    (An option added to the Python engine after the port keeps its rulesets in Python.)"""
    for name, field in Ruleset.model_fields.items():
        if name not in PORTED_OPTIONS and getattr(ruleset, name) != field.get_default(call_default_factory=True):
            return False
    return (ruleset.throw_forced in _FORCED and ruleset.throw_penalty in _PENALTY
            and ruleset.throw_compare in _COMPARE and ruleset.follow_policy in _FOLLOW
            and ruleset.kitty_multiplier in _KITTY and ruleset.follow_suit in ("effective", "printed")
            and ruleset.throw_check in ("strict", "none") and set(ruleset.tractor_links) <= set(LINKS)
            and ruleset.unit_split in ("longest", "shengji_io"))


def rule_args(order: Order, ruleset: Ruleset) -> tuple[int | bool, ...]:
    """The extension's ``NativeRules`` arguments for a hand (validated: ValueError otherwise)."""
    if not ported(ruleset):
        raise ValueError(f"the native core does not know every option of ruleset {ruleset.name!r}")
    if not 2 <= order.level <= 15 or not 0 <= order.trump <= NT or not 1 <= ruleset.decks <= 4:
        raise ValueError(f"no native order for level {order.level}, trump {order.trump}")
    links = 0
    for link in order.links:
        links |= _LINK_BITS[link]
    return (order.level, order.trump, bool(order.two_is_trump), links, ruleset.decks,
            ruleset.throw_check != "none", ruleset.throws, _FORCED.index(ruleset.throw_forced),
            _PENALTY.index(ruleset.throw_penalty), _COMPARE.index(ruleset.throw_compare),
            _FOLLOW.index(ruleset.follow_policy), ruleset.follow_suit == "printed",
            _KITTY.index(ruleset.kitty_multiplier), ruleset.unit_split == "shengji_io")


@lru_cache(maxsize=256)
def rules_for(order: Order, ruleset: Ruleset) -> Any:
    """The extension's rules of a hand (``shengji_native.NativeRules``), or None when the
    extension is not in use or does not know the ruleset (then the Python engine plays)."""
    if _module is None or not ported(ruleset):
        return None
    return _module.NativeRules(*rule_args(order, ruleset))


def valid_cards(cards: Any) -> bool:
    """Are ``cards`` card ints (0..53)? (What may cross to the extension.)"""
    for c in cards:
        if type(c) is not int or not 0 <= c < 54:
            return False
    return True


__all__ = ["ENV", "PORTED_OPTIONS", "available", "backend", "module", "ported", "rule_args", "rules_for",
           "set_enabled", "valid_cards"]
