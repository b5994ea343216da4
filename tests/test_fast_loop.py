"""The fast loop: `make test-fast` leaves out the browser tests (`e2e`) and the slow ones (`slow`),
runs the others on two pytest-xdist workers and prints its wall time; `make test`, and so CI,
runs every test. `make test-sqlite`, CI's second run, runs the fast ones
and the `sqlite` browser journeys on SQLite, leaving out what is PostgreSQL's (`postgres`)."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_make_run import make_dry_run

ROOT = Path(__file__).resolve().parent.parent
FAST = "not e2e and not slow"
ON_SQLITE = "not postgres and not slow and (not e2e or sqlite)"
JOURNEYS = [
    "test_after_the_sale.py",
    "test_back_in_stock.py",
    "test_cart.py",
    "test_checkout.py",
    "test_facets.py",
    "test_garage.py",
    "test_guest_checkout.py",
    "test_part_reviews.py",
    "test_payment.py",
    "test_saved_parts.py",
    "test_search_suggestions.py",
    "test_shopper.py",
]


def pytest_command(target: str) -> list[str]:
    """The pytest command line the target runs (its one line that runs pytest, up to `||`)."""
    [line] = [line for line in make_dry_run(target) if "bin/pytest " in line]
    return shlex.split(line.split(" || ")[0])


def test_make_test_runs_every_test():
    assert pytest_command("test") == [".venv/bin/pytest", "-p", "tests.machine"]
    assert "cd frontend && npm test" in make_dry_run("test")


def test_make_test_fast_leaves_out_browser_and_slow_tests_and_runs_two_workers():
    assert pytest_command("test-fast") == [
        ".venv/bin/pytest", "-p", "tests.machine", "-n", "2", "-m", FAST,
    ]  # fmt: skip
    assert "cd frontend && npm test" in make_dry_run("test-fast")


def make_test_fast(args: str) -> subprocess.CompletedProcess:
    """`make test-fast ARGS=args` as a developer types it."""
    env = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL"}}
    return subprocess.run(
        ["make", "--no-print-directory", "test-fast", f"ARGS={args}"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow  # make, vitest and pytest-xdist's workers in processes of their own
def test_make_test_fast_prints_its_wall_time_last_whatever_the_outcome():
    passed = make_test_fast("--collect-only -q core/tests/test_money.py")
    failed = make_test_fast("core/tests/no_such_test_file.py")

    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "7 tests collected" in passed.stdout
    assert re.fullmatch(r"make test-fast: \d+ s", passed.stdout.splitlines()[-1])
    assert failed.returncode != 0
    assert re.fullmatch(r"make test-fast: \d+ s", failed.stdout.splitlines()[-1])


def test_make_test_sqlite_runs_the_fast_tests_and_the_journeys_on_sqlite():
    assert pytest_command("test-sqlite") == [
        "DATABASE_URL=sqlite:///shop.sqlite3", ".venv/bin/pytest", "-p", "tests.machine",
        "-m", ON_SQLITE,
    ]  # fmt: skip
    assert "npm test" not in make_dry_run("test-sqlite")  # vitest has no database: make test's


def test_ci_runs_make_test_then_make_test_sqlite_then_make_lint():
    ci = (ROOT / ".ci" / "run").read_text()
    steps = [line for line in ci.splitlines() if line.startswith(("make ", "tree_unchanged "))]

    assert steps == [
        "make test ARGS=--create-db </dev/null",
        'tree_unchanged "make test"',
        "make test-sqlite ARGS=--create-db </dev/null",
        'tree_unchanged "make test-sqlite"',
        "make lint </dev/null",
        'tree_unchanged "make lint"',
    ]
    assert "test-fast" not in ci
    assert "pytest" not in ci  # only through `make test` and `make test-sqlite`
    # `make test` on PostgreSQL: every test marked `postgres` runs there (none is deselected).
    assert '\nexport DATABASE_URL="postgres://postgres@127.0.0.1:5432/shop_ci"\n' in ci
    assert ci.index("export DATABASE_URL=") < ci.index("make test ARGS")


def test_every_browser_test_in_this_run_is_marked_e2e(request):
    """In a whole run (`make test`) every test of tests/e2e/ is here, and each is marked."""
    browser = [item for item in request.session.items if "tests/e2e/" in item.nodeid]

    assert [item.nodeid for item in browser if not item.get_closest_marker("e2e")] == []


def test_the_journeys_and_only_they_are_the_browser_tests_run_on_sqlite(request):
    """The browser tests of this run in the files of the cart, garage, checkout, guest checkout and payment
    journeys are marked `sqlite`, no other."""
    browser = [item for item in request.session.items if "tests/e2e/" in item.nodeid]
    wrong = [
        item.nodeid
        for item in browser
        if bool(item.get_closest_marker("sqlite")) != (item.path.name in JOURNEYS)
    ]

    assert wrong == []
    assert all((ROOT / "tests" / "e2e" / name).exists() for name in JOURNEYS)


def collect(selection: str, *paths: str) -> str:
    """What `pytest -m selection` collects of `paths`, in a pytest process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
        + ["-m", selection, *paths],
        cwd=ROOT,
        env=os.environ,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout


@pytest.mark.slow  # a pytest process of its own
def test_the_sqlite_selection_takes_a_journey_and_leaves_out_other_browser_tests():
    collected = collect(ON_SQLITE, "tests/e2e/test_garage.py", "tests/e2e/test_xss.py")

    assert "tests/e2e/test_garage.py::test_the_picker_without_javascript" in collected
    assert "test_xss.py" not in collected
    assert "(4 deselected)" in collected, collected


@pytest.mark.slow  # a pytest process of its own
def test_the_fast_selection_leaves_out_a_browser_test_file():
    """Marked before `-m` selects: a browser test file has nothing for the fast loop."""
    collected = collect(FAST, "tests/e2e/test_xss.py")

    assert "no tests collected (4 deselected)" in collected, collected
