"""The root URLs while benchmarking (BENCH_BARE_VIEW=1 makes them ROOT_URLCONF): the shop's own,
with the bare view at /bench/bare before them. The shop's URLs (shop/urls.py) never route it.
"""

from django.urls import path

from bench import views
from shop.urls import handler400, handler404
from shop.urls import urlpatterns as shop_urlpatterns

__all__ = ["handler400", "handler404", "urlpatterns"]

urlpatterns = [path("bench/bare", views.bare), *shop_urlpatterns]
