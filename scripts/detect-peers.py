#!/usr/bin/env python3
"""Runs the Python encoding detectors on the detection-accuracy samples (issue #13, part 4).

Peers (each skipped with a message if it does not import):
  chardet             chardet.detect(data)["encoding"]
  charset_normalizer  charset_normalizer.from_bytes(data).best().encoding
  uchardet            cchardet.detect(data)["encoding"]   (faust-cchardet: uchardet in C)
  icu                 icu.CharsetDetector(data).detect().getName()   (PyICU / pyicu-binary)
All are called with their defaults (no hints, no HTML filtering), one sample at a time.

Scoring is the Rust runner's (benches/benches/detect_accuracy.rs): a guess is right when decoding
the sample with it gives exactly the text that decoding with the true encoding gives, both
with the WHATWG decoders of the project's own package (`textcodec.decode(data, label,
bom="keep")`). A peer's name is turned into a WHATWG encoding by, in order:
  1. the name itself as a WHATWG label (`textcodec.lookup`), e.g. "Windows-1251",
     "SHIFT_JIS", "ISO-8859-8-I", "TIS-620", "cp1251", "gb2312";
  2. the name without "-", "_" and spaces compared with the WHATWG labels without them
     (Python codec names: "euc_jp", "iso8859_2", "iso2022_jp", "utf_16_be", "koi8_r");
  3. ALIASES below: Python's and uchardet's names for the encodings whose WHATWG decoder
     is a superset of theirs (cp932 -> Shift_JIS, cp949/UHC -> EUC-KR, big5hkscs -> Big5,
     mac_cyrillic -> x-mac-cyrillic, mac_roman -> macintosh, latin_1 -> windows-1252,
     cp874 -> windows-874, ...). Browsers decode these names' text with those decoders.
A name that maps to none (e.g. "IBM855", "MacCentralEurope", "johab", "VISCII") is decoded
with Python's codec of that name instead, and counts as right only if that gives exactly
the true text. No guess (None) is wrong.

Writes target/detect-eval/results-python.tsv (detector, id, guess, 1/0) and
target/detect-eval/speed-python.tsv (detector, input, bytes, seconds, MB/s: the
detector calls only, thread CPU time, one pass). Versions go to target/detect-eval/
peers-python.tsv. scripts/detect-report.py merges these with the Rust runner's files.

Usage (the venv of scripts/make-detect-eval.py, plus the peers):
  pip install chardet charset_normalizer faust-cchardet pyicu-binary
  python scripts/detect-peers.py [--only chardet,uchardet] [--dir detect-eval] [--limit N]
"""

import argparse
import codecs
import pathlib
import sys
import time

import textcodec

ROOT = pathlib.Path(__file__).resolve().parent.parent

ALIASES = {
    "ascii": "windows-1252", "us-ascii": "windows-1252", "latin_1": "windows-1252",
    "latin-1": "windows-1252", "iso-8859-1": "windows-1252",
    "cp932": "Shift_JIS", "ms932": "Shift_JIS", "windows-31j": "Shift_JIS",
    "shift_jis_2004": "Shift_JIS", "shift_jisx0213": "Shift_JIS",
    "euc_jis_2004": "EUC-JP", "euc_jisx0213": "EUC-JP", "euc-jisx0213": "EUC-JP",
    "cp949": "EUC-KR", "uhc": "EUC-KR", "ms949": "EUC-KR",
    "big5hkscs": "Big5", "big5-hkscs": "Big5", "cp950": "Big5",
    "mac_cyrillic": "x-mac-cyrillic", "mac-cyrillic": "x-mac-cyrillic",
    "maccyrillic": "x-mac-cyrillic",
    "mac_roman": "macintosh", "mac-roman": "macintosh", "macroman": "macintosh",
    "cp874": "windows-874", "tis_620": "windows-874",
    "utf_8": "UTF-8", "utf-8-sig": "UTF-8", "utf_8_sig": "UTF-8",
    "cp855": None, "ibm855": None,
}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def load(path, limit=None):
    rows = []
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            r["data"] = bytes.fromhex(r.pop("hex"))
            rows.append(r)
            if limit and len(rows) >= limit:
                break
    return rows


def squeeze(name):
    return "".join(c for c in name.lower() if c not in "-_ ")


SQUEEZED = {squeeze(label): e.name for e in textcodec.encodings() for label in e.labels}


def whatwg(name):
    """The WHATWG encoding a peer's name stands for, or None."""
    if not name:
        return None
    n = name.strip().lower()
    try:
        return textcodec.lookup(n).name
    except LookupError:
        pass
    if squeeze(n) in SQUEEZED:
        return SQUEEZED[squeeze(n)]
    if n in ALIASES:
        return ALIASES[n]
    return None


def wg_decode(data, enc):
    return textcodec.decode(data, enc, bom="keep")[0]


def judge(data, truth, name):
    """(guess as written in results, right?)."""
    if not name:
        return "-", False
    enc = whatwg(name)
    if enc:
        return enc, wg_decode(data, enc) == truth
    try:
        return "py:" + name, data.decode(name) == truth
    except (LookupError, UnicodeDecodeError, ValueError):
        return "py:" + name, False


def peers():
    out = []
    try:
        import chardet

        out.append(("chardet", chardet.__version__, lambda b: chardet.detect(b)["encoding"]))
    except ImportError as e:
        log("skipping chardet:", e)
    try:
        import charset_normalizer

        def cn(b):
            best = charset_normalizer.from_bytes(b).best()
            return best.encoding if best else None

        out.append(("charset_normalizer", charset_normalizer.__version__, cn))
    except ImportError as e:
        log("skipping charset_normalizer:", e)
    try:
        import cchardet

        out.append(("uchardet", "faust-cchardet " + cchardet.__version__,
                    lambda b: cchardet.detect(b)["encoding"]))
    except ImportError as e:
        log("skipping uchardet (cchardet):", e)
    try:
        import icu

        out.append(("icu", f"PyICU {icu.VERSION}, ICU {icu.ICU_VERSION}",
                    lambda b: icu.CharsetDetector(b).detect().getName()))
    except ImportError as e:
        log("skipping icu (PyICU):", e)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default=str(ROOT / "detect-eval"))
    ap.add_argument("--out", default=str(ROOT / "target" / "detect-eval"))
    ap.add_argument("--only", default="")
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args()
    samples = load(pathlib.Path(args.dir) / "samples.tsv", args.limit)
    large = load(pathlib.Path(args.dir) / "large.tsv")
    truth = [wg_decode(s["data"], s["encoding"]) for s in samples]
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    only = set(filter(None, args.only.split(",")))
    todo = [p for p in peers() if not only or p[0] in only]
    suffix = "" if not only else "-" + "-".join(sorted(only))
    total = sum(len(s["data"]) for s in samples)
    with open(out / f"results-python{suffix}.tsv", "w", encoding="utf-8") as res, \
         open(out / f"speed-python{suffix}.tsv", "w", encoding="utf-8") as spd, \
         open(out / f"peers-python{suffix}.tsv", "w", encoding="utf-8") as ver:
        res.write("detector\tid\tguess\tcorrect\n")
        spd.write("detector\tinput\tbytes\tseconds\tmbps\n")
        ver.write("detector\tversion\n")
        for name, version, detect in todo:
            ver.write(f"{name}\t{version}\n")
            spent, right = 0, 0
            for s, t in zip(samples, truth):
                t0 = time.thread_time_ns()
                g = detect(s["data"])
                spent += time.thread_time_ns() - t0
                guess, ok = judge(s["data"], t, g)
                right += ok
                res.write(f"{name}\t{s['id']}\t{guess}\t{int(ok)}\n")
            secs = spent / 1e9
            spd.write(f"{name}\tall samples\t{total}\t{secs:.6f}\t{total / secs / 1e6:.2f}\n")
            log(f"{name} {version}: {right}/{len(samples)} right "
                f"({100 * right / len(samples):.1f} %), {total / secs / 1e6:.2f} MB/s")
            for s in large:
                t0 = time.thread_time_ns()
                g = detect(s["data"])
                secs = (time.thread_time_ns() - t0) / 1e9
                n = len(s["data"])
                spd.write(f"{name}\t{s['id']}\t{n}\t{secs:.6f}\t{n / secs / 1e6:.2f}\n")
                log(f"  {s['id']} ({n} bytes): {n / secs / 1e6:.2f} MB/s, guess {g}")
            res.flush()
            spd.flush()


if __name__ == "__main__":
    main()
