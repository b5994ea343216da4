"""allauth's sign-in form with the spec's label and messages (ACCOUNT_FORMS["login"])."""

from allauth.account.forms import LoginForm as AllauthLoginForm

from core.emails import normalize_email

from . import validators as v


class LoginForm(AllauthLoginForm):
    """E-mail + password sign-in: "Email is required", "Provide a valid email", "Password is
    required"; allauth keeps the authentication failure message and the rate limits."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["login"].label = "Email"
        self.fields["login"].error_messages.update(
            {"required": v.EMAIL_REQUIRED, "invalid": v.EMAIL_INVALID}
        )
        self.fields["password"].error_messages["required"] = v.PASSWORD_REQUIRED
        # The spec has no "Remember Me": every session lasts SESSION_COOKIE_AGE (see clean).
        self.fields.pop("remember", None)

    def clean_login(self):
        email = normalize_email(super().clean_login())
        v.validate_shop_email(email)
        return email

    def clean(self):
        cleaned_data = super().clean()
        cleaned_data["remember"] = True
        return cleaned_data
