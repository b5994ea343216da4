"""accounts' receivers: the one place where accounts reacts to signals, for two things that
have no other hook.

Signing out: Django sends user_logged_out (allauth's sign-out too) before the session is
flushed; the API tokens that session handed out are revoked.

A changed user makes the pages kept for its sessions stale (the "accounts" version that
core.caching.pages checks). Unlike orders and reviews, users are changed by code that never
calls this project's services, so here the model's own save is the single hook rather than
each service:

- the project's services (user_make_admin, user_remove_admin, user_delete, the profile) and
  seed_demo;
- Django admin's user forms (add, change, the password form) and its deletes;
- allauth's password change, password set and password reset (its adapter's set_password)
  and its e-mail change;
- Django itself: `manage.py changepassword`, and a sign-in that finds the password under an
  outdated hasher and saves it again under the current one (the other sessions then end).

A save that writes only what no page shows (a sign-in's last_login, revoked API tokens)
leaves the pages kept.

After `migrate`: the permissions of models a new version adds (vehicles, fitment) exist only
then (Django creates them on post_migrate), so the "Shop admins" group is given them there,
with no `make_admin` by hand after an upgrade.
"""

from django.apps import apps as global_apps
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_migrate, post_save
from django.dispatch import receiver

from core.caching import versions
from core.caching.pages import ACCOUNTS

from . import services
from .models import User
from .tokens import SESSION_FAMILY_KEY

NOT_SHOWN = frozenset({"last_login", "revoked_token_families"})


@receiver(user_logged_out, dispatch_uid="accounts.revoke_session_tokens")
def revoke_session_tokens(sender, request, user, **kwargs):
    family = request.session.get(SESSION_FAMILY_KEY) if request is not None else None
    if user is not None and family:
        services.user_token_family_revoke(user_id=user.pk, family=family)


@receiver(post_save, sender=User, dispatch_uid="accounts.pages_stale_on_save")
@receiver(post_delete, sender=User, dispatch_uid="accounts.pages_stale_on_delete")
def user_changed(sender, update_fields=None, **kwargs):
    """A name, a password, the admin flag, the active flag or the account itself changed."""
    if update_fields is None or not set(update_fields) <= NOT_SHOWN:
        versions.bump(ACCOUNTS)


@receiver(post_migrate, dispatch_uid="accounts.shop_admins_rights")
def shop_admins_rights(sender, apps=global_apps, **kwargs):
    """Sent once per app, after its permissions are created: the last one sees them all.
    Nothing when the migrations left no groups (auth migrated back to zero), as Django's own
    create_permissions does. (`flush` sends it without `apps`.)"""
    try:
        apps.get_model("auth", "Group")
    except LookupError:
        return
    services.shop_admins_group_refresh()
