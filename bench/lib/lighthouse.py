"""Lighthouse (npm, bench/node_modules) driving Debian's Chromium: category scores of a page,
and the audits that cost it points."""

import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from bench.lib.report import Row, Section

BENCH = Path(__file__).resolve().parents[1]
LIGHTHOUSE = BENCH / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync --no-first-run --disable-quic"
)


@dataclass(frozen=True)
class Scores:
    url: str
    scores: dict[str, int]  # category id -> 0..100
    lost: dict[str, list[str]]  # category id -> titles of the audits that cost points


def run(url: str, *, report: Path, timeout: float = 180) -> Scores:
    command = [
        str(LIGHTHOUSE),
        url,
        f"--chrome-flags={CHROME_FLAGS}",
        "--output=json",
        f"--output-path={report}",
        f"--only-categories={','.join(CATEGORIES)}",
        "--quiet",
    ]
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode or not report.exists():
        raise RuntimeError(f"lighthouse {url} failed ({done.returncode}): {done.stderr[-2000:]}")
    return parse(url, json.loads(report.read_text()))


def run_twice(url: str, *, report: Path) -> Scores:
    """run(), once more when Chromium's trace fails (it sometimes does on a busy machine)."""
    try:
        return run(url, report=report)
    except (RuntimeError, subprocess.TimeoutExpired):
        return run(url, report=report)


def parse(url: str, result: dict) -> Scores:
    audits = result["audits"]
    scores, lost = {}, {}
    for category in CATEGORIES:
        data = result["categories"][category]
        scores[category] = round((data["score"] or 0) * 100)
        lost[category] = [
            audits[ref["id"]]["title"]
            for ref in data["auditRefs"]
            if ref["weight"] > 0
            and (audits[ref["id"]].get("score") or 0) < 1
            and audits[ref["id"]].get("scoreDisplayMode") in ("binary", "numeric", "metricSavings")
        ]
    return Scores(url=url, scores=scores, lost=lost)


def section(base_url: str, paths: list[str], *, out: Path, minimum: dict[str, int]) -> Section:
    """A row per page: its four scores against `minimum`; the audits that cost points."""
    result = Section(details=["## Lighthouse", ""])
    result.details += [
        "Mobile preset (simulated slow 4G, 4× slower CPU), Debian's Chromium headless; "
        f"reports in `{out.relative_to(BENCH.parent)}/`. Audits that cost points:",
        "",
    ]
    target = ", ".join(f"{c} ≥ {low}" for c, low in minimum.items())
    for path in paths:
        name = re.sub(r"\W+", "-", path).strip("-") or "home"
        try:
            scores = run_twice(base_url + path, report=out / f"lighthouse-{name}.json")
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as error:
            message = " ".join(str(error).replace("|", "/").split())[:300]
            result.rows.append(
                Row(f"Lighthouse `{path}`", f"did not run: {message}", target, False)
            )
            continue
        figure = ", ".join(f"{c} {scores.scores[c]}" for c in minimum)
        ok = all(scores.scores[c] >= low for c, low in minimum.items())
        result.rows.append(Row(f"Lighthouse `{path}`", figure, target, ok))
        result.details += [
            f"- `{path}` {category}: " + "; ".join(titles)
            for category, titles in scores.lost.items()
            if titles
        ]
    return result
