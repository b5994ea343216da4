from core.routing import optional_slash

from . import views

urlpatterns = [*optional_slash("dashboard/review", views.add_review, "review")]
