"""PySpark integration: the package README's recipes, unchanged, on a local cluster.

A Parquet dataset of raw pages and their Content-Type headers (tests/pages.py: real text in
many legacy encodings) is decoded by Spark with ``mapInArrow`` and with a pandas UDF, and
every row is checked against single-process ``textcodec.decode_html``. Skipped when Java
or pyspark is missing (``.ci/extra.d/python.sh`` installs both and runs it)."""

import os
import shutil
import subprocess
import sys

import pytest

import textcodec

pytestmark = pytest.mark.spark

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _java_ok() -> bool:
    java = shutil.which("java") or (
        os.path.join(os.environ["JAVA_HOME"], "bin", "java") if os.environ.get("JAVA_HOME") else None
    )
    if not java or not os.path.exists(java):
        return False
    try:
        return subprocess.run([java, "-version"], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@pytest.fixture(scope="module")
def spark():
    # CI sets TEXTCODEC_REQUIRE_SPARK=1: there, a missing Java or pyspark is a failure.
    required = os.environ.get("TEXTCODEC_REQUIRE_SPARK") == "1"
    if not _java_ok():
        if required:
            pytest.fail("Java is not installed (PySpark needs Java 17+)")
        pytest.skip("Java is not installed (PySpark needs Java 17+)")
    if required:
        import pyspark.sql as pyspark_sql
    else:
        pyspark_sql = pytest.importorskip("pyspark.sql")
    # Workers run this interpreter (the one textcodec is installed in); no network names.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    spark_session = (
        pyspark_sql.SparkSession.builder.master("local[2]")
        .appName("textcodec-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.memory", "1g")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    spark_session.sparkContext.setLogLevel("ERROR")
    yield spark_session
    spark_session.stop()


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    sys.path.insert(0, os.path.dirname(__file__))
    import pages

    table = pages.table(copies=6)
    path = tmp_path_factory.mktemp("pages") / "pages.parquet"
    pq.write_table(table, path, row_group_size=200)
    return str(path), table


def expected_rows(table):
    out = {}
    for i, body, content_type in zip(
        table.column("id").to_pylist(), table.column("body").to_pylist(), table.column("content_type").to_pylist()
    ):
        out[i] = textcodec.decode_html(body, content_type)
    return out


def test_map_in_arrow_decodes_every_row_like_decode_html(spark, dataset):
    # Defined here, not at module level, so that Spark pickles it by value (workers cannot
    # import this test module).
    def decode_pages(batches):
        """The README's mapInArrow recipe."""
        import pyarrow as pa
        import textcodec.arrow

        for batch in batches:
            decoded = textcodec.arrow.decode_html(batch.column("body"), batch.column("content_type"))
            yield pa.RecordBatch.from_arrays(
                [batch.column("id"), decoded.field("text"), decoded.field("encoding")],
                names=["id", "text", "encoding"],
            )

    path, table = dataset
    df = spark.read.parquet(path).repartition(4)
    out = df.mapInArrow(decode_pages, "id long, text string, encoding string")
    rows = out.collect()
    expected = expected_rows(table)
    assert len(rows) == len(expected) > 1000
    encodings = set()
    for row in rows:
        assert (row["text"], row["encoding"]) == expected[row["id"]], row["id"]
        encodings.add(row["encoding"])
    assert len(encodings) >= 25


def test_pandas_udf_recipe(spark, dataset):
    import pandas as pd
    from pyspark.sql.functions import col, pandas_udf

    @pandas_udf("struct<text string, encoding string>")
    def decode_html_udf(body: pd.Series, content_type: pd.Series) -> pd.DataFrame:
        import pyarrow as pa
        import textcodec.arrow

        decoded = textcodec.arrow.decode_html(
            pa.array(body, pa.binary()), pa.array(content_type, pa.string())
        )
        return pd.DataFrame(
            {"text": decoded.field("text").to_pandas(), "encoding": decoded.field("encoding").to_pandas()}
        )

    path, table = dataset
    df = spark.read.parquet(path)
    out = df.select("id", decode_html_udf(col("body"), col("content_type")).alias("page")).select(
        "id", "page.text", "page.encoding"
    )
    expected = expected_rows(table)
    rows = out.collect()
    assert len(rows) == len(expected)
    for row in rows:
        assert (row["text"], row["encoding"]) == expected[row["id"]], row["id"]
