"""bench.spy: py-spy's stacks counted per step of an order and per kind of work."""

from bench.spy import OTHER, kind, summary

HANDLE = "handle_request (gunicorn/workers/sync.py:184)"
PART = "part_to_order (/work/catalog/selectors.py:170)"
WAIT = "wait (/venv/site-packages/psycopg/connection.py:495)"
LPUSH = "lpush (/venv/site-packages/redis/commands/core.py:5110)"
PUBLISH = "<lambda> (/work/core/background.py:37);run_after_commit (core/background.py:37)"


def test_a_stack_is_of_the_first_kind_it_matches():
    assert kind(f"{HANDLE};{PART};{WAIT}") == "PostgreSQL (its driver, and the wait)"
    assert kind(f"{HANDLE};{PUBLISH};{LPUSH}") == "Redis and the broker"
    assert kind(f"{HANDLE};{PART}") == OTHER


def test_each_step_counts_its_samples_by_kind_in_percent_of_all():
    samples = {
        f"{HANDLE};{PART};{WAIT}": 30,
        f"{HANDLE};{PART}": 10,
        f"{HANDLE};{PUBLISH};{LPUSH}": 20,
        "idle (gunicorn/arbiter.py:1)": 40,
    }
    rows = {line.split(" | ")[0].strip("| "): line.split(" | ")[1:] for line in summary(samples)}
    assert rows["the whole request"][:2] == ["60.0", "30.0"]
    assert rows["the part read"][:2] == ["40.0", "30.0"]
    assert rows["after the commit: the mail task published"][:3] == ["20.0", "0.0", "20.0"]
