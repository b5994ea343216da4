"""Orders: card payments (Stripe), how long an unpaid order holds stock, how much one
account may hold, and the seller on invoices."""

from django.core.exceptions import ImproperlyConfigured

from .base import SHOP_NAME, env

STRIPE_SECRET_KEY = env.str("STRIPE_SECRET_KEY", default="")
STRIPE_PUBLISHABLE_KEY = env.str("STRIPE_PUBLISHABLE_KEY", default="")
STRIPE_WEBHOOK_SECRET = env.str("STRIPE_WEBHOOK_SECRET", default="")
STRIPE_API_BASE = env.str("STRIPE_API_BASE", default="")
STRIPE_JS_URL = env.str("STRIPE_JS_URL", default="https://js.stripe.com/v3/")

# How long an unpaid order holds its stock, and how many unpaid, unexpired orders one
# account may have at once (one account must never freeze the catalogue).
ORDER_HOLD_SECONDS = env.int("ORDER_HOLD_SECONDS", default=1800)
MAX_UNPAID_ORDERS = env.int("MAX_UNPAID_ORDERS", default=5)
# The share of a part's stock (shelf + what the account holds) one account may hold unpaid.
try:
    MAX_HELD_SHARE = env.float("MAX_HELD_SHARE", default=0.5)
except ValueError:
    MAX_HELD_SHARE = None
if MAX_HELD_SHARE is None or not 0 < MAX_HELD_SHARE <= 1:
    raise ImproperlyConfigured(
        "MAX_HELD_SHARE must be a number above 0 and at most 1 (a share of a part's stock, "
        f"e.g. 0.5), not {env.str('MAX_HELD_SHARE')!r}."
    )
# How many days after shipping a shopper may return lines of an order (orders.services.returning).
RETURN_DAYS = env.int("RETURN_DAYS", default=30)
# How many lines (parts) one cart may have.
CART_MAX_LINES = env.int("CART_MAX_LINES", default=50)
# The seller on invoices (its legal name, postal address and tax id), as the law asks an
# invoice to name it; the address may span lines ("\n" in the environment's value).
SHOP_LEGAL_NAME = env.str("SHOP_LEGAL_NAME", default="") or SHOP_NAME
SHOP_ADDRESS = env.str("SHOP_ADDRESS", default="", multiline=True)
SHOP_TAX_ID = env.str("SHOP_TAX_ID", default="")
