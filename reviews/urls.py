from core.routing import optional_slash

from . import part_views, views

urlpatterns = [
    *optional_slash("dashboard/review", views.add_review, "review"),
    # The same page under the name BEYOND.md gives it.
    *optional_slash("dashboard/addreview", views.add_review, "addreview"),
    # A part's review form: the part page's form posts here; the shipped mail links here.
    *optional_slash("parts/<id:pk>/review", part_views.part_review_form, "part-review"),
]
