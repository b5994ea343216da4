"""Sign-in by e-mail: only the account's own address (User.email) signs in."""

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from django.contrib.auth import get_user_model

from core.emails import normalize_email


class AuthenticationBackend(AllauthBackend):
    """allauth's backend, without signing in by a pending e-mail change.

    allauth looks an address up among all of an account's e-mail addresses, verified or not,
    so an address someone asked to change to (ACCOUNT_CHANGE_EMAIL) would sign in before it
    was verified. The sign-in address is User.email, which changes once the new one is.
    """

    def _authenticate_by_email(self, email, password):
        # No account: allauth's authenticate() still spends a password hash (timing).
        user = get_user_model().objects.filter(email=normalize_email(email or "")).first()
        return self._check_password(user, password)
