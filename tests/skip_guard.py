"""pytest plugin: with TEST_FORBID_SKIPS=1 (the default: pyproject.toml's env) a skipped test
fails the run and its reason is printed, so a test that could not run never passes for one that
did."""

import os

import pytest

_skipped: list[tuple[str, str]] = []


def _skips_forbidden() -> bool:
    return os.environ.get("TEST_FORBID_SKIPS", "0") == "1"


def pytest_runtest_logreport(report):
    if report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        _skipped.append((report.nodeid, reason.removeprefix("Skipped: ")))


def pytest_sessionfinish(session, exitstatus):
    if _skips_forbidden() and _skipped and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter):
    if _skips_forbidden() and _skipped:
        terminalreporter.section("skipped tests fail this run (TEST_FORBID_SKIPS=1)", red=True)
        for nodeid, reason in _skipped:
            terminalreporter.write_line(f"SKIPPED {nodeid}: {reason}", red=True)
        terminalreporter.write_line(
            "Make what they need available (the reasons above say what), or run with "
            "TEST_FORBID_SKIPS=0 to accept skips on this machine."
        )
