"""The deadline model moves from ``games`` to this app: its table stays as it is."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [("games", "0005_deadline_parked_at")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Deadline",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(max_length=16)),
                        ("key", models.CharField(blank=True, max_length=64)),
                        ("due_at", models.DateTimeField()),
                        ("version", models.PositiveIntegerField(blank=True, null=True)),
                        ("claimed_until", models.DateTimeField(blank=True, null=True)),
                        ("attempts", models.PositiveSmallIntegerField(default=0)),
                        ("parked_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "table",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="deadlines",
                                to="games.table",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_deadline",
                        "indexes": [models.Index(fields=["due_at"], name="games_deadl_due_at_8ae763_idx")],
                        "constraints": [
                            models.UniqueConstraint(condition=models.Q(("table__isnull", False)), fields=("kind", "table"), name="games_deadline_once_per_table"),
                            models.UniqueConstraint(condition=models.Q(("key", ""), _negated=True), fields=("kind", "key"), name="games_deadline_once_per_key"),
                            models.CheckConstraint(condition=models.Q(("table__isnull", False), models.Q(("key", ""), _negated=True), _connector="OR"), name="games_deadline_has_subject"),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
