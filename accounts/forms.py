"""allauth's sign-up form with the shop's name field and messages.

allauth imports this module while it builds its own forms (ACCOUNT_SIGNUP_FORM_CLASS), so it
must not import `allauth.account.forms`; forms derived from allauth's live in login_forms.py.
"""

from django import forms

from . import validators as v

SIGNUP_MESSAGES = {
    "email": {"required": v.EMAIL_REQUIRED, "invalid": v.EMAIL_INVALID},
    "password1": {"required": v.PASSWORD_REQUIRED},
}


class SignupForm(forms.Form):
    """Base of allauth's sign-up form (ACCOUNT_SIGNUP_FORM_CLASS): adds name, sets messages."""

    name = forms.CharField(max_length=150, error_messages={"required": v.NAME_REQUIRED})

    field_order = ["name", "email", "password1"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        sociallogin = getattr(self, "sociallogin", None)
        if sociallogin is not None:
            # Completing a Google sign-up: offer the name Google gave (SocialAccountAdapter).
            self.fields["name"].initial = sociallogin.user.name

    def full_clean(self):
        # allauth adds password1 after this base's __init__, so the messages are set here.
        for name, errors in SIGNUP_MESSAGES.items():
            if name in self.fields:
                self.fields[name].error_messages.update(errors)
        super().full_clean()

    def signup(self, request, user):
        user.name = self.cleaned_data["name"]
        user.save(update_fields=["name"])
