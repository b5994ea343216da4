from allauth.account.apps import AccountConfig
from django.apps import AppConfig


class ShopConfig(AppConfig):
    name = "shop"


class EmailAddressesConfig(AccountConfig):
    """allauth's account app (its label stays "account"), named for what it holds: Django
    admin would otherwise show two sections called "Accounts", allauth's and the shop's."""

    verbose_name = "E-mail addresses"
