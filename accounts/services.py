"""Writes to accounts: every rule about users lives here."""

import time

from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group, Permission
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from rest_framework_simplejwt.exceptions import TokenError
from rest_framework_simplejwt.settings import api_settings as jwt_settings
from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken
from rest_framework_simplejwt.tokens import Token

from core.emails import normalize_email
from core.errors import Conflict

from .models import User
from .tokens import FAMILY_CLAIM, ShopRefreshToken, SpentRefreshToken
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


SHOP_ADMINS = "Shop admins"
# What shop admins may do in Django admin, by app label and codename. Accounts, groups and
# permissions are left out on purpose: only superusers manage people and rights there.
SHOP_ADMIN_PERMISSIONS = {
    "catalog": [
        *(f"{action}_category" for action in ("view", "add", "change", "delete")),
        *(f"{action}_part" for action in ("view", "add", "change", "delete")),
        "view_stockmovement",  # a part's stock history (changed only through the services)
        *(f"{action}_vehicle" for action in ("view", "add", "change", "delete")),
        *(f"{action}_fitment" for action in ("view", "add", "change", "delete")),
        "view_stockalert",  # back-in-stock alerts: asked by riders, read (or removed) here
        "delete_stockalert",
    ],
    # Orders are placed by shoppers; admins approve and cancel them (unpaid ones only: the
    # delete goes through booking_cancel) and read the payment events.
    "orders": ["view_booking", "change_booking", "delete_booking", "view_paymentevent"],
    "reviews": [
        *(
            f"{action}_{model}"
            for model in ("review", "partreview")
            for action in ("view", "change", "delete")
        )
    ],
    # The owner's shipping methods (and their bands), tax rates and vouchers; a voucher's uses
    # are counted by the checkout, and only read here.
    "pricing": [
        *(
            f"{action}_{model}"
            for model in ("shippingmethod", "weightband", "taxrate", "voucher")
            for action in ("view", "add", "change", "delete")
        ),
        "view_voucheruse",
    ],
}

CANNOT_CHANGE_SELF = "You cannot do this to your own account."
SUPERUSER_STAYS_ADMIN = (
    "This account is a superuser: only a superuser can change it, in Django admin."
)


def shop_admins_group() -> Group:
    """The "Shop admins" group, created on first use, its permissions (re)set by codename."""
    group, _ = Group.objects.get_or_create(name=SHOP_ADMINS)
    wanted = Q(pk__in=[])
    for app_label, codenames in SHOP_ADMIN_PERMISSIONS.items():
        wanted |= Q(content_type__app_label=app_label, codename__in=codenames)
    group.permissions.set(Permission.objects.filter(wanted))
    return group


def shop_admins_group_refresh() -> None:
    """Give an existing "Shop admins" group the permissions it should have now (a new
    version's models included); a shop with no admins yet gets no group."""
    if Group.objects.filter(name=SHOP_ADMINS).exists():
        shop_admins_group()


@transaction.atomic
def user_make_admin(*, user: User) -> bool:
    """Give the user the shop-admin role, which makes them Django staff in "Shop admins".

    Staff and group are applied even when the role was there already, so an admin who lost
    either is mended by making them admin again. False when the role was there already.
    """
    changed = user.role != User.Role.ADMIN
    user.role = User.Role.ADMIN
    user.is_staff = True
    user.save(update_fields=["role", "is_staff"])
    user.groups.add(shop_admins_group())
    return changed


def _refuse_on_self_or_superuser(*, user: User, by: User | None) -> None:
    if by is not None and by.pk == user.pk:
        raise Conflict(CANNOT_CHANGE_SELF)
    if user.is_superuser and not (by is not None and by.is_superuser):
        raise Conflict(SUPERUSER_STAYS_ADMIN)


@transaction.atomic
def user_remove_admin(*, user: User, by: User | None = None) -> bool:
    """Take the shop-admin role back, and with it Django staff and the "Shop admins" group.

    Never for oneself (`by`), and never for a superuser: a superuser counts as an admin
    whatever the role says, so only a superuser changes that, in Django admin. False when
    the user had not the role.
    """
    _refuse_on_self_or_superuser(user=user, by=by)
    if user.is_superuser:
        raise Conflict(SUPERUSER_STAYS_ADMIN)
    changed = user.role == User.Role.ADMIN
    user.role = User.Role.USER
    user.is_staff = False
    user.save(update_fields=["role", "is_staff"])
    user.groups.remove(*Group.objects.filter(name=SHOP_ADMINS))
    return changed


@transaction.atomic
def user_delete(*, user: User, by: User | None = None) -> None:
    """Remove the account: it can no longer sign in and its tokens answer 401.

    Its orders stay, with the name and e-mail they were placed under, and belong to nobody
    (Booking.user is SET_NULL); its reviews stay under their name; its back-in-stock alerts
    and saved parts go with it. Never oneself (`by`); a superuser is removed only by a
    superuser.
    """
    _refuse_on_self_or_superuser(user=user, by=by)
    user.delete()


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
    used or already revoked raises simplejwt's TokenError (a used one revokes its family:
    refresh_token_reuse_revoke)."""
    try:
        token = ShopRefreshToken(refresh)
    except TokenError:
        refresh_token_reuse_revoke(refresh=refresh)
        raise
    token.blacklist()
    _family_revoke(token)


def refresh_token_reuse_revoke(*, refresh: str) -> bool:
    """A refresh token presented again after it was used (rotated or revoked: blacklisted)
    means a copy is in someone else's hands: revoke its whole sign-in (the family), so every
    refresh and access token descended from it answers 401. Other sign-ins of the account
    stay. False (nothing done) for a token that is not a genuine, unexpired, used one."""
    try:
        token = SpentRefreshToken(refresh)
    except TokenError:
        return False
    jti = token[jwt_settings.JTI_CLAIM]
    return BlacklistedToken.objects.filter(token__jti=jti).exists() and _family_revoke(token)


def _family_revoke(token: Token) -> bool:
    user_id, family = token.get(jwt_settings.USER_ID_CLAIM), token.get(FAMILY_CLAIM)
    if not family or not User.objects.filter(pk=user_id).exists():
        return False
    user_token_family_revoke(user_id=user_id, family=family)
    return True
