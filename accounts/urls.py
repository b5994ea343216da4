from django.urls import register_converter
from rest_framework_simplejwt.views import TokenRefreshView

from shop.api import api_path

from . import api


class EmailConverter:
    """An e-mail in a path: anything but a slash or a NUL byte (which the database refuses)."""

    regex = r"[^/\x00]+"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(EmailConverter, "email")

urlpatterns = [
    *api_path("signup", api.SignupApi.as_view(), "signup"),
    *api_path("token", api.TokenApi.as_view(), "token"),
    *api_path("token/refresh", TokenRefreshView.as_view(), "token-refresh"),
    *api_path("user", api.UserListApi.as_view(), "user-list"),
    *api_path("user/me", api.UserMeApi.as_view(), "user-me"),
    *api_path("user/admin/<email:email>", api.MakeAdminApi.as_view(), "user-make-admin"),
    *api_path("user/<email:email>", api.TokenExchangeApi.as_view(), "user-token"),
    *api_path("users/<email:email>", api.ProfileUpdateApi.as_view(), "user-profile"),
    *api_path("admin/<email:email>", api.AdminCheckApi.as_view(), "admin-check"),
]
