from core.routing import optional_slash

from . import api

urlpatterns = [
    *optional_slash("allparts", api.PartListApi.as_view(), "part-list"),
    *optional_slash("allparts/<int:pk>", api.PartDetailApi.as_view(), "part-detail"),
    *optional_slash("allparts/<int:pk>/stock", api.PartStockApi.as_view(), "part-stock"),
    *optional_slash("categories", api.CategoryListApi.as_view(), "category-list"),
]
