"""Writes to accounts: every rule about users lives here."""

import time

from allauth.account.models import EmailAddress
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework_simplejwt.settings import api_settings as jwt_settings

from core.emails import normalize_email

from .models import User
from .tokens import FAMILY_CLAIM, ShopRefreshToken
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


MAX_REVOKED_FAMILIES = 100


def user_token_family_revoke(*, user_id: int, family: str) -> None:
    """Make every token of `family` answer 401 from now on (access and refresh). Entries older
    than a refresh token's lifetime are dropped (no token of theirs is alive), and at most
    MAX_REVOKED_FAMILIES are kept (the oldest go; their refresh tokens stay blacklisted)."""
    now = int(time.time())
    oldest = now - int(jwt_settings.REFRESH_TOKEN_LIFETIME.total_seconds())
    with transaction.atomic():
        user = User.objects.select_for_update().only("revoked_token_families").get(pk=user_id)
        families = {f: at for f, at in (user.revoked_token_families or {}).items() if at > oldest}
        families[family] = now
        newest = sorted(families.items(), key=lambda item: item[1])[-MAX_REVOKED_FAMILIES:]
        user.revoked_token_families = dict(newest)
        user.save(update_fields=["revoked_token_families"])


def refresh_token_revoke(*, refresh: str) -> None:
    """POST /api/token/revoke: blacklist the refresh token (simplejwt) and revoke its family,
    so the access tokens minted from it answer 401 too. A token that is malformed, expired,
    used or already revoked raises simplejwt's TokenError."""
    token = ShopRefreshToken(refresh)
    token.blacklist()
    user_id, family = token.get(jwt_settings.USER_ID_CLAIM), token.get(FAMILY_CLAIM)
    if family and User.objects.filter(pk=user_id).exists():
        user_token_family_revoke(user_id=user_id, family=family)
