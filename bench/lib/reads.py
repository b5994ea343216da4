"""Requests/s and p99 latency of the pages and API reads, each measured in rounds that
alternate with a bare Django view (bare, path, bare, path, …, bare), so a ratio to the bare
view holds on a machine whose speed drifts during the run."""

from collections.abc import Callable
from dataclasses import dataclass
from statistics import mean

from bench.lib import load
from bench.lib.report import Row, Section, table

BARE = "/bench/bare"


@dataclass(frozen=True)
class Paired:
    """A path's runs and the bare view's runs around them."""

    pages: list[load.Load]
    bares: list[load.Load]

    @staticmethod
    def rps_of(runs: list[load.Load]) -> float:
        return sum(run.requests for run in runs) / sum(run.seconds for run in runs)

    @property
    def rps(self) -> float:
        return self.rps_of(self.pages)

    @property
    def p99(self) -> float:
        return mean(run.p99_ms for run in self.pages)

    @property
    def errors(self) -> int:
        return sum(run.errors for run in self.pages)

    @property
    def bare_rps(self) -> float:
        return self.rps_of(self.bares)

    @property
    def bare_p99(self) -> float:
        return mean(run.p99_ms for run in self.bares)

    @property
    def share(self) -> float:
        """The page's requests/s as a share of the bare view's."""
        return self.rps / self.bare_rps

    @property
    def p99_factor(self) -> float:
        return self.p99 / self.bare_p99


class Reads:
    """wrk runs against one server; every run is kept for the details table."""

    def __init__(
        self,
        base_url: str,
        *,
        seconds: int,
        warmup: int,
        headers: Callable[[str], dict[str, str]],
        log: Callable[[str], None],
    ):
        self.base_url, self.seconds, self.warmup = base_url, seconds, warmup
        self.headers, self.log = headers, log
        self.runs: list[tuple[str, load.Load]] = []

    def run(self, label: str, path: str, seconds: int) -> load.Load:
        result = load.wrk(self.base_url + path, seconds=seconds, headers=self.headers(path))
        self.log(f"{label} {path}: {result.rps:,.0f} req/s, p99 {result.p99_ms:.1f} ms")
        return result

    def measure(self, label: str, paths: list[str], rounds: int) -> dict[str, Paired]:
        """After a warm-up of each path: per path, `rounds` times bare then the path, and a
        last bare."""
        for path in [BARE, *paths]:
            self.run("warm-up", path, self.warmup)
        figures = {}
        for path in paths:
            pages, bares = [], [self.keep(label, BARE)]
            for _ in range(rounds):
                pages.append(self.keep(label, path))
                bares.append(self.keep(label, BARE))
            figures[path] = Paired(pages=pages, bares=bares)
        return figures

    def keep(self, label: str, path: str) -> load.Load:
        result = self.run(label, path, self.seconds)
        self.runs.append((label, result))
        return result

    def details(self) -> list[str]:
        rows = [
            [
                label,
                f"`{run.url.removeprefix(self.base_url)}`",
                f"{run.rps:,.0f}",
                f"{run.p50_ms:.1f} ms",
                f"{run.p99_ms:.1f} ms",
                run.errors,
            ]
            for label, run in self.runs
        ]
        return [
            "## Load runs",
            "",
            f"In order; wrk, {load.CONNECTIONS} connections, {self.seconds} s each.",
            "",
            *table(["run", "path", "req/s", "p50", "p99", "errors"], rows),
        ]


def throughput_rows(figures: dict[str, Paired], targets: list[tuple[str, str, float]]) -> Section:
    """(what, path, share of the bare view's requests/s) → rows; then the p99 rows."""
    section = Section()
    for what, path, share in targets:
        got = figures[path]
        section.rows.append(
            Row(
                f"{what}, req/s",
                f"{got.rps:,.0f} ({got.share:.0%}){errors(got)}",
                f"≥ {share:.0%} of the bare view",
                got.share >= share and not got.errors,
                bare=f"{got.bare_rps:,.0f}",
            )
        )
    return section


def latency_rows(figures: dict[str, Paired], paths: list[str], factor: float) -> Section:
    section = Section()
    for path in paths:
        got = figures[path]
        section.rows.append(
            Row(
                f"p99 latency of `{path}` at {load.CONNECTIONS} connections",
                f"{got.p99:.1f} ms ({got.p99_factor:.1f}×)",
                f"≤ {factor:g}× the bare view's p99",
                got.p99_factor <= factor,
                bare=f"{got.bare_p99:.1f} ms",
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
        change = got.share / before.share - 1
        section.rows.append(
            Row(
                f"{sizes[1]:,} parts: `{path}` (first page), req/s",
                f"{got.rps:,.0f} ({got.share:.0%} of bare; at {sizes[0]} parts "
                f"{before.rps:,.0f}, {before.share:.0%}): {change:+.0%}{errors(got)}",
                f"within {tolerance:.0%} of the {sizes[0]}-part figure",
                change >= -tolerance and not got.errors,
                bare=f"{got.bare_rps:,.0f}",
            )
        )
    return section


def errors(figure: Paired) -> str:
    return f", {figure.errors} failed requests" if figure.errors else ""
