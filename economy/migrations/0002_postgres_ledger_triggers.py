"""On PostgreSQL the database itself enforces double entry and append-only.

- A deferred constraint trigger checks, at commit, that every transfer touched
  by an inserted entry sums to zero, and that every new transfer has two legs
  or more: a half-written transfer can never be committed, whoever writes it.
- Entries and transfers refuse UPDATE and DELETE (TRUNCATE, as a test flush
  does, is not a row event).
SQLite has no such triggers; there the posting function and the audit check.
"""

from django.db import migrations

FORWARD = [
    """
CREATE FUNCTION economy_transfer_balances() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    tid bigint;
    total numeric;
    legs integer;
BEGIN
    IF TG_TABLE_NAME = 'economy_transfer' THEN tid := NEW.id; ELSE tid := NEW.transfer_id; END IF;
    SELECT COALESCE(SUM(amount), 0), COUNT(*) INTO total, legs
      FROM economy_entry WHERE transfer_id = tid;
    IF total <> 0 OR legs < 2 THEN
        RAISE EXCEPTION 'economy: transfer % has % legs summing to %', tid, legs, total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$;
""",
    """
CREATE CONSTRAINT TRIGGER economy_entry_balanced
    AFTER INSERT ON economy_entry DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION economy_transfer_balances();
""",
    """
CREATE CONSTRAINT TRIGGER economy_transfer_balanced
    AFTER INSERT ON economy_transfer DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION economy_transfer_balances();
""",
    """
CREATE FUNCTION economy_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'economy: % rows are never updated or deleted', TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END $$;
""",
    """
CREATE TRIGGER economy_entry_append_only BEFORE UPDATE OR DELETE ON economy_entry
    FOR EACH ROW EXECUTE FUNCTION economy_append_only();
""",
    """
CREATE TRIGGER economy_transfer_append_only BEFORE UPDATE OR DELETE ON economy_transfer
    FOR EACH ROW EXECUTE FUNCTION economy_append_only();
""",
]

BACKWARD = [
    """
DROP TRIGGER IF EXISTS economy_transfer_append_only ON economy_transfer;
""",
    """
DROP TRIGGER IF EXISTS economy_entry_append_only ON economy_entry;
""",
    """
DROP FUNCTION IF EXISTS economy_append_only();
""",
    """
DROP TRIGGER IF EXISTS economy_transfer_balanced ON economy_transfer;
""",
    """
DROP TRIGGER IF EXISTS economy_entry_balanced ON economy_entry;
""",
    """
DROP FUNCTION IF EXISTS economy_transfer_balances();
""",
]


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in FORWARD:
            schema_editor.execute(statement, params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in BACKWARD:
            schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("economy", "0001_initial")]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
