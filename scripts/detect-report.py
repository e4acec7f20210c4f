#!/usr/bin/env python3
"""Merges the detection-accuracy results into markdown tables (issue #13, part 4).

Inputs (target/detect-eval/, written by the runners):
  results-rust.tsv, results-python*.tsv   detector, sample id, guess, 1/0
  speed-rust.tsv, speed-python*.tsv       detector, input, bytes, seconds, MB/s
  peers-python*.tsv                       detector, version
and detect-eval/samples.tsv (the samples' labels: language, family, encoding, length
bucket, html flag). Prints the tables (accuracy per length bucket without and with HTML,
per encoding family, per encoding, throughput) and writes them to
target/detect-eval/report.md. Only what the result files contain is reported; a detector
that was not run has no column.

Usage: python3 scripts/detect-report.py [--dir detect-eval] [--results target/detect-eval]
(plain Python 3, no packages needed).
"""

import argparse
import collections
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
ORDER = ["textcodec", "chardetng", "uchardet", "icu", "chardet", "charset_normalizer"]
MAC = {"macintosh", "x-mac-cyrillic"}
FAMILIES = ["Western", "Central European", "Cyrillic", "Greek", "Turkish", "Hebrew", "Arabic",
            "Baltic", "Vietnamese", "Thai", "Japanese", "Simplified Chinese",
            "Traditional Chinese", "Korean", "UTF-8"]


def read_tsv(path):
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            yield dict(zip(header, line.rstrip("\n").split("\t")))


def labels(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        n = header.index("hex")
        for line in f:
            fields = line.split("\t", n)[:n]
            r = dict(zip(header, fields))
            out[r["id"]] = r
    return out


def pct(right, total):
    return f"{100 * right / total:.1f}" if total else "—"


def table(head, rows):
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join(["---"] + ["--:"] * (len(head) - 1)) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default=str(ROOT / "detect-eval"))
    ap.add_argument("--results", default=str(ROOT / "target" / "detect-eval"))
    args = ap.parse_args()
    res_dir = pathlib.Path(args.results)
    lab = labels(pathlib.Path(args.dir) / "samples.tsv")

    ok = collections.defaultdict(dict)       # detector -> id -> 0/1
    guesses = collections.defaultdict(dict)  # detector -> id -> guess
    for p in sorted(res_dir.glob("results-*.tsv")):
        for r in read_tsv(p):
            ok[r["detector"]][r["id"]] = int(r["correct"])
            guesses[r["detector"]][r["id"]] = r["guess"]
    speed = collections.defaultdict(dict)
    for p in sorted(res_dir.glob("speed-*.tsv")):
        for r in read_tsv(p):
            speed[r["detector"]][r["input"]] = float(r["mbps"])
    versions = {}
    for p in sorted(res_dir.glob("peers-*.tsv")):
        for r in read_tsv(p):
            versions[r["detector"]] = r["version"]
    dets = [d for d in ORDER if d in ok] + sorted(d for d in ok if d not in ORDER)

    def acc(pred):
        cols = []
        for d in dets:
            ids = [i for i in ok[d] if pred(lab[i])]
            cols.append(pct(sum(ok[d][i] for i in ids), len(ids)))
        return cols

    def count(pred):
        return sum(1 for r in lab.values() if pred(r))

    out = []
    buckets = sorted({int(r["bucket"]) for r in lab.values()})
    for flag, title in (("0", "bare text"), ("1", "inside an HTML page (no meta charset)")):
        out.append(f"Accuracy (% right) per length in characters, {title}:\n")
        rows = [[str(b), str(count(lambda r, b=b: r["bucket"] == str(b) and r["html"] == flag))]
                + acc(lambda r, b=b: r["bucket"] == str(b) and r["html"] == flag)
                for b in buckets]
        rows.append(["all", str(count(lambda r: r["html"] == flag))]
                    + acc(lambda r: r["html"] == flag))
        out.append(table(["length", "samples"] + dets, rows) + "\n")

    fams = [f for f in FAMILIES if any(r["family"] == f for r in lab.values())]
    for short, title in ((False, "all lengths"), (True, "8–32 characters")):
        pred0 = (lambda r: int(r["bucket"]) <= 32) if short else (lambda r: True)
        out.append(f"Accuracy (% right) per encoding family, {title}, text and HTML:\n")
        rows = [[f, str(count(lambda r, f=f: r["family"] == f and pred0(r)))]
                + acc(lambda r, f=f: r["family"] == f and pred0(r)) for f in fams]
        rows.append(["all", str(count(pred0))] + acc(pred0))
        nomac = lambda r, pred0=pred0: pred0(r) and r["encoding"] not in MAC
        rows.append(["all but macintosh, x-mac-cyrillic", str(count(nomac))] + acc(nomac))
        out.append(table(["family", "samples"] + dets, rows) + "\n")

    encs = sorted({(FAMILIES.index(r["family"]), r["encoding"]) for r in lab.values()})
    out.append("Accuracy (% right) per encoding, all lengths, text and HTML:\n")
    rows = [[e, str(count(lambda r, e=e: r["encoding"] == e))]
            + acc(lambda r, e=e: r["encoding"] == e) for _, e in encs]
    out.append(table(["encoding", "samples"] + dets, rows) + "\n")

    out.append("Accuracy (% right) per source of the text, all lengths, text and HTML:\n")
    srcs = sorted({r["source"] for r in lab.values()})
    rows = [[x, str(count(lambda r, x=x: r["source"] == x))]
            + acc(lambda r, x=x: r["source"] == x) for x in srcs]
    out.append(table(["source", "samples"] + dets, rows) + "\n")

    out.append("Most frequent wrong guesses per detector (guess: count, over all samples):\n")
    rows = []
    for d in dets:
        c = collections.Counter(guesses[d][i] for i in ok[d] if not ok[d][i])
        rows.append([d, ", ".join(f"{g} {n}" for g, n in c.most_common(6))])
    out.append("| detector | wrong guesses |\n|---|---|\n"
               + "\n".join(f"| {a} | {b} |" for a, b in rows) + "\n")

    inputs = ["all samples"] + sorted({i for d in speed for i in speed[d] if i != "all samples"})
    out.append("Throughput (MB/s of input, one thread, detector calls only):\n")
    rows = [[d] + [f"{speed[d][i]:.1f}" if i in speed[d] else "—" for i in inputs]
            for d in dets if d in speed]
    out.append(table(["detector"] + [i.replace("large.", "") for i in inputs], rows) + "\n")
    if versions:
        out.append("Python peers: " + "; ".join(f"{d} = {v}" for d, v in versions.items()) + "\n")
    text = "\n".join(out)
    print(text)
    (res_dir / "report.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
