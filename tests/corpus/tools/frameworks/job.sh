#!/bin/bash
# Stand-in for an sbatch script: runs the command given as arguments with unbuffered Python,
# so that a caller redirecting this script's output (`job.sh CMD... > x.log 2>&1`) gets what a
# Slurm job log would hold, including bash's "Killed" line when the command dies by SIGKILL.
export PYTHONUNBUFFERED=1
"$@"
exit $?
