"""Outgoing mail: SMTP when EMAIL_HOST is set, and the sender's address."""

from datetime import timedelta
from urllib.parse import urlsplit

from .base import SHOP_NAME, SITE_URL, env

# SMTP when EMAIL_HOST is set; otherwise mail is printed to the console.
EMAIL_HOST = env.str("EMAIL_HOST", default="")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
# A mail server that hangs holds a background thread or worker this long, never a request.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=5)
EMAIL_BACKEND = env.str(
    "EMAIL_BACKEND",
    default=(
        "django.core.mail.backends.smtp.EmailBackend"
        if EMAIL_HOST
        else "django.core.mail.backends.console.EmailBackend"
    ),
)
# A bare address is sent in the shop's name (orders/emails.py).
# Empty counts as unset (compose passes the variables through, empty unless given).
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="") or f"{SHOP_NAME} <shop@localhost>"

# The outbox (django-post-office, core/outbox.py): every mail is a row of its queue, written with
# its cause and sent by the worker through EMAIL_BACKEND. A mail the server refuses is tried
# again every RETRY_INTERVAL, up to MAX_RETRIES times (an hour), then marked failed (Django
# admin's Post Office > Emails queues it again). Each mail keeps one Message-ID however often
# it is sent.
POST_OFFICE = {
    "MAX_RETRIES": 12,
    "RETRY_INTERVAL": timedelta(minutes=5),
    "MESSAGE_ID_ENABLED": True,
    "MESSAGE_ID_FQDN": urlsplit(SITE_URL).hostname or "localhost",
}
