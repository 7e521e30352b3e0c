"""The league in the admin: read-only, since rows are written by the services only."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import Entry, Finish, LeagueWeek, Member


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(LeagueWeek)
class LeagueWeekAdmin(ReadOnly):
    list_display = ("key", "starts_at", "ends_at", "closed_at")


@admin.register(Member)
class MemberAdmin(ReadOnly):
    list_display = ("user", "tier", "updated_at")
    list_filter = ("tier",)
    search_fields = ("user__username",)


@admin.register(Entry)
class EntryAdmin(ReadOnly):
    list_display = ("week", "user", "table", "rank", "points", "halved", "created_at")
    list_select_related = ("week", "user", "table")
    search_fields = ("user__username",)


@admin.register(Finish)
class FinishAdmin(ReadOnly):
    list_display = ("week", "tier", "rank", "user", "points", "matches", "move", "prize")
    list_filter = ("tier",)
    list_select_related = ("week", "user")
    search_fields = ("user__username",)
