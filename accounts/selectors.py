"""Reads of accounts."""

from allauth.socialaccount.adapter import get_adapter as get_social_adapter
from allauth.socialaccount.models import SocialApp
from django.core.exceptions import MultipleObjectsReturned
from django.db.models import QuerySet

from core.emails import normalize_email

from .models import User


def user_get_by_email(email: str) -> User | None:
    return User.objects.filter(email=normalize_email(email)).first()


def user_list() -> QuerySet[User]:
    return User.objects.order_by("email")


def google_sign_in_configured(request) -> bool:
    """True when allauth has exactly one Google app (from settings or the database) to use."""
    try:
        get_social_adapter().get_app(request, provider="google")
    except (SocialApp.DoesNotExist, MultipleObjectsReturned):
        return False
    return True
