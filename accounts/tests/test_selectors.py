"""Google sign-in configured from the environment or the database
(accounts.selectors.google_sign_in_configured: the sign-in and sign-up pages ask it before they
offer the button)."""

import pytest
from allauth.socialaccount.adapter import get_adapter as get_social_adapter
from allauth.socialaccount.models import SocialApp
from django.contrib.sites.models import Site
from django.test import override_settings

from accounts.selectors import google_sign_in_configured


@pytest.mark.django_db
def test_google_is_off_without_credentials(rf):
    with pytest.raises(SocialApp.DoesNotExist):
        get_social_adapter().get_app(rf.get("/"), provider="google")
    assert google_sign_in_configured(rf.get("/")) is False


@pytest.mark.django_db
def test_google_is_configured_from_the_environment(rf, settings):
    google = {
        "google": {
            **settings.SOCIALACCOUNT_PROVIDERS["google"],
            "APPS": [{"client_id": "cid.apps.googleusercontent.com", "secret": "s3", "key": ""}],
        }
    }
    with override_settings(SOCIALACCOUNT_PROVIDERS=google):
        app = get_social_adapter().get_app(rf.get("/"), provider="google")
        assert google_sign_in_configured(rf.get("/")) is True
    assert app.client_id == "cid.apps.googleusercontent.com"


@pytest.mark.django_db
def test_a_google_app_in_the_database_counts_too(rf):
    app = SocialApp.objects.create(provider="google", name="Google", client_id="db", secret="s")
    assert google_sign_in_configured(rf.get("/")) is False  # not linked to this site yet
    app.sites.add(Site.objects.get_current())
    assert google_sign_in_configured(rf.get("/")) is True
