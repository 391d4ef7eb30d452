"""The help's plain metavars and the plain values of ``shengji``'s parameters:
the kinds Typer would check through pydantic (``typer._adapters``) checked here
without it (start-up time), shown as written (:mod:`._core` uses these)."""

import re
from enum import Enum
from typing import Any

from typer.core import TyperArgument, TyperOption

# -- the values: plain ones checked without pydantic ------------------------------------------

class _PlainValues:
    """How a parameter's value is checked when it is one of the plain kinds the
    commands use (a string, a flag, a list of strings, an integer within bounds, a
    choice named exactly): the value is taken as it is. Typer (0.2x) would build a
    pydantic ``TypeAdapter`` for every parameter of the command being run, even
    one left at its default: ~10 schemas (2–7 ms) and pydantic's validators,
    and for a command that does not otherwise use pydantic, pydantic's import
    (~60 ms). Any other value (a wrong one, a number spelled ``+3``, a choice in
    other case) is handed to Typer's own checking, so what is accepted and every
    error message stay Typer's (``tests/cli/test_cli_extras_lazy.py`` compares
    the two on every parameter)."""

    __slots__ = ("_kind", "_param", "_typer")

    def __init__(self, kind: str, param: Any) -> None:
        self._kind = kind
        self._param = param
        self._typer: Any = None

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        kind = self._kind
        if value is None:
            return () if param.multiple or param.nargs == -1 else None
        if kind == "str":
            if type(value) is str:
                return value
        elif kind == "bool":
            if type(value) is bool:
                return value
        elif kind == "strs":
            if isinstance(value, (list, tuple)) and all(type(v) is str for v in value):
                return list(value)
        elif kind == "int":
            if type(value) is str and value.isascii() and value.isdigit():
                number = int(value)
            elif type(value) is int:
                number = value
            else:
                number = None
            if number is not None and (param.min is None or number >= param.min) \
                    and (param.max is None or number <= param.max):
                return number
        elif kind == "choice":
            choices = param.type_descriptor.choices
            if any(value is c for c in choices):
                return value
            if type(value) is str and ctx.token_normalize_func is None:
                for choice in choices:
                    if str(choice.value) == value:
                        return choice
        if self._typer is None:
            self._typer = self._param.typer_runtime_param()
        return self._typer.coerce(value, param=param, ctx=ctx)


def plain_kind(param: Any) -> str | None:
    """The kind of :class:`_PlainValues` for ``param``, or None (Typer checks it)."""
    desc = getattr(param, "type_descriptor", None)
    if desc is None or desc.file_annotation is not None:
        return None
    info = desc.parameter_info
    if getattr(info, "parser", None) is not None or getattr(info, "clamp", False):
        return None
    annotation = desc.annotation
    if annotation is str:
        return "str"
    if annotation is bool:
        return "bool"
    if annotation is int:
        return "int"
    if annotation == list[str]:
        return "strs"
    if isinstance(annotation, type) and issubclass(annotation, Enum) and desc.case_sensitive \
            and all(isinstance(c, annotation) for c in annotation):
        return "choice"
    return None


def _runtime_param(param: Any) -> Any:
    """A parameter's checking: :class:`_PlainValues` for the plain kinds, else Typer's."""
    fast = param.__dict__.get("_plain_values")
    if fast is None:
        kind = plain_kind(param)
        fast = _PlainValues(kind, param) if kind is not None else param.typer_runtime_param()
        param._plain_values = fast
    return fast


# -- the help: plain metavars ----------------------------------------------------------------

class _Argument(TyperArgument):
    """An argument as the help shows it: the name column says FILE, PATH...
    (no type column); in the usage line ``FILE``, ``[PRESET]``, ``PATH...``."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def get_usage_pieces(self, ctx: Any) -> list[str]:
        name = self.display_name_raw
        if not self.required and not name.startswith("["):  # a metavar may say it already
            name = f"[{name}]"
        if self.nargs != 1 and not name.endswith("..."):
            name += "..."
        return [name]

    def get_runtime_param(self) -> Any:
        return _runtime_param(self)

    def typer_runtime_param(self) -> Any:
        return super().get_runtime_param()


class _Option(TyperOption):
    """An option's value column: a plain metavar (FILE, PRESET, N) or the choices
    (``text|json``), never a Python type (``<list[str]>``, ``<bool>``)."""

    def display_type_rich(self, ctx: Any) -> str | None:
        if self.is_flag or self.count:
            return None
        if self.metavar is not None:
            return self.metavar
        desc = self.type_descriptor
        choices = desc.choices if desc.is_choice else None
        if choices:
            aliases = getattr(choices[0], "aliases", None) or {}  # older names, still accepted
            return "|".join(str(getattr(c, "value", c)) for c in choices
                            if str(getattr(c, "value", c)) not in aliases)
        return (self.name or "value").upper()

    def get_runtime_param(self) -> Any:
        return _runtime_param(self)

    def typer_runtime_param(self) -> Any:
        return super().get_runtime_param()


#: what Rich would read as a markup tag (``[cluster]``, ``[bold]``): Rich's own pattern
_MARKUP_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")


def escape_markup(text: str) -> str:
    """``text`` shown as written by the Rich help (``pip install 'shengji[cluster]'``
    keeps its brackets): what Rich's markup would take for a tag is escaped."""
    return _MARKUP_TAG.sub(lambda m: f"{m.group(1)}{m.group(1)}\\{m.group(2)}", text)


def as_written(command: Any) -> None:
    """A command's help, epilog and parameters' help escaped (:func:`escape_markup`)."""
    for attr in ("help", "short_help", "epilog"):
        text = getattr(command, attr, None)
        if text:
            setattr(command, attr, escape_markup(text))
    for p in command.params:
        if getattr(p, "help", None):
            p.help = escape_markup(p.help)


def plain_params(params: list[Any]) -> None:
    for p in params:
        if type(p) is TyperArgument:
            p.__class__ = _Argument
        elif type(p) is TyperOption:
            p.__class__ = _Option
