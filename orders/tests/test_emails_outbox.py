"""Mail is never lost (API.md, "After the sale"): every order mail is written into the outbox
(django-post-office's queue) in the transaction of the change that causes it, and sent once
that commits: by the worker with a broker, by the web process without one. A worker killed
while sending sends the rest when it starts again, and a mail marked sent is never sent again.

These tests commit (transactional_db); deliveries are counted at the loopback SMTP server.
"""

import collections
import os
import signal
import time

import pytest
import redis
from django.db import transaction
from post_office.models import STATUS, Email

from accounts.tests.factories import UserFactory
from catalog.tests.factories import PartFactory
from core import background
from core.outbox import outbox_send
from orders import emails, services
from orders.models import Booking
from orders.tests.factories import BookingFactory
from orders.tests.worker import start_worker, stop_worker, wait_for_text

pytestmark = pytest.mark.django_db(transaction=True)


class RolledBack(Exception):
    pass


def settle():
    assert background.wait_idle(timeout=20)


def place(user, part):
    return services.booking_place(user=user, part=part, quantity=2, address="1 Road", phone="555")


def test_the_mail_is_written_with_the_order_and_rolled_back_with_it(mailbox, user):
    part = PartFactory(name="Fork seal kit", available_quantity=10)

    with pytest.raises(RolledBack), transaction.atomic():
        order = place(user, part)
        # In the order's transaction: its mail is a row of the outbox, queued, not sent.
        [mail] = Email.objects.all()
        assert (mail.subject, mail.to, mail.status) == (
            f"Order #{order.pk} placed",
            [user.email],
            STATUS.queued,
        )
        raise RolledBack

    settle()
    assert not Booking.objects.exists()
    assert not Email.objects.exists()  # gone with the order
    assert mailbox == []  # and nothing was sent


def test_nothing_is_sent_for_a_payment_that_rolls_back(mailbox, admin_user):
    booking = BookingFactory()

    with pytest.raises(RolledBack), transaction.atomic():
        assert services.booking_mark_paid(booking_id=booking.pk, transaction_id="pi_gone")
        assert Email.objects.count() == 2  # the receipt and the admin's mail
        raise RolledBack

    settle()
    assert not Email.objects.exists()
    assert mailbox == []
    booking.refresh_from_db()
    assert not booking.paid


def test_without_a_broker_the_web_process_sends_after_the_commit(settings, mailbox, user):
    assert not settings.CELERY_BROKER_URL  # no REDIS_URL broker: the embedded default
    part = PartFactory(name="Chain guide", available_quantity=10)

    with transaction.atomic():
        order = place(user, part)
        settle()
        assert mailbox == []  # not before the commit

    settle()
    [message] = mailbox.wait_for(1)
    assert message["Subject"] == f"Order #{order.pk} placed"
    assert message.envelope_to == [user.email]
    [mail] = Email.objects.all()
    assert mail.status == STATUS.sent  # marked sent: never sent again
    assert mail.logs.get().status == STATUS.sent
    assert outbox_send() == 0
    assert len(mailbox) == 1


def test_a_mail_marked_sent_is_not_sent_again_and_a_failed_one_can_be_queued_again(mailbox, user):
    part = PartFactory(available_quantity=10)
    order = place(user, part)
    settle()
    assert len(mailbox) == 1

    # Django admin's "Requeue" on a mail that failed (what an operator does to resend it).
    Email.objects.update(status=STATUS.failed)
    assert outbox_send() == 0
    Email.objects.update(status=STATUS.requeued)
    assert outbox_send() == 1

    assert [m["Subject"] for m in mailbox] == [f"Order #{order.pk} placed"] * 2
    assert Email.objects.get().status == STATUS.sent


def test_demo_data_writes_no_mail(mailbox, user):
    with background.muted():
        place(user, PartFactory(available_quantity=10))
    settle()

    assert not Email.objects.exists()
    assert mailbox == []


@pytest.mark.slow
def test_a_worker_killed_while_sending_sends_the_rest_once_when_it_starts_again(
    settings, broker_url, smtp_server, mailbox, tmp_path
):
    """20 mails wait; the worker is killed (SIGKILL) in the middle of the sixth, after five
    were taken and marked sent; its tasks are lost with the broker's queue. Started again,
    its catch-up (beat, every second here) sends the other fifteen: each mail arrives once."""
    settings.CELERY_BROKER_URL = broker_url  # the mails' tasks go to the (stopped) worker
    bookings = [BookingFactory(user=UserFactory(email=f"rider{n}@example.com")) for n in range(20)]
    for booking in bookings:
        assert emails.booking_mail_placed(booking_id=booking.pk) == 1
    assert Email.objects.filter(status=STATUS.queued).count() == 20
    subjects = sorted(f"Order #{b.pk} placed" for b in bookings)

    hold = smtp_server.hold_after(5)
    log = tmp_path / "worker.log"
    # The mail server must not give up on the held mail before the kill.
    timeouts = {"EMAIL_TIMEOUT": "60", "OUTBOX_SEND_EVERY": "1"}
    worker = start_worker(broker_url, smtp_server.port, tmp_path, log, **timeouts)
    try:
        assert hold.holding.wait(timeout=60), log.read_text()
        # Five taken and marked sent; the sixth is in the middle of being sent.
        assert len(mailbox) == 5
        assert Email.objects.filter(status=STATUS.sent).count() == 5
        os.killpg(worker.pid, signal.SIGKILL)  # the worker and its beat, at once
        worker.wait(timeout=10)
    finally:
        stop_worker(worker)
    hold.release()
    redis.Redis.from_url(broker_url).flushdb()  # the tasks that asked for the mails: gone
    assert Email.objects.filter(status=STATUS.queued).count() == 15

    worker = start_worker(broker_url, smtp_server.port, tmp_path, log, **timeouts)
    try:
        mailbox.wait_for(20, timeout=60)
        deadline = time.monotonic() + 60
        while Email.objects.exclude(status=STATUS.sent).exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(2.5)  # two more catch-up runs: nothing is sent again
    finally:
        stop_worker(worker)

    received = sorted(m["Subject"] for m in mailbox)
    assert len(received) == 20, (collections.Counter(received), wait_for_text(log, ""))
    assert received == subjects
    assert sorted(a for m in mailbox for a in m.envelope_to) == sorted(
        b.user.email for b in bookings
    )
    assert Email.objects.filter(status=STATUS.sent).count() == 20
    assert "core.tasks.send_outbox" in log.read_text()


def test_django_admin_shows_the_outbox_and_requeues_a_mail(staff_client, mailbox, user):
    order = place(user, PartFactory(available_quantity=10))
    settle()
    mail = Email.objects.get()

    listing = staff_client.get("/admin/post_office/email/")
    page = staff_client.get(f"/admin/post_office/email/{mail.pk}/change/")
    requeued = staff_client.post(
        "/admin/post_office/email/",
        {"action": "requeue", "_selected_action": [mail.pk]},
    )

    assert listing.status_code == page.status_code == 200
    assert f"Order #{order.pk} placed" in listing.content.decode()
    assert user.email in page.content.decode()
    assert requeued.status_code == 302
    mail.refresh_from_db()
    assert mail.status == STATUS.queued
    assert outbox_send() == 1  # sent again, as the operator asked
    assert [m["Subject"] for m in mailbox] == [f"Order #{order.pk} placed"] * 2
