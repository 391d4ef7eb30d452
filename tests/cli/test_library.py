"""The library under the commands, tested without the command line: reading
inputs (analyzer.io.inputs), writing outputs (analyzer.io.outputs), fmt
(analyzer.io.formatting), the presets table (analyzer.report.presets) and the registries
(lint formats, importers)."""

from __future__ import annotations

import io
import json

import pytest
from cli_helpers import FIXTURES

from analyzer.io import formatting, inputs, outputs
from analyzer.io.errors import UsageError, UserError
from analyzer.io.importers import registry
from analyzer.lint import LintOptions, LintReport, formats, lint_paths
from analyzer.report import presets

CLEAN = FIXTURES / "clean.sjn"


# -- inputs -----------------------------------------------------------------------------------------

def test_read_text_drops_a_bom_and_says_why_it_cannot_read(tmp_path):
    p = tmp_path / "a.sjn"
    p.write_bytes(b"\xef\xbb\xbf[Event \"x\"]\n")
    assert inputs.read_text(str(p)) == '[Event "x"]\n'
    (tmp_path / "bad.sjn").write_bytes(b"\xff\xfe")
    with pytest.raises(UserError, match=r"bad.sjn: not UTF-8 text at line 1, column 1 \(byte 0\): invalid start byte"):
        inputs.read_text(str(tmp_path / "bad.sjn"))
    with pytest.raises(UserError, match="is a directory") as err:
        inputs.read_text(str(tmp_path))
    assert err.value.code == 2
    with pytest.raises(UserError, match="No such file"):
        inputs.read_bytes(str(tmp_path / "missing"))


def test_source_reads_records_and_tells_what_it_is():
    src = inputs.Source(str(CLEAN))
    assert (src.kind, src.log, src.game.name) == ("sjn", None, "shengji")
    got = [(r is not None, [d.code for d in diags]) for r, diags in src.records()]
    assert got == [(True, [])]
    src.check()
    log = inputs.Source(str(FIXTURES / "logs" / "room.jsonl"))
    assert (log.kind, log.log) == ("log", "fly")


def test_source_refuses_bad_arguments_and_unreadable_files(tmp_path):
    with pytest.raises(UsageError, match="unknown log format 'nope'"):
        inputs.Source(str(CLEAN), "nope")
    with pytest.raises(UserError, match="is a directory"):
        inputs.Source(str(tmp_path))
    with pytest.raises(UsageError, match="unknown preset 'nope'"):
        inputs.check_preset("nope")
    inputs.check_preset("standard")


def test_load_records_and_the_gouji_json_rule():
    records, diags = inputs.load_records(CLEAN.read_text(encoding="utf-8"), str(CLEAN))
    assert len(records) == 1 and diags == []
    assert inputs.game_of_input(json.dumps([{"game_type": "gouji"}]), "x.json").name == "gouji"
    assert inputs.game_of_input(json.dumps({"game_type": "shengji"}), "x.json").name == "shengji"


# -- outputs ----------------------------------------------------------------------------------------

def test_check_output_refuses_inputs_existing_files_and_directories(tmp_path):
    out = tmp_path / "out.sjn"
    outputs.check_output(str(out), force=False)
    out.write_text("x")
    with pytest.raises(UserError, match="exists; use --force"):
        outputs.check_output(str(out), force=False)
    outputs.check_output(str(out), force=True)
    with pytest.raises(UserError, match="is the input file"):
        outputs.check_output(str(out), force=True, inputs=[str(out)])
    with pytest.raises(UserError, match="is a directory"):
        outputs.check_output(str(tmp_path), force=True)


def test_open_output_is_all_or_nothing(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("old")
    with pytest.raises(outputs.Discard), outputs.open_output(str(out)) as f:
        f.write("new")
        raise outputs.Discard
    assert out.read_text() == "old"
    outputs.write_output(str(out), "new", force=True)
    assert out.read_text() == "new"


def test_output_in_dir(tmp_path):
    assert outputs.output_in_dir(None, "a.sjn") is None
    assert outputs.output_in_dir("-", "a.sjn") == "-"
    assert outputs.output_in_dir(str(tmp_path / "f.sjn"), "a.sjn") == str(tmp_path / "f.sjn")
    made = outputs.output_in_dir(str(tmp_path / "new") + "/", "a.sjn")
    assert made == str(tmp_path / "new" / "a.sjn") and (tmp_path / "new").is_dir()


# -- fmt ----------------------------------------------------------------------------------------------

def test_format_file_check_and_write(tmp_path):
    p = tmp_path / "m.sjn"
    canonical = (FIXTURES / "match.sjn").read_text(encoding="utf-8")
    p.write_text(canonical.replace("\n", "  \n", 3), encoding="utf-8")
    said: list[str] = []
    assert formatting.format_file(str(p), check=True, err=said.append) is True
    assert said == [f"would reformat {p}"]
    assert formatting.format_file(str(p), write_back=True, err=said.append) is True
    assert formatting.format_file(str(p), check=True, err=said.append) is False
    with pytest.raises(formatting.Unreadable):
        formatting.format_file(str(tmp_path / "missing.sjn"), err=said.append)


def test_format_file_refuses_reading_errors(tmp_path):
    p = tmp_path / "bad.sjn"
    p.write_text('[Event "x"]\n\nhand 1\nlevels NS 2 EW 2\nS: SA ZZ\n', encoding="utf-8")
    said: list[str] = []
    assert formatting.format_file(str(p), write_back=True, err=said.append) is None
    assert any("not formatted" in line for line in said)
    assert p.read_text(encoding="utf-8").endswith("S: SA ZZ\n")


def test_compare_and_keep_ends():
    cmp = formatting.Compare(io.StringIO("abc"))
    cmp.write("ab")
    assert cmp.same and not cmp.finish()
    assert formatting.keep_ends("a\r\nb\rc\nd") == ["a\r\n", "b\r", "c\n", "d"]


# -- presets ------------------------------------------------------------------------------------------

def test_preset_rows_cite_their_sources():
    from analyzer.games import games
    names = [name for game in games() for name, _ in game.preset_rows()]
    assert names[0] == "standard" and "gouji" in names
    assert [name for name, _ in presets.preset_rows()] == names[:len(presets.preset_rows())]
    rows = presets.option_rows("standard")
    assert rows and not any(differs for *_, differs in rows)
    assert presets.cite("RULES §4, §8b; seed 001 'Zi Fan'") == "docs/rules.md §4, §8; Tractor 1997 'Zi Fan'"


# -- registries ---------------------------------------------------------------------------------------

def test_lint_formats_are_registered_once_and_make_the_choices():
    assert formats.FORMATS[:4] == ("text", "json", "sarif", "github")     # a new format comes after these
    assert [m.value for m in formats.LintFormat] == list(formats.FORMATTERS) == list(formats.FORMATS)
    documented = (FIXTURES.parents[2] / "docs/cli.md").read_text(encoding="utf-8")
    for name in formats.FORMATS:                                          # each one described in docs/cli.md
        assert f"`{name}`" in documented, name
    with pytest.raises(ValueError, match="registered twice"):
        formats.register("json")(lambda report, **kw: "")


def test_each_formatter_renders_a_report():
    report = lint_paths([str(FIXTURES / "errors.sjn")], LintOptions(), jobs=1)
    assert isinstance(report, LintReport) and report.findings
    text = formats.formatter("text").render(report, version="9", quiet=False)
    assert text.endswith(report.summary() + "\n")
    assert formats.formatter("text").render(report, quiet=True) == formats.to_text(report.findings)
    assert json.loads(formats.formatter("json").render(report))[0]["code"] == report.findings[0].code
    sarif = json.loads(formats.formatter("sarif").render(report, version="9"))
    assert sarif["runs"][0]["tool"]["driver"]["version"] == "9"
    assert formats.formatter("github").render(report).startswith("::")


def test_the_importer_registry_is_the_one_declaration():
    import analyzer.io.importers as imp
    assert imp.FORMATS == registry.NAMES
    for entry in registry.IMPORTERS:
        module = entry.load()
        assert callable(module.looks_like) and callable(module.import_log) and module.RULES
        assert imp.is_binary(entry.name) == entry.binary
        for alias in entry.aliases:
            assert imp.format_name(alias) == entry.name
        for suffix in entry.suffixes:
            assert imp._SUFFIXES[suffix] == entry.name
    assert "game-sav" not in registry.FROM_HELP and all(n in registry.FROM_HELP for n in registry.TEXT_NAMES)
    assert registry.FORMATS_HELP.count("(") == len(registry.IMPORTERS)


# -- convert / annotate -----------------------------------------------------------------------------

def test_convert_records_to_json_and_back(tmp_path):
    from analyzer.io import converting
    out = io.StringIO()
    n = converting.convert_records(inputs.Source(str(CLEAN)), "json", out, name="clean.sjn")
    assert n == 1 and json.loads(out.getvalue())["tags"]
    p = tmp_path / "c.json"
    p.write_text(out.getvalue(), encoding="utf-8")
    back = io.StringIO()
    assert converting.convert_records(inputs.Source(str(p)), "sjn", back, name=str(p)) == 1
    assert back.getvalue().startswith('[Event "Club night"]')


def test_convert_records_refuses_reading_errors_after_telling_them(tmp_path):
    from analyzer.io import converting
    p = tmp_path / "bad.sjn"
    p.write_text('[Event "x"]\n\nhand 1\nlevels NS 2 EW 2\nS: SA ZZ\n', encoding="utf-8")
    said: list[str] = []
    with pytest.raises(UserError, match=r"not converted: 1 reading error\(s\)") as err:
        converting.convert_records(inputs.Source(str(p)), "json", io.StringIO(), name="bad.sjn", err=said.append)
    assert err.value.code == 1 and said and said[0].startswith("bad.sjn:5:")


def test_annotate_records_writes_the_record_back():
    from analyzer.games.shengji.annotate import annotate_records
    out = io.StringIO()
    count, records, lines = annotate_records(inputs.Source(str(FIXTURES / "match.sjn")), out)
    assert records == 1 and lines[0] == "record 1:"
    assert out.getvalue().count("{SJ6") == count


def test_report_formats_are_registered_once_and_write_a_stream():
    from analyzer.report import formats as report_formats
    from analyzer.report.reading import iter_matches
    assert [m.value for m in report_formats.ReportFormat] == ["text", "md", "json", "html", "term"]
    with pytest.raises(ValueError, match="registered twice"):
        report_formats.register("md")(lambda out, path, matches: None)
    for name, write in report_formats.WRITERS.items():
        out = io.StringIO()
        write(out, "clean.sjn", iter_matches(inputs.Source(str(CLEAN)).records()))
        assert out.getvalue(), name
    out = io.StringIO()
    report_formats.WRITERS["json"](out, "clean.sjn", iter_matches(inputs.Source(str(CLEAN)).records()))
    assert json.loads(out.getvalue())["path"] == "clean.sjn"


def test_spooled_lines_come_back_as_given():
    """``annotate``'s summary lines wait in a temporary file past its size (issue 35: bounded memory)."""
    from analyzer.io.spool import SpooledLines
    given = ["record 1:", "  N: 2 mistakes", "", "a\\nb \\\\n \u2028 \udc80", "x" * 300]
    lines = SpooledLines(max_size=100)
    lines.extend(given)
    lines.append("last")
    assert lines._file._rolled and list(lines) == [*given, "last"] and list(lines) == [*given, "last"]
