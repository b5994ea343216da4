"""What `POST /api/booking` spends under gunicorn: py-spy samples both workers of the
benchmark's server while wrk places orders from 20 shoppers (as `make bench` does), then
writes bench/profiles/gunicorn-booking.txt: the share of the workers' busy samples spent in
PostgreSQL's driver (waiting for its answers, mostly), in Redis and the broker, building and
compiling SQL, and elsewhere, per step of an order.

    python -m bench.spy [--seconds 15]

py-spy reads the workers' memory (ptrace): run as root, or where ptrace is allowed. Samples
taken while a worker waits for a request are not counted (py-spy leaves idle threads out).
"""

import argparse
import collections
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.lib.report import table

PROFILES = Path(__file__).resolve().parent / "profiles"
PY_SPY = Path(sys.executable).parent / "py-spy"
RATE = 200  # samples a second per worker

# Where a sample is, tried in turn: the first that matches its stack.
KINDS = [
    ("PostgreSQL (its driver, and the wait)", ("psycopg/",)),
    ("Redis and the broker", ("redis/", "kombu/", "celery/")),
    ("compiling SQL (the ORM)", ("db/models/sql/compiler.py",)),
    ("building queries (the ORM)", ("db/models/query.py", "db/models/sql/", "expressions.py")),
]
OTHER = "the rest (Python: DRF, the services, Django)"
# The steps of an order, by a frame of theirs (file:function); a sample counts in each it is in.
STEPS = [
    ("the whole request", "handle_request"),
    ("JWT: the token's user", "authenticate"),
    ("the order throttle", "check_throttles"),
    ("the part read", "part_to_order"),
    ("lapsed holds of the part", "booking_release_lapsed_holds"),
    ("the account's lock and holds", "account_locked_holds"),
    ("kept deadlines", "hold_deadline"),
    ("the parts' locks", "_locked_lines"),
    ("stock taken and its movement", "_reserve"),
    ("version bumps", "versions.py"),
    ("after the commit: the mail task published", "run_after_commit"),
    ("the answer", "booking_json"),
]


def kind(stack: str) -> str:
    for name, marks in KINDS:
        if any(mark in stack for mark in marks):
            return name
    return OTHER


def summary(samples: dict[str, int]) -> list[str]:
    """The table of steps against kinds, in percent of every busy sample."""
    total = sum(samples.values()) or 1
    cells: dict[str, collections.Counter] = {step: collections.Counter() for step, _ in STEPS}
    for stack, count in samples.items():
        for step, mark in STEPS:
            if mark in stack:
                cells[step][kind(stack)] += count
    kinds = [name for name, _ in KINDS] + [OTHER]
    rows = [
        [step, f"{100 * sum(cells[step].values()) / total:.1f}"]
        + [f"{100 * cells[step][name] / total:.1f}" for name in kinds]
        for step, _ in STEPS
    ]
    return table(["step", "% of busy samples", *kinds], rows)


def spy(seconds: int) -> tuple[dict[str, int], float]:
    """Both workers sampled while wrk orders; (stack -> samples, orders a second)."""
    from bench import bench
    from bench.lib import load
    from bench.lib.targets import ENV, OUT
    from scripts.servers import Gunicorn

    shop = bench.prepare()
    from bench.lib import data, orders  # they need Django set up (prepare)

    samples: dict[str, int] = collections.Counter()
    with (
        Gunicorn(env=ENV, log=OUT / "gunicorn.log") as server,
        tempfile.TemporaryDirectory() as tmp,
    ):
        body = json.dumps(orders.order(data.new_part(stock=1_000_000)))
        url = server.url + "/api/booking"
        load.wrk(url, seconds=3, post=(body, shop.tokens))  # warm
        workers = subprocess.run(
            ["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True, check=True
        ).stdout.split()
        spies = [
            subprocess.Popen(
                [
                    PY_SPY,
                    "record",
                    "--pid",
                    pid,
                    "--duration",
                    str(seconds),
                    "--rate",
                    str(RATE),
                    "--format",
                    "raw",
                    "--nonblocking",
                    "--output",
                    f"{tmp}/{pid}.txt",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for pid in workers
        ]
        run = load.wrk(url, seconds=seconds, post=(body, shop.tokens))
        for process in spies:
            process.wait()
        for path in Path(tmp).glob("*.txt"):
            for line in path.read_text().splitlines():
                stack, _, count = line.rpartition(" ")
                samples[stack] += int(count)
    return samples, (run.requests - run.status_errors) / run.seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=15, help="seconds sampled")
    args = parser.parse_args()
    samples, rate = spy(args.seconds)
    lines = [
        "# `POST /api/booking` under gunicorn, sampled",
        "",
        f"`python -m bench.spy --seconds {args.seconds}`: py-spy at {RATE} samples a second in "
        f"each of the 2 sync workers while wrk placed {rate:.0f} orders a second from 20 "
        f"shoppers (slowed by the sampling); {sum(samples.values()):,} busy samples. A sample "
        "counts in every step whose frame it is in (the whole request holds them all) and in "
        "the first kind its stack matches.",
        "",
        *summary(samples),
    ]
    out = PROFILES / "gunicorn-booking.txt"
    out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
