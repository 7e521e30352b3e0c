from django.urls import path

from .consumers import QueueConsumer

# django-stubs types path() for views; Channels' URLRouter takes ASGI apps too.
websocket_urlpatterns = [path("ws/queue/", QueueConsumer.as_asgi())]  # type: ignore[arg-type]
