"""Storage: sessions and their move logs, tables and panels, ratings and settings, in SQLite or PostgreSQL.

It knows no host and no Discord: the layers above hand it records and read records back."""
