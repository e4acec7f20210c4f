"""Running code that might crash the interpreter in a child process, so that a segfault or
an abort is a test failure instead of the end of the pytest run."""

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

TESTS = Path(__file__).resolve().parent

# Address-space cap of the child: an allocation the code under test cannot satisfy fails
# at once (MemoryError, or an abort from code that does not handle it) instead of
# depending on the machine's memory and overcommit settings.
CHILD_ADDRESS_SPACE = 3 << 30


def run_isolated(source, *, timeout=120, address_space=CHILD_ADDRESS_SPACE, env=None):
    """Runs `source` (dedented) in a fresh interpreter with the tests directory on sys.path
    and returns its stdout. Fails the calling test, naming the signal, if the child dies or
    exits non-zero."""
    prelude = (
        "import resource, sys\n"
        f"sys.path.insert(0, {str(TESTS)!r})\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({address_space}, {address_space}))\n"
        if address_space
        else f"import sys\nsys.path.insert(0, {str(TESTS)!r})\n"
    )
    child_env = dict(os.environ)
    child_env.update(env or {})
    proc = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", prelude + textwrap.dedent(source)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=child_env,
    )
    if proc.returncode != 0:
        how = (
            f"killed by {signal.Signals(-proc.returncode).name}"
            if proc.returncode < 0
            else f"exit status {proc.returncode}"
        )
        raise AssertionError(
            f"child process failed ({how})\n--- stdout\n{proc.stdout[-4000:]}\n--- stderr\n{proc.stderr[-4000:]}"
        )
    return proc.stdout
