"""Requests/s and p99 latency of the pages and API reads, each measured in rounds that
alternate with the baselines (baseline(s), path, baseline(s), path, …, baseline(s)), so a
ratio to a baseline holds on a machine whose speed drifts during the run.

The baselines: the bare project (bench/bare: startproject's middleware, one view answering
"ok", under its own gunicorn with as many workers) and the shop's own bare view
(`/bench/bare`: the shop's middleware, a short text).
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from statistics import mean

from bench.lib import load
from bench.lib.report import Row, Section, table

PROJECT, VIEW, SEARCH_VIEW = "project", "view", "search"  # the baselines' names
BASELINE_NAMES = {
    PROJECT: "the bare project",
    VIEW: "the bare view",
    SEARCH_VIEW: "the bare search view",
}


@dataclass(frozen=True)
class Target:
    """What one wrk run loads: `label` names it in the report (a path)."""

    label: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    search: list[str] | None = None  # a different search each request (wrk.lua)


def rps_of(runs: list[load.Load]) -> float:
    return sum(run.requests for run in runs) / sum(run.seconds for run in runs)


@dataclass(frozen=True)
class Paired:
    """A path's runs and each baseline's runs around them."""

    pages: list[load.Load]
    bares: dict[str, list[load.Load]]

    @property
    def rps(self) -> float:
        return rps_of(self.pages)

    @property
    def p99(self) -> float:
        return mean(run.p99_ms for run in self.pages)

    @property
    def errors(self) -> int:
        return sum(run.errors for run in self.pages)

    def bare_rps(self, baseline: str = VIEW) -> float:
        return rps_of(self.bares[baseline])

    def bare_p99(self, baseline: str = VIEW) -> float:
        return mean(run.p99_ms for run in self.bares[baseline])

    def share(self, baseline: str = VIEW) -> float:
        """The page's requests/s as a share of the baseline's."""
        return self.rps / self.bare_rps(baseline)

    def p99_factor(self, baseline: str = VIEW) -> float:
        return self.p99 / self.bare_p99(baseline)


class Reads:
    """wrk runs against the shop and the baselines; every run is kept for the details."""

    def __init__(
        self,
        baselines: dict[str, Target],
        *,
        seconds: int,
        warmup: int,
        log: Callable[[str], None],
    ):
        self.baselines, self.seconds, self.warmup, self.log = baselines, seconds, warmup, log
        self.runs: list[tuple[str, str, load.Load]] = []

    def run(self, label: str, target: Target, seconds: int) -> load.Load:
        result = load.wrk(target.url, seconds=seconds, headers=target.headers, search=target.search)
        self.log(f"{label} {target.label}: {result.rps:,.0f} req/s, p99 {result.p99_ms:.1f} ms")
        return result

    def measure(self, label: str, targets: list[Target], rounds: int) -> dict[str, Paired]:
        """After a warm-up of each: per target, the baselines then `rounds` times the target
        and the baselines again."""
        for target in [*self.baselines.values(), *targets]:
            self.run("warm-up", target, self.warmup)
        figures = {}
        for target in targets:
            pages, bares = [], {name: [] for name in self.baselines}
            self.keep_baselines(label, bares)
            for _ in range(rounds):
                pages.append(self.keep(label, target))
                self.keep_baselines(label, bares)
            figures[target.label] = Paired(pages=pages, bares=bares)
        return figures

    def keep_baselines(self, label: str, bares: dict[str, list[load.Load]]) -> None:
        for name, baseline in self.baselines.items():
            bares[name].append(self.keep(label, baseline))

    def keep(self, label: str, target: Target) -> load.Load:
        result = self.run(label, target, self.seconds)
        self.runs.append((label, target.label, result))
        return result

    def details(self) -> list[str]:
        rows = [
            [
                label,
                f"`{what}`",
                f"{run.rps:,.0f}",
                f"{run.p50_ms:.1f} ms",
                f"{run.p99_ms:.1f} ms",
                run.errors,
            ]
            for label, what, run in self.runs
        ]
        return [
            "## Load runs",
            "",
            f"In order; wrk, {load.CONNECTIONS} connections, {self.seconds} s each.",
            "",
            *table(["run", "path", "req/s", "p50", "p99", "errors"], rows),
        ]


def throughput_rows(
    figures: dict[str, Paired], targets: list[tuple[str, str, float]], baseline: str = VIEW
) -> Section:
    """(what, path, share of the baseline's requests/s) → rows."""
    section = Section()
    name = BASELINE_NAMES[baseline]
    for what, path, share in targets:
        got = figures[path]
        section.rows.append(
            Row(
                f"{what}, req/s",
                f"{got.rps:,.0f} ({got.share(baseline):.2f} of {name}){errors(got)}",
                f"≥ {share:.2f} of {name}",
                got.share(baseline) >= share and not got.errors,
                bare=f"{got.bare_rps(baseline):,.0f}",
            )
        )
    return section


def latency_rows(
    figures: dict[str, Paired], paths: list[str], factor: float, baseline: str = VIEW
) -> Section:
    section = Section()
    name = BASELINE_NAMES[baseline]
    for path in paths:
        got = figures[path]
        section.rows.append(
            Row(
                f"p99 latency of `{path}` at {load.CONNECTIONS} connections",
                f"{got.p99:.1f} ms ({got.p99_factor(baseline):.1f}× {name}'s)",
                f"≤ {factor:g}× {name}'s p99",
                got.p99_factor(baseline) <= factor,
                bare=f"{got.bare_p99(baseline):.1f} ms",
            )
        )
    return section


def scale_rows(
    small: dict[str, Paired], large: dict[str, Paired], *, sizes: tuple[int, int], tolerance: float
) -> Section:
    """The large catalog's figure against the small one's, both as shares of their bare view
    (raw requests/s shown too)."""
    section = Section()
    for path, got in large.items():
        before = small[path]
        change = got.share() / before.share() - 1
        section.rows.append(
            Row(
                f"{sizes[1]:,} parts: `{path}` (first page), req/s",
                f"{got.rps:,.0f} ({got.share():.0%} of the bare view; at {sizes[0]} parts "
                f"{before.rps:,.0f}, {before.share():.0%}): {change:+.0%}{errors(got)}",
                f"within {tolerance:.0%} of the {sizes[0]}-part figure",
                change >= -tolerance and not got.errors,
                bare=f"{got.bare_rps():,.0f}",
            )
        )
    return section


def errors(figure: Paired) -> str:
    return f", {figure.errors} failed requests" if figure.errors else ""
