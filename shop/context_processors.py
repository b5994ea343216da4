"""What every page's layout needs: the shop's name, the year, the visitor's role."""

from django.conf import settings
from django.utils import timezone


def shop(request):
    user = getattr(request, "user", None)
    return {
        "SHOP_NAME": settings.SHOP_NAME,
        "CURRENT_YEAR": timezone.now().year,
        "is_shop_admin": bool(user and user.is_authenticated and user.is_shop_admin),
    }
