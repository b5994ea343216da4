"""allauth's sign-in form with the shop's label and messages (ACCOUNT_FORMS["login"])."""

from allauth.account.forms import LoginForm as AllauthLoginForm
from django.core.exceptions import ValidationError

from core.emails import normalize_email

from . import validators as v


class LoginForm(AllauthLoginForm):
    """E-mail + password sign-in with the shop's messages: "Email is required", "Provide a
    valid email", "Password is required", "Must be 6 characters or longer"; allauth keeps the
    authentication failure message and the rate limits."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["login"].label = "Email"
        self.fields["login"].error_messages.update(
            {"required": v.EMAIL_REQUIRED, "invalid": v.EMAIL_INVALID}
        )
        self.fields["password"].error_messages["required"] = v.PASSWORD_REQUIRED
        # No "Remember Me": every session lasts SESSION_COOKIE_AGE (see clean).
        self.fields.pop("remember", None)

    def clean_login(self):
        email = normalize_email(super().clean_login())
        v.validate_shop_email(email)
        return email

    def clean_password(self):
        password = self.cleaned_data["password"]
        if len(password) < v.MIN_PASSWORD_LENGTH:
            # No account has such a password: refused before any attempt is made or counted.
            raise ValidationError(v.PASSWORD_TOO_SHORT, code="password_too_short")
        return password

    def clean(self):
        cleaned_data = super().clean()
        cleaned_data["remember"] = True
        return cleaned_data
