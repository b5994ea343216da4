"""The load run, short: 10 locust shoppers for 10 s against gunicorn on PostgreSQL, through the
same entry point as `make soak` (50 shoppers for 60 s). See bench/run_soak.py."""

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from bench.run_soak import held_past_share, renewed_holds

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # locust against gunicorn for 10 s
@pytest.mark.postgres(reason="the load run is gunicorn on a PostgreSQL database of its own")
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
    assert figures["orders_checked_out"] > 0  # carts of several parts, one order each
    assert figures["holds_released"] > 0
    assert figures["stock_mismatches"] == []
    assert figures["order_mismatches"] == []
    assert figures["parts_checked"] > 0
    assert figures["orders_audited"] >= figures["orders_placed"]
    assert figures["held_past_share"] == []
    assert figures["renewed_holds"] == []
    assert figures["verdict"] == "pass"
    assert run.returncode == 0


T0 = datetime(2026, 1, 1, tzinfo=UTC)
HOLD = timedelta(minutes=30)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_the_audit_finds_an_account_past_its_share():
    """Movements (part, order, change, stock after, account, at, minimum, expires) of one part
    of 17: account 1 takes 8 (its share), then 1 more, which passes it; account 2's order
    after a delete is within its own."""
    rows = [
        (1, 10, -8, 9, 1, at(0), 1, at(0) + HOLD),
        (1, 11, -2, 7, 2, at(1), 1, at(1) + HOLD),
        (1, 11, +2, 9, None, at(2), 1, at(1) + HOLD),  # deleted
        (1, 12, -4, 5, 2, at(3), 1, at(3) + HOLD),
        (1, 13, -1, 4, 1, at(4), 1, at(0) + HOLD),
    ]
    assert held_past_share(rows, Decimal("0.5")) == ["part 1, order 13: account 1 held 9 > 6"]
    assert held_past_share(rows[:4], Decimal("0.5")) == []


def test_the_audit_counts_lapsed_holds_out_and_keeps_to_the_minimum():
    rows = [
        (1, 10, -5, 5, 1, at(0), 5, at(0) + HOLD),  # a lot of 5: the minimum allows it
        (1, 10, +5, 10, None, at(1), 5, at(0) + HOLD),
        (1, 11, -3, 7, 1, at(2), 1, at(2) + timedelta(seconds=1)),
        (1, 12, -3, 4, 1, at(5), 1, at(5) + HOLD),  # 11 lapsed at 3 s: 3 held, not 6
    ]
    assert held_past_share(rows, Decimal("0.5")) == []


def test_the_audit_finds_a_renewed_hold():
    """(order, account, part, created, expires): account 1 orders part 1 again while its first
    hold runs; once it lapsed a fresh hold is fine; another part or account has its own."""
    rows = [
        (10, 1, 1, at(0), at(0) + HOLD),
        (11, 1, 1, at(60), at(0) + HOLD),  # carried over: fine
        (12, 1, 2, at(61), at(61) + HOLD),
        (13, 2, 1, at(62), at(62) + HOLD),
        (14, 1, 1, at(2000), at(2000) + HOLD),  # after the first lapsed: fresh, fine
        (15, 1, 1, at(2100), at(2100) + HOLD),  # renewed
    ]
    assert renewed_holds(rows) == [
        f"order 15 expires {at(2100) + HOLD}, its account's hold {at(2000) + HOLD}"
    ]
    assert renewed_holds(rows[:5]) == []
