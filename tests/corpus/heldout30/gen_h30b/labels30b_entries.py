# Labels of the h30b_ logs, written by hand from each kept log by tests/corpus/LABELLING.md (no engine was run).
TOOLS = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6, tqdm 4.70.1; Slurm 22.05.8 (private cluster lab30b, "
         "4 slurmd on one host) where sbatch/srun is named; gen_h30b/t30.py")
TRN = "torchrun --nproc-per-node 2 (c10d rendezvous on localhost)"
SB = "sbatch -N2 + srun --label"
H2 = ("two network namespaces as hosts gpu-b30-01/gpu-b30-02 (veth 10.230.7.11/12, UTS names via unshare), "
      "torchrun --nnodes 2 --nproc-per-node 1 on each, both hosts' output appended to one file")
ENTRIES = [
 dict(case="a01", slug="torchrun-accelerate-style-positional-column-96x49-and-48x512-after-step-850",
      how=f"case_a01: {TRN}, Accelerate-logger style (MM/DD/YYYY - INFO - __main__ - lines), checkpoints every 400; from "
          "step 900 an augmentation stage appends a 'positional' column to each batch (49 features for a 48-input model, "
          "a program bug) -> shape error in the first Linear on both ranks; out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, checkpoints=2,
      why="Both ranks fail with 'RuntimeError: mat1 and mat2 shapes cannot be multiplied (96x49 and 48x512)' in the "
          "model's forward: the input pipeline feeds a wrong feature width, a deterministic code bug."),
 dict(case="b12", slug="sbatch-srun-label-torchtune-style-first-eval-nonetype-floordiv-typeerror", file="tt-eval-1.out",
      how=f"case_b12: {SB}, torchtune-like config dump and INFO lines, checkpoint every 250, evaluation every 500 with "
          "max_eval_samples=None (a program bug) -> TypeError at the first evaluation on both tasks; the job's output "
          "file, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, checkpoints=1, job_nodes=["lab30n1", "lab30n2"],
      why="Both tasks die in evaluate() with \"TypeError: unsupported operand type(s) for //: 'NoneType' and 'int'\" "
          "and srun reports 'task 0/1: Exited with exit code 1': a bug in the evaluation config, deterministic."),
 dict(case="b01", slug="sbatch-n3-srun-label-accelerate-style-node-failure-on-lab30n2-after-step-1600", file="acc-tab-2.out",
      how="case_b01: sbatch -N3 (lab30n1-lab30n3) --no-requeue + srun --label, Accelerate-logger style, checkpoints every "
          "400; after step 800 lab30n2's slurmd was SIGKILLed -> slurmctld (SlurmdTimeout=20) marked it DOWN ~30 s later "
          "and cancelled the job for node failure; the job's output file, unedited",
      anomaly="CRASH", category="NODE", requeue=True, culprit_nodes=["lab30n2"], checkpoints=4,
      job_nodes=["lab30n1", "lab30n2", "lab30n3"],
      why="'srun: error: Node failure on lab30n2' and '*** JOB 2 ON lab30n1 CANCELLED ... DUE TO NODE FAILURE ***' end a "
          "run that was training normally: a node failure, requeue excluding lab30n2."),
]
ENTRIES += [
 dict(case="a02", slug="torchrun-composer-style-batches-per-sec-30-48-to-5-11-from-batch-600",
      how=f"case_a02: {TRN}, Composer-style console logger ([epoch=N][batch=M/1600] blocks); after batch 500 rank 1's "
          "training process was SIGSTOPped 0.3 s of every 0.4 s (SIGSTOP/SIGCONT duty cycle) until the run ended; "
          "out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True,
      why="'Train throughput/batches_per_sec' is 28-48 for batches 100-500 and 4.9-11.6 for every block from 600 to 1600 "
          "(the run still finishes, in 179 s): a sustained 4-8x throughput drop with no error."),
 dict(case="a09", slug="torchrun-composer-style-global-batch-1000-not-divisible-valueerror-at-start",
      how=f"case_a09: {TRN}, Composer-style; --global-batch 1000 with micro batch 96, 2 ranks and grad accumulation 2 "
          "(a configuration error) -> ValueError on both ranks before training; out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False,
      why="Both ranks raise 'ValueError: global_batch_size (1000) must be divisible by micro_batch_size (96) * "
          "data_parallel_size (2) * gradient_accumulation_steps (2)' at start-up: a configuration error."),
 dict(case="b02", slug="sbatch-srun-label-nemo-style-feature-cache-task-out-of-memory-oom-kill-event", file="nemo-mlp-4.out",
      how=f"case_b02: {SB}, --mem=900M per node, NeMo/PTL-style bar and log lines, checkpoint every 500; at step 700 each "
          "rank builds a 1.2 GB in-memory feature cache -> the cgroup OOM killer kills the tasks; the job's output file, "
          "unedited",
      anomaly="CRASH", category="NODE", requeue=True, checkpoints=1, job_nodes=["lab30n1", "lab30n2"],
      why="Right after 'building full-resolution feature cache (1.2 GB per rank)' srun reports 'lab30n1: task 0: Out Of "
          "Memory' and slurmstepd 'Detected 1 oom-kill event(s) in StepId=4.0': the job was killed by the out-of-memory "
          "killer."),
 dict(case="b06", slug="sbatch-srun-label-accelerate-style-checkpoint-makedirs-errno-5-step-800", file="acc-ck-3.out",
      how=f"case_b06: {SB}, Accelerate-logger style, checkpoints every 400 to an ext4 loop fs that was shut down "
          "(EXT4_IOC_SHUTDOWN) after the step-400 save -> EIO at the step-800 save; the job's output file, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True, checkpoints=1, job_nodes=["lab30n1", "lab30n2"],
      why="Rank 0 dies in save() with \"OSError: [Errno 5] Input/output error: '/work/lab30b/mnt/b06/ck/step_800'\" and "
          "rank 1's barrier then fails with 'Connection closed by peer' (a victim): an I/O error on the checkpoint file "
          "system."),
]
ENTRIES += [
 dict(case="a06", slug="torchrun-accelerate-style-rank1-exitcode-minus-10-sigusr1-after-step-900",
      how=f"case_a06: {TRN}, Accelerate-logger style, checkpoints every 500; after step 900 rank 1 was sent SIGUSR1 (no "
          "handler installed, so the process dies) -> rank 0 'Connection reset by peer', torchrun reports exitcode -10 "
          "(SIGUSR1); out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=1,
      why="The root-cause entry is rank 1 'exitcode: -10 ... Signal 10 (SIGUSR1) received' with no message from the "
          "program, and rank 0's gloo 'Connection reset by peer' is its victim: a signal death whose cause the log does "
          "not show."),
]
ENTRIES += [
 dict(case="a07", slug="torchrun-composer-style-stops-after-batch-700-gloo-recv-timed-out-60000ms",
      how=f"case_a07: {TRN} --pg-timeout 60, Composer-style; after batch 700 rank 1's training process was moved into a "
          "cgroup-v1 freezer group and FROZEN (thawed only after rank 0 had timed out and torchrun was SIGTERMing it) -> "
          "rank 0's gloo recv timed out; out.log, unedited",
      anomaly="HANG", category=None, requeue=True,
      why="After the batch-700 block nothing is logged for a minute, then rank 0 fails in backward with 'Timed out waiting "
          "60000ms for recv operation to complete' while rank 1 printed no error (torchrun then SIGTERMs it): a "
          "collective timeout, i.e. the job hung."),
]
ENTRIES += [
 dict(case="a04", slug="torchrun-composer-style-metrics-csv-append-errno-28-after-batch-1700",
      how=f"case_a04: {TRN}, Composer-style; rank 0 appends a padded metrics CSV row every 50 batches to a 16 MiB ext4 "
          "loop fs; after batch 600 another process filled the fs with dd, which stopped with ~680 KiB free, and at batch "
          "~1650 a second dd filled the rest -> ENOSPC on rank 0's next metrics write; out.log, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True,
      why="Rank 0 dies with 'OSError: [Errno 28] No space left on device' writing its metrics file and rank 1 then sees "
          "'Connection closed by peer' (a victim): the file system it writes to is full."),
 dict(case="b05", slug="sbatch-srun-label-accelerate-style-samples-per-sec-3400-to-900-from-step-650", file="acc-q-5.out",
      how=f"case_b05: {SB}, Accelerate-logger style, checkpoints every 500; after step 600 task 1 (rank 1) was put into a "
          "cgroup-v1 cpu group with a 10% CFS quota until the run ended; the job's output file, unedited",
      anomaly="STRAGGLER", category=None, requeue=True, checkpoints=2,
      why="samples_per_sec is 2779-3632 (step_time 0.053-0.069 s) for steps 50-600 and 843-1066 (step_time 0.18-0.23 s) "
          "for every logged step from 650 to 1400 with no error: a sustained ~3.5x slowdown, although training completes."),
]
ENTRIES += [
 dict(case="a08", slug="torchrun-nemo-style-variance-feature-sqrt-loss-nan-at-step-700",
      how=f"case_a08: {TRN}, NeMo/PTL-style ([NeMo I ...] lines, a tqdm bar with reduced_train_loss, PTL checkpoint "
          "lines), checkpoint every 500; from step 700 a config-flagged 'variance feature' takes sqrt of a quantity that "
          "can be negative (a program bug) -> nan loss -> FloatingPointError on both ranks; out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, checkpoints=1,
      why="Both ranks raise 'FloatingPointError: Loss is nan at step 700, stopping training' right where the loss had been "
          "~0.1-0.2: a numerical bug in the model code that recurs deterministically."),
 dict(case="b10", slug="sbatch-srun-label-detectron2-style-task-1-hangup-after-iter-799", file="d2-hup-6.out",
      how=f"case_b10: {SB}, detectron2-like, checkpoint every 500; after iteration 799 task 1 was sent SIGHUP from outside "
          "Slurm -> srun 'task 1: Hangup', rank 0's gloo read 'Connection reset by peer'; the job's output file, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=1, job_nodes=["lab30n1", "lab30n2"],
      why="'srun: error: lab30n2: task 1: Hangup' with no message from rank 1 itself, and rank 0 only fails with 'Connection "
          "reset by peer' (a victim): a rank killed by a signal whose origin the log does not show."),
]
ENTRIES += [
 dict(case="b07", slug="sbatch-srun-label-nemo-style-step-cancelled-on-lab30n3-tasks-terminated-at-804", file="nemo-pre-7.out",
      how=f"case_b07: {SB} (-w lab30n3,lab30n4, partition train, --no-requeue), NeMo/PTL-style bar, checkpoint every 500, "
          "no SIGTERM handler; after step ~750 a 2-node job in partition urgent (PriorityTier 10, PreemptMode=REQUEUE) on "
          "the same nodes preempted it: slurmstepd cancelled the step, both tasks were terminated (scontrol then showed "
          "the job FAILED); the job's output file, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, checkpoints=1, job_nodes=["lab30n3", "lab30n4"],
      why="A healthy bar (804/6000, ~23 it/s) is cut by 'slurmstepd-lab30n3: error: *** STEP 7.0 ON lab30n3 CANCELLED AT "
          "... ***', then 'task 0/1: Terminated' and 'Force Terminated StepId=7.0' with no error from the program: Slurm "
          "ended the step (here a preemption), not a fault of the job."),
]
ENTRIES += [
 dict(case="b11", slug="sbatch-array-task-1-srun-label-accelerate-style-1200-steps-completed", file="acc-sweep-9_1.out",
      how="case_b11: sbatch --array=0-1 (-N1 -n2 per task) + srun --label, Accelerate-logger style, a two-point sweep "
          "over gradient accumulation (1 and 4) with --global-batch 768 (meant as a divisibility error, but 768 = "
          "96 x 2 x 4, so both tasks ran); task 1 (on lab30n2), which trained 1200 steps and finished; task 1's "
          "output file, unedited",
      anomaly="NONE", category=None, requeue=None, job_nodes=["lab30n2"],
      why="Loss falls from 0.49 to 0.05 over 1200 steps with samples_per_sec 2860-5940 throughout (noise, no sustained "
          "drop) and the run ends with 'Training completed. Total steps: 1200': a healthy run."),
]
ENTRIES += [
 dict(case="b04", slug="sbatch-requeue-srun-label-nemo-style-1500-steps-five-checkpoints-completed", file="nemo-ft-11.out",
      how=f"case_b04: {SB}, --requeue --open-mode=append, NeMo/PTL-style bar and checkpoint lines, checkpoints every 300 "
          "with --resume; meant to be requeued by 'scontrol requeue' after step 600, but the case's wait for that line "
          "missed it (srun --label split the line) and the job ran to the end without a requeue; the job's output file, "
          "unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=5, job_nodes=["lab30n1", "lab30n2"],
      why="The bar runs 0 -> 1500/1500 at 17-36 it/s with reduced_train_loss falling to 0.039, five 'saving model to ...' "
          "checkpoint lines, '`Trainer.fit` stopped: `max_steps=1500` reached.' and 'srun exited 0': a healthy run."),
]
ENTRIES += [
 dict(case="c02", slug="2host-torchrun-nemo-style-bar-stops-at-739-both-ranks-gloo-recv-timed-out",
      how=f"case_c02: {H2}; --pg-timeout 60, NeMo/PTL-style, checkpoint every 500; after step ~700 a blackhole route to "
          "gpu-b30-02 was added on gpu-b30-01 (host 1's packets to host 2 silently dropped) -> both ranks' gloo recvs "
          "timed out; host 2's agent, cut off from the store, printed nothing more and was killed by the case; "
          "out.log, unedited",
      anomaly="HANG", category=None, requeue=True, checkpoints=1, job_nodes=["gpu-b30-01"],
      why="The bar stops at 739/3000 and a minute later both ranks fail with 'Timed out waiting 60000ms for recv "
          "operation to complete' (gloo) with no other error: a collective timeout, i.e. the job hung (the log does not "
          "show why)."),
]
ENTRIES += [
 dict(case="b08", slug="sbatch-srun-label-composer-style-silent-after-batch-800", file="kept.log",
      how=f"case_b08: {SB}, Composer-style console logger, checkpoint every 500, process-group timeout 1800 s; at batch "
          "900 rank 1 re-enters a non-reentrant metrics lock (a self-deadlock) and stops calling collectives, rank 0 "
          "waits in allreduce; the job's output file copied to kept.log after 150 s of silence (then scancel); kept.log, "
          "unedited",
      anomaly="HANG", category=None, requeue=True, checkpoints=1, silence_s=150, job_nodes=["lab30n1", "lab30n2"],
      why="The log ends mid-run at the '[epoch=3][batch=800/3000]' block (of 3000; the batch-500 checkpoint came 19 s after the start) "
          "with no error or exit, and the job then sat silent for 150 s: training stopped making progress."),
]
ENTRIES += [
 dict(case="a03", slug="torchrun-nemo-style-futurewarnings-wandb-retries-mirror-misses-2000-steps-completed",
      how=f"case_a03: {TRN}, NeMo/PTL-style, FutureWarnings and a DataLoader UserWarning at start, retried (simulated) "
          "wandb uploads, caught FileNotFoundErrors from a shard-index mirror logged as [NeMo W] warnings, validation and "
          "checkpoints every 500; nothing injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4,
      why="Despite the FutureWarnings, 'wandb: WARNING Failed to upload metrics ... retrying' (each followed by 'upload "
          "succeeded after 1 retry') and the mirror warnings, the bar runs to 2000/2000 at 16-30 it/s with "
          "val_loss falling, four checkpoints and '`Trainer.fit` stopped: `max_steps=2000` reached.': healthy."),
 dict(case="b03", slug="sbatch-srun-label-composer-style-cancelled-due-to-time-limit-at-batch-1800", file="comp-long-13.out",
      how=f"case_b03: {SB}, --time=2, Composer-style, 40000 batches planned, checkpoints every 1000 -> the job hit its "
          "2-minute limit; the job's output file, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, checkpoints=1, job_nodes=["lab30n1"],
      why="'*** JOB 13 ON lab30n1 CANCELLED AT ... DUE TO TIME LIMIT ***' ends a run that was at batch 1800 of 40000: "
          "Slurm's time limit, not a fault of the job."),
]
ENTRIES += [
 dict(case="b09", slug="sbatch-srun-label-composer-style-futurewarnings-wandb-retries-eval-ckpt-completed", file="comp-ok-14.out",
      how=f"case_b09: {SB}, Composer-style console logger, FutureWarnings and a DataLoader UserWarning at start, retried "
          "(simulated) wandb uploads, evaluation and checkpoints every 500; nothing injected; the job's output file, "
          "unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4, job_nodes=["lab30n1", "lab30n2"],
      why="Throughput stays at 24-48 batches/s (no sustained drop), eval CrossEntropy falls to 0.024, the wandb 'Failed "
          "to upload metrics ... retrying' warnings are each followed by 'upload succeeded after 1 retry', four checkpoints "
          "are saved and the job ends 'Training finished at batch 2000' / 'srun exited 0': healthy."),
]
ENTRIES += [
 dict(case="b13", slug="sbatch-srun-label-nemo-style-checkpoint-step-800-errno-30-read-only-fs", file="nemo-ro-15.out",
      how=f"case_b13: {SB}, NeMo/PTL-style bar and checkpoint lines, checkpoints every 400 to an ext4 loop fs that was "
          "remounted read-only after the step-400 save -> Errno 30 at the step-800 save; the job's output file, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True, checkpoints=1, job_nodes=["lab30n1", "lab30n2"],
      why="Rank 0 dies with \"OSError: [Errno 30] Read-only file system: '/work/lab30b/mnt/b13/ck/step_800'\" while "
          "saving and rank 1 then sees 'Connection closed by peer' (a victim): the checkpoint file system went read-only."),
]
ENTRIES += [
 dict(case="a13", slug="torchrun-composer-style-both-ranks-exitcode-minus-7-sigbus-after-batch-700",
      how=f"case_a13: {TRN}, Composer-style, features np.memmap'ed from a copy on an ext4 loop fs, checkpoint every 500; "
          "after batch 700 the feature file was truncated to 0 bytes by another process -> both ranks die of SIGBUS on "
          "their next read of the mapping; out.log, unedited",
      anomaly="CRASH", category="NODE", requeue=True, checkpoints=1,
      why="Both ranks end with 'exitcode : -7 ... Signal 7 (SIGBUS) received' right after batch 700 with no Python "
          "error: a bus error (a mapped page that can no longer be read), which the policy attributes to the host."),
]
ENTRIES += [
 dict(case="a12", slug="torchrun-accelerate-style-stops-at-saving-step-800-rank1-gloo-recv-timed-out",
      how=f"case_a12: {TRN} --pg-timeout 60, Accelerate-logger style, checkpoints every 400 to an ext4 loop fs that was "
          "frozen (fsfreeze -f) after the step-400 save -> rank 0 blocks writing the step-800 checkpoint, rank 1 waits in "
          "the barrier and its gloo recv times out (the fs was thawed afterwards); out.log, unedited",
      anomaly="HANG", category=None, requeue=True, checkpoints=1,
      why="The log stops at 'Saving current state to /work/lab30b/mnt/a12/ck/step_800' (steps had come every ~1 s) and "
          "a minute later rank 1 fails with 'Timed out waiting 60000ms for recv operation to complete' while rank 0 "
          "printed nothing: a collective timeout, i.e. the job hung (apparently in the checkpoint write)."),
]
ENTRIES += [
 dict(case="a11", slug="torchrun-accelerate-style-first-checkpoint-errno-27-file-too-large-step-300",
      how=f"case_a11: {TRN} launched under 'ulimit -f 4096' (a 4 MiB per-file size limit), Accelerate-logger style, "
          "checkpoints every 300 with 3 MiB of padding (~6.4 MB files) -> the first save fails with EFBIG; out.log, "
          "unedited",
      anomaly="CRASH", category="STORAGE", requeue=True,
      why="Right after 'Saving current state to ck/step_300' rank 0's torch.save fails with 'OSError: [Errno 27] File "
          "too large' (then 'unexpected pos'), and rank 1 sees 'Connection closed by peer': a file-size limit hit while "
          "writing the checkpoint."),
]
ENTRIES += [
 dict(case="a14", slug="torchrun-detectron2-style-first-checkpoint-errno-28-no-inodes-left",
      how=f"case_a14: {TRN}, detectron2-like, checkpoints every 200 to a 32 MiB ext4 loop fs made with only 64 inodes, "
          "of which a 'shard cache' of 50 small files left 2 free -> the first save cannot create model.pt (ENOSPC: out "
          "of inodes although blocks are free); out.log, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True,
      why="Right after 'Saving checkpoint to .../step_200/model_0000199.pth' rank 0 fails with \"OSError: [Errno 28] No "
          "space left on device: '/work/lab30b/mnt/a14/ck/step_200/model.pt'\" and rank 1 sees 'Connection closed by "
          "peer' (a victim): the checkpoint file system is full."),
 dict(case="c01", slug="2host-torchrun-accelerate-style-samples-per-sec-5000-to-700-from-step-550",
      how=f"case_c01: {H2}; Accelerate-logger style; after step 500 gpu-b30-01's egress was rate limited with 'tc qdisc "
          "add dev l30bv1 root tbf rate 40mbit' until the run ended; out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True,
      why="samples_per_sec is 4580-5650 (step_time 0.034-0.042 s) for steps 50-500 and 701-1263 (step_time 0.15-0.27 s) from 550 "
          "to 1400 with no error, and the run only completes after 255 s: a sustained ~7x throughput drop."),
]
ENTRIES += [
 dict(case="c04", slug="2host-torchrun-nemo-style-gloo-writev-software-caused-connection-abort-at-811",
      how=f"case_c04: {H2}; NeMo/PTL-style, checkpoint every 500; after step ~800 gloo's data connections of gpu-b30-01 "
          "(every TCP socket to gpu-b30-02 except the c10d store port) were destroyed with 'ss -K' -> rank 0 'Software "
          "caused connection abort', rank 1 'Connection reset by peer'; out.log, unedited",
      anomaly="CRASH", category="NETWORK", requeue=True, checkpoints=1, job_nodes=["gpu-b30-01", "gpu-b30-02"],
      why="Mid-run (bar at 811/3000) rank 0 fails with 'writev [10.230.7.12]:53452: Software caused connection abort' and "
          "rank 1 with 'Read error [10.230.7.11]:31137: Connection reset by peer', neither rank having crashed first: the "
          "TCP connections between the hosts were torn down."),
]
ENTRIES += [
 dict(case="c03", slug="2host-torchrun-composer-style-futurewarnings-eval-ckpt-1600-batches-completed",
      how=f"case_c03: {H2}; Composer-style console logger, FutureWarnings and a DataLoader UserWarning at start, "
          "evaluation and checkpoints every 400; nothing injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4, job_nodes=["gpu-b30-01"],
      why="Apart from the start-up FutureWarnings/UserWarning, throughput holds at 43-59 batches/s, the eval CrossEntropy "
          "falls, four 'Checkpoint saved' lines and 'Training finished at batch 1600 (31.8s)': a healthy run."),
]
ENTRIES += [
 dict(case="a10", slug="torchrun-accelerate-style-loss-spike-18-at-step-1000-recovers-completed",
      how=f"case_a10: {TRN}, Accelerate-logger style, FutureWarnings and a DataLoader UserWarning at start, evaluation and "
          "checkpoints every 600; 30 mislabelled batches from step 1000 (a bad data stretch: the loss spikes, then "
          "recovers); out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4,
      why="The loss jumps to 18.44 at step 1000 and 1.64 at 1050 but is back to 0.16 by 1100 and falls to ~0.02, "
          "samples_per_sec stays 5760-10640 (no sustained drop), eval_loss keeps falling and the run ends 'Training completed. Total "
          "steps: 2400': a recovered spike in a healthy run."),
]
ENTRIES += [
 dict(case="b16", slug="sbatch-requeue-srun-label-nemo-style-cancelled-due-to-job-requeue-restores-step-600-completes",
      file="nemo-rq-16.out",
      how=f"case_b16: {SB}, --requeue --open-mode=append, NeMo/PTL-style bar and checkpoint lines, checkpoints every 300 "
          "with --resume; once the step-600 checkpoint existed an operator ran 'scontrol requeue': Slurm cancelled the "
          "running job for the requeue, restarted it ~2.5 min later on the same nodes, and it restored the step-600 "
          "checkpoint and finished; the job's output file (both runs, appended), unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=5, job_nodes=["lab30n1", "lab30n2"],
      why="'*** JOB 16 ... CANCELLED ... DUE TO JOB REQUEUE ***' is followed by 'job 16 restart 1', 'Restoring states from "
          "the checkpoint path at .../step_600/model.pt', a bar from 600 to 1500/1500 at 28-40 it/s, '`Trainer.fit` "
          "stopped: `max_steps=1500` reached.' and 'srun exited 0': the requeue was handled and training completed."),
]
ENTRIES += [
 dict(case="b15", slug="sbatch-srun-label-jsonl-job-17-cancelled-after-step-900", file="jl-kill-17.out",
      how=f"case_b15: {SB}, JSON-lines metrics from both ranks, checkpoints every 400; after step 900 the case ran "
          "'scancel --signal=KILL --full' on the job (meant as a bare signal; Slurm recorded the job CANCELLED); the "
          "job's output file, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, checkpoints=2, job_nodes=["lab30n1"],
      why="Right after a normal step-900 record both 'slurmstepd-lab30n1: error: *** JOB 17 ON lab30n1 CANCELLED AT ... "
          "***' and '*** STEP 17.0 ... CANCELLED ***' appear with no error from the program: the job was cancelled "
          "through Slurm, not by a fault of its own."),
]
ENTRIES += [
 dict(case="c05", slug="2host-torchrun-composer-style-batches-per-sec-30-to-5-9-from-batch-600",
      how=f"case_c05: {H2}; Composer-style console logger; after batch 500 the worker on gpu-b30-02 was SIGSTOPped 0.3 s "
          "of every 0.4 s (SIGSTOP/SIGCONT duty cycle) until the run ended; host 1's agent then logged a keep-alive "
          "RendezvousTimeoutError warning while shutting down; out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True, job_nodes=["gpu-b30-01"],
      why="'Train throughput/batches_per_sec' is 27-31 for batches 100-500 and 4.9-9.1 for every block from 600 to 1500 "
          "(the run needs 168 s) with no error: a sustained 3-6x throughput drop; the trailing keep-alive warning comes "
          "after 'Training finished'."),
 dict(case="b14", slug="sbatch-array-task-2-srun-label-nemo-style-node-failure-on-lab30n3-after-step-500",
      file="nemo-lr-18_2.out",
      how="case_b14: sbatch --array=0-2 (-N1 -n2 per task) + srun --label, NeMo/PTL-style learning-rate sweep, "
          "checkpoints every 500; after task 2 saved its step-500 checkpoint an administrator set its node lab30n3 DOWN "
          "('scontrol update nodename=lab30n3 state=down') -> Slurm killed the task (NODE_FAIL); tasks 0 and 1 "
          "completed; task 2's output file, unedited",
      anomaly="CRASH", category="NODE", requeue=True, culprit_nodes=["lab30n3"], checkpoints=1, job_nodes=["lab30n3"],
      why="The bar, just past the step-500 checkpoint, is cut by 'srun: error: Node failure on lab30n3' with no error from "
          "the program: the node failed under the job; requeue elsewhere."),
]
ENTRIES += [
 dict(case="c06", slug="2host-torchrun-pylog-stops-at-step-700-application-timeout-caused-pair-closure",
      how=f"case_c06: {H2}; --pg-timeout 60, Python logging from both ranks; after step 700 a 'prohibit' route to "
          "gpu-b30-01 was added on gpu-b30-02 -> no more traffic from host 2, both ranks' gloo pairs time out after "
          "60 s; host 2's agent then loses the c10d store (host 1's agent had exited) and logs store/rendezvous "
          "connection errors; out.log, unedited",
      anomaly="HANG", category=None, requeue=True, job_nodes=["gpu-b30-01", "gpu-b30-02"],
      why="Both ranks log step 700 at 20.7 ms/step, then nothing for 60 s until both fail with 'RuntimeError: Application "
          "timeout caused pair closure' (a gloo collective timeout); the later TCPStore 'Failed to recv' and "
          "RendezvousConnectionError lines come from the agents shutting down: the job hung."),
]
ENTRIES += [
 dict(case="c07", slug="2host-torchrun-jsonl-after-step-600-software-caused-connection-abort-store-rendezvous-error",
      how=f"case_c07: {H2}; JSON-lines metrics from both ranks, checkpoint every 400; after step 600 every TCP socket of "
          "gpu-b30-02 to gpu-b30-01 (gloo data and c10d store connections) was destroyed with 'ss -K' -> 'Software caused "
          "connection abort' / 'Connection reset by peer', store sendBytes failures, RendezvousConnectionError; out.log, "
          "unedited",
      anomaly="CRASH", category="NETWORK", requeue=True, checkpoints=1, job_nodes=["gpu-b30-01", "gpu-b30-02"],
      why="Right after a normal step-600 record rank 1 fails with 'Read error [10.230.7.11]:19332: Software caused "
          "connection abort', rank 0 with 'Connection reset by peer', and gpu-b30-02's agent loses the C10d store "
          "('sendBytes failed ... Software caused connection abort', RendezvousConnectionError), no rank having crashed "
          "first: the connections between the hosts failed."),
]
