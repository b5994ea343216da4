"""`make run` and its set-up: what it runs, when it starts the fake Stripe, what it installs.

The run itself, in Chromium: tests/e2e/test_newcomer.py.
"""

import json
import os
import subprocess
from pathlib import Path

import environ
import pytest

from scripts import run

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("variables", "wanted"),
    [
        ({"DEBUG": "1"}, True),
        ({"DEBUG": "true", "STRIPE_SECRET_KEY": ""}, True),
        ({"DEBUG": "0"}, False),  # production settings never start it
        ({}, False),
        ({"DEBUG": "1", "STRIPE_SECRET_KEY": "sk_test_own"}, False),  # keys of one's own win
    ],
)
def test_the_fake_stripe_only_in_development_without_keys(monkeypatch, variables, wanted):
    for name in ("DEBUG", "STRIPE_SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)

    assert run.fake_stripe_wanted(environ.Env()) is wanted


@pytest.mark.parametrize(
    ("variables", "expected"),
    [
        ({}, "http://127.0.0.1:8123"),  # the port it serves on
        ({"SITE_URL": ""}, "http://127.0.0.1:8123"),
        ({"SITE_URL": "https://shop.example.com"}, "https://shop.example.com"),  # set: kept
    ],
)
def test_site_url_follows_the_port_unless_set(monkeypatch, variables, expected):
    monkeypatch.delenv("SITE_URL", raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)

    assert run.site_url(environ.Env(), 8123) == expected


def make_dry_run(*targets: str) -> list[str]:
    """The commands `make` would run (nothing is run), also when the tests run under `make`."""
    # Under `make test ARGS=...` (as .ci/run calls it) make passes ARGS down in the environment too.
    inherited = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "ARGS"}
    env = {k: v for k, v in os.environ.items() if k not in inherited}
    result = subprocess.run(
        ["make", "-n", "-B", "--no-print-directory", *targets],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_make_run_runs_the_run_script_on_the_port():
    commands = make_dry_run("run", "PORT=18123")

    assert commands[-1] == ".venv/bin/python -m scripts.run --port 18123"
    installs = [line for line in commands if "pip install" in line]
    assert any("-r requirements-run.txt" in line for line in installs)
    assert not any("requirements-dev.txt" in line for line in installs)  # no test tools


def test_npm_installs_exactly_the_lock_file():
    commands = make_dry_run("frontend/node_modules/.installed")

    assert "cd frontend && npm ci --no-audit --no-fund" in commands
    assert not any("npm install" in line for line in commands)


def test_the_lock_file_is_complete():
    """Every optional package (each platform's build of esbuild, Biome, Tailwind's engine…)
    has its entry: `npm ci` installs from it as it stands and never rewrites it."""
    lock = json.loads((ROOT / "frontend" / "package-lock.json").read_text())
    packages = lock["packages"]

    missing = [
        f"{name} of {path}"
        for path, package in packages.items()
        for name in package.get("optionalDependencies", {})
        if f"node_modules/{name}" not in packages
    ]
    assert missing == []
    assert "node_modules/@esbuild/darwin-arm64" in packages


def test_the_docker_image_installs_neither_the_fake_stripe_nor_the_test_tools():
    dockerfile = (ROOT / "Dockerfile").read_text()

    assert "pip install -r requirements.txt" in dockerfile
    assert "requirements-run" not in dockerfile
    assert "requirements-dev" not in dockerfile
    assert "npm ci" in dockerfile
    assert "localstripe" not in (ROOT / "requirements.txt").read_text()
