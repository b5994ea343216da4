"""Reads of accounts."""

from django.db.models import QuerySet

from .models import User
from .validators import normalize_email


def user_get_by_email(email: str) -> User | None:
    return User.objects.filter(email=normalize_email(email)).first()


def user_list() -> QuerySet[User]:
    return User.objects.order_by("email")
