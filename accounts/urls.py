from core.routing import optional_slash

from . import views

urlpatterns = [
    *optional_slash("login", views.login, "login"),
    *optional_slash("signup", views.signup, "signup"),
    *optional_slash("logout", views.logout, "logout"),
    *optional_slash("dashboard", views.profile, "dashboard"),
    *optional_slash("dashboard/profile", views.profile, "profile"),
    *optional_slash("dashboard/users", views.users, "users"),
    *optional_slash("dashboard/addresses", views.address_book, "addresses"),
    *optional_slash("dashboard/addresses/<id:pk>/edit", views.address_edit, "address-edit"),
    *optional_slash(
        "dashboard/addresses/<id:pk>/default", views.address_make_default, "address-default"
    ),
    *optional_slash("dashboard/addresses/<id:pk>/delete", views.address_delete, "address-delete"),
]
