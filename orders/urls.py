from shop.api import api_path

from . import api

urlpatterns = [
    *api_path("booking", api.BookingListApi.as_view(), "booking-list"),
    *api_path("bookings", api.BookingAllApi.as_view(), "booking-all"),
    *api_path("booking/<int:pk>", api.BookingDetailApi.as_view(), "booking-detail"),
]
