from django.urls import path

from . import stake_views, views

app_name = "economy"

urlpatterns = [
    path("", views.rewards, name="rewards"),
    path("daily/", views.daily, name="daily"),
    path("header/", views.header_coins, name="header_coins"),
    path("buy/", views.buy, name="buy"),
    path("stakes/", stake_views.stakes, name="stakes"),
    path("stakes/sit/", stake_views.stake_sit, name="stake_sit"),
    path("stakes/<str:code>/leave/", stake_views.stake_leave, name="stake_leave"),
]
