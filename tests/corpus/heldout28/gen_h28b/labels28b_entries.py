# Labels of the h28b_ logs, written by hand from each kept log by tests/corpus/LABELLING.md (no engine was run).
TOOLS = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6, tqdm 4.70.1; Slurm 22.05.8 (private cluster lab28b, "
         "4 slurmd on one host) where sbatch/srun is named; gen_h28b/t28.py")
TRN = "torchrun --nproc-per-node 2 (c10d rendezvous on localhost)"
SB = "sbatch -N2 + srun --label"
H2 = ("two network namespaces as hosts gpu-b28-01/gpu-b28-02 (veth 10.228.7.11/12, UTS names via unshare), "
      "torchrun --nnodes 2 --nproc-per-node 1 on each, both hosts' output appended to one file")
ENTRIES = [
 dict(case="d01", slug="torchrun-keras-style-stage2-coarse-label-map-keyerror-step-900",
      how=f"case_d01: {TRN}, Keras-like epoch lines, checkpoints every 400; from step 900 a curriculum stage maps labels "
          "through a coarse class map that lacks class 9 (a program bug) -> KeyError: 9 on both ranks; out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, checkpoints=2,
      why="Both ranks die with 'KeyError: 9' raised in the training loop's label mapping (COARSE[int(v)]): a "
          "deterministic bug in the user's code that a requeue would hit again."),
 dict(case="d02", slug="torchrun-fairseq-style-temperature-schedule-loss-diverges-to-nan-update-1000",
      how=f"case_d02: {TRN}, fairseq-like train_inner/valid/checkpoint lines; logits divided by a temperature annealed "
          "linearly to 0 at update 1000 (a schedule bug): the loss climbs from ~0.2 to 2.4 then is nan at update 1000 and "
          "the script raises FloatingPointError; out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, checkpoints=1,
      why="gnorm grows 1.0 -> 13 while the loss climbs, then 'loss=nan ... gnorm=nan' at num_updates=1000 and "
          "'FloatingPointError: Loss is nan at step 1000' on both ranks: a diverging model/config (NaN loss), APPLICATION."),
 dict(case="d03", slug="torchrun-hf-style-first-evaluation-typeerror-nonetype-floordiv",
      how=f"case_d03: {TRN}, HF-Trainer-like loss dicts and tqdm; the first evaluation (step 600) computes "
          "max_eval_samples // world_size with max_eval_samples=None -> TypeError on both ranks; out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False,
      why="'TypeError: unsupported operand type(s) for //: 'NoneType' and 'int'' in evaluate() on both ranks at the "
          "first evaluation: a configuration/code bug that recurs on every run."),
 dict(case="d05", slug="torchrun-max-restarts-titan-style-worker-killed-restart-resumes-step-600-completes",
      how=f"case_d05: {TRN} --max-restarts 1, torchtitan-like, checkpoints every 300 with --resume; after step 800 rank 1 "
          "was SIGKILLed: torchrun restarted both workers, which loaded the step-600 checkpoint and trained to step 1800 "
          "('Training completed'); out.log, unedited (a first attempt of this case was discarded: a helper bug meant the "
          "kill was never sent)",
      anomaly="NONE", category=None, requeue=None, checkpoints=6,
      why="The worker failure (exitcode -9, rank 0's 'Connection reset by peer') is handled by torchrun's restart: the "
          "job reloads the step-600 checkpoint, trains on at the same pace and ends with 'Training completed'."),
 dict(case="d07", slug="torchrun-python-logging-checkpoint-write-blocks-log-silent-163s", file="kept.log",
      how=f"case_d07: {TRN}, Python logging from both ranks, checkpoints every 400 by rank 0 to a 64 MiB ext4 loop fs; "
          "after the step-400 save the fs was frozen (fsfreeze -f): rank 0 blocked (D state) writing the step-800 "
          "checkpoint and rank 1 waited in monitored_barrier (non-zero ranks wait without a timeout), so the output went "
          "silent; out.log copied by hand as kept.log 163 s after its last line, then the fs was thawed",
      anomaly="HANG", category=None, requeue=True, silence_s=163, checkpoints=1,
      why="The log stops at 'saving checkpoint to .../step_800' with nothing after it for 163 s while steps had been "
          "logged every ~2 s: the job hung (at the checkpoint write); the log does not say why."),
 dict(case="d10", slug="torchrun-keras-style-rank1-cpu-quota-step-time-27-to-130ms",
      how=f"case_d10: {TRN}, Keras-like epoch lines (150 steps each); after epoch 4 rank 1 was put into a cgroup-v1 cpu "
          "group with a 10% CFS quota until the end; the run finished; out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True,
      why="Per-epoch time goes from 4-6 s (27-40 ms/step) to 13-20 s (87-133 ms/step) from epoch 5 on and stays there "
          "while training continues: a persistent slowdown whose cause the log does not show."),
 dict(case="d11", slug="torchrun-megatron-style-checkpoint-dir-no-inodes-left-errno-28",
      how=f"case_d11: {TRN}, Megatron-like iteration lines, checkpoints every 400 to a 64 MiB ext4 loop fs made with 128 "
          "inodes; after the iteration-400 save another writer created small files until no inode was left (df showed "
          "free blocks): mkdir of the step-800 checkpoint failed; out.log, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True, checkpoints=1,
      why="'OSError: [Errno 28] No space left on device: '.../ck/step_800'' from os.makedirs during the checkpoint "
          "save; rank 1 then loses its peer: the checkpoint file system is full (out of inodes), STORAGE."),
 dict(case="d12", slug="torchrun-python-logging-dataloader-worker-read-eio-after-data-fs-shutdown",
      how=f"case_d12: {TRN}, Python logging, one DataLoader worker per rank reading samples with os.pread from a feature "
          "file on a 64 MiB ext4 loop fs; after step 700 that fs was shut down (EXT4_IOC_SHUTDOWN): reads fail with EIO; "
          "out.log, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True,
      why="'OSError: Caught OSError in DataLoader worker process 0' with the worker's 'OSError: [Errno 5] Input/output "
          "error' from os.pread on both ranks after step 700: the data file system failed, STORAGE."),
 dict(case="d14", slug="torchrun-titan-style-checkpoints-fill-tmpfs-errno-28-at-step-1000",
      how=f"case_d14: {TRN}, torchtitan-like, every checkpoint kept (10 MB padding each) on a 48 MiB tmpfs; the step-1000 "
          "save ran out of space (no other fault); out.log, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True, checkpoints=3,
      why="'OSError: [Errno 28] No space left on device' inside torch.save of the step-1000 checkpoint on rank 0, then "
          "rank 1's peer-closed error: the checkpoint file system is full, STORAGE."),
 dict(case="d15", slug="torchrun-jsonl-rank0-sigabrt-peer-connection-reset",
      how=f"case_d15: {TRN}, JSON lines from both ranks; after step 900 rank 0 was sent SIGABRT from outside (it prints "
          "nothing itself); out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True,
      why="Rank 0 stops without a message; rank 1 reports 'Connection reset by peer' and torchrun's root cause is "
          "'Signal 6 (SIGABRT) received by PID' for rank 0: a fatal signal whose cause the log does not show."),
 dict(case="e01", slug="sbatch-srun-label-keras-style-lab28n2-not-responding-node-failure",
      how=f"case_e01: {SB} (lab28n1,lab28n2), Keras-like, checkpoints every 400; after epoch 4 lab28n2's slurmd was "
          "SIGSTOPped (the task kept running): slurmctld (SlurmdTimeout=20) found the node not responding, set it DOWN "
          "and ended job 6 NODE_FAIL; the Slurm output file keras-cls-6.out, unedited",
      anomaly="CRASH", category="NODE", requeue=True, culprit_nodes=["lab28n2"], job_nodes=["lab28n1", "lab28n2"],
      checkpoints=3,
      why="'srun: error: Node failure on lab28n2' and 'JOB 6 ON lab28n1 CANCELLED ... DUE TO NODE FAILURE' end a run "
          "that was training normally: node lab28n2 failed; requeue excluding it."),
 dict(case="e02", slug="sbatch-srun-kill-on-bad-exit-fairseq-style-node-failure-lab28n4",
      how=f"case_e02: {SB} --kill-on-bad-exit=1 (lab28n3,lab28n4), fairseq-like, validation and checkpoints every 600; "
          "after update 800 an admin set lab28n4 DOWN (scontrol update state=down reason='nhc: failed'); job 7 ended "
          "NODE_FAIL; fs-lm-7.out, unedited",
      anomaly="CRASH", category="NODE", requeue=True, culprit_nodes=["lab28n4"], job_nodes=["lab28n3", "lab28n4"],
      checkpoints=1,
      why="Right after update 800: 'srun: error: Node failure on lab28n4' and 'CANCELLED ... DUE TO NODE FAILURE': the "
          "node lab28n4 failed; requeue without it."),
 dict(case="e03", slug="sbatch-n1-hf-style-dataloader-worker-cache-cgroup-oom-kill-lab28n1",
      how="case_e03: sbatch -N1 -n2 --mem=1500M (lab28n1) + srun --label, HF-Trainer-like, 2 DataLoader workers per rank "
          "keeping an upsampled copy of every sample they load (unbounded cache): the job's memory cgroup filled near "
          "step 720 and the OOM killer killed a worker; hf-ft-2.out, unedited",
      anomaly="CRASH", category="NODE", requeue=True, culprit_nodes=["lab28n1"], job_nodes=["lab28n1"],
      why="'DataLoader worker (pid N) is killed by signal: Killed.', then 'slurmstepd-lab28n1: error: Detected 1 "
          "oom-kill event(s)' and 'srun: error: lab28n1: task 0: Out Of Memory': a host (cgroup) OOM kill, NODE by the "
          "policy."),
 dict(case="e04", slug="sbatch-srun-label-titan-style-both-tasks-bus-error-after-step-700",
      how=f"case_e04: {SB} (lab28n2,lab28n3), torchtitan-like; the np.memmap'ed feature file (a copy in the run dir) was "
          "truncated to 0 bytes after step 700, so the next reads fault: both tasks die of SIGBUS; titan-mlp-4.out, "
          "unedited",
      anomaly="CRASH", category="NODE", requeue=True, culprit_nodes=["lab28n2", "lab28n3"],
      job_nodes=["lab28n2", "lab28n3"],
      why="Training stops after step 700 with 'srun: error: lab28n2: task 0: Bus error' and 'lab28n3: task 1: Bus "
          "error' and nothing else: Bus error is NODE by the policy."),
 dict(case="e06", slug="sbatch-srun-label-deepspeed-style-job-cancelled-at-step-800",
      how=f"case_e06: {SB} (lab28n1,lab28n4), DeepSpeed-like logging from both ranks, checkpoints every 500; the job was "
          "scancelled after step 800; ds-pretrain-3.out, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, job_nodes=["lab28n1", "lab28n4"], checkpoints=1,
      why="Healthy steps up to 800, then 'slurmstepd-lab28n1: error: *** JOB 3 ON lab28n1 CANCELLED AT ... ***': the "
          "job was ended by Slurm/an operator, not by a fault of its own."),
 dict(case="e07", slug="sbatch-srun-label-titan-style-step-cancelled-by-preemption-tasks-terminated", file="kept.log",
      how=f"case_e07: {SB} --mem=3000M --requeue (lab28n3,lab28n4) in partition train, torchtitan-like without a signal "
          "handler, checkpoints every 300; after step 600 a job in partition urgent (PriorityTier 10, --mem=2500M on "
          "lab28n3) preempted it (preempt/partition_prio, PreemptMode=REQUEUE, GraceTime 15): the step was cancelled, "
          "both tasks terminated and the batch script ended (job FAILED, not requeued); output copied as kept.log",
      anomaly="CRASH", category="SCHEDULER", requeue=True, job_nodes=["lab28n3", "lab28n4"], checkpoints=2,
      why="Training is healthy up to step 650, then 'slurmstepd-lab28n3: error: *** STEP 9.0 ON lab28n3 CANCELLED AT "
          "...' and both tasks 'Terminated': Slurm ended the step (a preemption), SCHEDULER."),
 dict(case="e09", slug="sbatch-srun-label-fairseq-style-output-silent-150s", file="kept.log",
      how=f"case_e09: {SB} (lab28n2,lab28n4), fairseq-like; rank 1 SIGSTOPped after update 700: rank 0 waits in "
          "allreduce (default 30-minute timeout) and the output goes silent; fs-mt-8.out copied as kept.log 150 s after "
          "its last line, then the job was scancelled",
      anomaly="HANG", category=None, requeue=True, silence_s=150, job_nodes=["lab28n2", "lab28n4"],
      why="Updates were logged about every second up to num_updates=750, then nothing for 150 s: the job stopped "
          "making progress; the log does not show why."),
 dict(case="e12", slug="sbatch-srun-label-megatron-style-model-dim-64-vs-data-48-shape-error",
      how=f"case_e12: {SB} (lab28n2,lab28n4), Megatron-like; the model is built for 64 input features "
          "(--model-dim 64) while the data has 48 -> shape error at the first forward on both tasks; meg-cfg-1.out, "
          "unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, job_nodes=["lab28n2", "lab28n4"],
      why="'RuntimeError: mat1 and mat2 shapes cannot be multiplied (96x48 and 64x512)' on both tasks at the first "
          "step, with model_dim 64 and dim 48 in the arguments block: a configuration error, requeue will not help."),
 dict(case="f01", slug="2host-torchrun-fairseq-style-sockets-killed-connection-abort-reset",
      how=f"case_f01: {H2}, fairseq-like, --pg-timeout 120; after update 800 every TCP socket between the hosts was "
          "destroyed with 'ss -K' in gpu-b28-01's namespace: gloo 'Software caused connection abort' / 'Connection reset "
          "by peer', then the c10d store connection fails; out.log, unedited",
      anomaly="CRASH", category="NETWORK", requeue=True,
      why="Mid-training both ranks fail in gloo with 'Read error [10.228.7.12]: Software caused connection abort' and "
          "'Connection reset by peer', and the agent's store connection is reset: a network failure between the hosts, "
          "no peer crashed first."),
 dict(case="f04", slug="2host-torchrun-deepspeed-style-throughput-drops-10k-to-1100-samples-per-sec",
      how=f"case_f04: {H2}, DeepSpeed-like from both ranks; after step 500 gpu-b28-02's egress was limited with tc tbf "
          "rate 60mbit until the run ended (it finished at step 1100); out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True,
      why="samples/sec falls from ~10,000 to ~1,100 at step 550 and stays there on both ranks to the end of training: a "
          "sustained throughput drop whose cause the log does not show."),
 dict(case="f02", slug="2host-torchrun-plain-prints-gloo-recv-timeout-60000ms-after-step-700",
      how=f"case_f02: {H2}, plain timestamped prints from rank 0, --pg-timeout 60; after step 700 gpu-b28-02 got a "
          "blackhole route to gpu-b28-01 (ip route add blackhole 10.228.7.11/32), left in place: rank 1's gloo recv timed "
          "out after 60 s, then rank 0's pair closed and both agents lost the c10d store; out.log, unedited",
      anomaly="HANG", category=None, requeue=True,
      why="The first failure, 60 s after the last step line, is rank 1's 'Timed out waiting 60000ms for recv operation "
          "to complete' (rank 0: 'Application timeout caused pair closure'): a collective timeout, HANG; the log does not "
          "say why the peer's data stopped arriving."),
 dict(case="d09", slug="torchrun-fairseq-style-ups-78-to-20-after-update-600",
      how=f"case_d09: {TRN}, fairseq-like train_inner lines; after update 600 rank 0 was SIGSTOPped 0.3 s out of every "
          "0.4 s (SIGSTOP/SIGCONT duty cycle) until the run ended at update 1500; out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True,
      why="ups falls from ~72-81 to ~15-24 (wps likewise) from update 650 and stays there to the end while training "
          "goes on: a persistent slowdown; the log does not show its cause."),
 dict(case="d16", slug="torchrun-hf-style-future-warnings-wandb-upload-retries-completes",
      how=f"case_d16: {TRN}, HF-Trainer-like with FutureWarnings, a DataLoader worker-count UserWarning, wandb-style "
          "'Failed to upload metrics ... retrying' warnings printed by the script and followed by success, evaluation "
          "and checkpoints every 600; no fault; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=3,
      why="Only warnings and retried-then-succeeded uploads; loss falls, evaluations and checkpoints complete and the "
          "run reaches 1800/1800 with its train_runtime summary."),
 dict(case="e08", slug="sbatch-srun-label-python-logging-operator-requeue-resumes-from-step-600-completes",
      how=f"case_e08: {SB} --requeue --open-mode=append (lab28n1,lab28n2), Python logging, checkpoints every 300, "
          "--resume; after step 700 an operator ran 'scontrol requeue': the job was cancelled 'DUE TO JOB REQUEUE', "
          "restarted 2 minutes later (restart count 1), resumed from step 600 and finished at step 1500; "
          "pylog-req-11.out, unedited",
      anomaly="NONE", category=None, requeue=None, job_nodes=["lab28n1", "lab28n2"], checkpoints=5,
      why="The requeue cancellation is followed by 'restart count 1', 'Resuming from checkpoint .../step_600' and "
          "training to 'training finished at step 1500' and 'srun exited 0': the job completed."),
 dict(case="e14", slug="sbatch-srun-label-jsonl-checkpoint-errno-30-read-only-file-system",
      how=f"case_e14: {SB} (lab28n1,lab28n4), JSON lines from both ranks, checkpoints every 400 to a 64 MiB ext4 loop fs "
          "that was remounted read-only after the step-400 save: the step-800 save fails; jsonl-ck-12.out, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True, job_nodes=["lab28n1", "lab28n4"], checkpoints=1,
      why="'OSError: [Errno 30] Read-only file system: '.../ck/step_800'' on rank 0 during the checkpoint save, then "
          "both tasks exit 1: the checkpoint file system became read-only, STORAGE."),
 dict(case="d06", slug="torchrun-megatron-style-application-timeout-pair-closure-after-iteration-850",
      how=f"case_d06: {TRN}, Megatron-like iteration lines, --pg-timeout 60; rank 1 SIGSTOPped after iteration 800: "
          "rank 0's gloo operation times out after 60 s ('Application timeout caused pair closure') and torchrun cannot "
          "stop rank 1 with SIGTERM and SIGKILLs it; out.log, unedited (an earlier run of this case was discarded: "
          "the training script was edited while it ran, so its traceback showed mismatched source lines)",
      anomaly="HANG", category=None, requeue=True,
      why="After iteration 850 rank 0 fails with gloo's 'Application timeout caused pair closure' (the 60 s process-group "
          "timeout) and the other worker does not respond to SIGTERM: a collective timeout waiting for an unresponsive "
          "rank, HANG; the log does not say why the rank stopped."),
 dict(case="e05", slug="sbatch-array-task1-tqdm-bar-cancelled-due-to-time-limit", file="out.log",
      how="case_e05: sbatch --array=0-1 --time=1 (-N1 -n2 each) + srun (no label), tqdm bar and checkpoint messages "
          "from rank 0; task 0 ran 600 steps, task 1 60000 steps and hit the 1-minute time limit (KillWait 15); array "
          "task 1's output sweep-tq-13_1.out, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, job_nodes=["lab28n2"], checkpoints=13,
      why="The bar is at 6500/60000 when 'slurmstepd-lab28n2: error: *** JOB 13 ON lab28n2 CANCELLED AT ... DUE TO "
          "TIME LIMIT ***' ends it: Slurm's time limit, SCHEDULER; a requeue (with the checkpoints) would progress."),
 dict(case="f03", slug="2host-torchrun-keras-style-gloo-timeouts-then-agents-fail",
      how=f"case_f03: {H2}, Keras-like, --pg-timeout 60; after epoch 4 gpu-b28-01's veth was set down and left down: "
          "both ranks' gloo operations time out after 60 s; host 2's agent, stuck on the unreachable store, ignored SIGTERM "
          "and was SIGKILLed by hand about 2.5 minutes later (the last line is bash's 'Killed' notice for that launcher); "
          "out.log, unedited",
      anomaly="HANG", category=None, requeue=True,
      why="Training stops in epoch 5 and 60 s later rank 0 reports 'Timed out waiting 60000ms for recv operation to "
          "complete' and rank 1 'Application timeout caused pair closure': a collective timeout, HANG; nothing in the "
          "log shows the cause."),
 dict(case="e10", slug="sbatch-srun-label-python-logging-samples-per-sec-15k-to-4500-from-step-650",
      how=f"case_e10: {SB} (lab28n3,lab28n4), Python logging from both ranks; after step 600 rank 1 was SIGSTOPped "
          "0.25 s out of every 0.35 s until the run ended (it finished at step 1400); pylog-str-15.out, unedited",
      anomaly="STRAGGLER", category=None, requeue=True, job_nodes=["lab28n3", "lab28n4"],
      why="Both ranks' throughput drops from ~14-17k to ~4-5k samples/s (ms/step ~3x) at step 650 and stays there to "
          "the end of training: a persistent slowdown; the log does not show which rank or why."),
 dict(case="d17", slug="torchrun-keras-style-epoch-loss-18-spike-recovers-completes",
      how=f"case_d17: {TRN}, Keras-like epoch lines (100 steps each), validation every 300, checkpoints every 600; 30 "
          "mislabelled batches from step 700 (a bad data shard) make the loss spike, then training recovers; no other "
          "fault; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=3,
      why="Epoch 7 ends with 'loss: 18.6767' but val_loss stays 0.14, the next epochs are back to 0.15 and below and the "
          "run completes all 18 epochs: a loss spike that recovers, healthy."),
 dict(case="e13", slug="sbatch-array-task1-srun-label-plain-prints-eval-checkpoints-completes",
      how="case_e13: sbatch --array=0-1%1 (-N1 -n2 each) + srun --label, plain timestamped prints from rank 0, "
          "evaluation and checkpoints every 300; no fault; array task 1's output lr-sweep-16_1.out, unedited",
      anomaly="NONE", category=None, requeue=None, job_nodes=["lab28n1"], checkpoints=3,
      why="Steady steps (loss 0.95 -> ~0.1), three evaluations and checkpoints, and 'training finished at step 900': a "
          "normal run."),
 dict(case="e11", slug="sbatch-srun-label-tqdm-bar-task1-killed-after-step-500-checkpoint",
      how=f"case_e11: {SB} (lab28n1,lab28n3), tqdm bar and messages from rank 0, evaluation and checkpoints every 500; "
          "rank 1 was SIGKILLed from outside shortly after the step-500 checkpoint (no message of its own); "
          "tq-train-18.out, unedited (an earlier run of this case was discarded: the training script was edited while it "
          "ran, so its traceback showed mismatched source lines)",
      anomaly="CRASH", category="UNKNOWN", requeue=True, job_nodes=["lab28n1", "lab28n3"], checkpoints=1,
      why="'srun: error: lab28n3: task 1: Killed' with nothing from that task, rank 0's 'Connection reset by peer' being "
          "the victim: a rank died of SIGKILL for a reason the log does not show."),
 dict(case="g02", slug="torchrun-faulthandler-lightning-style-rank0-fatal-python-segmentation-fault",
      how=f"case_g02: {TRN} with 'python -X faulthandler' workers, Lightning-like bar, validation and checkpoints every "
          "400; rank 0 got SIGSEGV from outside a few seconds after the step-800 checkpoint; out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=2,
      why="'Fatal Python error: Segmentation fault' with rank 0's stacks, rank 1's 'Connection reset by peer', and torchrun's "
          "'Signal 11 (SIGSEGV) received by PID': a bare segfault, UNKNOWN by the policy."),
 dict(case="g03", slug="sbatch-srun-label-lightning-style-validation-checkpoints-fit-stopped-max-steps",
      how=f"case_g03: {SB} (lab28n2,lab28n3), Lightning-like bar, 3-round validation and checkpoints every 500; no fault; "
          "pl-cls-19.out, unedited",
      anomaly="NONE", category=None, requeue=None, job_nodes=["lab28n2", "lab28n3"], checkpoints=3,
      why="Validation losses fall (0.19 -> 0.02), each checkpoint is saved and the run ends with '`Trainer.fit` stopped: "
          "`max_steps=1500` reached.' and 'srun exited 0'."),
 dict(case="f05", slug="2host-torchrun-megatron-style-validation-checkpoints-completes",
      how=f"case_f05: {H2}, Megatron-like iteration lines, validation and checkpoints every 500; no fault; out.log, "
          "unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=3,
      why="Iterations 100-1500 at a steady pace with falling loss, three validations and 'successfully saved checkpoint' "
          "lines, then '[after training is done]': a normal run across the two hosts."),
 dict(case="g04", slug="sbatch-srun-label-hf-style-task1-software-caused-connection-abort",
      how=f"case_g04: {SB} (lab28n3,lab28n4), HF-Trainer-like, evaluation and checkpoints every 500; after step 700 "
          "task 1's established TCP sockets (found with 'ss -tnp' by its pid) were destroyed with 'ss -K': task 1's gloo "
          "read fails with 'Software caused connection abort', task 0's with 'Connection closed by peer', both exit 1; "
          "hf-sock-20.out, unedited",
      anomaly="CRASH", category="NETWORK", requeue=True, job_nodes=["lab28n3", "lab28n4"], checkpoints=1,
      why="Mid-training both tasks fail in gloo transport reads ('Read error ...: Software caused connection abort' on "
          "task 1, 'Connection closed by peer' on task 0) and exit 1; no task crashed before its connection broke: a "
          "network (socket) failure."),
 dict(case="f06", slug="2host-torchrun-titan-network-unreachable-c10d-store-rendezvous-fails",
      how=f"case_f06: {H2}, torchtitan-like, --rdzv-conf join_timeout=90; before launch gpu-b28-02's route to the "
          "10.228.7.0/24 subnet was deleted: its agent's connects to the c10d store on gpu-b28-01 fail with errno 101 "
          "until it gives up (RendezvousConnectionError), and gpu-b28-01's agent ends with RendezvousTimeoutError; no "
          "training step ran; out.log, unedited",
      anomaly="CRASH", category="NETWORK", requeue=True,
      why="Repeated '[c10d] The client socket has failed to connect to any network address of (gpu-b28-01, 39686)' "
          "with 'errno: 101 - Network is unreachable', then 'The connection to the C10d store has failed' and the other "
          "agent's RendezvousTimeoutError: the hosts cannot reach each other, NETWORK."),
]
