from django.urls import path

from .consumers import NotificationConsumer, TableConsumer

# Channels routes ASGI consumers with Django's path(), which django-stubs types for views only.
websocket_urlpatterns = [
    path("ws/table/<str:code>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/notify/", NotificationConsumer.as_asgi()),  # type: ignore[arg-type]
]
