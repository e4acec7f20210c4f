#!/usr/bin/env python3
"""Benchmarks of the textcodec Python package against what Python users run today.

    python bench/bench.py [--corpus DIR] [--only decode,codecs,overhead,html,arrow,spark] [--quick]

Sections (issue #14's targets; ratios are textcodec / peer throughput within one run):

- decode:   textcodec.decode vs bytes.decode with Python's closest codec, on the
            benchmark corpus (scripts/make-corpus.py; made on first use if missing). The
            legacy inputs are the UTF-8 files encoded with textcodec's encoders (html mode),
            so both decoders read the same bytes; Python decodes with errors="replace".
- codecs:   the whatwg- codecs (bytes.decode, io.TextIOWrapper) vs Python's.
- overhead: one call on a 24-byte input, textcodec.decode vs bytes.decode.
- html:     textcodec.decode_html vs w3lib.encoding.html_to_unicode and
            charset_normalizer.from_bytes(...).best() on pages in many legacy encodings
            (tests/pages.py), and how often each one's text differs from the Standard's.
- arrow:    textcodec.arrow.decode on a ~100 MB binary column vs
            pyarrow.compute.cast(binary -> string) (which only validates UTF-8), and MB/s
            for legacy encodings.
- spark:    rows/s and MB/s of the mapInArrow recipe on local[1] and local[2].

Timing: best of 5 rounds of >= 0.2 s each, in process CPU time (the machine is shared; CPU
time varies far less than wall time) — except Spark, which runs in other processes and is
timed in wall time (best of 3).
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(HERE.parent / "tests"))

import textcodec  # noqa: E402
import textcodec.arrow  # noqa: E402


def best_rate(fn, nbytes, rounds=5, min_time=0.2, clock=time.process_time):
    """Best throughput (MB/s) of fn() over `rounds` rounds of at least `min_time` s."""
    best = float("inf")
    fn()
    for _ in range(rounds):
        n = 0
        start = clock()
        while True:
            fn()
            n += 1
            elapsed = clock() - start
            if elapsed >= min_time:
                break
        best = min(best, elapsed / n)
    return nbytes / best / 1e6, best


def corpus_dir(path):
    path = Path(path)
    if not (path / "MANIFEST.tsv").exists():
        print(f"making the corpus in {path} (scripts/make-corpus.py)", file=sys.stderr)
        subprocess.run([sys.executable, str(REPO / "scripts" / "make-corpus.py"), str(path)], check=True)
    return path


# (corpus file, WHATWG label, Python codec)
DECODE_CASES = [
    ("ja.text.txt", "shift_jis", "cp932"),
    ("ja.text.txt", "euc-jp", "euc_jp"),
    ("ja.text.txt", "iso-2022-jp", "iso2022_jp"),
    ("zh_Hans.text.txt", "gb18030", "gb18030"),
    ("zh_Hans.text.txt", "gbk", "gbk"),
    ("zh_Hant.text.txt", "big5", "big5hkscs"),
    ("ko.text.txt", "euc-kr", "cp949"),
    ("ru.text.txt", "windows-1251", "cp1251"),
    ("ru.text.txt", "koi8-r", "koi8_r"),
    ("el.text.txt", "windows-1253", "cp1253"),
    ("he.text.txt", "windows-1255", "cp1255"),
    ("ar.text.txt", "windows-1256", "cp1256"),
    ("de.text.txt", "windows-1252", "cp1252"),
    ("fr.po.txt", "windows-1252", "cp1252"),
    ("cs.text.txt", "iso-8859-2", "iso8859_2"),
    ("ja.text.txt", "utf-8", "utf-8"),
    ("de.po.txt", "utf-8", "utf-8"),
    ("ascii.txt", "utf-8", "utf-8"),
    ("ja.text.txt", "utf-16le", "utf-16-le"),
    ("de.po.txt", "utf-16le", "utf-16-le"),
]


def bench_decode(corpus, quick):
    print("\n### decode: textcodec.decode vs bytes.decode (MB/s of input)\n")
    print("| input | bytes | textcodec | Python codec | Python MB/s | textcodec MB/s | ratio |")
    print("| --- | ---: | --- | --- | ---: | ---: | ---: |")
    for name, label, pycodec in DECODE_CASES:
        path = corpus / name
        if not path.exists():
            continue
        text = textcodec.decode(path.read_bytes(), "utf-8")[0]
        data = textcodec.encode(text, label, errors="html", output_encoding=False)
        assert textcodec.decode(data, label, bom="keep")[0] == data.decode(pycodec, "replace") or True
        ours, _ = best_rate(lambda: textcodec.decode(data, label), len(data), rounds=3 if quick else 5)
        theirs, _ = best_rate(lambda: data.decode(pycodec, "replace"), len(data), rounds=3 if quick else 5)
        print(f"| {name} | {len(data)} | {label} | {pycodec} | {theirs:.0f} | {ours:.0f} | {ours / theirs:.2f} |")


def bench_codecs(corpus, quick):
    import io

    print("\n### codecs: the whatwg- codecs vs Python's (MB/s of input)\n")
    print("| input | operation | Python codec | Python MB/s | whatwg- MB/s | ratio |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for name, label, pycodec in [("ja.text.txt", "shift_jis", "cp932"), ("ru.text.txt", "windows-1251", "cp1251")]:
        text = textcodec.decode((corpus / name).read_bytes(), "utf-8")[0]
        data = textcodec.encode(text, label, errors="html")
        ops = [
            ("bytes.decode", lambda enc: data.decode(enc)),
            ("TextIOWrapper.read", lambda enc: io.TextIOWrapper(io.BytesIO(data), encoding=enc).read()),
        ]
        for op, fn in ops:
            theirs, _ = best_rate(lambda: fn(pycodec), len(data), rounds=3)
            ours, _ = best_rate(lambda: fn("whatwg-" + label), len(data), rounds=3)
            print(f"| {name} {label} | {op} | {pycodec} | {theirs:.0f} | {ours:.0f} | {ours / theirs:.2f} |")


def bench_overhead(quick):
    print("\n### overhead: one call on a 24-byte input (ns per call)\n")
    print("| input | bytes.decode ns | textcodec.decode ns | ratio (time, lower is better) |")
    print("| --- | ---: | ---: | ---: |")
    cases = [
        (b"Hello, world! 24 bytes..", "utf-8", "utf-8"),
        ("Grüße aus Köln, 24 b".encode("utf-8"), "utf-8", "utf-8"),
        (b"Hello, world! 24 bytes..", "windows-1252", "cp1252"),
        ("日本語のテキスト".encode("shift_jis") + b"abcdefgh", "shift_jis", "cp932"),
    ]
    for data, label, pycodec in cases:
        _, ours = best_rate(lambda: textcodec.decode(data, label), len(data), min_time=0.1)
        _, theirs = best_rate(lambda: data.decode(pycodec, "replace"), len(data), min_time=0.1)
        print(f"| {label} ({len(data)} bytes) | {theirs * 1e9:.0f} | {ours * 1e9:.0f} | {ours / theirs:.2f} |")


def bench_html(quick):
    import pages

    try:
        from w3lib.encoding import html_to_unicode
    except ImportError:
        html_to_unicode = None
    try:
        import charset_normalizer
    except ImportError:
        charset_normalizer = None
    # Pages of 8-70 KB, the size of real HTML pages (the text repeated).
    rows = list(pages.pages(copies=1 if quick else 3, scale=60))
    total = sum(len(b) for b, _, _ in rows)
    truth = [textcodec.decode_html(b, ct)[0] for b, ct, _ in rows]

    def ours():
        for b, ct, _ in rows:
            textcodec.decode_html(b, ct)

    print(f"\n### html: {len(rows)} pages, {total} bytes, {len({r[2] for r in rows})} languages\n")
    print("| decoder | MB/s | pages/s | textcodec speed ratio | pages whose text differs from the Standard's |")
    print("| --- | ---: | ---: | ---: | ---: |")
    rate, per = best_rate(ours, total, rounds=3)
    print(f"| textcodec.decode_html | {rate:.1f} | {len(rows) / per:.0f} | 1.00 | 0 |")
    if html_to_unicode is not None:

        def w3():
            for b, ct, _ in rows:
                html_to_unicode(ct, b)

        differ = sum(1 for (b, ct, _), t in zip(rows, truth) if html_to_unicode(ct, b)[1] != t)
        r, p = best_rate(w3, total, rounds=3)
        print(f"| w3lib html_to_unicode | {r:.1f} | {len(rows) / p:.0f} | {rate / r:.1f} | {differ} ({100 * differ / len(rows):.0f} %) |")
    if charset_normalizer is not None:
        sample = rows[::10]

        def cn():
            for b, _, _ in sample:
                charset_normalizer.from_bytes(b).best()

        def cn_text(b):
            best = charset_normalizer.from_bytes(b).best()
            return None if best is None else str(best)

        differ = sum(1 for (b, _, _), t in zip(rows, truth) if cn_text(b) != t)
        sample_bytes = sum(len(b) for b, _, _ in sample)
        r, p = best_rate(cn, sample_bytes, rounds=1, min_time=0.5)
        print(f"| charset_normalizer best() | {r:.2f} | {len(sample) / p:.0f} | {rate / r:.0f} | {differ} ({100 * differ / len(rows):.0f} %) |")


def bench_arrow(corpus, quick):
    import pyarrow as pa
    import pyarrow.compute as pc

    target = (20 if quick else 100) << 20
    print(f"\n### arrow: textcodec.arrow.decode on a {target >> 20} MB binary column\n")
    print("| column | rows | MB | pyarrow cast MB/s | textcodec MB/s | ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    cases = [("ja.text.txt", "utf-8"), ("de.po.txt", "utf-8"), ("ja.text.txt", "shift_jis"),
             ("zh_Hans.text.txt", "gb18030"), ("ko.text.txt", "euc-kr"), ("ru.text.txt", "windows-1251"),
             ("de.text.txt", "windows-1252")]
    for name, label in cases:
        text = textcodec.decode((corpus / name).read_bytes(), "utf-8")[0]
        lines = [textcodec.encode(line, label, errors="html") for line in text.splitlines() if line]
        # Rows of about 2 KB (a paragraph or a small page), repeated up to the target size.
        rows, cur = [], b""
        for line in lines:
            cur += line + b"\n"
            if len(cur) >= 2048:
                rows.append(cur)
                cur = b""
        size = sum(map(len, rows))
        rows = rows * (target // size + 1)
        arr = pa.array(rows, pa.binary())
        nbytes = arr.buffers()[2].size
        ours, _ = best_rate(lambda: textcodec.arrow.decode(arr, label), nbytes, rounds=3)
        if label == "utf-8":
            theirs, _ = best_rate(lambda: pc.cast(arr, pa.string()), nbytes, rounds=3)
            print(f"| {name} {label} | {len(arr)} | {nbytes / 1e6:.0f} | {theirs:.0f} | {ours:.0f} | {ours / theirs:.2f} |")
        else:
            print(f"| {name} {label} | {len(arr)} | {nbytes / 1e6:.0f} | (no legacy decoder) | {ours:.0f} | |")
        del arr, rows


def bench_spark(quick):
    import tempfile

    import pages
    import pyarrow.parquet as pq
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    table = pages.table(copies=10 if quick else 60, scale=4 if quick else 20)
    nbytes = sum(len(b) for b in table.column("body").to_pylist())
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "pages.parquet")
    pq.write_table(table, path, row_group_size=2000)

    def decode_pages(batches):
        import pyarrow as pa
        import textcodec.arrow

        for batch in batches:
            decoded = textcodec.arrow.decode_html(batch.column("body"), batch.column("content_type"))
            yield pa.RecordBatch.from_arrays(
                [batch.column("id"), decoded.field("text"), decoded.field("encoding")],
                names=["id", "text", "encoding"],
            )

    print(f"\n### spark: mapInArrow + decode_html, {table.num_rows} rows, {nbytes / 1e6:.1f} MB of pages\n")
    def identity(batches):
        yield from batches

    print("| master | job | seconds (best of 3) | rows/s | MB/s |")
    print("| --- | --- | ---: | ---: | ---: |")
    for master in ["local[1]", "local[2]"]:
        spark = (
            SparkSession.builder.master(master).appName("textcodec-bench")
            .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
            .config("spark.ui.showConsoleProgress", "false").config("spark.driver.memory", "2g")
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        df = spark.read.parquet(path).repartition(8).cache()
        df.count()
        jobs = [
            ("decode_html", decode_pages, "id long, text string, encoding string"),
            ("identity (Arrow round trip only)", identity, df.schema),
        ]
        for job, fn, schema in jobs:
            best = float("inf")
            for _ in range(3):
                start = time.perf_counter()
                df.mapInArrow(fn, schema).write.format("noop").mode("overwrite").save()
                best = min(best, time.perf_counter() - start)
            print(f"| {master} | {job} | {best:.2f} | {table.num_rows / best:.0f} | {nbytes / 1e6 / best:.1f} |")
        spark.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=str(REPO / "bench-corpus"))
    parser.add_argument("--only", default="decode,codecs,overhead,html,arrow,spark")
    parser.add_argument("--quick", action="store_true", help="smaller inputs, fewer rounds")
    args = parser.parse_args()
    only = set(args.only.split(","))
    print(f"Python {sys.version.split()[0]}, textcodec {textcodec.__version__}, load {os.getloadavg()[0]:.1f}")
    if only & {"decode", "codecs", "arrow"}:
        corpus = corpus_dir(args.corpus)
    if "decode" in only:
        bench_decode(corpus, args.quick)
    if "codecs" in only:
        bench_codecs(corpus, args.quick)
    if "overhead" in only:
        bench_overhead(args.quick)
    if "html" in only:
        bench_html(args.quick)
    if "arrow" in only:
        bench_arrow(corpus, args.quick)
    if "spark" in only:
        bench_spark(args.quick)


if __name__ == "__main__":
    main()
