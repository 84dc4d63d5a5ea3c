"""Talking to Slurm: running its commands, parsing their output, sharing one cluster-wide poll."""
