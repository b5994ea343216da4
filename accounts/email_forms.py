"""Changing the sign-in e-mail (allauth's e-mail page, ACCOUNT_FORMS["add_email"]).

allauth's ACCOUNT_CHANGE_EMAIL flow takes the newest unverified address to be the pending one
and removes it when another is asked for. The shop's sign-up addresses are not verified
(sign-up signs people in at once), so that would remove the account's own address. This form
keeps the account's address as it is and sets one pending address beside it; allauth mails
the link, and confirming it makes the new address the account's (and drops the old one).
"""

from allauth.account.forms import AddEmailForm
from allauth.account.models import EmailAddress
from django.db import transaction

from .models import User
from .validators import EMAIL_TAKEN


class ChangeEmailForm(AddEmailForm):
    def clean_email(self):
        email = super().clean_email()  # allauth's checks, then AccountAdapter.clean_email
        # Sign-up says so already, so saying it here tells nobody anything new;
        # and a taken address could never become this account's sign-in address anyway.
        if User.objects.filter(email=email).exclude(pk=self.user.pk).exists():
            self.add_error("email", EMAIL_TAKEN)
        return email

    def save(self, request):
        email = self.cleaned_data["email"]
        with transaction.atomic():
            # One pending address at a time: a new request replaces the one before (never
            # the account's own address, which allauth may hold as unverified, not primary).
            EmailAddress.objects.filter(user=self.user, verified=False, primary=False).exclude(
                email__in=[email, self.user.email]
            ).delete()
        return EmailAddress.objects.add_email(request, self.user, email, confirm=True)
