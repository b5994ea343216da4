"""E-mail addresses as the shop compares and stores them, and mail composed from
templates/emails/ (HTML with a plain-text part) in the shop's name."""

from email.utils import formataddr, parseaddr

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string


def normalize_email(value: str) -> str:
    """E-mail addresses are compared and stored trimmed and in lowercase."""
    return (value or "").strip().lower()


def from_address() -> str:
    """DEFAULT_FROM_EMAIL, in the shop's name when it carries none."""
    name, address = parseaddr(settings.DEFAULT_FROM_EMAIL)
    return settings.DEFAULT_FROM_EMAIL if name else formataddr((settings.SHOP_NAME, address))


def compose(*, template: str, subject: str, to: list[str], context: dict) -> EmailMultiAlternatives:
    """One message from templates/emails/<template>.txt and .html."""
    subject = " ".join(subject.split())  # a part's name may hold a line break: not in a header
    context = {
        "shop_name": settings.SHOP_NAME,
        "site_url": settings.SITE_URL,
        "subject": subject,
        **context,
    }
    text = render_to_string(f"emails/{template}.txt", context)
    message = EmailMultiAlternatives(subject, text, from_address(), to)
    message.attach_alternative(render_to_string(f"emails/{template}.html", context), "text/html")
    return message
