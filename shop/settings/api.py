"""The JSON API: DRF, its abuse limits (throttles), tokens (simplejwt) and the OpenAPI schema."""

from datetime import timedelta

from .base import DEBUG, SECRET_KEY, SHOP_NAME, env
from .security import TRUSTED_PROXY_COUNT

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # simplejwt's, plus revoked token families (accounts/tokens.py)
        "accounts.authentication.ShopJWTAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # DRF's JSON parser, refusing bodies over 2 MB or nested deeper than 50 levels (400).
    "DEFAULT_PARSER_CLASSES": ["core.parsers.ShopJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "core.throttles.ThrottledAutoSchema",
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    "COERCE_DECIMAL_TO_STRING": False,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # Abuse limits of the API (each app's throttles.py; counted in the cache): per client IP for
    # sign-up, tokens and visitors' writes, per user for placing orders and posting reviews. A
    # tripped limit answers 429.
    "DEFAULT_THROTTLE_RATES": {
        "signup": env.str("THROTTLE_SIGNUP", default="20/minute"),
        "token": env.str("THROTTLE_TOKEN", default="30/minute"),
        "token_refresh": env.str("THROTTLE_TOKEN_REFRESH", default="60/minute"),
        "login_failed": env.str("THROTTLE_LOGIN_FAILED", default="10/minute"),
        # per e-mail and client address: others' failures never lock the owner out
        "login_failed_account": env.str("THROTTLE_LOGIN_FAILED_ACCOUNT", default="20/hour"),
        "orders": env.str("THROTTLE_ORDERS", default="30/minute"),
        "reviews": env.str("THROTTLE_REVIEWS", default="5/hour"),
        # Part reviews written or changed, per user: the same rate, counted apart.
        "part_reviews": env.str("THROTTLE_REVIEWS", default="5/hour"),
        # Calls that reach Stripe (create-payment-intent, the payment PATCH), per user.
        "payments": env.str("THROTTLE_PAYMENTS", default="20/minute"),
        # Visitors' writes (cart, garage), per client address; signed-in accounts are not counted.
        "visitor_writes": env.str("THROTTLE_VISITOR_WRITES", default="60/minute"),
        # Voucher codes tried on a cart, per account (a visitor: per client address).
        "voucher_tries": env.str("THROTTLE_VOUCHER_TRIES", default="20/minute"),
        # Guests' orders placed (a visitor's checkout) per client address; "Find my order"
        # asked per client address counts at the same rate, apart.
        "guest_orders": env.str("THROTTLE_GUEST_ORDERS", default="10/hour"),
        # Back-in-stock alerts asked (page or API) per client address, signed in or not.
        "alerts": env.str("THROTTLE_ALERTS", default="20/hour"),
    },
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
if DEBUG:
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"].append(
        "rest_framework.renderers.BrowsableAPIRenderer"
    )

# Tokens (docs/api.md, "Tokens"; accounts/tokens.py): access tokens live 15 minutes,
# refresh tokens 7 days and are used once (rotated, the used one blacklisted); a changed
# password makes every earlier token answer 401 (CHECK_REVOKE_TOKEN), as do revoked families.
SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(minutes=15),
    "REFRESH_TOKEN_LIFETIME": timedelta(days=7),
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
    "CHECK_REVOKE_TOKEN": True,
    "AUTH_HEADER_TYPES": ("Bearer",),
    "USER_ID_FIELD": "id",
    "SIGNING_KEY": SECRET_KEY,
}

SPECTACULAR_SETTINGS = {
    "TITLE": f"{SHOP_NAME} API",
    "DESCRIPTION": "Parts, orders, reviews and accounts of the motorcycle-parts shop.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "PREPROCESSING_HOOKS": ["core.api.drop_trailing_slash_duplicates"],
    # Swagger UI from our own static files (drf-spectacular-sidecar), not a CDN: see core/csp.py.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # `<id:pk>` (core.routing.IdConverter): an id, 1 to 2**63 - 1.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "format": "int64", "minimum": 1, "maximum": 2**63 - 1}
    },
    # Orders and returns each have a `state`, of different choices: each its own named enum.
    "ENUM_NAME_OVERRIDES": {
        "BookingStateEnum": "orders.models.BookingState",
        "ReturnStateEnum": "orders.models.Return.State",
        # Likewise a `kind`: a voucher's, an order's Timeline step's, a part's other number's.
        "VoucherKindEnum": "pricing.models.Voucher.Kind",
        "BookingEventKindEnum": "orders.models.BookingEventKind",
        "PartNumberKindEnum": "catalog.models.PartNumber.Kind",
    },
}
