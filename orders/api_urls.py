from shop.routing import optional_slash

from . import api

urlpatterns = [
    *optional_slash("booking", api.BookingListApi.as_view(), "booking-list"),
    *optional_slash("bookings", api.BookingAllApi.as_view(), "booking-all"),
    *optional_slash("booking/<int:pk>", api.BookingDetailApi.as_view(), "booking-detail"),
]
