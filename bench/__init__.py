"""Benchmarks and the fault-injection workload (run as scripts with PYTHONPATH=.)."""
