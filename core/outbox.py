"""The outbox: mail written as rows of django-post-office's queue in the transaction of the
change that causes it, and sent once that transaction commits.

outbox_queue() writes the messages (queued, never priority "now"), so a change that rolls
back leaves no mail, and a mail is never lost to a process that dies after the commit: it
waits in the queue. outbox_send() sends what is queued, each mail in a transaction of its
own that locks its row (others sending at the same time skip it) and marks it sent as soon
as the mail server has taken it; a sender killed while sending leaves the mail it was on
queued, and the next run (the worker's catch-up every minute, or the next mail) sends it and
the rest. A mail already marked sent is never sent again.

With a broker (REDIS_URL) the sending is the workers' task (core/tasks.py), after the commit
and every minute (Celery beat); without one, a thread of the web process sends after the
commit (core/background.py). The outbox is Django admin's "Post Office" section, where a mail
that failed is queued again (its "Requeue" action).
"""

import logging
import threading
from collections.abc import Sequence
from email.utils import make_msgid

from celery import shared_task
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from post_office.models import PRIORITY, STATUS, Email, Log
from post_office.settings import (
    get_log_level,
    get_max_retries,
    get_message_id_enabled,
    get_message_id_fqdn,
    get_retry_timedelta,
)

from . import background

logger = logging.getLogger(__name__)

# One sender at a time in this process (the web process's background threads); other
# processes are kept apart by the rows' locks.
_sending = threading.Lock()


def outbox_queue(messages: Sequence[EmailMultiAlternatives]) -> int:
    """Write `messages` into the outbox in the current transaction (one INSERT) and have them
    sent once it commits; how many. Nothing inside background.muted()."""
    if not messages or background.is_muted():
        return 0
    Email.objects.bulk_create([_row(message) for message in messages])
    background.run_after_commit(send_outbox)
    return len(messages)


@shared_task(name="core.tasks.send_outbox")  # the worker's task (core/tasks.py registers it)
def send_outbox() -> int:
    return outbox_send()


def outbox_send() -> int:
    """Send every queued mail that is due, in the order they were written, each marked sent
    (or, when the mail server refuses it, queued again for later, up to POST_OFFICE's
    MAX_RETRIES, then failed) in its own commit; how many were sent."""
    sent, tried = 0, set()
    with _sending:
        connection = get_connection(fail_silently=False)
        try:
            while (result := _send_next(connection, tried)) is not None:
                sent += result
        finally:
            connection.close()
    return sent


def _row(message: EmailMultiAlternatives) -> Email:
    html = next(
        (content for content, mimetype in message.alternatives if mimetype == "text/html"), ""
    )
    return Email(
        from_email=message.from_email,
        to=list(message.to),
        cc=list(message.cc),
        bcc=list(message.bcc),
        subject=message.subject,
        message=message.body,
        html_message=html,
        headers=message.extra_headers or None,
        # A mail sent again carries the same Message-ID, so a receiving server may drop it.
        message_id=make_msgid(domain=get_message_id_fqdn()) if get_message_id_enabled() else None,
        priority=PRIORITY.medium,
        status=STATUS.queued,
    )


def _due():
    now = timezone.now()
    return Email.objects.filter(
        Q(scheduled_time__isnull=True) | Q(scheduled_time__lte=now),
        Q(expires_at__isnull=True) | Q(expires_at__gt=now),
        status__in=[STATUS.queued, STATUS.requeued],
    )


@transaction.atomic
def _send_next(connection, tried: set[int]) -> int | None:
    """The next due mail, its row locked until it is marked: 1 sent, 0 not; None when there
    is none left (each mail is tried once a run)."""
    email = _due().exclude(pk__in=tried).order_by("pk").select_for_update(skip_locked=True).first()
    if email is None:
        return None
    tried.add(email.pk)
    try:
        connection.open()  # the same connection for the run (Django's backend keeps it open)
        connection.send_messages([email.email_message()])
    except Exception as error:
        logger.exception("Mail #%s (%s) to %s not sent", email.pk, email.subject, email.to)
        connection.close()  # the next mail tries a new connection
        _failed(email, error)
        return 0
    Email.objects.filter(pk=email.pk).update(status=STATUS.sent, last_updated=timezone.now())
    if get_log_level() >= 2:
        Log.objects.create(email=email, status=STATUS.sent)
    return 1


def _failed(email: Email, error: Exception) -> None:
    """Queued again RETRY_INTERVAL later, or failed after MAX_RETRIES."""
    retries = email.number_of_retries or 0
    if retries < get_max_retries():
        email.number_of_retries = retries + 1
        email.status = STATUS.requeued
        email.scheduled_time = timezone.now() + get_retry_timedelta()
    else:
        email.status = STATUS.failed
    Email.objects.filter(pk=email.pk).update(
        status=email.status,
        number_of_retries=email.number_of_retries,
        scheduled_time=email.scheduled_time,
        last_updated=timezone.now(),
    )
    if get_log_level() >= 1:
        Log.objects.create(
            email=email,
            status=STATUS.failed,
            message=str(error),
            exception_type=type(error).__name__,
        )
