from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "is_guest", "xp", "date_joined", "is_staff")
    list_filter = ("is_guest", "is_staff")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Domino", {"fields": ("is_guest", "guest_tag", "xp")}),
    )
