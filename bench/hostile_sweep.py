"""The hostile-input sweep (issue 35): every command over mutated, truncated and
hostile versions of the project's own samples and fixtures, and over special
files, each run as a subprocess with a timeout in a temporary directory.

Not a test: a benchmark-style script (stdlib only) to run by hand, e.g.

    nice python bench/hostile_sweep.py --seed 1 --count 300 --out /tmp/sweep

``--count`` is the number of mutated inputs; each is run by ``--per-input``
commands that fit its format (round robin, so every command gets its share),
and every special input by every command. A run is flagged when it prints a
Python traceback, exits outside 0/1/2, reports an internal error (SJ901), times
out, lets a control sequence taken from the input reach the terminal raw, or
changes an input or writes next to one. Each flagged case is saved to
``--out`` (the input, the command, what it printed) to replay by hand.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import pty
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
FIX = ROOT / "tests"

# (name, path, kind, import format or "")
SEEDS = [
    ("errors.sjn", SAMPLES / "docs/errors.sjn", "sjn", ""),
    ("match.sjn", SAMPLES / "docs/match.sjn", "sjn", ""),
    ("broken.sjn", SAMPLES / "docs/broken.sjn", "sjn", ""),
    ("one-deck.sjn", SAMPLES / "matches/one-deck.sjn", "sjn", ""),
    ("friends.sjn", SAMPLES / "matches/shengji-io-friends.sjn", "sjn", ""),
    ("gouji.gjn", SAMPLES / "matches/gouji.gjn", "gjn", ""),
    ("GJ201.gjn", SAMPLES / "diagnostics/GJ201.gjn", "gjn", ""),
    ("chat.txt", FIX / "cli/fixtures/logs/chat.txt", "log", "shengji-io-chat"),
    ("room.jsonl", FIX / "cli/fixtures/logs/room.jsonl", "log", "fly"),
    ("botzone.json", FIX / "cli/fixtures/logs/botzone.json", "log", "botzone"),
    ("deal_v2.json", FIX / "importers/fixtures/80fen/deal_v2.json", "log", "80fen-v2"),
    ("game_log.json", FIX / "importers/fixtures/godot/game_log.json", "log", "shengji-godot"),
    ("GAME.SAV", SAMPLES / "docs/GAME.SAV", "sav", "game-sav"),
]
# made at start-up with `convert --to json` (the tool's own JSON of both games)
CONVERTED = [("match.json", "match.sjn", "json"), ("gouji.json", "gouji.gjn", "gjn-json")]

RECORD = ("sjn", "gjn", "json", "gjn-json", "log")
SMALL = ("sjn", "gjn", "json", "gjn-json")
# (name, argv template, kinds, shows the record on a terminal)
# {f} the input, {o} a fresh output directory, {sav} a copy of GAME.SAV, {fmt} the importer
COMMANDS: list[tuple[str, list[str], tuple[str, ...], bool]] = [
    ("lint", ["lint", "--no-cache", "{f}"], SMALL, True),
    ("lint --from", ["lint", "--no-cache", "--from", "auto", "{f}"], ("log", "sav"), True),
    ("lint -f json", ["lint", "--no-cache", "-f", "json", "{f}"], RECORD, False),
    ("lint -f sarif", ["lint", "--no-cache", "-f", "sarif", "{f}"], SMALL, False),
    ("lint -f github", ["lint", "--no-cache", "-f", "github", "{f}"], SMALL, True),
    ("lint -f jsonl", ["lint", "--no-cache", "-f", "jsonl", "{f}"], SMALL, False),
    ("lint --mistakes", ["lint", "--no-cache", "--mistakes", "-j", "1", "{f}"], SMALL, True),
    ("lint -", ["lint", "--no-cache", "-"], SMALL, True),
    ("replay", ["replay", "{f}"], RECORD, True),
    ("replay -t", ["replay", "--hand", "1", "--trick", "3", "{f}"], RECORD, True),
    ("report", ["report", "{f}"], RECORD, True),
    ("report -f json", ["report", "-f", "json", "{f}"], RECORD, False),
    ("report -f md", ["report", "-f", "md", "{f}"], RECORD, False),
    ("report -f html", ["report", "-f", "html", "-o", "{o}/r.html", "{f}"], RECORD, False),
    ("report --mistakes", ["report", "--mistakes", "--no-progress", "{f}"], SMALL, True),
    ("convert json", ["convert", "{f}", "--to", "json"], RECORD, False),
    ("convert sjn", ["convert", "{f}", "--to", "sjn", "-o", "{o}/c.sjn"], RECORD, False),
    ("convert gjn", ["convert", "{f}", "--to", "gjn"], RECORD, False),
    ("fmt", ["fmt", "{f}"], SMALL, False),
    ("fmt --check", ["fmt", "--check", "{f}"], SMALL, True),
    ("fmt --diff", ["fmt", "--diff", "{f}"], SMALL, False),
    ("annotate", ["annotate", "--endgame", "0", "--no-progress", "{f}"], ("sjn", "json"), False),
    ("import auto", ["import", "auto", "{f}"], ("log", "sav", "sjn"), False),
    ("import FMT", ["import", "{fmt}", "{f}", "-o", "{o}/i.sjn"], ("log", "sav"), False),
    ("export game-sav", ["export", "game-sav", "{f}", "--into", "{sav}", "--force"], ("sjn", "json"), True),
    ("export --dry-run", ["export", "game-sav", "{f}", "--into", "{sav}", "--dry-run"], ("sjn",), True),
    ("export into SAV", ["export", "game-sav", "{match}", "--into", "{f}"], ("sav",), True),
    ("export parquet", ["export", "--to", "parquet", "{o}/store", "{f}", "-j", "1", "--no-progress"],
     RECORD, True),
    ("stats", ["stats", "{f}"], ("store",), True),
    ("stats -f json", ["stats", "-f", "json", "-o", "{o}/json", "{f}"], ("store",), False),
    ("stats -f csv", ["stats", "-f", "csv", "-o", "{o}/csv", "{f}"], ("store",), False),
    ("stats --sql", ["stats", "--sql", "select * from hands", "{f}"], ("store",), True),
]
# a command whose documented purpose is to change this input
REWRITES = {"export into SAV"}

# sequences taken from the input that must never reach a terminal raw
ESC_MARKERS = ["\x1b]0;PWNED", "\x1b[31mRED", "\x1b]8;;https://evil", "\x1b[2J"]
HOSTILE = [
    "\x1b]0;PWNED\x07", "\x1b[31mRED\x1b[0m", "\x1b]8;;https://evil.invalid\x1b\\x\x1b]8;;\x1b\\",
    "\x1b[2J", "[/b]", "[link=https://evil.invalid]x[/link]", "[bold red]", "\u202e", "\u2028",
    "\x00", "\r", "\x85", "\x9b31m", "\ufeff\ufeff", "\\ud800", "\\udfff", '"\\ud800"', "\ud800",
    "9" * 400, "1e999999", "-0", "NaN", "[" * 3000, "{" * 3000, "A" * 70_000, "=HYPERLINK(\"x\")",
    "@SUM(A1)", "\xff\xfe", "%s%n", "../../etc/passwd", "\t", "'", '"', "\\",
]


@dataclass
class Case:
    name: str  # the command's name
    argv: list[str]
    kind: str
    label: str  # what the input is
    data: bytes | None  # the input's bytes (None: a special input built by `special`)
    fname: str
    fmt: str = ""
    special: str = ""
    tty: bool = False
    stdin: bytes | None = None
    shows: bool = False


@dataclass
class Result:
    case: Case
    rc: int | None
    out: str
    err: str
    seconds: float
    flags: list[str] = field(default_factory=list)


def mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    n = len(data)
    op = rng.choice(["flip", "insert", "delete", "truncate", "token", "token", "token-in-string",
                     "token-line", "dup-line", "digits"])
    pos = rng.randrange(n + 1) if n else 0
    if op == "flip" and n:
        b = rng.choice([rng.randrange(256), 0x00, 0x1b, 0x80, 0xff, 0x22, 0x5b, 0x7b, 0x0a])
        return f"flip@{pos}={b:#x}", data[:pos] + bytes([b]) + data[pos + 1:]
    if op == "insert":
        b = rng.randrange(256)
        return f"insert@{pos}={b:#x}", data[:pos] + bytes([b]) + data[pos:]
    if op == "delete" and n:
        k = rng.choice([1, 1, 2, 16, 256])
        return f"delete@{pos}+{k}", data[:pos] + data[pos + k:]
    if op == "truncate":
        return f"truncate@{pos}", data[:pos]
    token = rng.choice(HOSTILE)
    raw = token.encode("utf-8", "surrogatepass")
    if op == "token-in-string":
        quotes = [i for i in range(n) if data[i] == 0x22]
        if quotes:
            pos = rng.choice(quotes) + 1
    elif op == "token-line":
        lines = [0] + [i + 1 for i in range(n) if data[i] == 0x0a]
        pos = rng.choice(lines)
    elif op == "dup-line":
        lines = data.split(b"\n")
        i = rng.randrange(len(lines))
        times = rng.choice([2, 50, 2000])
        return f"dup-line{i}x{times}", b"\n".join(lines[:i] + [lines[i]] * times + lines[i + 1:])
    elif op == "digits":
        digits = [i for i in range(n) if 0x30 <= data[i] <= 0x39]
        if digits:
            pos = rng.choice(digits)
            return f"digits@{pos}", data[:pos] + b"9" * rng.choice([20, 400, 5000]) + data[pos:]
    return f"token@{pos}={token[:12]!r}", data[:pos] + raw + data[pos:]


def sha(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "-"
    except OSError:
        return "?"


def listing(d: Path) -> set[str]:
    return {str(p.relative_to(d)) for p in d.rglob("*")} if d.is_dir() else set()


def build_input(case: Case, run: Path, seeds: dict[str, bytes]) -> tuple[Path, list[Path]]:
    """Put the case's input into run/in; return the argument and the paths to watch."""
    ind = run / "in"
    ind.mkdir()
    f = ind / case.fname
    if case.data is not None:
        if case.kind == "store":
            shutil.copytree(seeds["__store__dir"], f)
            parts = sorted(p for p in f.rglob("*") if p.is_file() and p.name != ".lock")
            parts[int.from_bytes(case.data[:4], "big")].write_bytes(case.data[4:])
            return f, []
        f.write_bytes(case.data)
        return f, [f]
    sp = case.special
    src = seeds["errors.sjn"] if case.kind != "sav" else seeds["GAME.SAV"]
    if sp == "empty":
        f.write_bytes(b"")
    elif sp in ("dir", "dir-empty"):
        f.mkdir()
        if sp == "dir":
            (f / "a.sjn").write_bytes(src)
            (f / "b.gjn").write_bytes(b"\x1b]0;PWNED\x07\n" + seeds["gouji.gjn"][:500])
        return f, [p for p in f.rglob("*")]
    elif sp == "devnull":
        return Path("/dev/null"), []
    elif sp in ("fifo", "fifo-writer"):
        os.mkfifo(f)
        if sp == "fifo-writer":
            def feed() -> None:
                try:
                    fd = os.open(f, os.O_WRONLY)  # blocks until the command opens it
                    with os.fdopen(fd, "wb") as w:
                        w.write(src)
                except OSError:
                    pass
            threading.Thread(target=feed, daemon=True).start()
        return f, []
    elif sp == "stdin":
        return Path("/dev/stdin"), []
    elif sp == "symlink":
        (ind / "target").write_bytes(src)
        f.symlink_to(ind / "target")
        return f, [ind / "target"]
    elif sp == "dangling":
        f.symlink_to(ind / "nowhere")
    elif sp == "loop":
        f.symlink_to(f)
    elif sp == "unreadable":  # (as root the file is still read: root ignores the mode)
        f.write_bytes(src)
        f.chmod(0)
    elif sp == "esc-name":
        f = ind / "x\x1b]0;PWNED\x07\n[bold red]\u202e.sjn"
        f.write_bytes(src)
    elif sp == "utf16":
        f.write_bytes(src.decode("utf-8").encode("utf-16"))
    elif sp == "random":
        f.write_bytes(random.Random(len(src)).randbytes(4096))
    elif sp == "long-line":
        f.write_bytes(b'[Event "' + b"\x1b[31mRED" * 20_000 + b'"]\n' + src)
    elif sp == "deep-json":
        f.write_bytes(b'{"a":' * 100_000 + b"1" + b"}" * 100_000)
    return f, [f] if f.exists() or f.is_symlink() else []


def run_case(i: int, case: Case, tmp: Path, seeds: dict[str, bytes], exe: list[str],
             timeout: float, native: str = "", compare: bool = False) -> Result:
    """Run ``case``; with ``compare`` run it again with the native core off and flag any
    difference (exit status, what it printed; a store's batch ids masked)."""
    template = list(case.argv)
    res = _run_once(f"run{i}", case, tmp, seeds, exe, timeout, native)
    if compare:  # in the same directory (paths and SARIF fingerprints alike), the first moved aside
        (tmp / f"run{i}").rename(tmp / f"run{i}py")
        other = Case(**{**case.__dict__, "argv": list(template)})
        py = _run_once(f"run{i}", other, tmp, seeds, exe, timeout, "0")
        a = (res.rc, _BATCH.sub("BATCH", res.out), _BATCH.sub("BATCH", res.err))
        b = (py.rc, _BATCH.sub("BATCH", py.out), _BATCH.sub("BATCH", py.err))
        if a != b and res.rc is not None and py.rc is not None:
            res.flags.append("native differs from python")
            res.err += "\n--- python (SHENGJI_NATIVE=0) ---\n" + f"rc {py.rc}\n{py.out[-4000:]}\n{py.err[-4000:]}"
    return res


_BATCH = re.compile(r"\d{8}T\d{6}-[0-9a-f]{6}")


def _run_once(rname: str, case: Case, tmp: Path, seeds: dict[str, bytes], exe: list[str],
              timeout: float, native: str) -> Result:
    run = tmp / rname
    run.mkdir()
    for sub in ("out", "home", "t"):
        (run / sub).mkdir()
    f, watched = build_input(case, run, seeds)
    sav = run / "out" / "G.SAV"
    sav.write_bytes(seeds["GAME.SAV"])
    match = run / "out" / "match.sjn"
    match.write_bytes(seeds["match.sjn"])
    subst = {"{f}": str(f), "{o}": str(run / "out"), "{sav}": str(sav), "{fmt}": case.fmt,
             "{match}": str(match)}
    argv = []
    for a in case.argv:
        for k, v in subst.items():
            a = a.replace(k, v)
        argv.append(a)
    case.argv = argv
    before = {p: sha(p) for p in watched}
    in_list = listing(run / "in")
    env = dict(os.environ, HOME=str(run / "home"), TMPDIR=str(run / "t"), COLUMNS="100",
               TERM="xterm-256color", PYTHONPATH=_pythonpath())
    env.pop("NO_COLOR", None)
    if native:
        env["SHENGJI_NATIVE"] = "1" if native != "0" else "0"
    stdin_data = case.stdin
    if case.special == "stdin" or argv[-1] == "-":
        stdin_data = case.data if case.data is not None else seeds["errors.sjn"]
    preexec = None
    if case.special == "closed-stdout":
        preexec = _close_stdout
    t0 = time.monotonic()
    out = err = ""
    rc: int | None
    master = slave = -1
    if case.tty:
        master, slave = pty.openpty()
    try:
        p = subprocess.Popen(exe + argv, cwd=run, env=env, preexec_fn=preexec,
                             stdin=subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL,
                             stdout=slave if case.tty else subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
        chunks: list[bytes] = []
        reader = None
        if case.tty:
            os.close(slave)
            reader = threading.Thread(target=_drain, args=(master, chunks), daemon=True)
            reader.start()
        try:
            o, e = p.communicate(stdin_data, timeout=5 if case.special == "fifo" else timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            o, e = p.communicate()
            rc = None
        if reader is not None:
            reader.join(5)
            o = b"".join(chunks)
        out = (o or b"").decode("utf-8", "replace")
        err = (e or b"").decode("utf-8", "replace")
    finally:
        if master >= 0:
            os.close(master)
    res = Result(case, rc, out, err, time.monotonic() - t0)
    both = out + "\n" + err
    if rc is None:
        res.flags.append("timeout")
    elif rc not in (0, 1, 2):
        res.flags.append(f"exit {rc}")
    if "Traceback (most recent call last)" in both:
        res.flags.append("traceback")
    if "SJ901" in both:
        res.flags.append("SJ901")
    terminal = err + (out if case.tty or case.shows else "")
    if any(m in terminal for m in ESC_MARKERS):
        res.flags.append("raw ESC from input")
    elif not case.tty and "\x1b" in terminal:
        res.flags.append("ESC on a pipe")
    if case.name not in REWRITES:
        changed = [p.name for p in watched if sha(p) != before[p]]
        if changed:
            res.flags.append("input changed")
    new = listing(run / "in") - in_list
    if any(not n.startswith(".shengji_cache") for n in new):
        res.flags.append("wrote next to the input: " + ", ".join(sorted(new))[:80])
    if case.special == "fifo" and res.flags == ["timeout"]:
        res.flags = []  # opening a FIFO nobody writes blocks, as in cat; the sweep's timeout ends it
        res.rc = -1
    return res


#: set by --native: the directory holding the built extension (``pip install --target DIR ./native``)
NATIVE_DIR = ""


def _pythonpath() -> str:
    return os.pathsep.join(p for p in (str(ROOT), NATIVE_DIR) if p)


def _drain(fd: int, chunks: list[bytes]) -> None:
    while True:
        try:
            b = os.read(fd, 65536)
        except OSError:
            return
        if not b:
            return
        chunks.append(b)


def _close_stdout() -> None:
    os.close(1)


SPECIALS = ["empty", "dir", "dir-empty", "devnull", "fifo", "fifo-writer", "stdin", "symlink",
            "dangling", "loop", "unreadable", "esc-name", "utf16", "random", "long-line", "deep-json",
            "closed-stdout"]


def plan(args: argparse.Namespace, seeds: dict[str, bytes],
         kinds: dict[str, tuple[str, str]]) -> list[Case]:
    rng = random.Random(args.seed)
    by_kind: dict[str, list[tuple[str, list[str], bool]]] = collections.defaultdict(list)
    for name, argv, ks, shows in COMMANDS:
        for k in ks:
            by_kind[k].append((name, argv, shows))
    cases: list[Case] = []
    turn: collections.Counter[str] = collections.Counter()
    names = [n for n in kinds if n != "__store__"] + ["__store__"] * 2
    for _ in range(args.count):
        sname = rng.choice(names)
        kind, fmt = kinds[sname]
        if kind == "store":
            parts = seeds["__store__parts"]
            which = rng.randrange(len(parts))
            base = parts[which]
            desc, data = mutate(base, rng)
            data = which.to_bytes(4, "big") + data
            label = ("manifest " if base[:1] == b"{" else "part ") + desc
        else:
            desc, data = mutate(seeds[sname], rng)
            label = f"{sname} {desc}"
        cmds = by_kind[kind]
        for _k in range(args.per_input):
            name, argv, shows = cmds[turn[kind] % len(cmds)]
            turn[kind] += 1
            cases.append(Case(name, list(argv), kind, label, data, "store" if kind == "store" else sname,
                              fmt, tty=rng.random() < args.tty, shows=shows))
    if not args.no_specials:
        for sp in SPECIALS:
            for name, argv, ks, shows in COMMANDS:
                if "sjn" not in ks or argv[-1] == "-":
                    continue
                if sp == "closed-stdout" and name not in ("lint", "report", "convert json", "fmt", "replay"):
                    continue
                fname = "deep.json" if sp == "deep-json" else "in.sjn"
                cases.append(Case(name, list(argv), "sjn", f"special:{sp}", None, fname,
                                  special=sp, shows=shows))
    return cases


def setup(tmp: Path, exe: list[str]) -> tuple[dict[str, bytes], dict[str, tuple[str, str]]]:
    seeds = {n: p.read_bytes() for n, p, _k, _f in SEEDS}
    kinds = {n: (k, f) for n, _p, k, f in SEEDS}
    env = dict(os.environ, PYTHONPATH=_pythonpath())
    for name, src, kind in CONVERTED:
        p = tmp / src
        p.write_bytes(seeds[src])
        r = subprocess.run(exe + ["convert", str(p), "--to", "json"], capture_output=True, env=env)
        seeds[name] = r.stdout
        kinds[name] = (kind, "")
    store = tmp / "seed-store"
    subprocess.run(exe + ["export", "--to", "parquet", str(store), str(SAMPLES / "matches/standard.sjn"),
                          str(SAMPLES / "matches/gouji.gjn"), "-j", "1", "--no-progress"],
                   capture_output=True, env=env, check=True)
    parts = sorted(p for p in store.rglob("*") if p.is_file() and p.name != ".lock")
    seeds["__store__dir"] = store  # type: ignore[assignment]
    seeds["__store__parts"] = [p.read_bytes() for p in parts]  # type: ignore[assignment]
    kinds["__store__"] = ("store", "")
    return seeds, kinds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=60, help="mutated inputs (default 60)")
    ap.add_argument("--per-input", type=int, default=3, help="commands per mutated input")
    ap.add_argument("--tty", type=float, default=0.25, help="share of runs on a pseudo-terminal")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    ap.add_argument("--jobs", "-j", type=int, default=1)
    ap.add_argument("--no-specials", action="store_true", help="skip the special inputs")
    ap.add_argument("--only", default="", help="only commands whose name contains this")
    ap.add_argument("--out", type=Path, default=Path("hostile-sweep-out"))
    ap.add_argument("--native", default="", metavar="DIR",
                    help="run with the native core (SHENGJI_NATIVE=1), the extension built into DIR")
    ap.add_argument("--compare", action="store_true",
                    help="with --native: run each case again in Python and flag any difference")
    args = ap.parse_args()
    global NATIVE_DIR
    NATIVE_DIR = os.path.abspath(args.native) if args.native else ""
    exe = [sys.executable, "-m", "analyzer"]
    if args.native:
        probe = subprocess.run(exe + ["--version"], capture_output=True, text=True,
                               env=dict(os.environ, PYTHONPATH=_pythonpath(), SHENGJI_NATIVE="1"))
        if probe.returncode != 0 or "native (" not in probe.stdout:
            raise SystemExit(f"--native {args.native}: the extension does not load: {probe.stdout}{probe.stderr}")
        print(probe.stdout.strip(), file=sys.stderr)
    git_before = _git_status()
    with tempfile.TemporaryDirectory(prefix="hostile-sweep-") as t:
        tmp = Path(t)
        seeds, kinds = setup(tmp, exe)
        cases = [c for c in plan(args, seeds, kinds) if args.only in c.name]
        print(f"{len(cases)} runs, {args.jobs} at a time", file=sys.stderr)
        results: list[Result] = []
        t0 = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            native = "1" if args.native else ""
            futs = {pool.submit(run_case, i, c, tmp, seeds, exe, args.timeout, native,
                                args.compare and bool(args.native)): i
                    for i, c in enumerate(cases)}
            for k, fu in enumerate(concurrent.futures.as_completed(futs), 1):
                try:
                    r = fu.result()
                except Exception as exc:  # the sweep's own fault: say so, and go on
                    c = cases[futs[fu]]
                    r = Result(c, None, "", repr(exc), 0.0, [f"sweep error: {exc!r}"[:120]])
                results.append(r)
                if r.flags:
                    print(f"FLAG {r.case.name} [{r.case.label}]: {', '.join(r.flags)}", file=sys.stderr)
                if k % 50 == 0:
                    print(f"... {k}/{len(cases)} in {time.monotonic() - t0:.0f} s", file=sys.stderr)
                shutil.rmtree(tmp / f"run{futs[fu]}", ignore_errors=True)
                shutil.rmtree(tmp / f"run{futs[fu]}py", ignore_errors=True)
        wall = time.monotonic() - t0
    if _git_status() != git_before:
        print("FLAG new files in the project's checkout during the sweep", file=sys.stderr)
    return report(results, args, wall)


def _git_status() -> str:
    """The files in the project's checkout that git does not know (a run writing into it)."""
    out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                         capture_output=True, text=True).stdout
    return "\n".join(line for line in out.splitlines() if line.startswith("??"))


def report(results: list[Result], args: argparse.Namespace, wall: float) -> int:
    table: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for r in results:
        c = table[r.case.name]
        c["runs"] += 1
        c[f"rc{r.rc}" if r.rc in (0, 1, 2) else "other"] += 1
        c["flagged"] += bool(r.flags)
        c["seconds"] += round(r.seconds)
    print(f"{'command':<20} {'runs':>5} {'rc0':>5} {'rc1':>5} {'rc2':>5} {'other':>5} {'flag':>5} {'s':>6}")
    for name in sorted(table):
        c = table[name]
        print(f"{name:<20} {c['runs']:>5} {c['rc0']:>5} {c['rc1']:>5} {c['rc2']:>5} {c['other']:>5} "
              f"{c['flagged']:>5} {c['seconds']:>6}")
    flagged = [r for r in results if r.flags]
    print(f"total {len(results)} runs in {wall:.0f} s; {len(flagged)} flagged")
    args.out.mkdir(parents=True, exist_ok=True)
    for i, r in enumerate(flagged):
        d = args.out / f"case{i:04d}"
        d.mkdir(exist_ok=True)
        if r.case.data is not None:
            (d / ("input-" + (r.case.fname if r.case.kind != "store" else "store.bin"))).write_bytes(
                r.case.data)
        (d / "case.json").write_text(json.dumps({
            "command": r.case.name, "argv": r.case.argv, "shell": shlex.join(r.case.argv),
            "input": r.case.label, "special": r.case.special, "tty": r.case.tty, "rc": r.rc,
            "flags": r.flags}, indent=1, ensure_ascii=True))
        (d / "stdout").write_text(r.out[-20000:], errors="replace")
        (d / "stderr").write_text(r.err[-20000:], errors="replace")
        print(f"  {d.name}: {r.case.name} [{r.case.label}] -> {', '.join(r.flags)}")
    (args.out / "summary.json").write_text(json.dumps(
        {"runs": len(results), "flagged": len(flagged), "seconds": round(wall),
         "table": {k: dict(v) for k, v in table.items()}}, indent=1))
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
