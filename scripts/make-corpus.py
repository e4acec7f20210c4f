#!/usr/bin/env python3
"""Builds the benchmark corpus in bench-corpus/ (gitignored) from real-world text.

Source: the gettext translation catalogs (*.po) shipped inside the Django wheel on PyPI,
version DJANGO_VERSION below (override with the DJANGO_VERSION environment variable).
Django and its translations are (c) the Django Software Foundation and individual
contributors, distributed under the 3-clause BSD license (see the wheel's LICENSE file,
copied to bench-corpus/DJANGO-LICENSE). Nobody on this project wrote this text.

For each language below, all `.po` files of that language in the wheel (django/conf/locale
and every django/contrib/*/locale, in sorted path order) are concatenated, and two UTF-8
inputs are written:

  <lang>.po.txt    the whole catalogs: markup-heavy (msgid/msgstr lines, comments, source
                   references: roughly half ASCII or more)
  <lang>.text.txt  only the translated strings (msgstr, unescaped, one per line; for `en`,
                   whose msgstr are empty, the msgid strings)

plus `ascii.txt`: the English strings with every line containing a non-ASCII byte dropped
(pure ASCII).

Each input is the concatenation repeated whole until it reaches TARGET_BYTES of UTF-8
(timings of a few hundred KB are stable; the data stays in L2/L3 cache). The legacy-encoded
variants are not made here: the benchmark harness encodes these UTF-8 files at startup with
textcodec's own encoders in html mode, so every peer decodes exactly the same bytes.

Usage: python3 scripts/make-corpus.py [OUT_DIR]   (default: bench-corpus next to scripts/)
Needs: pip (PyPI reachable). Writes OUT_DIR/MANIFEST.tsv with the sizes.
"""

import os
import pathlib
import subprocess
import sys
import tempfile
import zipfile

DJANGO_VERSION = os.environ.get("DJANGO_VERSION", "5.2.19")
TARGET_BYTES = 256 * 1024

# The languages of the benchmark issue, plus a few whose legacy encodings are the remaining
# single-byte encodings of the Standard (lt/lv: windows-1257, ISO-8859-13, ISO-8859-4;
# eo: ISO-8859-3; is: ISO-8859-10; cy: ISO-8859-14; ro: ISO-8859-16).
LANGS = [
    "ja", "zh_Hans", "zh_Hant", "ko", "ru", "uk", "el", "he", "ar", "th", "vi", "pl", "cs",
    "tr", "de", "fr", "en", "lt", "lv", "eo", "is", "cy", "ro",
]


def unescape(s):
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}.get(n, n))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def parse_po(text):
    """Yields (keyword, value) for each msgid/msgid_plural/msgstr/msgstr[n] entry."""
    key = None
    parts = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith('"') and key is not None:
            parts.append(unescape(line[1:-1]))
            continue
        if key is not None:
            yield key, "".join(parts)
            key, parts = None, []
        if line.startswith("msg"):
            kw, _, rest = line.partition(" ")
            rest = rest.strip()
            if rest.startswith('"') and rest.endswith('"'):
                key, parts = kw, [unescape(rest[1:-1])]
    if key is not None:
        yield key, "".join(parts)


def strings(po_text, lang):
    wanted = ("msgid", "msgid_plural") if lang == "en" else ("msgstr",)
    out = []
    for kw, value in parse_po(po_text):
        base = kw.split("[")[0]
        if base not in wanted or not value:
            continue
        if "Project-Id-Version" in value:  # the header entry
            continue
        line = " ".join(value.split("\n")).strip()
        if line:
            out.append(line)
    return out


def repeat_to_target(text):
    data = text.encode("utf-8")
    reps = -(-TARGET_BYTES // len(data))
    return data * reps, reps


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    out_dir = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else root / "bench-corpus"
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", f"django=={DJANGO_VERSION}", "--no-deps",
             "--only-binary=:all:", "--quiet", "-d", tmp],
            check=True,
        )
        wheel = next(pathlib.Path(tmp).glob("*.whl"))
        with zipfile.ZipFile(wheel) as z:
            names = sorted(n for n in z.namelist() if n.endswith(".po"))
            license_name = next(n for n in z.namelist() if n.endswith("LICENSE"))
            (out_dir / "DJANGO-LICENSE").write_bytes(z.read(license_name))
            manifest = ["input\tsource_files\tsource_utf8_bytes\trepeats\tutf8_bytes"]
            english = []
            for lang in LANGS:
                files = [n for n in names if f"/locale/{lang}/LC_MESSAGES/" in n]
                if not files:
                    sys.exit(f"no .po files for {lang} in {wheel.name}")
                po = "".join(z.read(n).decode("utf-8") for n in files)
                text = "\n".join(strings(po, lang)) + "\n"
                if lang == "en":
                    english = text.splitlines()
                for kind, content in (("po", po), ("text", text)):
                    data, reps = repeat_to_target(content)
                    (out_dir / f"{lang}.{kind}.txt").write_bytes(data)
                    manifest.append(
                        f"{lang}.{kind}\t{len(files)}\t{len(content.encode())}\t{reps}\t{len(data)}"
                    )
            ascii_text = "\n".join(l for l in english if l.isascii()) + "\n"
            data, reps = repeat_to_target(ascii_text)
            (out_dir / "ascii.txt").write_bytes(data)
            manifest.append(f"ascii\t-\t{len(ascii_text)}\t{reps}\t{len(data)}")
            (out_dir / "MANIFEST.tsv").write_text(
                f"# Django {DJANGO_VERSION} ({wheel.name}), BSD-3-Clause\n" + "\n".join(manifest) + "\n"
            )
    print(f"corpus written to {out_dir} (Django {DJANGO_VERSION}):")
    print((out_dir / "MANIFEST.tsv").read_text(), end="")


if __name__ == "__main__":
    main()
