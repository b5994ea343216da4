"""Whether deploy/gunicorn.conf.py's gc.freeze() pays: the garbage collector's time in each
gunicorn worker over the same mix of requests, with and without it, runs alternating.

    python -m bench.gc_freeze [--requests 10000] [--rounds 2]

Needs the benchmark's database as `make bench` (or `python -m bench.profile`) left it. Each run
starts gunicorn (2 workers) with the production configuration plus a probe (gc.callbacks timing
every collection from the worker's start), sends the requests from 20 threads (visitors' pages,
part pages, searches of the page and the API), stops it and prints what each worker spent.
"""

import argparse
import os
import re
import sys
import tempfile
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.bench import ENV, SEARCH_WORDS
from scripts.servers import GUNICORN_CONF, free_port, spawn, terminate, wait_healthy

PROBE = f"""
import gc, os, time
exec(open({str(GUNICORN_CONF)!r}).read())
_spent = {{"all": 0.0, "longest": 0.0, "start": 0.0, "full": 0}}

def post_worker_init(worker):
    if os.environ.get("PROBE_FREEZE") == "1":
        gc.freeze()
    def timed(phase, info):
        if phase == "start":
            _spent["start"] = time.perf_counter()
            return
        took = time.perf_counter() - _spent["start"]
        _spent["all"] += took
        _spent["longest"] = max(_spent["longest"], took)
        _spent["full"] += info["generation"] == 2
    gc.callbacks.append(timed)

def worker_exit(server, worker):
    print("GC", os.environ.get("PROBE_FREEZE"), round(_spent["all"] * 1000, 1),
          round(_spent["longest"] * 1000, 1), _spent["full"], flush=True)
"""


def paths(count: int) -> list[str]:
    def path(n: int) -> str:
        word = SEARCH_WORDS[n % len(SEARCH_WORDS)]
        return [
            "/",
            "/allparts",
            f"/parts/{1 + n % 100}",
            f"/allparts?q={word}&maxPrice={100000 + n}",
            f"/api/allparts?limit=24&q={word}&maxPrice={100000 + n}",
        ][n % 5]

    return [path(n) for n in range(count)]


def run(freeze: bool, requests: int, conf: Path) -> list[tuple[str, ...]]:
    port = free_port()
    env = {**ENV, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "2"}
    env["PROBE_FREEZE"] = "1" if freeze else "0"
    log = conf.with_suffix(".log")
    log.unlink(missing_ok=True)
    command = [sys.executable, "-m", "gunicorn", "-c", str(conf), "shop.wsgi"]
    process = spawn(command, env=env, log=log)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url + "/health/", process, log, 60)

        def get(path: str) -> None:
            with urllib.request.urlopen(url + path, timeout=30) as response:
                response.read()

        with ThreadPoolExecutor(20) as pool:
            list(pool.map(get, paths(requests)))
    finally:
        terminate(process, 30)
    # One "GC freeze ms longest full" record per worker (two workers may write on one line).
    return re.findall(r"GC ([01]) ([\d.]+) ([\d.]+) (\d+)", log.read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    os.environ.update(ENV)
    print("freeze | GC ms per worker (all collections) | longest ms | full collections", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        conf = Path(folder) / "probe.conf.py"
        conf.write_text(PROBE)
        for _ in range(args.rounds):
            for freeze in (True, False):
                for frozen, spent, longest, full in run(freeze, args.requests, conf):
                    yes = "yes" if frozen == "1" else "no"
                    print(f"{yes} | {spent} | {longest} | {full}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
