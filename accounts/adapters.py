"""allauth adapters: the single place where sign-up and Google sign-in meet our User."""

from types import SimpleNamespace
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from allauth.socialaccount.models import SocialApp
from django.conf import settings
from django.http import Http404

from core.emails import normalize_email
from core.links import at_site_url
from core.outbox import outbox_queue

from .validators import EMAIL_TAKEN, validate_shop_email


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {**DefaultAccountAdapter.error_messages, "email_taken": EMAIL_TAKEN}

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        """The "key" of allauth's login_failed limit: the e-mail AND the client address, so
        failures from one address never lock the owner out of another; the "ip" rate still
        limits each address over all accounts."""
        key = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{key}|{self.get_client_ip(request)}"

    def clean_email(self, email):
        email = normalize_email(super().clean_email(email))
        validate_shop_email(email)
        return email

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """Every allauth mail, with its links at SITE_URL and the shop's name and address as
        its site (allauth builds the links, `activate_url`, `password_reset_url`,
        `signup_url`, from the request, whose Host is whatever the client sent, and names the
        site after django.contrib.sites' record, "example.com"), written to the outbox like
        every other mail: sent after the commit, never lost to a process that dies."""
        links = {
            name: at_site_url(value)
            for name, value in context.items()
            if name.endswith("_url") and isinstance(value, str)
        }
        site = SimpleNamespace(name=settings.SHOP_NAME, domain=urlsplit(settings.SITE_URL).netloc)
        context = {"email": email, **context, **links, "current_site": site}
        outbox_queue([self.render_mail(template_prefix, email, context)])


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def get_provider(self, request, provider, client_id=None):
        """Google's URLs without Google keys are the 404 page, not a server error."""
        try:
            return super().get_provider(request, provider, client_id=client_id)
        except SocialApp.DoesNotExist as exc:
            raise Http404(f"{provider} sign-in is not configured") from exc

    def populate_user(self, request, sociallogin, data):
        """Google gives a full name: it becomes the shop's display name."""
        user = super().populate_user(request, sociallogin, data)
        full_name = data.get("name") or " ".join(
            part for part in (data.get("first_name"), data.get("last_name")) if part
        )
        user.name = full_name or user.email.split("@")[0]
        user.email = normalize_email(user.email)
        return user


def user_display(user) -> str:
    """How allauth names a user in its messages: the display name, as the navbar does."""
    return user.get_short_name()
