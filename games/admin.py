from django.contrib import admin

from .models import Hand, Invitation, Move, Seat, Table


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
