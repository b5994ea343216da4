from core.routing import optional_slash

from . import api

urlpatterns = [*optional_slash("review", api.ReviewApi.as_view(), "review-list")]
