"""Instructions per hand of a command line run, counted by valgrind (callgrind).

    python bench/instructions.py                       # lint --jobs 1 on the 2,000-record corpus
    python bench/instructions.py --hands 200           # a smaller corpus, for a quick look
    python bench/instructions.py -- report --format json FILE

Times on a shared, busy machine move by several per cent from run to run;
instruction counts do not (with ``PYTHONHASHSEED=0``, the same tree gives the
same count to within ~0.1 %). This counts what ``bench/run.py`` times as
*start excluded*: the command run on the corpus after a warm-up run on a
one-hand file, in one process. It runs two processes under callgrind, both
warmed up on the one-hand file, then one runs the command on the one-hand file
again and the other on the corpus; it prints the difference per hand (the
command's fixed cost per run cancels out). It needs valgrind; it asserts nothing (the targets live in
docs/performance.md).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import site
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.run import _CHILD, OUT, child_env, corpus_file, measure  # noqa: E402


def count(args: list[str], warm: Path, real: Path | None) -> int:
    """Instructions of one child process (the bench's child: a warm-up run on
    ``warm``, then a run on ``real``, or on ``warm`` again when None)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = child_env()
        env["PYTHONHASHSEED"] = "0"
        # valgrind runs the base interpreter (the venv's python is a symlink to it), which
        # does not see the venv: its site-packages go on the path, after the child's own
        env["PYTHONPATH"] = os.pathsep.join(p for p in (env.get("PYTHONPATH", ""), *site.getsitepackages()) if p)
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
               os.path.realpath(sys.executable), "-c", _CHILD, str(warm), str(real or warm), *args]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True)
        m = re.search(r"Collected : (\d+)", done.stderr)
        if m is None:
            sys.exit(f"valgrind gave no count:\n{done.stderr[-2000:]}")
        return int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=2000, help="records of the corpus (default 2000)")
    ap.add_argument("--corpus", choices=("standard", "realistic"), default="standard",
                    help="standard (default: one standard hand a record, the figures of docs/performance.md's "
                         "sessions 5-7) or realistic (bench/corpus.py: whole matches of every preset; Shengji only)")
    ap.add_argument("command", nargs="*", help="the command's arguments, FILE for the file "
                                               "(default: lint --jobs 1 FILE)")
    ns = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed")
    args = ns.command or ["lint", "--no-cache", "--jobs", "1", "FILE"]
    if ns.corpus == "realistic":
        from bench.corpus import realistic_corpus
        path = realistic_corpus(ns.hands)[0]
    else:
        path = corpus_file(ns.hands)
    warm = corpus_file(1)
    hands, turns = measure(path.read_text(encoding="utf-8"))
    OUT.mkdir(parents=True, exist_ok=True)
    # one plain run first, so that both counted processes find every module's
    # bytecode compiled (else the compiling lands on one side or the other)
    subprocess.run([sys.executable, "-c", _CHILD, str(warm), str(warm), *args], env=child_env(),
                   capture_output=True, check=False)
    with ThreadPoolExecutor(2) as pool:
        base = pool.submit(count, args, warm, None)
        full = pool.submit(count, args, warm, path)
        b, f = base.result(), full.result()
    turns_a_hand = turns / hands
    hands -= 1  # (the base process ran one hand)
    per_hand = (f - b) / hands
    print(f"shengji {' '.join(args)}: {hands} hands, {turns_a_hand:.1f} turns a hand")
    print(f"  {per_hand / 1e6:.3f}M instructions a hand, {per_hand / turns_a_hand / 1e3:.1f}k a turn "
          f"(warm-up process {b / 1e9:.2f}G, with the run {f / 1e9:.2f}G)")


if __name__ == "__main__":
    main()
