from django.urls import path

from . import views

app_name = "privacy"

urlpatterns = [
    path("privacy/", views.privacy, name="privacy"),
    path("terms/", views.terms, name="terms"),
    path("accounts/account/export/", views.export, name="export"),
    path("accounts/account/delete/", views.delete, name="delete"),
]
