"""Deterministic orchestration: one durable workflow per enrolled Slurm job, and discovery."""
