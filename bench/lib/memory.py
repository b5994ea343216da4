"""Memory of the gunicorn workers under a long mixed load: resident size after N and 2N
requests (pages, API reads, searches, signed-in pages), sent over keep-alive connections by
threads of this process."""

import http.client
import itertools
import threading
from collections.abc import Iterator
from pathlib import Path

from bench.lib.report import Row, Section

MB = 1024 * 1024


def rss(pid: int) -> int:
    """Resident memory of a process, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def send(port: int, requests: Iterator[tuple[str, dict]], count: int, clients: int) -> int:
    """`count` GETs from `requests` over `clients` connections; the answers that were not
    2xx/3xx."""
    lock, failures = threading.Lock(), [0]
    numbers = iter(range(count))

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while True:
            with lock:
                if next(numbers, None) is None:
                    return
                path, headers = next(requests)
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status >= 400:
                with lock:
                    failures[0] += 1

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures[0]


def section(
    server, mix: list[tuple[str, dict]], *, half: int, limit_mb: int, flat_mb: int, clients: int
) -> Section:
    """Worker memory after `half` and 2 × `half` requests of `mix` in turn."""
    requests = itertools.cycle(mix)
    port = int(server.url.rsplit(":", 1)[1])
    failed = send(port, requests, half, clients)
    middle = {pid: rss(pid) for pid in server.worker_pids()}
    failed += send(port, requests, half, clients)
    end = {pid: rss(pid) for pid in server.worker_pids()}
    biggest = max(end.values()) / MB
    growth = max(end[pid] - middle.get(pid, 0) for pid in end) / MB
    figure = (
        f"largest worker {biggest:.0f} MB after {2 * half:,} requests; grew at most "
        f"{growth:+.1f} MB from {half:,} to {2 * half:,}"
        + (f"; {failed} failed requests" if failed else "")
    )
    row = Row(
        f"gunicorn worker memory, {2 * half:,} mixed requests",
        figure,
        f"≤ {limit_mb} MB, growth ≤ {flat_mb} MB from {half:,} to {2 * half:,}",
        biggest <= limit_mb and growth <= flat_mb and not failed and middle.keys() == end.keys(),
    )
    details = [
        "## Worker memory",
        "",
        f"{2 * half:,} GETs over {clients} keep-alive connections, these in turn: "
        + ", ".join(f"`{path}`" for path, _ in mix[:12])
        + (" …" if len(mix) > 12 else "")
        + ". Resident size (VmRSS) of each worker:",
        "",
        *[
            f"- worker {pid}: {middle.get(pid, 0) / MB:.1f} MB after {half:,}, "
            f"{end[pid] / MB:.1f} MB after {2 * half:,}"
            for pid in sorted(end)
        ],
    ]
    return Section([row], details)
