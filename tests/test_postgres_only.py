"""The marker `postgres` (tests/postgres_only.py) is honest: every fast test it marks fails on
SQLite when run there all the same, and a marked test that does run there is a skip with its
reason, which fails the run. (`make test` runs every one of them on PostgreSQL:
tests/test_fast_loop.py.)"""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.postgres_only import RUN_ANYWAY

pytestmark = pytest.mark.slow  # pytest processes of their own, on a SQLite database of theirs

ROOT = Path(__file__).resolve().parent.parent
VECTOR_TEST = "catalog/tests/test_search_vector.py::test_the_stored_vector_is_the_one_computed_from_the_fields"


@pytest.fixture(scope="module")
def sqlite_url(tmp_path_factory) -> str:
    """A SQLite database for the module's runs (the first creates its test database)."""
    return f"sqlite:///{tmp_path_factory.mktemp('sqlite') / 'shop.sqlite3'}"


def run_pytest(sqlite_url: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": sqlite_url, "TEST_FORBID_SKIPS": "1", **env},
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_every_fast_test_marked_postgres_fails_on_sqlite(sqlite_url, tmp_path):
    report = tmp_path / "report.xml"

    run = run_pytest(
        sqlite_url, "-m", "postgres and not slow", f"--junitxml={report}", **{RUN_ANYWAY: "1"}
    )

    cases = ET.parse(report).getroot().iter("testcase")
    outcomes = {
        f"{case.get('classname')}::{case.get('name')}": [child.tag for child in case]
        for case in cases
    }
    assert len(outcomes) >= 20, run.stdout[-3000:]
    passed_or_skipped = [
        name for name, tags in outcomes.items() if not {"failure", "error"} & set(tags)
    ]
    assert passed_or_skipped == [], "marked postgres, yet not failing on SQLite"


def test_a_marked_test_on_sqlite_is_a_skip_with_its_reason_and_fails_the_run(sqlite_url):
    run = run_pytest(sqlite_url, VECTOR_TEST)

    assert run.returncode == 1, run.stdout[-3000:]
    assert (
        "needs PostgreSQL: the stored vector is PostgreSQL's full-text search "
        "(`make test-sqlite` leaves it out)"
    ) in run.stdout
    assert "skipped tests fail this run" in run.stdout


def test_a_mark_without_its_reason_is_refused(tmp_path):
    (tmp_path / "test_sample.py").write_text(
        "import pytest\n\n@pytest.mark.postgres\ndef test_needs_it():\n    pass\n"
    )

    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.postgres_only", "-p", "no:django", "-p",
         "no:cacheprovider", "-c", "/dev/null", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )  # fmt: skip

    assert run.returncode == 4, run.stdout + run.stderr  # a usage error
    assert "marked postgres without reason=...: test_sample.py::test_needs_it" in run.stderr
