from django.contrib import admin

from .models import Category, Part


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    list_display = ["name", "slug"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Part)
class PartAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "category",
        "price",
        "minimum_order_quantity",
        "available_quantity",
        "created_at",
    ]
    list_editable = ["available_quantity"]
    list_filter = ["category", "created_at"]
    list_select_related = ["category"]
    search_fields = ["name", "description"]
    readonly_fields = ["created_at"]
