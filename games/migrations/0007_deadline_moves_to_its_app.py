"""The deadline model now lives in the ``deadlines`` app; its table stays as it is."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0006_seat_left"), ("deadlines", "0001_initial")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Deadline")], database_operations=[]
        ),
    ]
