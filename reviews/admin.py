from django.contrib import admin, messages

from .models import PartReview, Review
from .services import (
    part_review_delete,
    part_review_save,
    part_review_set_hidden,
    review_delete,
    review_save,
    review_set_hidden,
)


class HideActions:
    """ "Hide" and "Show" for a review admin: `set_hidden`, the reviews' service that does it
    (the rating that counts them follows)."""

    actions = ["hide", "show"]
    set_hidden = None

    @admin.action(description="Hide", permissions=["change"])
    def hide(self, request, queryset):
        changed = self.set_hidden(reviews=queryset, hidden=True)
        self.message_user(request, f"{changed} review(s) hidden from the shop.", messages.SUCCESS)

    @admin.action(description="Show", permissions=["change"])
    def show(self, request, queryset):
        changed = self.set_hidden(reviews=queryset, hidden=False)
        self.message_user(request, f"{changed} review(s) shown again.", messages.SUCCESS)


@admin.register(Review)
class ReviewAdmin(HideActions, admin.ModelAdmin):
    list_display = ["name", "ratings", "hidden", "created_at", "user"]
    list_filter = ["hidden", "ratings"]
    search_fields = ["name", "review"]
    list_select_related = ["user"]
    autocomplete_fields = ["user"]
    readonly_fields = ["created_at"]
    set_hidden = staticmethod(review_set_hidden)

    def save_model(self, request, obj, form, change):
        review_save(review=obj)

    def delete_model(self, request, obj):
        review_delete(reviews=Review.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        review_delete(reviews=queryset)


@admin.register(PartReview)
class PartReviewAdmin(HideActions, admin.ModelAdmin):
    """Riders' reviews of parts: searchable, hidden or shown (the part's rating follows: every
    change goes through reviews.services). Plain text: Django admin escapes every value."""

    list_display = ["title", "part", "name", "rating", "fits", "hidden", "created_at"]
    list_filter = ["hidden", "rating", "fits"]
    search_fields = ["title", "body", "name", "part__name"]
    list_select_related = ["part", "user"]
    autocomplete_fields = ["user"]
    raw_id_fields = ["part", "vehicle"]
    readonly_fields = ["created_at", "updated_at"]
    set_hidden = staticmethod(part_review_set_hidden)

    def save_model(self, request, obj, form, change):
        part_review_save(review=obj)

    def delete_model(self, request, obj):
        part_review_delete(reviews=PartReview.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        part_review_delete(reviews=queryset)
