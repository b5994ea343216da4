"""Order e-mails, as an SMTP server on loopback receives them (tests/smtp_fake.py).

These tests commit (transactional_db): the mail is written into the outbox in the order's
transaction and goes out after it commits, from a background thread of this process (no
broker). background.wait_idle() waits for that thread.
"""

import logging
import time
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from post_office.models import STATUS, Email

from accounts.tests.factories import AdminFactory, UserFactory
from catalog.stock import stock_adjust, stock_fell_below_minimum
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from core import background
from core.outbox import outbox_send
from orders import emails, services
from orders.models import Booking
from orders.tests.factories import BookingFactory
from orders.tests.stripe_helpers import intent_event, intent_id_of, pay, signed
from pricing.tests.factories import method, tax_rate
from tests.smtp_fake import SilentServer
from tests.stripe_fake import free_port

pytestmark = pytest.mark.django_db(transaction=True)

SITE = "https://shop.example.test"


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = SITE
    settings.SHOP_NAME = "Throttle & Gear"
    settings.DEFAULT_FROM_EMAIL = "shop@throttle.example"


@pytest.fixture
def admins(db):
    """Who gets admin mail: admins and superusers who are active; not an inactive admin."""
    AdminFactory(email="boss@example.com")
    UserFactory(email="root@example.com", is_superuser=True, is_staff=True)
    AdminFactory(email="gone@example.com", is_active=False)
    return ["boss@example.com", "root@example.com"]


def place(client, part, quantity=2):
    return client.post(
        "/api/booking",
        {"partId": part.pk, "quantity": quantity, "address": "1 Road", "phone": "+441130000000"},
        format="json",
    )


def ORDER_OF_THREE(part):
    return {"partId": part.pk, "quantity": 3, "address": "1 Road", "phone": "+441130000000"}


def parts(message):
    """The plain-text and HTML bodies of a message."""
    return (
        message.get_body(("plain",)).get_content(),
        message.get_body(("html",)).get_content(),
    )


def settle():
    assert background.wait_idle(timeout=20)


def test_placing_an_order_mails_the_shopper_a_link_to_pay(mailbox, as_user, user):
    part = PartFactory(name="Chain kit 520", price=Decimal("40.00"), available_quantity=10)

    response = place(as_user, part, quantity=3)
    settle()

    assert response.status_code == 201
    order_id = response.json()["insertedId"]
    [message] = mailbox
    assert message.envelope_to == [user.email]
    assert message["To"] == user.email
    assert message["Subject"] == f"Order #{order_id} placed"
    assert message["From"] == "Throttle & Gear <shop@throttle.example>"
    text, html = parts(message)
    pay_url = f"{SITE}/dashboard/payment/{order_id}"
    for body in (text, html):
        assert "Chain kit 520" in body
        assert "$120.00" in body
        assert pay_url in body
    assert "Part:\r\n  3 × Chain kit 520 at $40.00: $120.00\r\nUnits:          3" in text
    assert f'href="{pay_url}"' in html
    assert "Please pay by" in text  # the order holds its parts until its hold lapses


def test_the_placed_mail_shows_the_breakdown(mailbox, as_user, settings):
    settings.SHOP_COUNTRY, settings.PRICES_INCLUDE_TAX = "DE", True
    tax_rate("DE", "19")
    express = method("Express", bands=[(30000, "14.99")], eta="1–2 business days")
    part = PartFactory(name="Chain kit 520", price=Decimal("40.00"), available_quantity=10)

    response = as_user.post(
        "/api/booking",
        {**ORDER_OF_THREE(part), "shippingMethod": express.pk},
        format="json",
    )
    settle()

    assert response.status_code == 201
    [message] = mailbox
    text, html = parts(message)
    assert (
        "Subtotal:       $120.00\r\nShipping:       Express: $14.99\r\n"
        "Tax:            Includes $21.55 tax\r\nTotal:          $134.99"
    ) in text
    for shown in ("Subtotal", "$120.00", "Express: $14.99", "Includes $21.55 tax", "$134.99"):
        assert shown in html
    assert "Discount" not in text


def test_the_paid_mail_shows_the_discount_and_free_shipping(mailbox, admins):
    booking = BookingFactory(
        quantity=2,
        part__price=Decimal("50.00"),
        subtotal=Decimal("100.00"),
        discount=Decimal("10.00"),
        voucher_code="RIDE10",
        shipping_method="Standard",
        tax=Decimal("0"),
        total_price=Decimal("90.00"),
    )

    assert services.booking_mark_paid(booking_id=booking.pk, transaction_id="pi_breakdown")
    settle()

    [receipt] = mailbox.to(booking.user.email)
    text, html = parts(receipt)
    assert (
        "Subtotal:       $100.00\r\nDiscount (RIDE10): -$10.00\r\n"
        "Shipping:       Standard: Free\r\nTax:            $0.00\r\nTotal:          $90.00"
    ) in text
    for shown in ("Discount (RIDE10)", "-$10.00", "Standard: Free", "$90.00"):
        assert shown in html


def test_the_paid_mail_links_the_invoice(mailbox, admins):
    booking = BookingFactory(quantity=1, part__price=Decimal("75.00"))

    assert services.booking_mark_paid(booking_id=booking.pk, transaction_id="pi_invoice")
    settle()

    number = Booking.objects.get(pk=booking.pk).invoice_number
    assert number
    link = f"{SITE}/dashboard/orders/{booking.pk}/invoice"
    [receipt] = mailbox.to(booking.user.email)
    text, html = parts(receipt)
    assert f"Invoice:        {number}, {link}" in text
    assert f'Invoice: <a href="{link}">{number}</a>' in html


def test_links_are_at_site_url_whatever_host_the_order_came_through(mailbox, as_user, settings):
    """Mail links come from SITE_URL, never from the request's Host."""
    settings.ALLOWED_HOSTS = ["*"]
    part = PartFactory(available_quantity=10)

    response = as_user.post(
        "/api/booking",
        {"partId": part.pk, "quantity": 2, "address": "1 Road", "phone": "+441130000000"},
        format="json",
        HTTP_HOST="evil.example:6666",
        HTTP_X_FORWARDED_PROTO="https",
    )
    settle()

    assert response.status_code == 201
    [message] = mailbox
    for body in parts(message):
        assert f"{SITE}/dashboard/payment/{response.json()['insertedId']}" in body
        assert "evil.example" not in body


def test_a_refused_order_sends_nothing(mailbox, as_user):
    part = PartFactory(available_quantity=1, minimum_order_quantity=1)

    assert place(as_user, part, quantity=5).status_code == 400
    settle()

    assert mailbox == []


def test_marking_paid_sends_a_receipt_and_tells_every_admin_once(mailbox, admins):
    booking = BookingFactory(quantity=2, part__price=Decimal("624.50"))

    assert services.booking_mark_paid(booking_id=booking.pk, transaction_id="pi_receipt_42")
    assert not services.booking_mark_paid(booking_id=booking.pk, transaction_id="pi_other")
    settle()

    [receipt] = mailbox.to(booking.user.email)
    assert receipt["Subject"] == f"Order #{booking.pk} paid: your receipt"
    text, html = parts(receipt)
    for body in (text, html):
        assert "pi_receipt_42" in body
        assert "$1,249.00" in body  # money written as on the pages
        assert f"{SITE}/dashboard/myorder" in body
    admin_mail = [message for message in mailbox if message is not receipt]
    assert sorted(address for m in admin_mail for address in m.envelope_to) == admins
    for message in admin_mail:
        assert message["Subject"] == f"New paid order: Order #{booking.pk}, $1,249.00"
        text, html = parts(message)
        assert "pi_receipt_42" in text and booking.email in text
        assert f'href="{SITE}/dashboard/manageorders"' in html


def test_paid_through_the_api_patch_mails_too(mailbox, admins, stripe_on, as_user, user):
    booking = BookingFactory(user=user)
    secret = as_user.post(
        "/api/create-payment-intent", {"booking": booking.pk}, format="json"
    ).json()["clientSecret"]
    intent = pay(intent_id_of(secret))

    patch = {"transactionId": intent.id}
    assert as_user.patch(f"/api/booking/{booking.pk}", patch, format="json").status_code == 200
    assert as_user.patch(f"/api/booking/{booking.pk}", patch, format="json").status_code == 200
    settle()

    subjects = sorted(message["Subject"] for message in mailbox)
    assert subjects == [
        f"New paid order: Order #{booking.pk}, ${booking.total_price:,.2f}",
        f"New paid order: Order #{booking.pk}, ${booking.total_price:,.2f}",
        f"Order #{booking.pk} paid: your receipt",
    ]
    assert intent.id in parts(mailbox.to(user.email)[0])[0]


def test_approving_mails_the_shopper_that_it_shipped_once(mailbox, as_admin):
    booking = BookingFactory(paid_order=True)

    for _ in range(2):
        response = as_admin.put(f"/api/booking/{booking.pk}", {"status": "approved"}, format="json")
        assert response.status_code == 200
    settle()

    [message] = mailbox
    assert message.envelope_to == [booking.user.email]
    assert message["Subject"] == f"Order #{booking.pk} shipped"
    text, html = parts(message)
    assert booking.address in text and booking.parts_name in html


def test_low_stock_is_mailed_to_admins_on_the_crossing_only(mailbox, admins, as_user, user):
    part = PartFactory(name="Clutch lever", minimum_order_quantity=2, available_quantity=6)

    assert place(as_user, part, quantity=3).status_code == 201  # 6 → 3: still orderable
    settle()
    assert [m.envelope_to for m in mailbox] == [[user.email]]  # the placed mail only

    # Other shoppers: one account may hold at most half of a part's stock (MAX_HELD_SHARE).
    mailbox.clear()
    assert place(bearer_client(UserFactory()), part, quantity=2).status_code == 201  # 3 → 1
    settle()
    low = [m for m in mailbox if m["Subject"].startswith("Low stock")]
    assert sorted(address for m in low for address in m.envelope_to) == admins
    assert low[0]["Subject"] == "Low stock: Clutch lever (1 left, minimum order 2)"
    text, html = parts(low[0])
    assert f"{SITE}/parts/{part.pk}" in text  # the part's public page
    assert f'href="{SITE}/dashboard/manageparts"' in html

    # Restocked to its minimum or more, the next crossing is reported again.
    mailbox.clear()
    stock_adjust(part=part, change=1, note="received", by=None)  # 1 → 2
    assert place(bearer_client(UserFactory()), part, quantity=2).status_code == 201  # 2 → 0
    settle()
    assert len([m for m in mailbox if m["Subject"].startswith("Low stock")]) == 2


def test_a_hand_change_across_the_minimum_is_mailed_too(mailbox, admins):
    """BEYOND.md: each part whose stock falls below its minimum order quantity, a write-off
    in Adjust stock as much as an order."""
    part = PartFactory(name="Clutch lever", minimum_order_quantity=6, available_quantity=520)

    stock_adjust(part=part, change=-10, note="damaged", by=None)  # 520 → 510: above
    settle()
    assert mailbox == []
    stock_adjust(part=part, change=-507, note="written off", by=None)  # 510 → 3: crossed
    settle()
    subjects = [m["Subject"] for m in mailbox]
    assert subjects == ["Low stock: Clutch lever (3 left, minimum order 6)"] * 2
    assert sorted(m.envelope_to[0] for m in mailbox) == admins
    mailbox.clear()
    stock_adjust(part=part, change=-1, note="lost", by=None)  # 3 → 2: already below
    settle()
    assert mailbox == []


def test_a_part_already_below_its_minimum_is_not_reported_again(mailbox, admins):
    booking = BookingFactory(quantity=1, part__minimum_order_quantity=5)

    assert emails.part_mail_low_stock(booking_id=booking.pk, before=3) == 0  # 3 → 2, both below
    assert emails.part_mail_low_stock(booking_id=booking.pk, before=6) == 0  # 6 → 5, not below
    assert emails.part_mail_low_stock(booking_id=booking.pk, before=5) == 2  # 5 → 4: crossed
    assert stock_fell_below_minimum(before=5, after=4, minimum=5)
    assert not stock_fell_below_minimum(before=4, after=3, minimum=5)


def test_a_cancelled_order_mails_nothing_later(mailbox, admins):
    booking = BookingFactory()
    booking_id = booking.pk
    booking.delete()

    assert emails.booking_mail_placed(booking_id=booking_id) == 0
    assert emails.part_mail_low_stock(booking_id=booking_id, before=2) == 0
    assert mailbox == []


# --- A mail server that is down or hangs never fails or slows an order -------------------


def test_mail_server_down_the_order_is_placed_and_the_failure_logged(settings, as_user, caplog):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nobody listens
    part = PartFactory()

    with caplog.at_level(logging.ERROR, logger="core.outbox"):
        started = time.monotonic()
        response = place(as_user, part)
        elapsed = time.monotonic() - started
        settle()

    assert response.status_code == 201
    assert elapsed < 1
    order_id = response.json()["insertedId"]
    assert Booking.objects.filter(pk=order_id).exists()
    failures = [r for r in caplog.records if f"Order #{order_id} placed" in r.getMessage()]
    assert failures and isinstance(failures[0].exc_info[1], ConnectionRefusedError)
    # Kept in the outbox, to be tried again later.
    [mail] = Email.objects.filter(subject=f"Order #{order_id} placed")
    assert (mail.status, mail.number_of_retries) == (STATUS.requeued, 1)


def test_mail_server_that_hangs_does_not_slow_the_order(settings, as_user, caplog):
    hanging = SilentServer().start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", hanging.port
    settings.EMAIL_TIMEOUT = 5
    part = PartFactory()

    with caplog.at_level(logging.ERROR, logger="core.outbox"):
        try:
            started = time.monotonic()
            response = place(as_user, part)
            elapsed = time.monotonic() - started
            time.sleep(0.3)  # the mail is under way, waiting for the server's greeting
            assert not background.wait_idle(timeout=0)
        finally:
            hanging.stop()  # the server goes away: the waiting mail fails at once
        settle()

    assert response.status_code == 201
    assert elapsed < 1  # against a server that would hold the mail for EMAIL_TIMEOUT (5 s)
    assert Booking.objects.filter(pk=response.json()["insertedId"]).exists()
    order_id = response.json()["insertedId"]
    assert any(f"Order #{order_id} placed" in r.getMessage() for r in caplog.records)


def test_a_broker_that_is_down_falls_back_to_this_process(settings, mailbox, as_user, user):
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/7"
    part = PartFactory()

    started = time.monotonic()
    response = place(as_user, part)
    elapsed = time.monotonic() - started
    settle()

    assert response.status_code == 201
    assert elapsed < 2
    assert [m["Subject"] for m in mailbox.to(user.email)] == [
        f"Order #{response.json()['insertedId']} placed"
    ]


def test_paid_by_stripes_webhook_mails_once_however_often_it_arrives(
    mailbox, admins, stripe_on, anon, as_user, user
):
    booking = BookingFactory(user=user)
    secret = as_user.post(
        "/api/create-payment-intent", {"booking": booking.pk}, format="json"
    ).json()["clientSecret"]
    intent = pay(intent_id_of(secret)).to_dict()

    for event_id in ("evt_mail_1", "evt_mail_1", "evt_mail_2"):  # a repeat and a duplicate
        body, signature = signed(intent_event(event_id, "payment_intent.succeeded", intent))
        response = anon.post(
            "/api/stripe/webhook",
            body,
            content_type="application/json",
            HTTP_STRIPE_SIGNATURE=signature,
        )
        assert response.status_code == 200
    settle()

    assert len(mailbox.to(user.email)) == 1
    assert sorted(address for m in mailbox for address in m.envelope_to) == sorted(
        [user.email, *admins]
    )


def test_lapsed_holds_mail_each_shopper_once(mailbox, user):
    part = PartFactory(name="Chain guide", available_quantity=10, minimum_order_quantity=1)
    others = [UserFactory(email=f"rider{n}@example.com") for n in range(3)]
    orders = [
        services.booking_place(user=u, part=part, quantity=1, address="1 Road", phone="5550100")
        for u in [user, *others]
    ]
    settle()
    mailbox.clear()
    Booking.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    assert services.booking_release_lapsed_holds() == 4
    settle()

    mailbox.wait_for(4)
    assert sorted(m["Subject"] for m in mailbox) == sorted(
        f"Order #{o.pk} expired: it was not paid in time" for o in orders
    )
    assert sorted(a for m in mailbox for a in m.envelope_to) == sorted(
        u.email for u in [user, *others]
    )
    plain, _html = parts(mailbox.to(user.email)[0])
    assert f"{SITE}/parts/{part.pk}" in plain


def test_a_mail_refused_for_a_moment_is_retried_alone(mailbox, smtp_server):
    part = PartFactory(name="Clutch cable", available_quantity=10, minimum_order_quantity=1)
    riders = [UserFactory(email=f"rider{n}@example.com") for n in range(3)]
    orders = [
        services.booking_place(user=u, part=part, quantity=1, address="1 Road", phone="5550100")
        for u in riders
    ]
    settle()
    mailbox.clear()
    Booking.objects.update(released_at=timezone.now())  # expired, as the release leaves them
    smtp_server.refuse_once.add("rider1@example.com")

    # The release writes the three mails; the refused one waits in the outbox for its retry.
    assert services.booking_release_lapsed_holds() == 0  # released already: no mail
    assert sum(emails.booking_mail_expired(booking_id=o.pk) for o in orders) == 3
    settle()
    assert sorted(a for m in mailbox for a in m.envelope_to) == [
        "rider0@example.com",
        "rider2@example.com",
    ]
    assert not smtp_server.refuse_once

    # Its retry is due (as the worker's run every minute finds it): it alone is sent again.
    Email.objects.filter(status=STATUS.requeued).update(scheduled_time=timezone.now())
    assert outbox_send() == 1
    assert outbox_send() == 0
    assert sorted(a for m in mailbox for a in m.envelope_to) == [r.email for r in riders]


def test_the_shipped_mail_carries_the_carrier_and_its_tracking_link(mailbox, as_admin):
    booking = BookingFactory(paid_order=True)
    payload = {"status": "approved", "carrier": "UPS", "trackingNumber": "1Z999AA10123456784"}

    assert as_admin.put(f"/api/booking/{booking.pk}", payload, format="json").status_code == 200
    settle()

    [message] = mailbox
    text, html = parts(message)
    link = "https://www.ups.com/track?tracknum=1Z999AA10123456784"
    assert "Shipped with UPS, tracking 1Z999AA10123456784." in text
    assert f"Track it: {link}" in text
    assert f'<a href="{link}">1Z999AA10123456784</a>' in html
