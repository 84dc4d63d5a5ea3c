"""ajr's own database (decision records, node incidents): the only code that talks SQL."""
