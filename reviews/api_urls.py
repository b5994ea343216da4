from core.routing import optional_slash

from . import api, part_api

urlpatterns = [
    *optional_slash("review", api.ReviewApi.as_view(), "review-list"),
    *optional_slash(
        "allparts/<id:pk>/reviews", part_api.PartReviewsApi.as_view(), "part-review-list"
    ),
    *optional_slash(
        "allparts/<id:pk>/reviews/mine", part_api.MyPartReviewApi.as_view(), "part-review-mine"
    ),
    *optional_slash(
        "part-reviews/<id:pk>", part_api.PartReviewHideApi.as_view(), "part-review-hide"
    ),
]
