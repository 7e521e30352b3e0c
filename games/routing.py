from django.urls import path

from .consumers import NotificationConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/table/<str:code>/", TableConsumer.as_asgi()),
    path("ws/notify/", NotificationConsumer.as_asgi()),
]
