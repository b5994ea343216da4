"""allauth's sign-up form with the spec's name field and messages."""

from django import forms

from .validators import NAME_REQUIRED


class SignupForm(forms.Form):
    """Extra fields of allauth's sign-up form (ACCOUNT_SIGNUP_FORM_CLASS)."""

    name = forms.CharField(max_length=150, error_messages={"required": NAME_REQUIRED})

    def signup(self, request, user):
        user.name = self.cleaned_data["name"]
        user.save(update_fields=["name"])
