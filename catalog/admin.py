from django.contrib import admin

from .models import Part


@admin.register(Part)
class PartAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "price",
        "minimum_order_quantity",
        "available_quantity",
        "created_at",
    ]
    list_editable = ["available_quantity"]
    list_filter = ["created_at"]
    search_fields = ["name", "description"]
    readonly_fields = ["created_at"]
