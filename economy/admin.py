"""The ledger for operators: read-only; a correction is an adjustment that
records who, why and how much (``economy.services.adjust``)."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from games.view.errors import GameError

from .models import Account, Entry, Purchase, StakeInPlay, Transfer, XpAward
from .selectors import ledger_balance
from .services import adjust


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class EntryInline(admin.TabularInline):
    model = Entry
    fk_name = "transfer"
    extra = 0
    fields = readonly_fields = ("account", "amount")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class AdjustForm(forms.Form):
    amount = forms.IntegerField(help_text="Coins to add (negative to take away); never 0.")
    reason = forms.CharField(max_length=200, help_text="Why: it is recorded with your name.")
    token = forms.UUIDField(widget=forms.HiddenInput)

    def clean_amount(self) -> int:
        amount: int = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError("An adjustment moves at least one coin.")
        return amount


@admin.register(Account)
class AccountAdmin(ReadOnly):
    list_display = ("__str__", "kind", "user", "table", "source", "balance", "adjust_link")
    list_filter = ("kind", "source")
    search_fields = ("user__username",)
    readonly_fields = ("ledger", "adjust_link")
    list_select_related = ("user", "table")

    @admin.display(description="ledger balance")
    def ledger(self, obj: Account) -> int:
        return ledger_balance(account=obj)

    @admin.display(description="correct")
    def adjust_link(self, obj: Account) -> str:
        if obj.kind == Account.Kind.SYSTEM:
            return "-"
        url = reverse("admin:economy_account_adjust", args=[obj.pk])
        return format_html('<a href="{}">adjust…</a>', url)

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "<int:pk>/adjust/",
                self.admin_site.admin_view(self.adjust_view),
                name="economy_account_adjust",
            )
        ]
        return own + super().get_urls()

    def adjust_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        account = get_object_or_404(Account, pk=pk)
        if not request.user.has_perm("economy.adjust_account"):
            messages.error(request, "You may not correct balances.")
            return HttpResponseRedirect(reverse("admin:economy_account_change", args=[pk]))
        form = AdjustForm(request.POST or None, initial={"token": uuid.uuid4()})
        if request.method == "POST" and form.is_valid():
            try:
                transfer = adjust(
                    account=account,
                    amount=form.cleaned_data["amount"],
                    reason=form.cleaned_data["reason"],
                    by=request.user,  # type: ignore[arg-type]
                    key=str(form.cleaned_data["token"]),
                )
            except (GameError, ValueError) as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, f"Adjusted: transfer {transfer.key}.")
                return HttpResponseRedirect(reverse("admin:economy_account_change", args=[pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Adjust {account}",
            "account": account,
            "form": form,
            "opts": self.model._meta,
        }
        return render(request, "economy/admin_adjust.html", context)


@admin.register(Transfer)
class TransferAdmin(ReadOnly):
    list_display = ("key", "reason", "moved", "boosted", "created_by", "created_at")
    list_filter = ("reason", "boosted")
    search_fields = ("key", "memo")
    date_hierarchy = "created_at"
    inlines = [EntryInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Transfer]:
        return super().get_queryset(request).select_related("created_by")

    @admin.display(description="coins moved")
    def moved(self, obj: Transfer) -> int:
        return sum(a for a in obj.entries.values_list("amount", flat=True) if a > 0)


@admin.register(Purchase)
class PurchaseAdmin(ReadOnly):
    list_display = ("token", "user", "item", "price", "percent", "starts_at", "ends_at")
    list_filter = ("item",)
    search_fields = ("user__username",)


@admin.register(XpAward)
class XpAwardAdmin(ReadOnly):
    list_display = ("key", "user", "amount", "boosted", "created_at")
    search_fields = ("key", "user__username")


@admin.register(StakeInPlay)
class StakeInPlayAdmin(ReadOnly):
    list_display = ("user", "table", "seat", "created_at")
    search_fields = ("user__username", "table__code")
