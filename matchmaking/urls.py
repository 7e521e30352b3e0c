from django.urls import path

from . import views

app_name = "matchmaking"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("counts/", views.counts, name="counts"),
    path("join/", views.join, name="join"),
    path("queue/", views.queue, name="queue"),
    path("seated/", views.seated, name="seated"),
    path("leave/", views.leave, name="leave"),
]
