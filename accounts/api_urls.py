from django.urls import register_converter

from core.routing import optional_slash

from . import address_api, api


class EmailConverter:
    """An e-mail in a path: anything but a slash or a NUL byte (which the database refuses)."""

    regex = r"[^/\x00]+"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(EmailConverter, "email")

urlpatterns = [
    *optional_slash("signup", api.SignupApi.as_view(), "signup"),
    *optional_slash("token", api.TokenApi.as_view(), "token"),
    *optional_slash("token/refresh", api.TokenRefreshApi.as_view(), "token-refresh"),
    *optional_slash("token/revoke", api.TokenRevokeApi.as_view(), "token-revoke"),
    *optional_slash("user", api.UserListApi.as_view(), "user-list"),
    *optional_slash("user/me", api.UserMeApi.as_view(), "user-me"),
    *optional_slash("user/admin/<email:email>", api.MakeAdminApi.as_view(), "user-make-admin"),
    *optional_slash("user/<email:email>", api.TokenExchangeApi.as_view(), "user-token"),
    *optional_slash("users/<email:email>", api.ProfileUpdateApi.as_view(), "user-profile"),
    *optional_slash("admin/<email:email>", api.AdminCheckApi.as_view(), "admin-check"),
    *optional_slash("addresses", address_api.AddressListApi.as_view(), "address-list"),
    *optional_slash("addresses/<id:pk>", address_api.AddressDetailApi.as_view(), "address-detail"),
]
