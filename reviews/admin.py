from django.contrib import admin

from .models import Review


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin):
    list_display = ["name", "ratings", "created_at", "user"]
    list_filter = ["ratings"]
    search_fields = ["name", "review"]
    list_select_related = ["user"]
    autocomplete_fields = ["user"]
    readonly_fields = ["created_at"]
