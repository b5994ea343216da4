"""The catalog's answers to Django's signals: at every sign-in (the sign-in page, Google,
sign-up, the API's token with a session: each sends user_logged_in), the visitor's garage and
saved parts join the account's."""

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from .garage import garage_merge
from .saved import saved_parts_merge


@receiver(user_logged_in, dispatch_uid="catalog.garage_merge")
def merge_garage(sender, request, user, **kwargs):
    # login() has already moved the visitor's session data to the new session key.
    session = getattr(request, "session", None)
    if session is not None:
        garage_merge(user=user, session=session)


@receiver(user_logged_in, dispatch_uid="catalog.saved_parts_merge")
def merge_saved_parts(sender, request, user, **kwargs):
    session = getattr(request, "session", None)
    if session is not None:
        saved_parts_merge(user=user, session=session)
