"""Accounts: the user model, passwords, sign-in and sign-up (allauth), Google sign-in."""

from .base import SHOP_NAME, env
from .security import TRUSTED_PROXY_COUNT

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    # allauth's, signing in by the account's own e-mail only (not by a pending, unverified one).
    "accounts.backends.AuthenticationBackend",
]
# One password rule only: at least 6 characters, with its own message.
AUTH_PASSWORD_VALIDATORS = [{"NAME": "accounts.validators.MinimumLengthValidator"}]

LOGIN_URL = "/login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*"]
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupForm"
ACCOUNT_FORMS = {
    "login": "accounts.login_forms.LoginForm",
    "add_email": "accounts.email_forms.ChangeEmailForm",
}
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
# allauth's mails say the shop's name (not django.contrib.sites' "example.com"); their links
# start with SITE_URL (accounts/adapters.py).
ACCOUNT_EMAIL_SUBJECT_PREFIX = f"[{SHOP_NAME}] "
ACCOUNT_USER_DISPLAY = "accounts.adapters.user_display"
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="none")
ACCOUNT_UNIQUE_EMAIL = True
# The password-reset page answers the same whether the address has an account or not. Sign-up
# still says "An account with this email already exists": with e-mail verification
# not "mandatory", allauth lets uniqueness win over enumeration prevention on sign-up.
ACCOUNT_PREVENT_ENUMERATION = True
# A new sign-in address counts only once verified: allauth mails a link to it, and until that
# link is followed the old address stays the account's (and the only one that signs in).
ACCOUNT_CHANGE_EMAIL = True
# Only the shop's rule (accounts.validators.MinimumLengthValidator), with its message.
ACCOUNT_PASSWORD_MIN_LENGTH = None
ACCOUNT_PRESERVE_USERNAME_CASING = False
# Abuse limits of the pages (allauth's syntax; counted in the cache). A tripped limit answers
# 429 with templates/429.html; repeated failed sign-ins keep the form, with a 429 status.
# login_failed's "key" is the e-mail and the client address together (accounts/adapters.py).
ACCOUNT_RATE_LIMITS = {
    "login": env.str("RATE_LIMIT_LOGIN", default="30/m/ip"),
    "login_failed": env.str("RATE_LIMIT_LOGIN_FAILED", default="10/m/ip,5/5m/key"),
    "signup": env.str("RATE_LIMIT_SIGNUP", default="20/m/ip"),
    "reset_password": env.str("RATE_LIMIT_RESET_PASSWORD", default="20/m/ip,5/m/key"),
}
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT
SOCIALACCOUNT_ADAPTER = "accounts.adapters.SocialAccountAdapter"
SOCIALACCOUNT_EMAIL_AUTHENTICATION = True
SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT = True
SOCIALACCOUNT_LOGIN_ON_GET = False
GOOGLE_CLIENT_ID = env.str("GOOGLE_CLIENT_ID", default="")
GOOGLE_CLIENT_SECRET = env.str("GOOGLE_CLIENT_SECRET", default="")
SOCIALACCOUNT_PROVIDERS = {
    "google": {
        "SCOPE": ["profile", "email"],
        "AUTH_PARAMS": {"access_type": "online"},
        "APPS": (
            [{"client_id": GOOGLE_CLIENT_ID, "secret": GOOGLE_CLIENT_SECRET, "key": ""}]
            if GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET
            else []
        ),
    }
}
