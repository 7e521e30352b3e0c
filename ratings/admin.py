"""Ratings for operators: read-only, but for a reset, which records who, why and what
the rating was (``ratings.services.rating_reset``) and is in the admin's log too."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from .models import BrowserSeen, Rating, RatingChange, RatingReset
from .services import rating_reset


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ResetForm(forms.Form):
    reason = forms.CharField(max_length=200, help_text="Why: it is recorded with your name.")


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = (
        "user",
        "format",
        "shown",
        "provisional",
        "mu",
        "sigma",
        "matches",
        "reset_link",
    )
    list_filter = ("format", "provisional")
    search_fields = ("user__username",)
    list_select_related = ("user",)

    @admin.display(description="reset")
    def reset_link(self, obj: Rating) -> str:
        url = reverse("admin:ratings_rating_reset", args=[obj.pk])
        return format_html('<a href="{}">reset…</a>', url)

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "<int:pk>/reset/",
                self.admin_site.admin_view(self.reset_view),
                name="ratings_rating_reset",
            )
        ]
        return own + super().get_urls()

    def reset_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        rating = get_object_or_404(Rating.objects.select_related("user"), pk=pk)
        back = HttpResponseRedirect(reverse("admin:ratings_rating_changelist"))
        if not request.user.has_perm("ratings.change_rating"):
            messages.error(request, "You may not reset ratings.")
            return back
        form = ResetForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            reason = form.cleaned_data["reason"]
            rating_reset(
                user=rating.user,
                format=rating.format,
                by=request.user,  # type: ignore[arg-type]
                reason=reason,
            )
            self.log_change(request, rating, f"Reset from {rating.shown}: {reason}")
            messages.success(request, f"{rating.user} is back to a new player's rating.")
            return back
        context = {
            **self.admin_site.each_context(request),
            "title": f"Reset {rating.user}'s rating ({rating.get_format_display()})",
            "rating": rating,
            "form": form,
            "opts": self.model._meta,
        }
        return render(request, "ratings/admin_reset.html", context)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = ("user", "table", "format", "outcome", "left", "shown_before", "shown_after")
    list_filter = ("format", "outcome", "left")
    search_fields = ("user__username", "table__code")
    list_select_related = ("user", "table")


@admin.register(RatingReset)
class RatingResetAdmin(ReadOnly):
    list_display = ("user", "format", "shown_before", "by", "reason", "created_at")
    search_fields = ("user__username",)
    list_select_related = ("user", "by")


@admin.register(BrowserSeen)
class BrowserSeenAdmin(ReadOnly):
    list_display = ("user", "browser", "first_seen")
    search_fields = ("user__username", "browser")
    list_select_related = ("user",)
