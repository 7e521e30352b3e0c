from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from .deadlines import unpark
from .models import Deadline, Hand, Invitation, Move, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("code", "mode", "preset", "players", "status", "version", "created_at")
    list_filter = ("mode", "status", "preset")
    inlines = [SeatInline]


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    readonly_fields = ("ply", "seat", "text", "actor", "created_at")


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "reason", "winners", "points")
    inlines = [MoveInline]


admin.site.register(Invitation)


@admin.register(Deadline)
class DeadlineAdmin(admin.ModelAdmin):
    """Operators see what is due, and what failed too often and was parked."""

    list_display = ("kind", "table", "key", "due_at", "attempts", "parked_at")
    list_filter = (("parked_at", admin.EmptyFieldListFilter), "kind")
    search_fields = ("key",)
    raw_id_fields = ("table",)
    actions = ["retry"]

    @admin.action(description="Retry the selected parked deadlines", permissions=["change"])
    def retry(self, request: HttpRequest, queryset: QuerySet[Deadline]) -> None:
        n = unpark(queryset.values_list("pk", flat=True))
        self.message_user(request, f"{n} parked deadline(s) will be tried again.", messages.INFO)
