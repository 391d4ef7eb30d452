"""Parse benchmark: how many full two-deck hands per second the SJN reader
turns into the record model. Prints figures, asserts nothing.

Each hand is random but well formed (not legal play): 25 cards per seat, an
8-card kitty, a declaration, a bury, 25 tricks of 4 plays, points. Hands are
written with the canonical writer, one record per hand with a few tags.
Figures per backend: streaming with ``notation.iter_records`` (each record
dropped once read, as the linter does with a big file); ``notation.parse``
keeping every record (which adds the cost of a growing heap for Python's
garbage collector); streaming the same hands annotated with a ``{ … }``
commentary every fifth trick; and streaming with the reader's shortcut turned
off, so that Lark parses every chunk, as it does a chunk with a commentary
running over several lines or a syntax error (the figure the backend
changes). All include everything a caller pays for: cutting into records,
lexing and parsing, building the pydantic models.

    python bench/bench_parse.py [--hands 500] [--repeat 5] [--seed 1]

Both Lark backends are timed when lark-cython is installed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from notation import (
    iter_records,
    parse,
    reader,
    write,
)
from notation.model import Bury, Declaration, Hand, Levels, Play, Record, SeatCards, Tag, Trick
from primitives.cards import deck_list
from replay.seats import SEATS


def random_hand(rng: random.Random, number: int, annotated: bool = False) -> Hand:
    deck = deck_list(2)
    rng.shuffle(deck)
    hands = {seat: deck[i * 25:(i + 1) * 25] for i, seat in enumerate(SEATS)}
    kitty = deck[100:]
    dealer = rng.choice(SEATS)
    held = {seat: list(cards) for seat, cards in hands.items()}
    held[dealer] += kitty
    rng.shuffle(held[dealer])
    buried, held[dealer] = held[dealer][:8], held[dealer][8:]
    tricks = []
    leader = SEATS.index(dealer)
    for t in range(25):
        plays = []
        for k in range(4):
            seat = SEATS[(leader + k) % 4]
            plays.append(Play(seat=seat, cards=(held[seat].pop(),)))
        comments = [f"trick {t + 1}: a note"] if annotated and t % 5 == 4 else []
        tricks.append(Trick(number=t + 1, plays=plays, comments=comments))
        leader = rng.randrange(4)
    declarer = rng.choice(SEATS)
    return Hand(
        number=number,
        levels=Levels(ns=rng.randint(2, 14), ew=rng.randint(2, 14)),
        dealer=dealer,
        deal=[SeatCards(seat=seat, cards=tuple(sorted(cards))) for seat, cards in hands.items()],
        kitty=tuple(sorted(kitty)),
        events=[Declaration(seat=declarer, cards=(hands[declarer][0],), at=rng.randint(1, 25)),
                Bury(seat=dealer, cards=tuple(sorted(buried)))],
        tricks=tricks,
        points=rng.randrange(0, 200, 5),
    )


def make_text(n: int, seed: int, annotated: bool = False) -> str:
    rng = random.Random(seed)
    records = [Record(tags=[Tag(name="Event", value="bench"), Tag(name="Rules", value="standard")],
                      hands=[random_hand(rng, i + 1, annotated)]) for i in range(n)]
    return write(records)


def best_rate(run, n: int, repeat: int) -> float:
    """Hands per second of CPU time (process time: other load on the machine
    does not count), best of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return n / best


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    n = args.hands
    text = make_text(n, args.seed)
    annotated = make_text(n, args.seed, annotated=True)
    for t in (text, annotated):
        records, diags = parse(t)
        if diags or len(records) != n:  # a sanity check of the generated text
            print(f"unexpected: {len(records)} records, {len(diags)} diagnostics: {diags[:3]}")
    del records  # a big live heap would slow the garbage collector in the runs below
    print(f"{n} two-deck hands, {len(text) / n:.0f} characters per hand, "
          f"CPU time, best of {args.repeat} runs")

    def streaming():
        for _ in iter_records(text):
            pass

    def keep_all():
        parse(text)

    def streaming_annotated():
        for _ in iter_records(annotated):
            pass

    def streaming_by_lark():
        reader.QUICK_LINES = False
        try:
            streaming()
        finally:
            reader.QUICK_LINES = True

    for backend in ("lark", "lark-cython"):
        used = reader.use_backend(backend)
        if used != backend:
            print(f"  {backend:12s}: not installed")
            continue
        parse(text[:2000])  # warm up (grammar build, caches)
        stream = best_rate(streaming, n, args.repeat)
        kept = best_rate(keep_all, n, args.repeat)
        noted = best_rate(streaming_annotated, n, args.repeat)
        by_lark = best_rate(streaming_by_lark, n, args.repeat)
        print(f"  {backend:12s}: {stream:5.0f} hands/s streaming ({1e3 / stream:.2f} ms/hand), "
              f"{kept:5.0f} keeping every record, {noted:5.0f} annotated, {by_lark:5.0f} all by Lark")
    reader.use_backend("lark-cython")
    print(f"target: 2000 hands/s; the reader uses {reader.BACKEND} by default here")


if __name__ == "__main__":
    main()
