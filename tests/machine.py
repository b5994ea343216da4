"""pytest plugin for `make test` and `make test-fast` (`-p tests.machine`): before the first test,
scripts/test-machine.sh makes the machine ready (chromium and nginx installed, PostgreSQL at
DATABASE_URL and Redis at REDIS_URL answering) with the environment the tests run with, which
pyproject.toml's `env` has set by then. A plain `pytest` leaves the machine as it is."""

import os
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "test-machine.sh"


def pytest_configure(config):
    if subprocess.run([str(SCRIPT)], env=os.environ, check=False).returncode:
        pytest.exit("the machine is not ready for the tests (above)", returncode=1)
