from django import forms
from django.contrib import admin

from .models import Part
from .validators import validate_image_url


class PartAdminForm(forms.ModelForm):
    class Meta:
        model = Part
        fields = [
            "name",
            "img",
            "description",
            "price",
            "minimum_order_quantity",
            "available_quantity",
        ]

    def clean_img(self):
        img = self.cleaned_data["img"].strip()
        validate_image_url(img)
        return img


@admin.register(Part)
class PartAdmin(admin.ModelAdmin):
    form = PartAdminForm
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
