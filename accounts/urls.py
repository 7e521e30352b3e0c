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
    path("account/", views.account, name="account"),
    path("account/email/", views.email_change, name="email_change"),
    path("account/email/remove/", views.email_delete, name="email_delete"),
    path("account/password/", views.password_change, name="password_change"),
    path("email/<str:token>/", views.email_confirm_page, name="email_confirm"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
]
