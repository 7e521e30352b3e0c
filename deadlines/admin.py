from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from .models import Deadline
from .services import label_of, unpark


@admin.register(Deadline)
class DeadlineAdmin(admin.ModelAdmin):
    """Operators see what is due, and what failed too often and was parked."""

    list_display = ("what", "table", "key", "due_at", "attempts", "parked_at")
    list_filter = (("parked_at", admin.EmptyFieldListFilter), "kind")
    search_fields = ("key",)
    raw_id_fields = ("table",)
    actions = ["retry"]

    @admin.display(description="kind", ordering="kind")
    def what(self, deadline: Deadline) -> str:
        return label_of(deadline.kind)

    @admin.action(description="Retry the selected parked deadlines", permissions=["change"])
    def retry(self, request: HttpRequest, queryset: QuerySet[Deadline]) -> None:
        n = unpark(queryset.values_list("pk", flat=True))
        self.message_user(request, f"{n} parked deadline(s) will be tried again.", messages.INFO)
