"""A simulated Slurm 22.05 cluster behind the same command-line interface ajr runs (bench only).

For N managed jobs above what one host can run for real. `simslurm.controller` is one process
that holds N synthetic jobs in memory and answers the commands ajr's worker runs, through small
executables (`squeue`, `scontrol`, `sinfo`, `scancel`, `sdiag`) put in a directory the worker is
pointed at with `AJR_SLURM_BIN_DIR`: the worker's code path is the production one (subprocess,
argument list, the same parsers), only slurmctld is replaced. See README "Proving it" -> "Scale".
"""
