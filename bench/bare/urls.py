from django.urls import path

from . import views

urlpatterns = [
    path("", views.ok),
    path("order", views.order),
    path("search", views.search),
]
