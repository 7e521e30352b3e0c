from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("claim/", views.claim, name="claim"),
    path("me/", views.my_profile, name="me"),
    path("players/<str:username>/", views.profile, name="profile"),
]
