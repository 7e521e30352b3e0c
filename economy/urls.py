from django.urls import path

from . import views

app_name = "economy"

urlpatterns = [
    path("", views.rewards, name="rewards"),
    path("daily/", views.daily, name="daily"),
    path("buy/", views.buy, name="buy"),
]
