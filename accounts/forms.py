"""allauth's sign-up form with the spec's name field and messages."""

from django import forms

from . import validators as v


class SignupForm(forms.Form):
    """Base of allauth's sign-up form (ACCOUNT_SIGNUP_FORM_CLASS): adds name, sets messages."""

    name = forms.CharField(max_length=150, error_messages={"required": v.NAME_REQUIRED})

    field_order = ["name", "email", "password1"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        messages = {
            "email": {"required": v.EMAIL_REQUIRED, "invalid": v.EMAIL_INVALID},
            "password1": {"required": v.PASSWORD_REQUIRED},
        }
        for name, errors in messages.items():
            if name in self.fields:
                self.fields[name].error_messages.update(errors)

    def signup(self, request, user):
        user.name = self.cleaned_data["name"]
        user.save(update_fields=["name"])
