"""Deals anyone can verify: each table's next seed, each hand's revealed seeds, and
the seeds players' browsers add (games.engine.deals)."""

import django.db.models.deletion
import games.engine.deals
from django.db import migrations, models


def own_seeds(apps, schema_editor):  # type: ignore[no-untyped-def]
    """Adding the column gave every table the same seed: each table still to deal gets
    its own."""
    Table = apps.get_model("games", "Table")
    for table in Table.objects.filter(status__in=["waiting", "playing"]).only("pk").iterator():
        Table.objects.filter(pk=table.pk).update(deal_seed=games.engine.deals.new_seed())


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_stake_settings_and_sits_move_here'),
    ]

    operations = [
        migrations.AddField(
            model_name='hand',
            name='client_seeds',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='hand',
            name='seed',
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name='table',
            name='deal_seed',
            field=models.CharField(default=games.engine.deals.new_seed, editable=False, max_length=64),
        ),
        migrations.CreateModel(
            name='ClientSeed',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('commitment', models.CharField(max_length=64)),
                ('seat', models.PositiveSmallIntegerField()),
                ('seed', models.CharField(max_length=64)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='client_seeds', to='games.table')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('table', 'commitment', 'seat'), name='games_client_seed_once_per_seat')],
            },
        ),
        migrations.RunPython(own_seeds, migrations.RunPython.noop),
    ]
