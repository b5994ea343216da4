"""Signing out of the site revokes the API tokens that session handed out; a changed user
makes the pages kept for their sessions stale."""

from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from core.caching import versions
from core.caching.pages import ACCOUNTS

from . import services
from .models import User
from .tokens import SESSION_FAMILY_KEY


@receiver(user_logged_out, dispatch_uid="accounts.revoke_session_tokens")
def revoke_session_tokens(sender, request, user, **kwargs):
    """Django sends user_logged_out (allauth's sign-out too) before the session is flushed."""
    family = request.session.get(SESSION_FAMILY_KEY) if request is not None else None
    if user is not None and family:
        services.user_token_family_revoke(user_id=user.pk, family=family)


@receiver(post_save, sender=User, dispatch_uid="accounts.pages_stale_on_save")
@receiver(post_delete, sender=User, dispatch_uid="accounts.pages_stale_on_delete")
def user_changed(sender, update_fields=None, **kwargs):
    """A name, a password, the admin flag or the account itself changed: every kept personal
    page names its user's version (core.caching.pages). A sign-in only stamps last_login."""
    if update_fields is None or set(update_fields) != {"last_login"}:
        versions.bump(ACCOUNTS)
