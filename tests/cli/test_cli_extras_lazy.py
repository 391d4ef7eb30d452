"""The base install stays lean: the optional extras (dask.distributed, duckdb,
pyarrow) are imported only by the commands that use them."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXTRAS = ("distributed", "dask", "duckdb", "pyarrow")


def test_base_commands_do_not_import_the_extras():
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from analyzer.cli import app\n"
        "r = CliRunner()\n"
        f"r.invoke(app, ['lint', {str(ROOT / 'tests/cli/fixtures/match.sjn')!r}])\n"
        "r.invoke(app, ['rules'])\n"
        "r.invoke(app, ['export', '--help'])\n"
        "r.invoke(app, ['stats', '--help'])\n"
        f"print(sorted(m for m in {EXTRAS!r} if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_python_m_analyzer_runs_only_as_main():
    """A worker process spawned by --cluster local:N imports the parent's main module
    as ``__mp_main__``: that must not run the command line again."""
    import runpy
    runpy.run_module("analyzer.__main__", run_name="__mp_main__")        # no SystemExit, no output


def test_start_up_imports_no_engine():
    """``shengji --version`` and ``--help`` stay fast: the command modules import the
    engine, the readers and the importers inside the commands, and the registries
    they read at start-up (lint formats, importers) import nothing heavy."""
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from analyzer.cli import app\n"
        "r = CliRunner()\n"
        "assert r.invoke(app, ['--version']).exit_code == 0\n"
        "assert r.invoke(app, ['import', '--help']).exit_code == 0\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('notation', 'replay', 'lark')\n"
        "               or (m.startswith(('analyzer.io.importers.', 'analyzer.lint.'))\n"
        "                   and m not in ('analyzer.io.importers.registry', 'analyzer.lint.formats')))\n"
        "print(heavy)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]", out.stdout



def test_one_hand_sjn_lint_imports_no_gouji_and_no_lark():
    """A one-hand SJN lint (the start-up figure of ``bench/run.py``) imports only
    what it uses: no Lark (the quick path reads every line of the fixture), no
    GJN reader or model, no Gouji analyzer, no importer, no JSON layer, no writer."""
    fixture = ROOT / "tests/cli/fixtures/match.sjn"
    code = (
        "import sys\n"
        "from analyzer.cli import app\n"
        f"sys.argv = ['shengji', 'lint', {str(fixture)!r}]\n"
        "try:\n"
        "    app()\n"
        "except SystemExit as exc:\n"
        "    print('exit', exc.code)\n"
        "unwanted = ('lark', 'notation.gjn', 'notation.jsonio', 'notation.writer', 'analyzer.games.gouji.analysis',\n"
        "            'replay.gouji', 'analyzer.io.importers.')\n"
        "print('read', 'notation.reader' in sys.modules and 'replay.game' in sys.modules)\n"
        "print(sorted(m for m in sys.modules if m.startswith(unwanted) and m != 'analyzer.io.importers.registry'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.splitlines()[-3:] == ["exit 0", "read True", "[]"], out.stdout + out.stderr


def test_one_hand_lint_builds_no_pydantic_schema_nor_typer_adapter():
    """The values of a command's options are checked without pydantic
    (``analyzer.cli._params._PlainValues``: no ``typer._adapters``), and the record
    model's pydantic schemas are deferred (``defer_build``) to the first JSON or
    API use: a one-hand lint builds none of them. Nor does it look for pydantic
    plugins (no scan of the installed distributions), and the collector's
    objects are frozen at exit (no full collection in the teardown)."""
    fixture = ROOT / "tests/cli/fixtures/match.sjn"
    code = (
        "import sys\n"
        "from analyzer.cli import app\n"
        f"sys.argv = ['shengji', 'lint', '--jobs', '1', '-f', 'text', '--select', 'SJ', {str(fixture)!r}]\n"
        "try:\n"
        "    app()\n"
        "except SystemExit as exc:\n"
        "    print('exit', exc.code)\n"
        "import notation.model as m\n"
        "from pydantic import BaseModel\n"
        "built = sorted(n for n, c in vars(m).items() if isinstance(c, type) and issubclass(c, BaseModel)\n"
        "               and c is not BaseModel and c.__pydantic_complete__)\n"
        "from analyzer.cli import _core\n"
        "from pydantic.plugin import _loader\n"
        "print('typer._adapters' in sys.modules, built, _core._FREEZE_REGISTERED, _loader._plugins)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.splitlines()[-2:] == ["exit 0", "False [] True None"], out.stdout + out.stderr


def test_deferred_models_still_validate_and_dump():
    """``defer_build``: the first validation or dump builds the schema."""
    code = (
        "import notation.model as m\n"
        "from primitives.diagnostics import Span\n"
        "assert not m.Hand.__pydantic_complete__\n"
        "h = m.Hand.model_validate({'number': 3, 'span': Span(1, 2, 1, 5)})\n"
        "print(m.Hand.__pydantic_complete__, h.number, h.model_dump()['number'])\n"
        "try:\n"
        "    m.Tag(name='A')\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == ["True", "3", "3", "ValidationError"], out.stdout + out.stderr


def _all_params():
    from typer.main import get_command

    from analyzer.cli import app
    group = get_command(app)
    for name, cmd in sorted(group.commands.items()):
        for p in cmd.params:
            yield name, p


#: values for each kind of parameter: good ones (the plain path), and ones
#: only Typer's own checking decides (spelled otherwise, out of range, wrong)
_VALUES = {
    "str": ["x", "", "é", None],
    "bool": [True, False, None, "true", "0"],
    "strs": [("a", "b"), [], ["x"], (), "ab", None, [1]],
    "int": ["1", "02", "7", "0", "9", "+3", " 4", "-1", "1_0", "abc", "1.0", 5, 0, None, 12],
    "choice": [None, "text", "json", "JSON", "nope", ""],
}


def test_plain_values_check_as_typer_does():
    """For every parameter of every command, and values good and bad, the plain
    checking gives what Typer's own (pydantic) checking gives: the same value,
    or the same error message."""
    import typer

    from analyzer.cli import _params
    seen = set()
    for command, p in _all_params():
        kind = _params.plain_kind(p)
        if kind is None:
            continue
        seen.add(kind)
        ctx = typer.Context(_Dummy())
        values = list(_VALUES[kind])
        if kind == "choice":
            values += list(p.type_descriptor.choices) + [str(c.value) for c in p.type_descriptor.choices]
        for value in values:
            got = _outcome(lambda: p.get_runtime_param().coerce(value, param=p, ctx=ctx))
            want = _outcome(lambda: p.typer_runtime_param().coerce(value, param=p, ctx=ctx))
            assert got == want, (command, p.name, value, got, want)
    assert seen == set(_VALUES)


class _Dummy:
    """A stand-in command for the checking's context."""

    allow_extra_args = allow_interspersed_args = ignore_unknown_options = False
    context_settings: dict = {}
    name = "dummy"
    params: list = []


def _outcome(call):
    try:
        value = call()
    except Exception as exc:  # the error Typer reports
        return ("error", type(exc).__name__, str(getattr(exc, "message", exc)))
    return ("value", type(value).__name__, value)


def test_ctrl_c_while_the_command_line_loads_is_one_line():
    """A Ctrl-C that lands while ``shengji`` is still importing its modules ends as one
    during a command: status 130, "Aborted.", no traceback (the console script is
    :func:`analyzer.entry.main`, which imports the command line inside its guard)."""
    code = (
        "import builtins\n"
        "real = builtins.__import__\n"
        "def stop(name, *a, **k):\n"
        "    if name.startswith('analyzer.cli'):\n"
        "        raise KeyboardInterrupt\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = stop\n"
        "from analyzer.entry import main\n"
        "main()\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 130, (out.returncode, out.stderr)
    assert out.stderr == "Aborted.\n", out.stderr


def test_the_console_script_is_the_guarded_entry():
    import tomllib
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"shengji": "analyzer.entry:main"}
