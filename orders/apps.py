from django.apps import AppConfig


class OrdersConfig(AppConfig):
    name = "orders"

    def ready(self):
        from catalog.signals import part_deleting

        from . import receivers

        part_deleting.connect(receivers.withdraw_the_parts_orders, dispatch_uid="orders.withdraw")
