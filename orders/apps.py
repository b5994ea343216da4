from django.apps import AppConfig


class OrdersConfig(AppConfig):
    name = "orders"

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from catalog.signals import part_deleting

        from . import receivers
        from .models import Booking

        part_deleting.connect(receivers.withdraw_the_parts_orders, dispatch_uid="orders.withdraw")
        for signal in (post_save, post_delete):
            signal.connect(receivers.orders_changed, sender=Booking, dispatch_uid="orders.cache")
