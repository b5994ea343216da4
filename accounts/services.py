"""Writes to accounts: every rule about users lives here."""

from allauth.account.models import EmailAddress
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from core.emails import normalize_email

from .models import User
from .validators import EMAIL_TAKEN


def user_create(*, email: str, name: str, password: str | None) -> User:
    """Create a shopper (role user); a taken e-mail is a ValidationError, even in a race."""
    try:
        with transaction.atomic():
            user = User.objects.create_user(
                email=normalize_email(email), password=password, name=name
            )
            EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=False)
    except IntegrityError as exc:
        raise ValidationError({"email": EMAIL_TAKEN}) from exc
    return user


def user_update_profile(
    *, user: User, education: str, location: str, phone: str, linkedin: str
) -> User:
    user.education = education
    user.location = location
    user.phone = phone
    user.linkedin = linkedin
    user.save(update_fields=["education", "location", "phone", "linkedin"])
    return user


def user_make_admin(*, user: User) -> bool:
    """Give the user the shop-admin role; False when they already had it."""
    if user.role == User.Role.ADMIN:
        return False
    user.role = User.Role.ADMIN
    user.save(update_fields=["role"])
    return True
