"""faultjob: a small real GPT training job that injects real faults on command.

`python -m bench.faultjob.train --help` lists the options; README.md beside this file shows how
to run it under torchrun or srun. It exists to prove ajr against real failure output: every
line it prints comes from a real run (measured times, real checkpoints, real signals).
"""
