# Labels of the h27b_ logs, written by hand from each kept log by tests/corpus/LABELLING.md (no engine was run).
TOOLS = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6, tqdm 4.70.1; Slurm 22.05.8 (private cluster lab27b, "
         "4 slurmd on one host) where sbatch/srun is named; gen_h27b/t27.py")
SB = "sbatch -N2 + srun --label"
ENTRIES = [
 dict(case="c01", slug="sbatch-srun-label-megatron-style-lab27n2-node-failure-after-iteration-1700",
      how=f"case_c01: {SB} (lab27n1,lab27n2), Megatron-style iteration lines, checkpoints every 400; after iteration 800 "
          "lab27n2's slurmd was SIGKILLed (the task kept running); slurmctld (SlurmdTimeout=20) declared lab27n2 down and "
          "ended job 2 NODE_FAIL; the Slurm output file gpt-small-pt-2.out, unedited",
      anomaly="CRASH", category="NODE", requeue=True, culprit_nodes=["lab27n2"], job_nodes=["lab27n1", "lab27n2"],
      checkpoints=4,
      why="'srun: error: Node failure on lab27n2' and slurmstepd 'JOB 2 ... CANCELLED ... DUE TO NODE FAILURE' end a "
          "run that was training normally: the node lab27n2 failed; requeue excluding it."),
 dict(case="c02", slug="sbatch-array-task1-srun-label-python-logging-node-failure-lab27n4-at-step-800",
      how="case_c02: sbatch --array (task 1, -N1 -n2 -w lab27n4) + srun --label, Python logging from both ranks, "
          "checkpoints every 600; after step 800 an admin set lab27n4 DOWN (scontrol update state=down reason='healthcheck: "
          "memory errors'); job 7 ended NODE_FAIL; array task 1's output file sweep-lr-7_1.out, unedited",
      anomaly="CRASH", category="NODE", requeue=True, culprit_nodes=["lab27n4"], job_nodes=["lab27n4"], checkpoints=1,
      why="Training stops right after step 800 with 'srun: error: Node failure on lab27n4' (the batch script's own "
          "'srun exited 0' line follows): the job's only node failed; requeue on another node."),
 dict(case="c03", slug="sbatch-srun-label-python-logging-feature-cache-build-cgroup-oom-kill-step-700",
      how=f"case_c03: {SB} --mem=700M (lab27n3,lab27n4), Python logging from both ranks; at step 700 each rank builds "
          "a 3 GB 'feature cache' inside the step's 700 MB memory cgroup: the cgroup OOM killer killed the ranks; the Slurm "
          "output file tab-pylog-1.out, unedited",
      anomaly="CRASH", category="NODE", requeue=True, culprit_nodes=["lab27n3", "lab27n4"],
      job_nodes=["lab27n3", "lab27n4"],
      why="'slurmstepd-lab27n3/4: error: Detected 1 oom-kill event(s) ... cgroup out-of-memory handler' and 'srun: error: "
          "lab27n3: task 0: Out Of Memory' right after the cache build: host (cgroup) OOM kill, NODE by the policy."),
 dict(case="c05", slug="sbatch-srun-label-kill-on-bad-exit-deepspeed-style-task1-segmentation-fault-lab27n2",
      how=f"case_c05: {SB} --kill-on-bad-exit=1 (lab27n1,lab27n2), DeepSpeed-style [Rank N] logging, checkpoints every "
          "500; rank 1 was sent SIGSEGV (kill -SEGV) after step 800; the Slurm output file ds-finetune-4.out, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, job_nodes=["lab27n1", "lab27n2"], checkpoints=1,
      why="'srun: error: lab27n2: task 1: Segmentation fault'; rank 0's gloo 'Connection reset by peer' is the victim's "
          "view; a bare segfault with no further cause is UNKNOWN, requeue."),
 dict(case="c08", file="kept.log", slug="sbatch-srun-label-jsonl-metrics-both-ranks-silent-after-step-800-checkpoint",
      how=f"case_c08: {SB} (lab27n3,lab27n4), JSON lines from both ranks, --pg-timeout 1800, checkpoints every 400; "
          "rank 1 was SIGSTOPped right after step 800's checkpoint and left stopped: nothing more was printed; the Slurm "
          "output file jsonl-pt-3.out copied (kept.log) 151 s after its last line, before the case scancelled the job",
      anomaly="HANG", category=None, requeue=True, silence_s=151, checkpoints=2,
      why="The JSON lines (every ~2 s) stop after the step-800 checkpoint_end event and the job sat silent for 151 s "
          "with no error: a hang whose cause the log does not show."),
 dict(case="c09", slug="2host-torchrun-python-logging-gloo-connection-reset-software-caused-connection-abort",
      how="case_c09: torchrun --nnodes 2 --nproc-per-node 1 on two network-namespace hosts gpu-a27-01/02 (c10d rendezvous "
          "gpu-a27-01:38426), Python logging from both ranks; after step 800 every TCP socket of host 2 toward host 1 was "
          "destroyed with 'ss -K' (as a switch/link reset would); both hosts' torchrun stdout+stderr appended to one out.log",
      anomaly="CRASH", category="NETWORK", requeue=True, job_nodes=["gpu-a27-01", "gpu-a27-02"],
      why="Rank 0: gloo 'Read error [10.227.7.12]: Connection reset by peer', rank 1: 'writev [10.227.7.11]: Software "
          "caused connection abort', then TCPStore 'Broken pipe'; no rank crashed first: a network fault between the hosts."),
 dict(case="c10", file="kept.log", slug="2host-torchrun-megatron-style-gloo-recv-timed-out-60000ms-after-iteration-800",
      how="case_c10: torchrun --nnodes 2 --nproc-per-node 1 on two namespace hosts (c10d rendezvous gpu-a27-01:38426), "
          "Megatron-style, --pg-timeout 60; after iteration 800 host 2's veth link was set down and left down: rank 0's "
          "all-reduce timed out; kept.log is the combined out.log copied 179 s after its last line (host 2's torchrun never "
          "exited and was then killed)",
      anomaly="HANG", category=None, requeue=True,
      why="'Timed out waiting 60000ms for recv operation to complete' on rank 0 and 'Application timeout caused pair "
          "closure' on rank 1 after iteration 800: a collective timeout, i.e. a hang; the log does not show why."),
 dict(case="c11", slug="2host-torchrun-jsonl-step-ms-30-to-180-from-step-750-to-end",
      how="case_c11: torchrun --nnodes 2 --nproc-per-node 1 on two namespace hosts (c10d rendezvous gpu-a27-01:38426), "
          "JSON lines from both ranks, 1600 steps; after step 700 host 2's egress was limited with 'tc qdisc add dev l27bv2 "
          "root tbf rate 60mbit' until the end; the combined out.log of both hosts' torchrun",
      anomaly="STRAGGLER", category=None, requeue=True,
      why="step_ms goes from ~25-40 to ~180-197 at step 750 and stays there to the end (samples_per_sec ~6000 -> ~1000) "
          "with no error: a sustained slowdown whose cause the log does not show."),
 dict(case="c13", slug="torchrun-megatron-style-checkpoint-save-errno-5-input-output-error-iteration-1200",
      how="case_c13: torchrun --nproc-per-node 2 (localhost:38113), Megatron-style, checkpoints every 400 to a 64 MiB ext4 "
          "loop file system; after the iteration-800 save the fs was shut down (EXT4_IOC_SHUTDOWN, as on a failing disk): "
          "the iteration-1200 save failed; the run's combined stdout+stderr",
      anomaly="CRASH", category="STORAGE", requeue=True, checkpoints=2,
      why="'OSError: [Errno 5] Input/output error' on the iteration-1200 checkpoint directory ends rank 0 (rank 1's "
          "'Connection closed by peer' is the victim): a storage failure."),
 dict(case="c14", slug="torchrun-hf-trainer-style-checkpoint-errno-30-read-only-file-system-step-1000",
      how="case_c14: torchrun --nproc-per-node 2 (localhost:38114), HF Trainer-style banner, tqdm and loss dicts, "
          "checkpoints every 500 to a 64 MiB ext4 loop fs which was remounted read-only after the step-500 save; the run's "
          "combined stdout+stderr",
      anomaly="CRASH", category="STORAGE", requeue=True, checkpoints=1,
      why="'OSError: [Errno 30] Read-only file system' saving step_1000 kills rank 0; rank 1's gloo 'Connection closed by "
          "peer' is a victim: the checkpoint file system went read-only, a storage fault."),
 dict(case="c15", slug="sbatch-srun-label-deepspeed-style-cancelled-due-to-time-limit-at-step-10000-of-30000",
      how=f"case_c15: {SB} --time=2 (lab27n1,lab27n2), DeepSpeed-style [Rank N] logging, 30000 steps (far more than 2 "
          "minutes of work), checkpoints every 1000; Slurm ended job 5 at its time limit; the output file ds-pretrain-5.out",
      anomaly="CRASH", category="SCHEDULER", requeue=True, job_nodes=["lab27n1", "lab27n2"], checkpoints=10,
      why="slurmstepd '*** JOB 5 ON lab27n1 CANCELLED AT ... DUE TO TIME LIMIT ***' while training was healthy: the "
          "scheduler ended it; requeue and resume from the step-10000 checkpoint."),
 dict(case="c16", file="kept.log", slug="sbatch-srun-label-python-logging-step-cancelled-sigterm-preemption-checkpoint-832",
      how=f"case_c16: {SB} --mem=3000M --requeue (lab27n3,lab27n4) in partition train (PriorityTier 1, GraceTime 15), "
          "Python logging, a SIGTERM handler that saves and exits; after step 800 a job in partition urgent (PriorityTier 10, "
          "--mem=2500M on lab27n3) preempted it (preempt/partition_prio); the output file pt-lowprio-12.out copied as kept.log",
      anomaly="CRASH", category="SCHEDULER", requeue=True, checkpoints=2,
      why="slurmstepd 'STEP 12.0 ON lab27n3 CANCELLED', then both ranks 'Preemption detected (signal 15, SIGTERM)', save "
          "step 832 and exit for requeue: the scheduler preempted a healthy run."),
 dict(case="c22", slug="torchrun-hf-trainer-style-futurewarnings-wandb-upload-retries-completes-healthy",
      how="case_c22: torchrun --nproc-per-node 2 (localhost:38122), HF Trainer-style, FutureWarnings and a DataLoader "
          "worker-count UserWarning at start, wandb-like upload warnings that succeed on retry, evaluation at 1000, "
          "checkpoints every 500; nothing injected; the run's combined stdout+stderr",
      anomaly="NONE", category=None, requeue=None, checkpoints=4,
      why="Only deprecation warnings and 'Failed to upload metrics ... retrying' followed by 'upload succeeded after 1 "
          "retry'; the loss falls and the run reaches 2000/2000 and prints train_runtime."),
 dict(case="c23", slug="sbatch-srun-label-lightning-style-long-validation-pauses-completes-healthy",
      how=f"case_c23: {SB} (lab27n3,lab27n4), Lightning-style banner and tqdm bar, a 30-round validation every 700 steps "
          "(12-16 s pauses of the bar), checkpoints every 700; nothing injected; the Slurm output file lit-cls-11.out",
      anomaly="NONE", category=None, requeue=None, checkpoints=3,
      why="The bar pauses only for the 'Validation DataLoader 0' rounds, each followed by 'val_loss=' and a save; it ends "
          "with '`Trainer.fit` stopped: `max_steps=2100` reached.'"),
 dict(case="c26", slug="sbatch-array-task1-srun-plain-prints-checkpoints-completes-healthy",
      how="case_c26: sbatch --array=0-1 (-N1 -n2 -w lab27n1 each) + srun without --label, plain timestamped prints from "
          "rank 0, checkpoints every 400; nothing injected; array task 1's output file abl-hid-14_1.out",
      anomaly="NONE", category=None, requeue=None, job_nodes=["lab27n1"], checkpoints=4,
      why="Steady steps to 1600/1600, four checkpoint saves and 'training finished at step 1600': a healthy run."),
 dict(case="c27", slug="sbatch-srun-label-kill-on-bad-exit-python-logging-loss-spike-19-at-step-900-recovers-healthy",
      how=f"case_c27: {SB} --kill-on-bad-exit=1 (lab27n1,lab27n2), Python logging from both ranks every 50 steps; steps "
          "900-929 used mislabelled batches (loss spikes to ~19, then recovers), checkpoints every 600; nothing else "
          "injected; the Slurm output file tab-spike-10.out",
      anomaly="NONE", category=None, requeue=None, checkpoints=3,
      why="The loss jumps to 18.8/19.9 at step 900 and is back to 0.07-0.19 by step 1000; training goes on to 'training "
          "finished at step 2000': a transient spike that recovers, healthy."),
 dict(case="c21", slug="sbatch-srun-label-megatron-style-resume-state-dict-size-mismatch-hidden-512-vs-768",
      how=f"case_c21: {SB} (lab27n1,lab27n2), Megatron-style; a first job (not kept) trained hidden 512 for 600 "
          "iterations with saves at 300/600; the second job resumed that directory with --hidden 768 (a changed config); "
          "the second job's output file gpt-resume-17.out",
      anomaly="CRASH", category="APPLICATION", requeue=False, job_nodes=["lab27n1", "lab27n2"],
      why="'RuntimeError: Error(s) in loading state_dict for Net: size mismatch ... torch.Size([512]) from checkpoint, the "
          "shape in current model is torch.Size([768])' on both ranks at resume: a configuration mismatch that fails the same "
          "way again."),
 dict(case="c07", slug="torchrun-hf-trainer-style-progress-stops-near-step-900-gloo-recv-timed-out-60000ms",
      how="case_c07: torchrun --nproc-per-node 2 (localhost:38107), HF Trainer-style banner, tqdm and loss dicts, "
          "--pg-timeout 60, checkpoints every 600; at step 900 rank 1 took a rank-conditional branch (waits for a flag file "
          "that never appears) and stopped calling collectives; rank 0's all-reduce timed out and torchrun SIGTERMed rank 1; "
          "the run's combined stdout+stderr",
      anomaly="HANG", category=None, requeue=True, checkpoints=1,
      why="The tqdm bar and loss dicts stop near step 900 and a minute later rank 0 fails with 'Timed out waiting 60000ms "
          "for recv operation to complete': a collective timeout (hang) with no cause shown; rank 1 only got torchrun's SIGTERM."),
 dict(case="c12", slug="torchrun-lightning-style-checkpoint-step-800-errno-28-no-space-left-on-device",
      how="case_c12: torchrun --nproc-per-node 2 (localhost:38112), Lightning-style banner, tqdm bar and 'saving model to' "
          "lines, validation and checkpoints (6 MB padding) every 400 to a 40 MiB ext4 loop fs; after the step-400 save "
          "another writer filled that fs (dd until full), so the step-800 save failed; the run's combined stdout+stderr",
      anomaly="CRASH", category="STORAGE", requeue=True, checkpoints=1,
      why="'OSError: [Errno 28] No space left on device' (then torch.save's 'unexpected pos') writing the step-800 "
          "checkpoint ends rank 0; rank 1's 'Connection closed by peer' is its victim: the checkpoint file system is full."),
 dict(case="c17", slug="torchrun-jsonl-both-ranks-step-ms-25-to-90-106-from-step-850-to-end",
      how="case_c17: torchrun --nproc-per-node 2 (localhost:38117), JSON lines from both ranks every 50 steps (some lines "
          "of the two ranks interleave on one line), 1500 steps; after step 800 rank 1 alone was put in a cgroup-v1 cpu "
          "group with a 12% CFS quota until the end; the run's combined stdout+stderr",
      anomaly="STRAGGLER", category=None, requeue=True,
      why="step_ms on both ranks goes from ~25-40 to 66 at step 850 and ~82-108 to the end (samples_per_sec ~7000 -> "
          "~1800) with no error: a sustained slowdown; the log does not show its cause or which rank is slow."),
 dict(case="c19", slug="torchrun-hf-trainer-style-dataloader-worker-killed-by-signal-killed-rank0",
      how="case_c19: torchrun --nproc-per-node 2 (localhost:38119), HF Trainer-style, DataLoader num_workers=2 "
          "(persistent), checkpoints every 600; one DataLoader worker of rank 0 was SIGKILLed (kill -KILL) after step ~800; "
          "the run's combined stdout+stderr",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=1,
      why="'RuntimeError: DataLoader worker (pid 4019) is killed by signal: Killed.' on rank 0 with no OOM report or other "
          "cause in the log: a process killed without a message, UNKNOWN; rank 1's 'Connection closed by peer' is a victim."),
 dict(case="c04", slug="torchrun-plain-prints-faulthandler-fatal-python-error-bus-error-both-ranks-sigbus",
      how="case_c04: torchrun --nproc-per-node 2 --no-python (localhost:38104) of 'python -X faulthandler t27.py', plain "
          "timestamped prints; the features are np.memmap'ed from a per-run copy of the data file, which was truncated to 0 "
          "bytes after step 900 (as a shared file replaced under its readers): the next page access raised SIGBUS in both "
          "ranks; the run's combined stdout+stderr",
      anomaly="CRASH", category="NODE", requeue=True,
      why="'Fatal Python error: Bus error' in the dataset's __getitem__ on both ranks and torchrun's 'Signal 7 (SIGBUS) "
          "received': a bus error, NODE by the policy, requeue."),
 dict(case="c06", slug="torchrun-torchtitan-style-rank1-exitcode-minus-9-sigkill-after-step-1000",
      how="case_c06: torchrun --nproc-per-node 2 (localhost:38106), torchtitan-style logging, checkpoints every 500; rank 1 "
          "was SIGKILLed (kill -KILL) right after step 1000 (no message of its own); the run's combined stdout+stderr",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=2,
      why="Training stops after step 1000 and torchrun reports rank 1 'exitcode: -9 ... Signal 9 (SIGKILL) received' as "
          "root cause with nothing else (no OOM report): a rank killed without a message, UNKNOWN."),
 dict(case="c25", slug="torchrun-torchtitan-style-relaunch-loads-step-1000-checkpoint-completes-healthy",
      how="case_c25: torchrun --nproc-per-node 2 (localhost:38125), torchtitan-style; a first launch (not kept) was stopped "
          "by SIGTERM to its torchrun after the step-1000 checkpoint; the relaunch with --resume (kept, its combined "
          "stdout+stderr) loads step 1000 and trains to 2400 with saves every 500",
      anomaly="NONE", category=None, requeue=None, checkpoints=2,
      why="'Loading the checkpoint at step 1000', 'Training starts at step 1001', steady steps to 2400, two 'Finished "
          "saving the checkpoint' lines and 'Training completed': a resumed run that finishes."),
 dict(case="c18", slug="torchrun-lightning-style-anomaly-detection-logsoftmaxbackward0-returned-nan-values",
      how="case_c18: torchrun --nproc-per-node 2 (localhost:38118), Lightning-style banner and tqdm bar, autograd anomaly "
          "detection on; from step 600 a config flag adds sqrt(h - mean(h)) to the hidden state, negative for part of the "
          "batch, so the forward pass yields NaN and anomaly detection raises in backward on both ranks; the run's combined "
          "stdout+stderr",
      anomaly="CRASH", category="APPLICATION", requeue=False,
      why="'RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output.' on both ranks with "
          "anomaly detection's 'Error detected in LogSoftmaxBackward0': NaN from the model code, APPLICATION."),
 dict(case="c20", slug="torchrun-global-batch-size-not-divisible-valueerror-before-training",
      how="case_c20: torchrun --nproc-per-node 2 (localhost:38120), torchtitan-style run launched with --global-batch 1000, "
          "not divisible by micro batch 96 x 2 ranks: both ranks raise ValueError at start; the run's combined stdout+stderr",
      anomaly="CRASH", category="APPLICATION", requeue=False,
      why="'ValueError: global_batch_size (1000) must be divisible by micro_batch_size (96) * data_parallel_size (2) * "
          "gradient_accumulation_steps (1)' on both ranks before any step: a configuration error that fails again."),
 dict(case="c24", slug="torchrun-deepspeed-style-c10d-cpp-info-lines-uv-loop-close-ebusy-completes-healthy",
      how="case_c24: torchrun --nproc-per-node 2 (localhost:38124), DeepSpeed-style [Rank N] logging from both ranks, "
          "TORCH_CPP_LOG_LEVEL=INFO (c10d socket/store info lines), checkpoints every 600; nothing injected; the run's "
          "combined stdout+stderr",
      anomaly="NONE", category=None, requeue=None, checkpoints=3,
      why="Both ranks log steady steps to step=2000 with three saved checkpoints; the only 'failed' words are c10d INFO "
          "lines at shutdown ('uv_loop_close failed with:-16 ... EBUSY', then 'uv_loop cleanup finished'): healthy."),
 dict(case="c28", slug="2host-torchrun-torchtitan-style-checkpoints-every-500-completes-healthy",
      how="case_c28: torchrun --nnodes 2 --nproc-per-node 1 on two namespace hosts (c10d rendezvous gpu-a27-01:38426), "
          "torchtitan-style logging from rank 0, checkpoints every 500; nothing injected; both hosts' torchrun "
          "stdout+stderr appended to one out.log",
      anomaly="NONE", category=None, requeue=None, checkpoints=4,
      why="Steady 'step: ... loss ...' lines to 2000, four 'Finished saving the checkpoint' lines and 'Training "
          "completed': a healthy run."),
 dict(case="c29", slug="sbatch-srun-label-jsonl-metrics-c10d-info-lines-eval-checkpoints-completes-healthy",
      how=f"case_c29: {SB} (lab27n3,lab27n4), JSON lines from both ranks, TORCH_CPP_LOG_LEVEL=INFO (c10d socket, "
          "reducer and store info lines), 5-round evaluation and checkpoints every 600; nothing injected; the Slurm output "
          "file jsonl-eval-18.out",
      anomaly="NONE", category=None, requeue=None, checkpoints=3,
      why="JSON step lines to 1800 with eval and checkpoint_end events and a final 'done' event; the c10d INFO lines "
          "('comm-optimized memory allocator not found', 'uv_loop_close failed ... EBUSY' at exit) are harmless."),
]
