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
        "               or (m.startswith(('analyzer.importers.', 'analyzer.lint.'))\n"
        "                   and m not in ('analyzer.importers.registry', 'analyzer.lint.formats')))\n"
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
        "unwanted = ('lark', 'notation.gjn', 'notation.jsonio', 'notation.writer', 'analyzer.gouji',\n"
        "            'replay.gouji', 'analyzer.importers.')\n"
        "print('read', 'notation.reader' in sys.modules and 'replay.game' in sys.modules)\n"
        "print(sorted(m for m in sys.modules if m.startswith(unwanted) and m != 'analyzer.importers.registry'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.splitlines()[-3:] == ["exit 0", "read True", "[]"], out.stdout + out.stderr
