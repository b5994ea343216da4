from django.urls import path

from core.routing import optional_slash

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    *optional_slash("blogs", views.blogs, "blogs"),
    *optional_slash("myportfolio", views.portfolio, "myportfolio"),
]
