"""/allparts read while orders are placed and deleted at RATE a second, against the same page on
a quiet shop, in the same run (issue 21: a write makes stale what it changed, and the listing is
put together again from the cards kept for the other parts). Import after db.setup().

Runs alternate quiet, busy, busy, quiet, … so a drift in the machine's speed weighs on both
alike. During a busy run a writer places an order of a part on the page's first screen (the
newest part: its card, its stock and its badge change) RATE times a second through
`POST /api/booking` and deletes each again (`DELETE /api/booking/{id}`), from a few threads so
that a slow answer does not slow the pace. The writes share the two workers with the readers:
their own cost is part of what the busy figure pays.
"""

import json
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from bench.lib import load
from bench.lib.orders import order
from bench.lib.report import Row, Section
from catalog.models import Part

RATE = 10  # orders placed a second (each deleted again)
SHARE = 0.8
WRITERS = 4  # threads: an order and its deletion take two answers of a busy server


class Writer:
    """Places an order of `part_id` and deletes it, RATE times a second, until stopped."""

    def __init__(self, base_url: str, *, token: str, part_id: int, quantity: int):
        self.base_url, self.token = base_url, token
        self.body = json.dumps({**order(part_id), "quantity": quantity}).encode()
        self.done = self.failed = 0
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.pace, daemon=True)

    def __enter__(self) -> "Writer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopped.set()
        self.thread.join()

    def pace(self) -> None:
        start, n = time.monotonic(), 0
        with ThreadPoolExecutor(WRITERS) as pool:
            while not self.stopped.is_set():
                pool.submit(self.place_and_delete)
                n += 1
                self.stopped.wait(max(0.0, start + n / RATE - time.monotonic()))

    def place_and_delete(self) -> None:
        try:
            placed = self.call("POST", "/api/booking", self.body)
            self.call("DELETE", f"/api/booking/{placed['_id']}")
            with self.lock:
                self.done += 1
        except (OSError, KeyError, ValueError):
            with self.lock:
                self.failed += 1

    def call(self, method: str, path: str, body: bytes | None = None) -> dict:
        request = urllib.request.Request(
            self.base_url + path,
            data=body,
            method=method,
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"{}")


def measure(base_url: str, *, path: str, token: str, seconds: int, rounds: int) -> Section:
    part = Part.objects.order_by("-created_at", "-id").first()  # on the page's first screen
    url = base_url + path
    runs: dict[str, list[load.Load]] = {"quiet": [], "busy": []}
    writes: list[tuple[int, int, float]] = []  # done, failed, seconds of each busy run
    load.wrk(url, seconds=seconds)  # warm
    for n in range(rounds):
        for case in ("quiet", "busy") if n % 2 == 0 else ("busy", "quiet"):
            if case == "quiet":
                runs[case].append(load.wrk(url, seconds=seconds))
                continue
            with Writer(
                base_url, token=token, part_id=part.pk, quantity=part.minimum_order_quantity
            ) as writer:
                began = time.monotonic()
                runs[case].append(load.wrk(url, seconds=seconds))
                elapsed = time.monotonic() - began
            writes.append((writer.done, writer.failed, elapsed))
    quiet, busy = (load.rate(runs[case]) for case in ("quiet", "busy"))
    share = busy / quiet if quiet else 0.0
    done, failed = sum(w[0] for w in writes), sum(w[1] for w in writes)
    rate = done / sum(w[2] for w in writes)
    errors = sum(run.errors for case in runs.values() for run in case)
    row = Row(
        f"anonymous `{path}` while {RATE} orders a second are placed and deleted, req/s",
        f"{busy:,.0f} against {quiet:,.0f} on a quiet shop ({share:.2f}); {done} orders placed "
        f"and deleted ({rate:.1f} a second), {failed} failed",
        f"≥ {SHARE:.2f} of the quiet page",
        share >= SHARE and failed == 0 and errors == 0 and rate >= 0.9 * RATE,
    )
    details = [
        "## Reads while orders are placed and deleted",
        "",
        f"`{path}`, {rounds} runs of each, {seconds} s, alternating; during each busy run an "
        f"order of part {part.pk} (the newest, on the page's first screen) placed and deleted "
        f"{RATE} times a second.",
        "",
        *load.runs_table(runs),
    ]
    return Section([row], details)
