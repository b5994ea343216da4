"""The catalog's answers to Django's signals: at every sign-in (the sign-in page, Google,
sign-up, the API's token with a session: each sends user_logged_in), the visitor's garage
joins the account's."""

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from .garage import garage_merge


@receiver(user_logged_in, dispatch_uid="catalog.garage_merge")
def merge_garage(sender, request, user, **kwargs):
    # login() has already moved the visitor's session data to the new session key.
    session = getattr(request, "session", None)
    if session is not None:
        garage_merge(user=user, session=session)
