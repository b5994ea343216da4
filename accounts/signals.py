"""Signing out of the site revokes the API tokens that session handed out."""

from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from . import services
from .tokens import SESSION_FAMILY_KEY


@receiver(user_logged_out, dispatch_uid="accounts.revoke_session_tokens")
def revoke_session_tokens(sender, request, user, **kwargs):
    """Django sends user_logged_out (allauth's sign-out too) before the session is flushed."""
    family = request.session.get(SESSION_FAMILY_KEY) if request is not None else None
    if user is not None and family:
        services.user_token_family_revoke(user_id=user.pk, family=family)
