from core.caching.pages import cache_page_for_visitors
from core.routing import optional_slash

from . import alerts_api, api, garage_api, saved_api, selectors, suggestions

# The whole list is the same for every visitor: kept whole, like the catalog's pages.
part_list = cache_page_for_visitors(selectors.CATALOG, selectors.PARTS)(api.PartListApi.as_view())

# Suggestions: each `q` (up to 100 characters as sent) kept whole, as above; the same answer
# for everyone, signed in or not.
suggest = cache_page_for_visitors(*suggestions.SHOWN, query=r"q=[^&]{0,100}", everyone=True)(
    api.SuggestApi.as_view()
)

urlpatterns = [
    *optional_slash("allparts", part_list, "part-list"),
    *optional_slash("allparts/facets", api.PartFacetsApi.as_view(), "part-facets"),
    *optional_slash("allparts/<id:pk>", api.PartDetailApi.as_view(), "part-detail"),
    *optional_slash("allparts/<id:pk>/stock", api.PartStockApi.as_view(), "part-stock"),
    *optional_slash("allparts/<id:pk>/fitment", api.PartFitmentApi.as_view(), "part-fitment"),
    *optional_slash("allparts/<id:pk>/numbers", api.PartNumbersApi.as_view(), "part-numbers"),
    *optional_slash("allparts/<id:pk>/alerts", alerts_api.PartAlertsApi.as_view(), "part-alerts"),
    *optional_slash("search/suggest", suggest, "search-suggest"),
    *optional_slash("categories", api.CategoryListApi.as_view(), "category-list"),
    *optional_slash("vehicles", api.VehicleListApi.as_view(), "vehicle-list"),
    *optional_slash("vehicles/makes", api.VehicleMakesApi.as_view(), "vehicle-makes"),
    *optional_slash("garage", garage_api.GarageApi.as_view(), "garage-api"),
    *optional_slash("garage/<id:pk>", garage_api.GarageBikeApi.as_view(), "garage-bike"),
    *optional_slash("saved", saved_api.SavedPartsApi.as_view(), "saved-api"),
    *optional_slash("saved/<id:pk>", saved_api.SavedPartApi.as_view(), "saved-part"),
]
