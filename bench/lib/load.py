"""Load on loopback: wrk for throughput and latency, threads for the race for the last stock."""

import json
import subprocess
import threading
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

WRK = "/usr/bin/wrk"
SCRIPT = Path(__file__).with_name("wrk.lua")
CONNECTIONS = 20


@dataclass(frozen=True)
class Load:
    """One wrk run: requests/s, latency percentiles (ms), and what went wrong."""

    url: str
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    status_errors: int  # answers other than 2xx/3xx
    socket_errors: int  # connect, read, write errors and timeouts

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def errors(self) -> int:
        return self.status_errors + self.socket_errors


def rate(runs: list[Load]) -> float:
    """Requests a second over several runs together."""
    return sum(run.requests for run in runs) / sum(run.seconds for run in runs)


def runs_table(runs: dict[str, list[Load]]) -> list[str]:
    """Each run of each case as a Markdown table (the details under a row)."""
    rows = [
        f"| {case} | {run.rps:,.0f} | {run.p99_ms:.1f} ms |"
        for case, r in runs.items()
        for run in r
    ]
    return ["| run | req/s | p99 |", "|---|---|---|", *rows]


def wrk(
    url: str,
    *,
    seconds: int,
    connections: int = CONNECTIONS,
    headers: dict[str, str] | None = None,
    post: tuple[str, list[str]] | None = None,
    search: list[str] | None = None,
) -> Load:
    """GET `url` for `seconds` over `connections` connections; or, with post=(body, tokens),
    POST the JSON body as each token's user in turn; or, with search=words, GET a different
    search of `url` each time (wrk.lua)."""
    command = [WRK, "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s"]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    command += ["-s", str(SCRIPT), url]
    if post:
        body, tokens = post
        command += ["--", body, *tokens]
    elif search:
        command += ["--", "search", *search]
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    line = next((x for x in done.stdout.splitlines() if x.startswith("WRK_JSON ")), None)
    if done.returncode or line is None:
        raise RuntimeError(f"wrk failed ({done.returncode}): {done.stdout}{done.stderr}")
    figures = json.loads(line.removeprefix("WRK_JSON "))
    return Load(
        url=url,
        requests=figures["requests"],
        seconds=figures["duration_us"] / 1e6,
        p50_ms=figures["p50_us"] / 1000,
        p99_ms=figures["p99_us"] / 1000,
        status_errors=figures["status_errors"],
        socket_errors=figures["socket_errors"],
    )


def post_json(url: str, body: dict, token: str, timeout: float = 30) -> int:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0  # no answer at all


def race(url: str, *, body: dict, tokens: list[str], attempts_each: int) -> Counter:
    """Every token's user POSTs `body` `attempts_each` times, all users at once (one thread
    each, started together). The statuses answered, counted (0: no answer)."""
    statuses: Counter = Counter()
    lock = threading.Lock()
    start = threading.Barrier(len(tokens))

    def shopper(token: str) -> None:
        start.wait()
        for _ in range(attempts_each):
            status = post_json(url, body, token)
            with lock:
                statuses[status] += 1

    threads = [threading.Thread(target=shopper, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses
