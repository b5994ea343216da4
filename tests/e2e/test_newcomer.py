"""`make run` as a newcomer meets it, in Chromium.

The shop runs exactly as `make run` runs it once set up: `python -m scripts.run --port N` (the
Makefile's recipe) on a `.env` written by the Makefile's own rule, in an environment with none
of the tests' settings, its own SQLite database. So the fake Stripe, its URLs and keys, SITE_URL
and the demo data all come from the code path a newcomer gets; nothing is injected into the page.
"""

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scripts.servers import ROOT, free_port
from shop import demo_data
from tests.e2e.conftest import shot

PAID = "Congrats! Your payment is completed."
# What a newcomer's shell has: none of the shop's settings (the tests' are dropped).
KEPT = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TERM")
REQUEST_LOG = re.compile(r'^\[\d{2}/\w{3}/\d{4} [\d:]{8}\] "[A-Z]+ ')  # runserver's
UNPAID = next(order for order in demo_data.ORDERS if order.state == "unpaid")
NOT_FOR_MT07 = "Stainless Slip-On Exhaust Muffler 51 mm"  # shop/demo_fitment.py


class MadeRun:
    """scripts/run.py running, and every line it has printed so far."""

    def __init__(self, folder: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {name: os.environ[name] for name in KEPT if name in os.environ}
        env |= {"ENV_FILE": str(folder / ".env")}
        # .env names `sqlite:///db.sqlite3` (the checkout's own): this run gets a database of its own.
        env |= {"DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}"}
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scripts.run", "--port", str(self.port)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # Ctrl-C is sent to its group, as a terminal does
        )
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, pattern: str, timeout: float) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.output, re.MULTILINE)
            if found:
                return found
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        raise AssertionError(f"{pattern!r} never printed; the output:\n{self.output}")

    def ctrl_c(self) -> int:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
        return self.process.wait(timeout=60)


def answers(url: str) -> bool:
    host, port = url.removeprefix("http://").split(":")
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
        return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def made_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("make-run")
    subprocess.run(
        ["make", "-s", "-f", str(ROOT / "Makefile"), "-C", str(folder), ".env"],
        check=True,
        capture_output=True,
        timeout=60,
    )
    run = MadeRun(folder)
    # Migrating a new SQLite database and seeding it takes a while on a busy machine.
    run.wait_for(rf"^  Shopper: +{re.escape(demo_data.USER.email)}", timeout=240)
    time.sleep(2)  # anything printed late would show by now
    # What it printed before any test used it: pytest runs the browser tests of this module
    # first (they are parametrised by browser), and their requests and payments log lines.
    run.before_use = [line for line in run.lines if line.strip()]
    yield run
    run.ctrl_c()


@pytest.fixture
def newcomer(page, made_run):
    page.set_default_timeout(15_000)
    return page


def fake_stripe_url(made_run) -> str:
    return made_run.wait_for(r"localstripe, (http://127\.0\.0\.1:\d+)", timeout=1)[1]


def test_the_demo_accounts_are_printed_last_and_no_mail(made_run):
    lines = made_run.before_use
    last = max(i for i, line in enumerate(lines) if line.startswith("  Shopper:"))

    assert lines[last - 2 : last + 1] == [
        "Demo accounts:",
        "  Shop admin:  admin@example.com  password: admin123  "
        "(also logs in to the Django admin at /admin/)",
        "  Shopper:     user@example.com   password: user123",
    ]
    # After them, only the server's log of the requests it answers (none of ours yet; another
    # process may knock on a free port): nothing the run prints itself.
    assert [line for line in lines[last + 1 :] if not REQUEST_LOG.match(line)] == []
    assert "Starting development server" in "\n".join(lines[:last])  # runserver's banner: before
    printed = "\n".join(lines)
    assert "4242 4242 4242 4242" in printed
    for mail_header in ("Subject:", "Content-Type:", "MIME-Version:"):
        assert mail_header not in printed


def test_the_fake_stripe_listens_on_loopback_only(made_run):
    port = int(fake_stripe_url(made_run).rsplit(":", 1)[1])
    listening = Path("/proc/net/tcp").read_text() + Path("/proc/net/tcp6").read_text()
    sockets = [line.split() for line in listening.splitlines()[1:] if len(line.split()) > 3]
    local = [fields[1] for fields in sockets if fields[3] == "0A"]  # 0A: LISTEN
    ours = [address for address in local if int(address.rsplit(":", 1)[1], 16) == port]

    assert ours == ["0100007F:" + f"{port:04X}"]  # 127.0.0.1, nothing else


def sign_in_as_the_demo_shopper(page, url: str) -> None:
    page.goto(f"{url}/login")
    page.get_by_label("Email").fill(demo_data.USER.email)
    page.get_by_label("Password").fill(demo_data.USER.password)
    page.get_by_role("button", name="Login", exact=True).click()
    expect(page.get_by_role("button", name=re.compile(r"\(Sign Out\)"))).to_be_visible()


def type_card(page, number: str) -> None:
    """Type the card key by key, as a person does (spaces and all)."""
    for placeholder, value in [
        ("number", number),
        ("exp_month", "12"),
        ("exp_year", "30"),
        ("cvc", "123"),
        ("postal_code", "12345"),
    ]:
        field = page.get_by_placeholder(placeholder, exact=True)
        field.fill("")
        field.press_sequentially(value)


def test_a_newcomer_pays_the_unpaid_demo_order_by_card(newcomer, made_run):
    page = newcomer
    sign_in_as_the_demo_shopper(page, made_run.url)
    page.goto(f"{made_run.url}/dashboard/myorder")
    row = page.get_by_role("row").filter(has_text=UNPAID.part)
    row.get_by_role("link", name="Pay").click()
    expect(page).to_have_url(re.compile(r"/dashboard/payment/\d+$"))
    pay = page.get_by_role("button", name="Pay", exact=True)
    expect(pay).to_be_enabled()

    type_card(page, "4242 4242 4242")
    pay.click()
    incomplete = page.get_by_role("alert").filter(has_text="Your card number is incomplete.")
    expect(incomplete).to_be_visible()

    type_card(page, "4000 0000 0000 0341")
    pay.click()
    declined = page.get_by_role("alert").filter(has_text="Your card was declined.")
    expect(declined).to_be_visible()
    expect(declined).to_have_class(re.compile(r"\btext-error\b"))
    shot(page, "newcomer-declined")

    type_card(page, "4242 4242 4242 4242")
    pay.click()
    expect(page.get_by_text(PAID)).to_be_visible()
    transaction = page.get_by_text(re.compile(r"^Your transaction Id: pi_\w+$"))
    expect(transaction).to_be_visible()
    transaction_id = transaction.inner_text().removeprefix("Your transaction Id: ")
    expect(page.get_by_text("Bad request")).to_have_count(0)
    shot(page, "newcomer-paid")

    page.get_by_role("link", name="Back to My Order").click()
    row = page.get_by_role("row").filter(has_text=UNPAID.part)
    expect(row).to_contain_text("Paid")
    expect(row).to_contain_text(transaction_id)
    # The fake Stripe's webhooks reach the shop too, signed with this run's secret.
    made_run.wait_for(r'"POST /api/stripe/webhook HTTP/1\.1" 200 ', timeout=20)


def test_links_in_pages_and_mail_use_the_port(newcomer, made_run):
    page = newcomer
    page.goto(f"{made_run.url}/parts/1")
    structured = page.locator('script[type="application/ld+json"]').first.text_content()
    assert f"{made_run.url}/" in structured
    # The receipt of the payment above, printed by the console mail backend.
    made_run.wait_for(rf"{re.escape(made_run.url)}/dashboard/", timeout=20)
    assert "127.0.0.1:8000" not in made_run.output


def test_a_newcomer_picks_a_bike_and_shops_for_it(newcomer, made_run):
    """make run's SQLite once answered 500 on every page with a fit badge, and on the cart,
    as soon as a bike was chosen."""
    page, mt07 = newcomer, "2019 Yamaha MT-07"
    page.goto(f"{made_run.url}/allparts")
    for label, option in (("Make", "Yamaha"), ("Model", "MT-07"), ("Year", "2019")):
        page.get_by_label(label, exact=True).select_option(option)  # filled by the script
    page.get_by_role("button", name="Show parts for this bike").click()
    expect(page.get_by_role("heading", name=f"Parts that fit your {mt07}")).to_be_visible()

    page.get_by_role("link", name="Show all parts").click()
    exhaust = page.locator("article").filter(has_text=NOT_FOR_MT07)
    expect(exhaust.get_by_text(f"Does not fit your {mt07}")).to_be_visible()
    exhaust.get_by_role("link", name=NOT_FOR_MT07).click()
    expect(page.get_by_role("heading", name=NOT_FOR_MT07)).to_be_visible()
    expect(page.get_by_test_id("fit-badge")).to_have_text(f"Does not fit your {mt07}")
    page.get_by_role("button", name="Add to cart").click()
    expect(page.get_by_text("Added to cart")).to_be_visible()

    page.goto(f"{made_run.url}/cart")
    expect(page.get_by_text(f"Does not fit your {mt07}")).to_be_visible()
    page.goto(made_run.url)
    expect(page.get_by_test_id("fit-badge").filter(has_text=mt07).first).to_be_visible()
    assert page.goto(f"{made_run.url}/allparts?fits=junk").status == 200


def test_ctrl_c_stops_the_shop_and_the_fake_stripe(made_run):
    fake = fake_stripe_url(made_run)
    assert answers(made_run.url) and answers(fake)

    made_run.ctrl_c()

    assert not answers(made_run.url)
    assert not answers(fake)
