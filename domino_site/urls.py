from django.contrib import admin
from django.urls import include, path

from monitoring.views import live_page

urlpatterns = [
    path("admin/live/", live_page, name="admin_live"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("coins/", include("economy.urls")),
    path("online/", include("matchmaking.urls")),
    path("league/", include("league.urls")),
    path("", include("privacy.urls")),
    path("ratings/", include("ratings.urls")),
    path("", include("games.urls")),
]
