"""The fast loop: `make test-fast` leaves out the browser tests (`e2e`) and the slow ones (`slow`);
`make test`, and so CI, runs every test."""

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_make_run import make_dry_run

ROOT = Path(__file__).resolve().parent.parent
FAST = "not e2e and not slow"


def pytest_command(target: str) -> list[str]:
    """The pytest command line the target runs (its last command)."""
    return shlex.split(make_dry_run(target)[-1])


def test_make_test_runs_every_test():
    assert pytest_command("test") == [".venv/bin/pytest", "-p", "tests.machine"]
    assert "cd frontend && npm test" in make_dry_run("test")


def test_make_test_fast_leaves_out_browser_and_slow_tests():
    assert pytest_command("test-fast") == [".venv/bin/pytest", "-p", "tests.machine", "-m", FAST]
    assert "cd frontend && npm test" in make_dry_run("test-fast")


def test_ci_runs_make_test():
    ci = (ROOT / ".ci" / "run").read_text()

    assert "\nmake test ARGS=--create-db </dev/null\n" in ci
    assert "test-fast" not in ci
    assert "pytest" not in ci  # only through `make test`


def test_every_browser_test_in_this_run_is_marked_e2e(request):
    """In a whole run (`make test`) every test of tests/e2e/ is here, and each is marked."""
    browser = [item for item in request.session.items if "tests/e2e/" in item.nodeid]

    assert [item.nodeid for item in browser if not item.get_closest_marker("e2e")] == []


@pytest.mark.slow  # a pytest process of its own
def test_the_fast_selection_leaves_out_a_browser_test_file():
    """Marked before `-m` selects: a browser test file has nothing for the fast loop."""
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
        + ["-m", FAST, "tests/e2e/test_xss.py"],
        cwd=ROOT,
        env=os.environ,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert "no tests collected (4 deselected)" in collected.stdout, collected.stdout
