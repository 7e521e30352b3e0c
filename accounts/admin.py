from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "is_guest", "xp", "date_joined", "is_staff", "deleted_at")
    list_filter = ("is_guest", "is_staff", "is_active")
    readonly_fields = ("deleted_at",)
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Domino", {"fields": ("is_guest", "guest_tag", "xp", "deleted_at")}),
    )
