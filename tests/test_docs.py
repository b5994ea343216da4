"""The README and docs/ stand on their own (every link points inside the repository), and the
operations guide's first hour is true and works as typed."""

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: path.name)
def test_no_path_outside_the_repository(doc):
    text = doc.read_text()

    assert "../" not in text
    assert "shared/" not in text


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: path.name)
def test_every_relative_link_exists(doc):
    for target in LINK.findall(doc.read_text()):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        assert (doc.parent / path).exists(), f"{doc.name} links to a missing {target}"


def test_the_readme_links_every_guide():
    readme = (ROOT / "README.md").read_text()

    for guide in sorted((ROOT / "docs").glob("*.md")):
        assert f"(docs/{guide.name})" in readme, guide.name


# --- The first hour (docs/operations.md): true to the demo data, its commands work as typed ----

MANAGE = ".venv/bin/python manage.py "
INTERACTIVE = {"createsuperuser"}  # asks its questions: parsed here, not run


def first_hour() -> str:
    text = (ROOT / "docs" / "operations.md").read_text()
    return text.split("## The first hour", 1)[1].split("\n## ", 1)[0]


def first_hour_commands() -> list[tuple[str, str]]:
    """(command, what its comment quotes) for every line of the section's shell blocks."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", first_hour(), re.DOTALL):
        for line in block.splitlines():
            command, _, comment = line.strip().partition("#")
            if not command.strip():
                continue
            quoted = re.search(r'"([^"]+)"', comment)
            commands.append((command.strip(), quoted[1] if quoted else ""))
    return commands


def test_the_first_hour_is_true_to_the_demo_data():
    from orders.models import Booking
    from shop import demo_data

    text = " ".join(first_hour().split())

    assert len(demo_data.ORDERS) == 5
    assert "five orders, one in each state" in text
    for order in demo_data.ORDERS:
        assert Booking.State(order.state).label in text
    for account in (demo_data.ADMIN, demo_data.USER):
        assert f"`{account.email}` | `{account.password}`" in text


def test_the_first_hours_total_is_true_to_the_demo_pricing():
    from shop import demo_data

    text = " ".join(first_hour().split())
    express = next(m for m in demo_data.SHIPPING_METHODS if m["name"] == "Express")
    codes = {v["code"]: v for v in demo_data.VOUCHERS}

    assert f'**Express** (${express["bands"][-1][1]}, "{express["eta"]}")' in text
    assert codes["RIDE10"]["kind"] == "percent" and "`ride10`" in text
    assert "(10% off; `FREESHIP` makes shipping free)" in text
    assert codes["FREESHIP"]["kind"] == "shipping"


def test_the_first_hour_commands_are_make_run_and_manage_py():
    commands = [command for command, _ in first_hour_commands()]

    assert commands[0] == "make run"
    assert all(command.startswith(MANAGE) for command in commands[1:])
    assert len(commands) >= 5


@pytest.mark.django_db
def test_the_first_hour_commands_work_as_typed(settings, monkeypatch):
    """Run from the project folder after `make run` (demo data in), in the guide's order, with
    the account the guide signs up first."""
    from io import StringIO

    from django.core.management import call_command, get_commands, load_command_class

    from accounts.models import User
    from accounts.services import user_create
    from catalog.models import Part

    monkeypatch.chdir(ROOT)
    settings.DEBUG = True  # .env's
    call_command("seed_demo", stdout=StringIO())
    user_create(email="owner@example.com", name="Owner", password="owner-secret-1")
    parts = Part.objects.count()

    for command, quoted in first_hour_commands()[1:]:
        name, *args = shlex.split(command.removeprefix(MANAGE))
        load_command_class(get_commands()[name], name).create_parser("manage.py", name).parse_args(
            args
        )
        if name in INTERACTIVE:
            continue
        out, err = StringIO(), StringIO()
        call_command(name, *args, stdout=out, stderr=err)
        assert err.getvalue() == "", command
        assert quoted in out.getvalue(), command

    assert Part.objects.count() == parts + 3
    assert User.objects.get(email="owner@example.com").role == User.Role.ADMIN


def test_the_example_csv_ships_where_the_guide_says():
    assert "import_parts docs/examples/parts.csv" in first_hour()
    assert (ROOT / "docs" / "examples" / "parts.csv").is_file()
