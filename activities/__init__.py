"""Thin I/O shells (Slurm commands, log files, the database) around ajr's pure logic."""
