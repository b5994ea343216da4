from shop.api import api_path

from . import api

urlpatterns = [
    *api_path("allparts", api.PartListApi.as_view(), "part-list"),
    *api_path("allparts/<int:pk>", api.PartDetailApi.as_view(), "part-detail"),
]
