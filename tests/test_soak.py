"""The load run, short: 10 locust shoppers for 10 s against gunicorn on PostgreSQL, through the
same entry point as `make soak` (50 shoppers for 60 s). See bench/run_soak.py."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the load run is against gunicorn on PostgreSQL (CI runs on it)",
)


def test_short_load_run_has_no_5xx_and_stock_reconciles_exactly(tmp_path):
    figures_file = tmp_path / "soak.json"
    command = [sys.executable, "-m", "bench.run_soak", "--users=10", "--seconds=10"]
    command += ["--workers=2", f"--csv={tmp_path / 'soak'}", f"--json={figures_file}"]
    command += ["--hold-seconds=3"]  # holds lapse during the run and go back on the shelf
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    print(run.stdout, run.stderr)
    figures = json.loads(figures_file.read_text())

    assert figures["server_errors"] == 0
    assert figures["failed_connections"] == 0
    assert figures["tracebacks"] == 0
    assert figures["orders_placed"] > 0
    assert figures["holds_released"] > 0
    assert figures["stock_mismatches"] == []
    assert figures["order_mismatches"] == []
    assert figures["parts_checked"] > 0
    assert figures["verdict"] == "pass"
    assert run.returncode == 0
