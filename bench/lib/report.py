"""bench/results.md: the rows of the issue's table (figure, bare view, target, PASS/FAIL),
then the details behind them."""

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Row:
    what: str
    figure: str
    target: str
    ok: bool
    bare: str = ""  # the same run's bare-view figure, where the target is relative to it


@dataclass
class Section:
    """Rows of the summary table and the lines of their details (Markdown)."""

    rows: list[Row] = field(default_factory=list)
    details: list[str] = field(default_factory=list)


def table(header: list[str], rows: list[list]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def render(*, title: str, intro: list[str], sections: list[Section]) -> str:
    rows = [row for section in sections for row in section.rows]
    lines = [f"# {title}", "", *intro, ""]
    lines += table(
        ["what", "figure", "bare view", "target", "result"],
        [[r.what, r.figure, r.bare or "–", r.target, "PASS" if r.ok else "**FAIL**"] for r in rows],
    )
    lines += ["", f"{sum(r.ok for r in rows)} of {len(rows)} targets pass.", ""]
    for section in sections:
        if section.details:
            lines += [*section.details, ""]
    return "\n".join(lines).rstrip() + "\n"


def kb(size: int) -> str:
    return f"{size / 1024:.1f} KB"


def machine() -> str:
    """The machine the figures were taken on, and how busy it was."""
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        "CPU",
    )
    load_1, load_5, _ = os.getloadavg()
    return f"{os.cpu_count()} × {cpu}; load average {load_1:.1f} (1 min), {load_5:.1f} (5 min) at the start"
