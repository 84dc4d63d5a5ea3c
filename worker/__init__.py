"""ajr's composition root: configuration, clients, the database, the worker and the CLI."""
