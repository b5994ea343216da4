from rest_framework_simplejwt.views import TokenRefreshView

from shop.api import api_path

from . import api

urlpatterns = [
    *api_path("signup", api.SignupApi.as_view(), "signup"),
    *api_path("token", api.TokenApi.as_view(), "token"),
    *api_path("token/refresh", TokenRefreshView.as_view(), "token-refresh"),
    *api_path("user", api.UserListApi.as_view(), "user-list"),
    *api_path("user/me", api.UserMeApi.as_view(), "user-me"),
    *api_path("user/admin/<str:email>", api.MakeAdminApi.as_view(), "user-make-admin"),
    *api_path("user/<str:email>", api.TokenExchangeApi.as_view(), "user-token"),
    *api_path("users/<str:email>", api.ProfileUpdateApi.as_view(), "user-profile"),
    *api_path("admin/<str:email>", api.AdminCheckApi.as_view(), "admin-check"),
]
