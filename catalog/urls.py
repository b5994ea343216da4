from core.routing import optional_slash

from . import alerts_views, garage_views, saved_views, views

urlpatterns = [
    *optional_slash("allparts", views.allparts, "allparts"),
    *optional_slash("parts/<id:pk>", views.part, "part"),
    *optional_slash("parts/<id:pk>/alerts", alerts_views.part_alert, "part-alert"),
    *optional_slash("alerts/confirm/<str:token>", alerts_views.confirm_alert, "alert-confirm"),
    *optional_slash("garage", garage_views.garage_page, "garage"),
    *optional_slash("saved", saved_views.saved_page, "saved"),
    *optional_slash("purchaseintent/<id:pk>", views.purchase, "purchase"),
    *optional_slash("dashboard/manageparts", views.manage_parts, "manageparts"),
    *optional_slash("dashboard/addparts", views.add_parts, "addparts"),
    *optional_slash("dashboard/parts/<id:pk>/edit", views.edit_part, "editpart"),
    *optional_slash("dashboard/parts/<id:pk>/stock", views.adjust_stock, "adjuststock"),
    *optional_slash("dashboard/manageparts/<id:pk>/delete", views.delete_part, "deletepart"),
]
