#!/usr/bin/env python3
"""Builds the detector's UTF-16 and binary evaluation samples (detect-eval/, gitignored),
after scripts/make-detect-eval.py.

  detect-eval/utf16.tsv    every UTF-8 sample of detect-eval/samples.tsv (bare and HTML,
                           32 languages, 8–1024 characters) in UTF-16LE and UTF-16BE
                           without a byte order mark: family "UTF-16", the language's
                           family in column `source` (e.g. "Cyrillic" for ru).
  detect-eval/binary.tsv   binary files, first 64 KiB each (encoding column
                           x-user-defined: a placeholder that decodes anything):
                           - members of the pinned evaluation and calibration downloads
                             (detect-eval/sources/, detect-calibration/sources/): the
                             images, fonts, compiled catalogs (.mo) and archives inside
                             the Debian packages and the Wagtail wheel, and the
                             downloads themselves (.deb, .tgz, .whl);
                           - the evaluation's text compressed with gzip, bzip2, xz, zlib
                             (no signature) and raw deflate, and stored in a ZIP;
                           - this machine's executables: /usr/bin (ELF), and the
                             project's own builds if present.
  detect-eval/upper.tsv    with the project's Python package importable (the venv of
                           scripts/make-detect-eval.py): the legacy-encoded samples of 12
                           languages (el ru uk bg mk tr de fr pl cs lt lv) upper-cased
                           by Python (`str.upper`) and encoded again by the WHATWG encoder
                           (`textcodec.encode`, strict); a sample whose capitals the
                           encoding lacks is left out. Text in capitals: headings,
                           signs, the titles of legal texts.

Usage: python3 scripts/make-detect-eval-extra.py [--dir detect-eval] [--per-kind N]
"""

import argparse
import bz2
import gzip
import io
import lzma
import pathlib
import subprocess
import tarfile
import zipfile
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
COLUMNS = ["id", "lang", "family", "encoding", "bucket", "html", "source", "hex"]
LIMIT = 64 * 1024

FAMILY_OF_LANG = {
    **{l: "Western" for l in ["fr", "de", "es", "pt", "it", "nl", "sv"]},
    **{l: "Central European" for l in ["pl", "cs", "hu", "sk", "sl", "hr", "ro"]},
    **{l: "Cyrillic" for l in ["ru", "uk", "bg", "mk"]},
    "el": "Greek", "tr": "Turkish", "he": "Hebrew", "ar": "Arabic", "fa": "Arabic",
    **{l: "Baltic" for l in ["lt", "lv", "et"]},
    "vi": "Vietnamese", "th": "Thai", "ja": "Japanese", "zh-CN": "Simplified Chinese",
    "zh-TW": "Traditional Chinese", "ko": "Korean",
}

KINDS = {
    ".png": "image", ".jpg": "image", ".jpeg": "image", ".gif": "image", ".webp": "image",
    ".ico": "image", ".woff": "font", ".woff2": "font", ".ttf": "font", ".mo": "catalog",
    ".gz": "compressed", ".xz": "compressed", ".zst": "compressed", ".bz2": "compressed",
    ".zip": "archive", ".whl": "archive", ".deb": "archive", ".tgz": "compressed",
}


def read(path):
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            yield dict(zip(header, line.rstrip("\n").split("\t")))


def utf16(dir_):
    rows = []
    for r in read(dir_ / "samples.tsv"):
        if r["encoding"] != "UTF-8":
            continue
        text = bytes.fromhex(r["hex"]).decode("utf-8")
        for enc, codec in (("UTF-16LE", "utf-16-le"), ("UTF-16BE", "utf-16-be")):
            rows.append([r["id"].replace("UTF-8", enc), r["lang"], "UTF-16", enc, r["bucket"],
                         r["html"], FAMILY_OF_LANG[r["lang"]], text.encode(codec).hex()])
    return rows


UPPER_LANGS = {"el", "ru", "uk", "bg", "mk", "tr", "de", "fr", "pl", "cs", "lt", "lv"}


def upper(dir_):
    try:
        import textcodec
    except ImportError:
        print("upper.tsv: skipped (no textcodec Python package)")
        return None
    rows = []
    for r in read(dir_ / "samples.tsv"):
        if r["lang"] not in UPPER_LANGS or r["encoding"] == "UTF-8":
            continue
        text = textcodec.decode(bytes.fromhex(r["hex"]), r["encoding"])[0]
        try:
            data = textcodec.encode(text.upper(), r["encoding"])
        except Exception:
            continue
        rows.append([r["id"] + ".upper", r["lang"], r["family"], r["encoding"], r["bucket"],
                     r["html"], r["source"], data.hex()])
    return rows


def members(path):
    """(name, bytes) of the files inside a download."""
    name = path.name
    if name.endswith(".whl") or name.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            for n in sorted(z.namelist()):
                yield n, z.read(n)[:LIMIT]
    elif name.endswith(".tgz"):
        with tarfile.open(path) as t:
            for m in sorted(t.getmembers(), key=lambda m: m.name):
                if m.isfile():
                    yield m.name, t.extractfile(m).read(LIMIT)
    elif name.endswith(".deb"):
        proc = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(path)], check=True,
                              stdout=subprocess.PIPE)
        with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as t:
            for m in sorted(t.getmembers(), key=lambda m: m.name):
                if m.isfile():
                    yield m.name, t.extractfile(m).read(LIMIT)


def binary(dir_, per_kind):
    rows = []
    counts = {}

    def add(kind, name, data):
        if not data or counts.get(kind, 0) >= per_kind:
            return
        counts[kind] = counts.get(kind, 0) + 1
        rows.append([f"bin.{kind}.{counts[kind]}", "-", "binary", "x-user-defined", "binary",
                     "0", f"{kind}:{name}", data[:LIMIT].hex()])

    downloads = sorted((dir_ / "sources").glob("*")) + sorted(
        (ROOT / "detect-calibration" / "sources").glob("*"))
    for path in downloads:
        if path.suffix not in (".deb", ".tgz", ".whl"):
            continue
        add("archive" if path.suffix != ".tgz" else "compressed", path.name,
            path.read_bytes()[:LIMIT])
        for name, data in members(path):
            suffix = pathlib.PurePath(name).suffix.lower()
            if suffix in KINDS:
                add(KINDS[suffix], f"{path.name}:{name}", data)
    # Compressed text.
    text = "\n".join(bytes.fromhex(r["hex"]).decode("utf-8") for r in read(dir_ / "samples.tsv")
                     if r["encoding"] == "UTF-8" and r["bucket"] == "1024").encode("utf-8")
    chunk = 200_000
    for i in range(0, min(len(text), chunk * per_kind), chunk):
        part = text[i:i + chunk]
        add("gzip", f"text[{i}:]", gzip.compress(part, mtime=0))
        add("bzip2", f"text[{i}:]", bz2.compress(part))
        add("xz", f"text[{i}:]", lzma.compress(part))
        add("zlib", f"text[{i}:]", zlib.compress(part))
        add("deflate", f"text[{i}:]", zlib.compressobj(9, zlib.DEFLATED, -15).compress(part))
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("text.txt", part)
        add("zip", f"text[{i}:]", buf.getvalue())
    for path in sorted(pathlib.Path("/usr/bin").iterdir()):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()[:LIMIT]
            if data.startswith(b"\x7fELF"):
                add("executable", str(path), data)
    return rows, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default=str(ROOT / "detect-eval"))
    ap.add_argument("--per-kind", type=int, default=100)
    args = ap.parse_args()
    dir_ = pathlib.Path(args.dir)
    for name, rows in (("utf16.tsv", utf16(dir_)), ("upper.tsv", upper(dir_))):
        if rows is None:
            continue
        with open(dir_ / name, "w", encoding="utf-8") as f:
            f.write("\t".join(COLUMNS) + "\n")
            for r in rows:
                f.write("\t".join(r) + "\n")
        print(f"{name}: {len(rows)} samples")
    rows, counts = binary(dir_, args.per_kind)
    with open(dir_ / "binary.tsv", "w", encoding="utf-8") as f:
        f.write("\t".join(COLUMNS) + "\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    print(f"binary.tsv: {len(rows)} files: {counts}")


if __name__ == "__main__":
    main()
