from django.urls import path

from . import offline_pages, views
from .history import views as history_views

urlpatterns = [
    path("", views.home, name="home"),
    path("play/", views.quick_play, name="quick_play"),
    path("new/", views.table_new, name="table_new"),
    path("t/<str:code>/", views.table_page, name="table"),
    path("t/<str:code>/sit/", views.table_sit, name="table_sit"),
    path("t/<str:code>/rematch/", views.table_rematch, name="table_rematch"),
    path("t/<str:code>/leave/", views.game_leave, name="game_leave"),
    path("t/<str:code>/replay/", history_views.replay, name="replay"),
    path("t/<str:code>/replay/<int:number>/line/", history_views.line, name="replay_line"),
    path("t/<str:code>/record.txt", history_views.record, name="record"),
    path("t/<str:code>/deals.json", history_views.proofs, name="proofs"),
    path("t/<str:code>/hands/<int:number>/verify/", history_views.hand_verify, name="hand_verify"),
    path("invitations/", views.invitations, name="invitations"),
    path("invitations/<int:pk>/accept/", views.invitation_accept, name="invitation_accept"),
    path("invitations/<int:pk>/decline/", views.invitation_decline, name="invitation_decline"),
    path("rules/", views.rules_index, name="rules_index"),
    path("rules/<str:preset>/", views.rules_page, name="rules"),
    path("offline/", offline_pages.offline, name="offline"),
    path("sw.js", offline_pages.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline_pages.web_manifest, name="web_manifest"),
]
