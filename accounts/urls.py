from core.routing import optional_slash

from . import views

urlpatterns = [
    *optional_slash("login", views.login, "login"),
    *optional_slash("signup", views.signup, "signup"),
    *optional_slash("logout", views.logout, "logout"),
    *optional_slash("dashboard", views.profile, "dashboard"),
    *optional_slash("dashboard/profile", views.profile, "profile"),
    *optional_slash("dashboard/users", views.users, "users"),
]
