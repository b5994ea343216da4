from shop.api import api_path

from . import api

urlpatterns = [*api_path("review", api.ReviewApi.as_view(), "review-list")]
