"""The skip guard: under `make test` a test that could not run fails the whole run."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a pytest process of its own, per test

ROOT = Path(__file__).resolve().parent.parent
SKIPPING_TEST = """
import pytest

def test_runs():
    pass

@pytest.mark.skip(reason="needs a flux capacitor")
def test_cannot_run():
    pass
"""


def run_pytest(tmp_path: Path, forbid: str) -> subprocess.CompletedProcess:
    (tmp_path / "test_sample.py").write_text(SKIPPING_TEST)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.skip_guard", "-p", "no:django", "-p",
         "no:cacheprovider", "-c", "/dev/null", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "TEST_FORBID_SKIPS": forbid},
        capture_output=True,
        text=True,
        timeout=60,
    )  # fmt: skip


def test_a_skip_fails_the_run_and_says_why(tmp_path):
    done = run_pytest(tmp_path, forbid="1")

    assert done.returncode == 1, done.stdout
    assert "skipped tests fail this run" in done.stdout
    assert "test_cannot_run: needs a flux capacitor" in done.stdout


def test_skips_are_allowed_when_asked(tmp_path):
    done = run_pytest(tmp_path, forbid="0")

    assert done.returncode == 0, done.stdout
    assert "1 passed, 1 skipped" in done.stdout
