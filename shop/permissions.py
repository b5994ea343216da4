"""Who may call what: the API's permission classes, decided in one place."""

from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission, IsAuthenticated

from accounts.validators import normalize_email

NOT_ADMIN = "Only shop admins can do this."
NOT_YOURS = "You can only do this for your own account."


def is_shop_admin(user) -> bool:
    return bool(user and user.is_authenticated and user.is_shop_admin)


class IsShopAdmin(BasePermission):
    message = NOT_ADMIN

    def has_permission(self, request, view):
        return is_shop_admin(request.user)


def require_self_or_admin(request, email: str) -> None:
    """Raise 403 unless `email` is the caller's own address or the caller is an admin."""
    if normalize_email(email) != request.user.email and not is_shop_admin(request.user):
        raise PermissionDenied(NOT_YOURS)


__all__ = ["IsAuthenticated", "IsShopAdmin", "is_shop_admin", "require_self_or_admin"]
