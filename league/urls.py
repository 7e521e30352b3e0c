from django.urls import path

from . import views

app_name = "league"

urlpatterns = [
    path("", views.league, name="league"),
]
