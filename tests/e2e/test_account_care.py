"""Account care in Chromium: "Forgot password?" and "Change password" in the shop's layout."""

from playwright.sync_api import expect

from accounts.tests.factories import TEST_PASSWORD, UserFactory
from tests.e2e.conftest import shot, sign_in


def test_forgot_password_from_login(site):
    site.goto("/login")
    site.get_by_role("link", name="Forgot password?").click()
    expect(site).to_have_url(f"{site.base_url}/accounts/password/reset/")
    expect(site.get_by_role("heading", name="Password Reset")).to_be_visible()
    expect(site.get_by_role("navigation", name="Main")).to_be_visible()
    shot(site, "account-password-reset")
    site.get_by_label("Email").fill("nobody@example.com")
    site.get_by_role("button", name="Reset My Password").click()
    expect(site).to_have_url(f"{site.base_url}/accounts/password/reset/done/")
    expect(site.locator("footer")).to_be_visible()


def test_change_password_from_my_profile(site):
    user = UserFactory()
    sign_in(site, user)
    site.goto("/dashboard/profile")
    site.get_by_role("link", name="Change password").click()
    expect(site).to_have_url(f"{site.base_url}/accounts/password/change/")
    shot(site, "account-password-change")
    site.get_by_label("Current Password").fill(TEST_PASSWORD)
    site.get_by_label("New Password", exact=True).fill("a-new-secret-1")
    site.get_by_label("New Password (again)").fill("a-new-secret-1")
    site.get_by_role("button", name="Change Password").click()
    expect(site.get_by_text("Password successfully changed.").first).to_be_visible()
    user.refresh_from_db()
    assert user.check_password("a-new-secret-1")


def test_change_email_waits_for_the_link(site):
    user = UserFactory(email="before@example.com")
    sign_in(site, user)
    site.goto("/dashboard/profile")
    site.get_by_role("link", name="Change email").click()
    site.get_by_label("New email").fill("after@example.com")
    site.get_by_role("button", name="Change Email").click()
    expect(site.get_by_label("Changing to")).to_have_value("after@example.com")
    expect(site.get_by_label("Current email")).to_have_value("before@example.com")
    shot(site, "account-email-change")
    user.refresh_from_db()
    assert user.email == "before@example.com"
