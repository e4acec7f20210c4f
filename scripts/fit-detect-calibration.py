#!/usr/bin/env python3
"""Fits the detector's confidence calibration, and measures it.

  fit     python3 scripts/fit-detect-calibration.py fit DETAILS
          writes crates/textcodec/src/detect/generated/calibration.rs from the details of
          the detector on the CALIBRATION samples (scripts/make-detect-calibration.py;
          then `cargo bench -p textcodec-bench --bench detect_accuracy --features
          textcodec-detect -- --samples detect-calibration/samples.tsv --out
          target/detect-eval/calibration --details-only`: DETAILS is its
          details-textcodec.tsv).
  report  python3 scripts/fit-detect-calibration.py report DETAILS [SAMPLES]
          the reliability table and expected calibration error of the confidences in
          DETAILS (the EVALUATION samples' details: held out from the fit), per bucket of
          confidence, overall and per length.
  plot    python scripts/fit-detect-calibration.py plot DETAILS OUT.png
          the reliability diagram of DETAILS as a PNG (needs matplotlib).

The fit. Each guess that is text (not ASCII only, not binary) has a margin m (points)
over the best candidate that decodes the input differently, and a class: the winner is
UTF-8, a single-byte Latin encoding, a single-byte encoding of another script, a CJK
multi-byte encoding, or UTF-16. Per class, the fraction right as a function of m is
fitted by isotonic regression (pool adjacent violators: non-decreasing in m), its blocks
merged to at least MIN_BLOCK samples, each block's rate smoothed as (right + 1) / (n + 2)
and capped at CAP (0.999),
and written as (mean margin of the block, rate) knots, which the library interpolates
linearly. A class with fewer than MIN_CLASS samples uses the pooled fit of all classes.
Guesses with no runner-up (`margin` = NO_RUNNER_UP) get their class's smoothed rate
(ALONE; the rate of the class's largest margins when fewer than MIN_BLOCK were seen). The runners-up share the rest by `exp(score / SPREAD)`, where SPREAD (points per
nat) is 1 / slope of a logistic fit of right ~ margin over all classes.
"""

import collections
import math
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "crates/textcodec/src/detect/generated/calibration.rs"
NO_RUNNER_UP = 1.0e6
MIN_BLOCK = 40
MIN_CLASS = 200
# No confidence above this: the calibration text cannot speak for rarer failures.
CAP = 0.999
CLASSES = ["UTF-8", "single-byte Latin", "single-byte other script", "CJK multi-byte",
           "UTF-16"]
LATIN = {"windows-1252", "windows-1250", "windows-1254", "windows-1257", "windows-1258",
         "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-10", "ISO-8859-13",
         "ISO-8859-14", "ISO-8859-15", "ISO-8859-16", "macintosh"}
CJK = {"GBK", "gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR"}


def klass(encoding):
    if encoding == "UTF-8":
        return 0
    if encoding in ("UTF-16LE", "UTF-16BE"):
        return 4
    if encoding in CJK:
        return 3
    return 1 if encoding in LATIN else 2


def read(path):
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            yield dict(zip(header, line.rstrip("\n").split("\t")))


def pav(points):
    """Isotonic (non-decreasing) fit of [(x, y)] sorted by x: blocks [sum_x, sum_y, n]."""
    blocks = []
    for x, y in points:
        blocks.append([x, y, 1])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] > blocks[-1][1] / blocks[-1][2]:
            x2, y2, n2 = blocks.pop()
            blocks[-1][0] += x2
            blocks[-1][1] += y2
            blocks[-1][2] += n2
    return blocks


def knots(points):
    points = sorted(points)
    blocks = pav(points)
    # Pool adjacent blocks of equal rate too (PAV pools only violators).
    pooled = []
    for blk in blocks:
        if pooled and pooled[-1][1] * blk[2] == blk[1] * pooled[-1][2]:
            pooled[-1] = [pooled[-1][i] + blk[i] for i in range(3)]
        else:
            pooled.append(list(blk))
    blocks = pooled
    # Merge small blocks into their neighbour (keeps monotonicity: merging adjacent
    # blocks of a non-decreasing sequence stays non-decreasing).
    merged = []
    for b in blocks:
        if merged and merged[-1][2] < MIN_BLOCK:
            merged[-1] = [merged[-1][i] + b[i] for i in range(3)]
        else:
            merged.append(list(b))
    if len(merged) > 1 and merged[-1][2] < MIN_BLOCK:
        last = merged.pop()
        merged[-1] = [merged[-1][i] + last[i] for i in range(3)]
    out = []
    for sx, sy, n in merged:
        rate = min((sy + 1) / (n + 2), CAP)
        if out and rate < out[-1][1]:
            rate = out[-1][1]
        out.append((sx / n, rate))
    return out


def logistic_slope(points):
    """Slope a of P(right) = sigmoid(a m + b), by Newton's method."""
    a, b = 0.1, 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for m, y in points:
            m = min(m, 200.0)
            p = 1 / (1 + math.exp(-(a * m + b)))
            ga += (y - p) * m
            gb += y - p
            w = p * (1 - p)
            haa += w * m * m
            hab += w * m
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        a += (hbb * ga - hab * gb) / det
        b += (haa * gb - hab * ga) / det
    return a, b


def fit(details):
    points = collections.defaultdict(list)
    alone = collections.defaultdict(lambda: [0, 0])
    for r in read(details):
        # ASCII only (the hints' default, confidence 1) and binary (0) are not fitted;
        # ISO-2022-JP text is all ASCII bytes but a real guess.
        if r["binary"] != "-" or (r["ascii_only"] == "1" and r["guess"] != "ISO-2022-JP"):
            continue
        k = klass(r["guess"])
        y = int(r["correct"])
        m = float(r["margin"])
        if m >= NO_RUNNER_UP:
            alone[k][0] += y
            alone[k][1] += 1
        else:
            points[k].append((m, y))
    pooled = [p for k in points for p in points[k]]
    pooled_alone = [sum(alone[k][0] for k in alone), sum(alone[k][1] for k in alone)]
    lines = []
    fitted = []
    for k, name in enumerate(CLASSES):
        pts = points[k] if len(points[k]) >= MIN_CLASS else pooled
        ks = knots(pts)
        fitted.append(ks)
        n = len(points[k])
        src = f"{n} samples" if n >= MIN_CLASS else f"{n} samples: pooled fit"
        body = ", ".join(f"({f32_literal(x, 3)}, {f32_literal(y, 4)})" for x, y in ks)
        lines.append(f"    // {name} ({src})\n    &[{body}],")
    alone_rates = []
    for k in range(len(CLASSES)):
        right, n = alone[k] if alone[k][1] >= MIN_BLOCK else pooled_alone
        # Never seen: as sure as the class's largest margins.
        alone_rates.append((right + 1) / (n + 2) if n >= MIN_BLOCK else fitted[k][-1][1])
    a, b = logistic_slope(pooled)
    spread = 1 / a if a > 0 else 4.0
    text = (
        "// @generated by `scripts/fit-detect-calibration.py fit` from the calibration samples\n"
        "// of scripts/make-detect-calibration.py (detect-calibration/). DO NOT EDIT.\n"
        "//! The detector's confidence calibration (see `confidence.rs`).\n\n"
        "/// Per class of winner (UTF-8, single-byte Latin, single-byte other scripts, CJK\n"
        "/// multi-byte, UTF-16): (margin in points, fraction right) knots, margins ascending.\n"
        f"pub(crate) static KNOTS: [&[(f32, f32)]; {len(CLASSES)}] = [\n"
        + "\n".join(lines) + "\n];\n\n"
        "/// Confidence with no surviving runner-up, per class.\n"
        f"pub(crate) static ALONE: [f32; {len(CLASSES)}] = ["
        + ", ".join(f32_literal(r, 4) for r in alone_rates) + "];\n\n"
        "/// Points of score per nat of odds among the runners-up.\n"
        f"pub(crate) const SPREAD: f32 = {f32_literal(spread, 3)};\n"
    )
    OUT.write_text(text)
    print(f"wrote {OUT}: " + "; ".join(
        f"{CLASSES[k]} {len(points[k])}+{alone[k][1]} alone" for k in range(len(CLASSES)))
        + f"; SPREAD {spread:.3f} (logistic a={a:.4f}, b={b:.4f})")


def f32_literal(x, decimals):
    """`x` rounded to `decimals` places, written with the fewest digits that give the same
    `f32` (clippy's `excessive_precision` rejects a literal with more)."""
    import struct

    def as_f32(v):
        return struct.unpack("<f", struct.pack("<f", v))[0]

    want = as_f32(round(x, decimals))
    for digits in range(1, 10):
        text = f"{want:.{digits}g}"
        if as_f32(float(text)) == want:
            break
    if "e" in text:
        text = f"{float(text):.{decimals}f}"
    return text if "." in text else text + ".0"


def report(details, samples=None):
    meta = {}
    if samples:
        for r in read(samples):
            meta[r["id"]] = (r["bucket"], r["family"])
    rows = [r for r in read(details)]
    bins = [[0, 0.0, 0] for _ in range(10)]
    per_bucket = collections.defaultdict(lambda: [0, 0.0, 0])
    for r in rows:
        c = float(r["confidence"])
        y = int(r["correct"])
        i = min(int(c * 10), 9)
        bins[i][0] += 1
        bins[i][1] += c
        bins[i][2] += y
        if r["id"] in meta:
            b = per_bucket[meta[r["id"]][0]]
            b[0] += 1
            b[1] += c
            b[2] += y
    n = len(rows)
    ece = sum(abs(b[1] - b[2]) for b in bins) / n
    print(f"{n} guesses, {sum(b[2] for b in bins)} right; expected calibration error "
          f"(10 equal-width bins) {ece:.4f}\n")
    print("| confidence | guesses | mean confidence | fraction right |")
    print("|---|--:|--:|--:|")
    for i, (k, sc, sy) in enumerate(bins):
        if k:
            print(f"| {i / 10:.1f}–{(i + 1) / 10:.1f} | {k} | {sc / k:.3f} | {sy / k:.3f} |")
    if per_bucket:
        print("\n| length | guesses | mean confidence | fraction right |")
        print("|---|--:|--:|--:|")
        for b in sorted(per_bucket, key=lambda x: int(x) if x.isdigit() else 10**9):
            k, sc, sy = per_bucket[b]
            print(f"| {b} | {k} | {sc / k:.3f} | {sy / k:.3f} |")


def plot(details, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bins = [[0, 0.0, 0] for _ in range(10)]
    for r in read(details):
        c = float(r["confidence"])
        i = min(int(c * 10), 9)
        bins[i][0] += 1
        bins[i][1] += c
        bins[i][2] += int(r["correct"])
    n = sum(b[0] for b in bins)
    ece = sum(abs(b[1] - b[2]) for b in bins) / n
    xs = [b[1] / b[0] for b in bins if b[0]]
    ys = [b[2] / b[0] for b in bins if b[0]]
    ks = [b[0] for b in bins if b[0]]
    fig, ax = plt.subplots(figsize=(5, 5), dpi=100)
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="perfect calibration")
    ax.plot(xs, ys, marker="o", color="tab:blue", label="textcodec::detect")
    for x, y, k in zip(xs, ys, ks):
        ax.annotate(f"{k}", (x, y), textcoords="offset points", xytext=(4, -10), fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("mean confidence (10 equal-width bins; labels: guesses)")
    ax.set_ylabel("fraction of guesses right")
    ax.set_title(f"Reliability on {n:,} held-out samples (ECE {ece:.3f})", fontsize=10)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(out)
    print(f"wrote {out}")


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "plot":
        plot(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 3 and sys.argv[1] == "fit":
        fit(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "report":
        report(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
