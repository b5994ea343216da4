"""What every page's layout needs: the shop's name, the year, the visitor's role, the
footer's trust pages and social links, and whether card payments are off."""

from django.conf import settings
from django.utils import timezone

from orders import payments
from shop.content import TRUST_PAGES, Link


def shop(request):
    user = getattr(request, "user", None)
    return {
        "SHOP_NAME": settings.SHOP_NAME,
        "CURRENT_YEAR": timezone.now().year,
        "is_shop_admin": bool(user and user.is_authenticated and user.is_shop_admin),
        "TRUST_PAGES": TRUST_PAGES,
        # Pages that lead to paying say so first when card payments are off.
        "CARD_PAYMENTS_OFF": "" if payments.is_configured() else payments.NOT_CONFIGURED,
        "SOCIAL_LINKS": social_links(),
    }


def social_links() -> list[Link]:
    """The shop's social pages that are configured (SOCIAL_LINKS); none when unset."""
    return [Link(label, url) for label, url in settings.SOCIAL_LINKS.items() if url]
