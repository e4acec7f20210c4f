#!/usr/bin/env python3
"""Speed of `textcodec.chardet.detect` against chardet's `detect`, per file (issue #31).

Files: for each (language, legacy encoding) cell of the detection evaluation
(`detect-eval/samples.tsv` of `scripts/make-detect-eval.py`: held-out text), the cell's
bare samples joined by newlines, repeated to fill 1 KB, 10 KB and 100 KB (cut at the
size; legacy encodings and UTF-8). Each detector gets every file; the time per
file is the process CPU time of `--rounds` passes over all files of one size (the best
pass: the machine is shared), divided by the number of files. Both calls return the
encoding, the confidence and the language.

Usage (the venv of scripts/detect-eval.sh, with the project's package built from this
checkout: `pip install ./bindings/python`, and chardet 7.7.0):

    .venv-eval/bin/python scripts/bench-chardet-compat.py [--rounds N]
"""

import argparse
import time
from collections import defaultdict
from pathlib import Path

import chardet
import textcodec.chardet

SIZES = (1_000, 10_000, 100_000)


def files(samples: Path) -> dict[int, list[bytes]]:
    cells: dict[tuple[str, str], list[bytes]] = defaultdict(list)
    with samples.open() as f:
        header = f.readline().rstrip("\n").split("\t")
        col = {name: i for i, name in enumerate(header)}
        for line in f:
            row = line.rstrip("\n").split("\t")
            encoding = row[col["encoding"]]
            if row[col["html"]] != "0" or encoding.startswith("UTF-16"):
                continue
            cells[(row[col["lang"]], encoding)].append(bytes.fromhex(row[col["hex"]]))
    out: dict[int, list[bytes]] = {size: [] for size in SIZES}
    for key in sorted(cells):
        text = b"\n".join(cells[key])
        for size in SIZES:
            out[size].append((text * (size // len(text) + 1))[:size])
    return out


def per_file(detect, data: list[bytes], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for d in data:
            result = detect(d)
            assert "confidence" in result and "language" in result
        best = min(best, time.process_time() - start)
    return best / len(data)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", default="detect-eval/samples.tsv")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    by_size = files(Path(args.samples))
    print(f"chardet {chardet.__version__}; {len(by_size[SIZES[0]])} files per size")
    print("| size | files | textcodec.chardet (ms/file) | chardet (ms/file) | ratio |")
    print("|---|--:|--:|--:|--:|")
    totals = [0.0, 0.0]
    for size in SIZES:
        data = by_size[size]
        ours = per_file(textcodec.chardet.detect, data, args.rounds)
        theirs = per_file(chardet.detect, data, args.rounds)
        totals[0] += ours * len(data)
        totals[1] += theirs * len(data)
        print(f"| {size // 1000} KB | {len(data)} | {ours * 1e3:.3f} | {theirs * 1e3:.3f} "
              f"| {theirs / ours:.1f}× |")
    print(f"| all | {3 * len(by_size[SIZES[0]])} | | | {totals[1] / totals[0]:.1f}× |")


if __name__ == "__main__":
    main()
