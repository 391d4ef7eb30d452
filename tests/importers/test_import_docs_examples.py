"""docs/importing.md stays true: its complete worked example is what the importer produces."""

import re
from pathlib import Path

from importer_testlib import notation_io

from analyzer.io.importers import import_text

DOC = Path(__file__).resolve().parents[2] / "docs" / "importing.md"


def blocks(section: str) -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    part = text.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```\n(.*?)```", part, re.S)


def test_chat_example():
    write, _parse = notation_io()
    paste, sjn, diag = blocks("shengji.io chat")
    records, diags = import_text("shengji-io-chat", paste)
    assert write(records).strip() == sjn.strip()
    [d] = diags
    assert f"{d.line}:{d.column} {d.code} {d.message}" == diag.strip()


def test_excerpts_match_the_fixtures():
    write, _parse = notation_io()
    from importer_testlib import fixture
    for section, fmt, path in (("shengji.fly.dev", "fly", ("fly", "room_QZXW.jsonl")),
                               ("Botzone", "botzone", ("botzone", "match_complete.json")),
                               ("80fen replay v2", "80fen-v2", ("80fen", "deal_v2.json"))):
        out = write(import_text(fmt, fixture(*path))[0]).split("\n")
        shown = blocks(section)[-1].strip().split("\n")
        for line in shown:
            if line != "…":
                assert line in out, (section, line)


def test_every_format_and_code_is_documented():
    text = DOC.read_text(encoding="utf-8")
    from analyzer.io.importers import registry
    for imp in registry.IMPORTERS:          # every importer of the registry, by its name
        assert f"`{imp.name}`" in text, imp.name
    for code in ("SJ701", "SJ702", "SJ703", "SJ704", "SJ705"):
        assert code in text


def test_game_sav_examples():
    """The two console examples of the game-sav section, run on saves built byte by byte."""
    from analyzer.io.importers import gamesav
    write, _parse = notation_io()
    good, bad = blocks("The 1997 Tractor game's save file")[:2]
    data = bytes([0x02, 0x02, 0x01]) + bytes(4093)     # as samples/docs/GAME.SAV
    records, diags = import_text("game-sav", data, source="GAME.SAV")
    assert not diags
    assert "$ shengji import game-sav GAME.SAV\n" + write(records).strip() == good.strip()
    _, diags = import_text("game-sav", bytes([0x0E, 0x02, 0x01]), source="BAD.SAV")
    [d] = diags
    head = "\n".join(bad.strip().split("\n")[:2])                # the finding, then the record
    assert f"$ shengji import game-sav BAD.SAV\nBAD.SAV:{d.line}:{d.column}: {d.code} {d.message}" == head
    text = DOC.read_text(encoding="utf-8")
    for byte, _level in gamesav.LEVEL_OF_BYTE.items():          # the table lists every byte
        assert f"`{byte:02X}`" in text or 2 <= byte <= 10
    for code in ("SJ710", "SJ711", "SJ712"):
        assert code in text
