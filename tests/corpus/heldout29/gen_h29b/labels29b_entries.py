# Labels of the h29b_ logs, written by hand from each kept log by tests/corpus/LABELLING.md (no engine was run).
TOOLS = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6, tqdm 4.70.1; Slurm 22.05.8 (private cluster lab29b, "
         "4 slurmd on one host) where sbatch/srun is named; gen_h29b/t29.py")
TRN = "torchrun --nproc-per-node 2 (c10d rendezvous on localhost)"
SB = "sbatch -N2 + srun --label"
H2 = ("two network namespaces as hosts gpu-b29-01/gpu-b29-02 (veth 10.229.7.11/12, UTS names via unshare), "
      "torchrun --nnodes 2 --nproc-per-node 1 on each, both hosts' output appended to one file")
ENTRIES = [
 dict(case="k01", slug="torchrun-mmengine-style-unknown-class-id-10-target-out-of-bounds-iter-700",
      how=f"case_k01: {TRN}, MMEngine-like Iter(train) lines, checkpoints every 400; from step 700 rows with an ambiguous "
          "teacher margin get an extra 'unknown' class id 10 although the head has 10 outputs (a program bug) -> "
          "IndexError on both ranks; out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, checkpoints=1,
      why="Both ranks die with 'IndexError: Target 10 is out of bounds.' from F.cross_entropy in the training loop: the "
          "labels do not fit the model's classes, a deterministic bug in the user's code."),
 dict(case="k02", slug="torchrun-detectron2-style-mat1-mat2-double-and-float-after-iter-599",
      how=f"case_k02: {TRN}, detectron2-like d2.utils.events lines and copypaste evaluation every 300; from step 600 each "
          "batch is standardised with float64 statistics (a program bug) -> dtype mismatch in the first Linear layer on "
          "both ranks; out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False,
      why="'RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float' in F.linear on both ranks: "
          "the input pipeline feeds float64 tensors to a float32 model, a code bug that recurs on every run."),
 dict(case="k03", slug="torchrun-torchtune-style-bar-stops-at-799-gloo-recv-timeout-60000ms",
      how=f"case_k03: {TRN} --pg-timeout 60, torchtune-like config dump, INFO:torchtune lines and a tqdm bar from rank 0, "
          "checkpoint every 500; at step 800 rank 1 re-enters a non-reentrant metrics lock (self-deadlock) and stops "
          "calling collectives -> rank 0's gloo recv times out after 60 s; torchrun SIGTERMs rank 1; out.log, unedited",
      anomaly="HANG", category=None, requeue=True, checkpoints=1,
      why="The bar stops at 799/3000 and rank 0 then fails in backward with 'Timed out waiting 60000ms for recv operation "
          "to complete' (gloo) while rank 1 printed no error: a collective timeout, i.e. the job hung."),
 dict(case="k05", slug="torchrun-megatron-style-first-checkpoint-errno-27-file-too-large",
      how=f"case_k05: {TRN} launched under 'ulimit -f 6144' (a 6 MiB per-file size limit), Megatron-like, checkpoints "
          "every 500 with 4 MiB of padding (~7.5 MB files) -> the first save fails with EFBIG; out.log, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True,
      why="Rank 0's torch.save of the iteration-500 checkpoint fails with 'OSError: [Errno 27] File too large' (then "
          "'unexpected pos'), and rank 1 sees 'Connection closed by peer': a file-system size limit hit while writing "
          "the checkpoint."),

 dict(case="k09", slug="torchrun-deepspeed-style-rank1-exitcode-minus-4-sigill-after-step-900",
      how=f"case_k09: {TRN}, DeepSpeed-like lines from both ranks, checkpoints every 400; after rank 1 logged step 900 "
          "it was sent SIGILL (kill -ILL) -> rank 0 'Connection reset by peer', torchrun reports exitcode -4 (SIGILL); "
          "out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=2,
      why="Rank 1 dies with 'exitcode: -4 ... Signal 4 (SIGILL)' and no message of its own, rank 0 only sees 'Connection "
          "reset by peer': a fatal signal whose cause the log does not show."),
 dict(case="k12", slug="torchrun-jsonl-rank0-exitcode-minus-3-sigquit-after-step-1000",
      how=f"case_k12: {TRN}, JSON-lines metrics from both ranks, evaluation every 400; after step 1000 rank 0 was sent "
          "SIGQUIT -> rank 1 'Connection reset by peer', torchrun reports exitcode -3 (SIGQUIT); out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True,
      why="The root-cause entry is rank 0 'exitcode: -3 ... Signal 3 (SIGQUIT) received' with no error from the program; "
          "rank 1's 'Connection reset by peer' is a victim: an unexplained death."),

 dict(case="k13", slug="torchrun-max-restarts-torchtune-style-target-10-out-of-bounds-twice-then-mesh-connect-refused",
      how=f"case_k13: {TRN} --max-restarts 2, torchtune-like config dump, INFO lines and tqdm bar, checkpoints every 300 "
          "with --resume; from step 500 ambiguous rows get an 'unknown' class id 10 (a program bug): attempt 1 fails with "
          "IndexError at step 500, attempt 2 resumes from the step-300 checkpoint and fails the same way, attempt 3 failed "
          "while building the process group (gloo connectFullMesh 'Connection refused' between the two local workers; not "
          "injected) and torchrun gave up; out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, checkpoints=1,
      why="'IndexError: Target 10 is out of bounds.' ends the first attempt at step ~500 and again after the restart that "
          "resumed from ck/step_300: a deterministic bug (the third attempt's connectFullMesh refusal is a restart "
          "artefact), so a requeue would fail the same way."),

 dict(case="k08", slug="torchrun-titan-style-tps-170k-280k-drops-to-35k-45k-from-step-650",
      how=f"case_k08: {TRN}, torchtitan-like step lines from rank 0, DataLoader num_workers=1; after step 600 rank 1 and "
          "its worker were put in a cgroup-v1 cpu group with an 8% CFS quota until the end; the run completes; out.log, "
          "unedited",
      anomaly="STRAGGLER", category=None, requeue=True,
      why="tps holds 167k-285k for steps 50-600, then falls to 34k-45k for every step from 650 to 1500 (about 5x slower) "
          "with nothing else changing: a sustained throughput drop, although the run ends 'Training completed'."),

 dict(case="k07", slug="torchrun-plain-prints-stop-at-step-650-rank1-gloo-recv-timeout-90000ms",
      how=f"case_k07: {TRN} --pg-timeout 90, plain print lines from rank 0; rank 0 appends a metrics CSV row per logged "
          "step to an ext4 loop fs that was frozen (fsfreeze -f) after step 600: rank 0 blocked in write() after printing "
          "step 650 and rank 1's collective timed out after 90 s; the fs was thawed 30 s after the timeout showed; "
          "out.log, unedited",
      anomaly="HANG", category=None, requeue=True,
      why="Progress stops after 'step 650/3000' and 90 s later rank 1 fails with 'Timed out waiting 90000ms for recv "
          "operation to complete' while rank 0 printed nothing: a collective timeout, i.e. the job hung."),

 dict(case="j01", slug="sbatch-requeue-srun-label-mmengine-style-node-failure-requeued-resumes-1200-completes",
      how=f"case_j01: {SB} --requeue --open-mode=append (lab29n1, lab29n2), MMEngine-like, checkpoints every 300 with "
          "--resume; after iteration 700 lab29n2's slurmd was SIGKILLed: slurmctld cancelled the job for node failure "
          "after iteration 1400 and requeued it; the orphaned task on lab29n2 was killed and its slurmd restarted; the "
          "restart (again on lab29n[1-2]) loaded the step-1200 checkpoint and reached 1800; mm-cls-1.out, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=6, job_nodes=["lab29n1", "lab29n2"],
      why="The 'Node failure on lab29n2' / 'CANCELLED ... DUE TO NODE FAILURE' is followed by Slurm's requeue: "
          "'job 1 (restart 1)' loads ck/step_1200, trains to 1800/1800 and ends 'srun exited 0', so the job finished."),

 dict(case="k04", slug="torchrun-python-logging-both-ranks-silent-after-step-600-checkpoint-151s", file="kept.log",
      how=f"case_k04: {TRN}, Python logging from both ranks every 100 steps, checkpoints every 300; at step 700 rank 0 "
          "opens a named pipe for the next shard manifest and no writer ever comes, so rank 0 blocks in open() and rank 1 "
          "waits in its allreduce (default 1800 s timeout); out.log copied as kept.log 151 s after its last line, then the "
          "run was stopped",
      anomaly="HANG", category=None, requeue=True, checkpoints=2, silence_s=151,
      why="After 'checkpoint step 600 saved in 0.02s' neither rank logs again for 151 s although both had logged every "
          "~2 s: the job stopped making progress with no error printed."),
 dict(case="j02", slug="sbatch-n3-srun-kill-on-bad-exit-label-detectron2-style-node-failure-lab29n3",
      how=f"case_j02: sbatch -N3 (lab29n2-lab29n4) --no-requeue + srun --kill-on-bad-exit=1 --label, detectron2-like, "
          "checkpoints every 400; after iteration 800 lab29n3's slurmd was SIGKILLed: slurmctld (SlurmdTimeout=20) set it "
          "DOWN and cancelled the job for node failure; d2-tab-2.out, unedited",
      anomaly="CRASH", category="NODE", requeue=True, culprit_nodes=["lab29n3"], checkpoints=3,
      job_nodes=["lab29n2", "lab29n3", "lab29n4"],
      why="'srun: error: Node failure on lab29n3' and 'JOB 2 ON lab29n2 CANCELLED ... DUE TO NODE FAILURE' end a run "
          "that was training normally at iteration 1449: lab29n3 failed, requeue excluding it."),

 dict(case="j03", slug="sbatch-torchrun-in-batch-step-lightning-style-rank-sigkill-oom-kill-event-batch-step",
      how="case_j03: sbatch -N1 -n2 --mem=1500M (lab29n1) with torchrun --nproc-per-node 2 run directly in the batch "
          "step, Lightning-like banner, tqdm bar and checkpoint line; at step 700 each rank builds a 1.0 GB feature cache: "
          "the job's memory cgroup fills and the OOM killer SIGKILLs rank 1; lit-tab-3.out, unedited",
      anomaly="CRASH", category="NODE", requeue=True, checkpoints=1, job_nodes=["lab29n1"],
      why="Right after 'building full-resolution feature cache (1.0 GB per rank)' rank 1 dies with exitcode -9 (SIGKILL) "
          "and slurmstepd reports 'Detected 1 oom-kill event(s) in StepId=3.batch': the out-of-memory killer ended the job."),

 dict(case="n01", slug="2host-torchrun-mmengine-style-c10d-store-connection-reset-keepalive-fails-iter-1050",
      how=f"case_n01: {H2}; MMEngine-like lines from rank 0; after iteration 700 gpu-b29-02's veth MTU was lowered to 576 "
          "while gpu-b29-01 kept 1500 (an MTU mismatch); training went on, and 27 s later gpu-b29-02's agent lost its c10d "
          "store connection ('Connection reset by peer', keep-alive heartbeat failed), SIGTERMed its worker and exited "
          "with RendezvousConnectionError, after which rank 0 on gpu-b29-01 failed with a gloo read error; out.log, unedited",
      anomaly="CRASH", category="NETWORK", requeue=True,
      why="The first fault is gpu-b29-02's 'TCPStore ... recvVector failed ... Connection reset by peer' and 'failed to "
          "send a keep-alive heartbeat ... RendezvousConnectionError'; rank 0's 'Read error [10.229.7.12]: Connection reset "
          "by peer' follows: the inter-host store connection broke, a network failure."),

 dict(case="j04", slug="sbatch-srun-label-torchtune-style-step-cancelled-due-to-time-limit-after-admin-lowered-limit",
      how=f"case_j04: {SB} --time=30, torchtune-like config dump, INFO lines and a tqdm bar (rank 0), checkpoints every "
          "1000 of 20000 steps; after the step-1000 checkpoint an administrator ran 'scontrol update jobid=4 timelimit=2', "
          "so the job ran out of time ~40 s later; tt-ft-4.out, unedited (slurmstepd's line follows the last bar refresh "
          "without a newline, as written)",
      anomaly="CRASH", category="SCHEDULER", requeue=True, checkpoints=1,
      why="The bar at 1669/20000 is cut by 'slurmstepd-lab29n1: error: *** STEP 4.0 ON lab29n1 CANCELLED AT ... DUE TO "
          "TIME LIMIT ***': Slurm ended the job at its time limit while it was training normally."),

 dict(case="j05", slug="sbatch-torchrun-in-batch-step-megatron-style-job-cancelled-due-to-preemption-iter-1600",
      how="case_j05: sbatch -N1 -n2 --no-requeue (partition train, lab29n4) with torchrun --nproc-per-node 2 in the batch "
          "step, Megatron-like, checkpoints every 500; after iteration 700 a 1-node job in partition 'urgent' "
          "(PriorityTier 10, OverSubscribe=NO) was submitted for lab29n4 and preempted it (PreemptMode=REQUEUE, but the "
          "job is not requeueable, so it was cancelled); mega-pt-5.out, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, checkpoints=3, job_nodes=["lab29n4"],
      why="Training at normal speed (iteration 1600, three saved checkpoints) ends with 'slurmstepd-lab29n4: error: *** "
          "JOB 5 ON lab29n4 CANCELLED AT ... DUE TO PREEMPTION ***': the scheduler took the node for a higher-priority job."),
 dict(case="n02", slug="2host-torchrun-deepspeed-style-rank0-gpu-b29-01-exitcode-minus-9-store-closed",
      how=f"case_n02: {H2}; DeepSpeed-like lines from both ranks, checkpoints every 400; after rank 0 logged step 900 "
          "its worker on gpu-b29-01 was SIGKILLed (no reason printed): gpu-b29-01's torchrun reports exitcode -9 and exits "
          "(taking the c10d store with it), rank 1 on gpu-b29-02 gets 'Connection reset by peer' and its agent store "
          "errors; out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=2, job_nodes=["gpu-b29-01", "gpu-b29-02"],
      why="The first failure is rank 0 on gpu-b29-01 'exitcode: -9 ... Signal 9 (SIGKILL)' with no message from the "
          "program; rank 1's 'Read error [10.229.7.11]: Connection reset by peer' and the store errors on gpu-b29-02 "
          "follow from it, so the cause of the death is not shown."),

 dict(case="j06", slug="sbatch-array-srun-label-fairseq-style-shared-checkpoint-fs-errno-28-update-900",
      how="case_j06: sbatch --array=0-1 (-N1 -n2 each, both on lab29n1) + srun --label, fairseq-like; both array tasks "
          "save checkpoints (6 MiB of padding each, all kept) every 300 updates to one 40 MiB ext4 loop fs, which fills: "
          "both tasks' update-900 saves fail with ENOSPC; task 0's output fs-sweep-7_0.out, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True, checkpoints=2, job_nodes=["lab29n1"],
      why="After two 'Saved checkpoint' lines, rank 0's torch.save fails with 'OSError: [Errno 28] No space left on "
          "device' (then 'unexpected pos'), rank 1 sees 'Connection closed by peer' and srun reports both tasks exit 1: "
          "the checkpoint file system is full."),
 dict(case="j07", slug="sbatch-srun-label-hf-style-metrics-csv-errno-30-read-only-file-system-step-650",
      how=f"case_j07: {SB}, HF-Trainer-like banner, loss dicts, tqdm bar and evaluation every 500; rank 0 appends a "
          "metrics CSV row per logged step to an ext4 loop fs that was remounted read-only after step 600 -> Errno 30 at "
          "the step-650 append; hf-run-9.out, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True, job_nodes=["lab29n1", "lab29n2"],
      why="Rank 0 dies with 'OSError: [Errno 30] Read-only file system: '/work/lab29b/mnt/j07/metrics.csv'' while "
          "opening its metrics file, rank 1 only sees 'Connection closed by peer': the file system went read-only "
          "under a run that was training normally."),

 dict(case="n03", slug="2host-torchrun-plain-prints-ms-per-it-30-to-150-from-step-650",
      how=f"case_n03: {H2}; plain print lines from rank 0; after step 600 every process of gpu-b29-02 (its torchrun agent "
          "and worker) was put in a cgroup-v1 cpu group with a 10% CFS quota until the end; the run completes, and "
          "gpu-b29-02's agent then fails to shut down the rendezvous on the already-closed store; out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True,
      why="Step time is 26-56 ms/it up to step 600 and 128-181 ms/it for every logged step from 650 to 1500 (about 5x "
          "slower) with no error: a sustained slowdown; the 'training finished at step 1500' and the store error at "
          "shutdown do not undo it."),

 dict(case="n04", slug="2host-torchrun-titan-style-one-slow-interval-at-step-750-completes",
      how=f"case_n04: {H2}; torchtitan-like step lines from rank 0, checkpoints every 500; after step 700 gpu-b29-02's "
          "veth was set down for 4 s and up again (a link flap): TCP retransmitted and training went on to 'Training "
          "completed'; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=3,
      why="Apart from one interval at step 750 (tps 93k against 380k-610k before and after) throughput stays level, "
          "three checkpoints finish and the run ends 'Training completed': a brief stall, not a fault."),

 dict(case="n05", slug="2host-torchrun-torchtune-style-store-sendbytes-failed-software-caused-connection-abort",
      how=f"case_n05: {H2}; torchtune-like config dump, INFO lines and tqdm bar from rank 0, checkpoints every 500; after "
          "step ~750 only gpu-b29-02's c10d store connections (to gpu-b29-01:40685) were destroyed with 'ss -K' inside "
          "its namespace: its agent's store calls fail ('Broken pipe', 'Software caused connection abort'), it SIGTERMs "
          "its worker and exits with RendezvousConnectionError; rank 0 on gpu-b29-01 then gets a gloo read error; "
          "out.log, unedited",
      anomaly="CRASH", category="NETWORK", requeue=True, checkpoints=1,
      why="The bar at 754/2000 is cut by 'TCPStore ... sendBytes failed ... Broken pipe', then 'DistNetworkError: Software "
          "caused connection abort' / 'The connection to the C10d store has failed' on gpu-b29-02 and rank 0's 'Read error "
          "[10.229.7.12]: Connection reset by peer': the inter-host connections were torn down, a network failure."),

 dict(case="j08", slug="sbatch-srun-label-mmengine-style-iter-time-0035-to-015-from-iter-650",
      how=f"case_j08: {SB} (lab29n1, lab29n2), MMEngine-like Iter(train) lines from rank 0, checkpoints every 500; after "
          "iteration 600 task 1 (rank 1) was put in a cgroup-v1 cpu group with a 10% CFS quota until the end; the run "
          "completes; mm-train-10.out, unedited",
      anomaly="STRAGGLER", category=None, requeue=True, checkpoints=3, job_nodes=["lab29n1", "lab29n2"],
      why="'time:' per iteration is 0.032-0.050 s up to iteration 600 and 0.131-0.174 s for every logged interval from "
          "650 to 1500 (the eta grows accordingly): a sustained 4x slowdown of a run that otherwise finishes."),

 dict(case="k11", slug="torchrun-fairseq-style-loss-spike-to-30-at-update-1100-recovers-completes",
      how=f"case_k11: {TRN}, fairseq-like train_inner/valid/checkpoint lines, FutureWarnings and a DataLoader UserWarning, "
          "validation and checkpoints every 600 of 2400 updates; 30 batches from update 1100 had shifted labels (a bad "
          "data shard): a loss spike that recovers within ~100 updates; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4,
      why="loss jumps to 29.854 (ppl 970118041) at num_updates=1100, is 2.629 at 1150 and back to 0.155 by 1200 and keeps falling, the valid loss drops to "
          "0.04, four checkpoints are saved and the run ends 'done training in 114.0 seconds': a recovered spike."),

 dict(case="j10", slug="sbatch-srun-label-megatron-style-futurewarnings-wandb-retries-validation-completes",
      how=f"case_j10: {SB} (lab29n1, lab29n2), Megatron-like arguments block and iteration lines, FutureWarnings from "
          "both tasks, a DataLoader UserWarning, retried tracker-upload warnings, validation and checkpoints every 400 of "
          "1600 iterations; nothing injected; gpt-small-12.out, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4, job_nodes=["lab29n1", "lab29n2"],
      why="The warnings are deprecations and uploads that succeed after one retry; iteration time stays 31-68 ms, the "
          "validation loss falls 0.214 -> 0.032, four checkpoints are saved and the job prints '[after training is "
          "done]'."),

 dict(case="k14", slug="torchrun-keras-style-ms-per-step-39-to-83-122-from-epoch-4",
      how=f"case_k14: {TRN}, Keras-like epoch lines (200 steps each), DataLoader num_workers=2, checkpoints every 400; "
          "after epoch 3 both DataLoader workers of rank 1 were SIGSTOPped for 0.35 s of every 0.4 s (SIGSTOP/SIGCONT "
          "duty cycle) until the end, starving rank 1 of batches; the run completes; out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True, checkpoints=5,
      why="Epochs 1-3 take 8 s (39-40 ms/step); from epoch 4 every epoch takes 15-24 s (74-122 ms/step) with the loss "
          "still falling and no error: a sustained 2-3x slowdown."),
 dict(case="j12", slug="sbatch-srun-label-plain-data-path-filenotfounderror-both-tasks-at-start",
      how=f"case_j12: {SB} (lab29n1, lab29n2), plain prints; the job script sets DATA to a file name with a typo "
          "(feats.bin for feat.bin) -> FileNotFoundError in both tasks before the first step; its own 'srun exit code' "
          "echo prints 0 because $? is read after a command substitution; tab-plain-15.out, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, job_nodes=["lab29n1", "lab29n2"],
      why="Both tasks fail at start-up with 'FileNotFoundError: [Errno 2] No such file or directory: "
          "'/work/lab29b/data/feats.bin'' (srun: 'task 0/1: Exited with exit code 1'): the job points at a path that does "
          "not exist, a configuration error that a requeue would repeat."),

 dict(case="j13", slug="sbatch-srun-label-jsonl-both-ranks-errno-5-input-output-error-reading-data-step-700",
      how=f"case_j13: {SB} (lab29n1, lab29n2), JSON-lines metrics from both ranks; features read with os.pread from a copy "
          "of the data on a 24 MiB ext4 loop fs; after step 700 the fs was shut down (EXT4_IOC_SHUTDOWN ioctl) -> EIO on "
          "the next read in both tasks; jl-train-17.out, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True, job_nodes=["lab29n1", "lab29n2"],
      why="Right after step 700 both ranks die in the DataLoader fetch with 'OSError: [Errno 5] Input/output error' and "
          "srun reports both tasks exit 1: the data file system failed under a run that was training normally."),

 dict(case="j18", slug="sbatch-srun-label-keras-style-silent-after-epoch-4-header-151s", file="kept.log",
      how=f"case_j18: {SB} (lab29n1, lab29n2), Keras-like epoch lines (150 steps, ~9-11 s each), checkpoints every 300; "
          "during epoch 4 an operator ran 'scontrol suspend 16' (all tasks SIGSTOPped) and did not resume it; "
          "kr-cls-16.out copied as kept.log 151 s after its last line (the job was then resumed and cancelled)",
      anomaly="HANG", category=None, requeue=True, checkpoints=1, silence_s=151, job_nodes=["lab29n1", "lab29n2"],
      why="Epochs end every 9-11 s, then after 'Epoch 4/20' nothing more is written for 151 s and no error appears: the "
          "job stopped making progress."),

 dict(case="j14", slug="sbatch-srun-label-detectron2-style-silent-after-iter-849-150s", file="kept.log",
      how=f"case_j14: {SB} (lab29n1, lab29n2), detectron2-like, checkpoints every 400; at step 900 rank 1 re-enters a "
          "non-reentrant metrics lock (a self-deadlock) and stops; rank 0 waits in allreduce (default 1800 s timeout), so "
          "the output goes silent; d2-cls-18.out copied as kept.log 150 s after its last line, then scancel",
      anomaly="HANG", category=None, requeue=True, checkpoints=2, silence_s=150, job_nodes=["lab29n1", "lab29n2"],
      why="d2.utils.events lines arrive every ~2 s up to 'iter: 849' and then nothing for 150 s with no error: the "
          "training loop stopped making progress."),

 dict(case="n06", slug="2host-torchrun-detectron2-style-rank0-gloo-recv-timeout-60000ms-after-iter-699",
      how=f"case_n06: {H2}; detectron2-like lines from rank 0, --pg-timeout 60, checkpoints every 400; after iteration 700 "
          "every process of gpu-b29-02 (agent and worker) was SIGSTOPped, like a frozen host: rank 0's gloo recv timed "
          "out after 60 s and gpu-b29-01's torchrun exited; gpu-b29-02 was SIGCONTed afterwards, found the store gone and "
          "failed too; out.log, unedited",
      anomaly="HANG", category=None, requeue=True, checkpoints=1, job_nodes=["gpu-b29-01", "gpu-b29-02"],
      why="Progress stops after 'iter: 699' and rank 0 fails with 'Timed out waiting 60000ms for recv operation to "
          "complete'; rank 1's 'Connection closed by peer' and the store errors only come after it: a collective "
          "timeout, i.e. the job hung."),

 dict(case="j16", slug="sbatch-array-task2-srun-label-keras-style-job-cancelled-during-epoch-4",
      how="case_j16: sbatch --array=0-2 (-N1 -n2 each) + srun --label, Keras-like, hidden size 256/512/768 by task, "
          "checkpoints every 300; during epoch 4 of task 2 (on lab29n3) the user ran 'scancel 19_2' (the rest of the "
          "array was cancelled afterwards); task 2's output kr-sweep-19_2.out, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, checkpoints=1, job_nodes=["lab29n3"],
      why="A run training normally (epochs of 14-19 s, loss falling) ends with 'slurmstepd-lab29n3: error: *** JOB 19 ON "
          "lab29n3 CANCELLED AT 2026-11-25T08:43:49 ***' and no error of its own: the job was cancelled through Slurm."),

 dict(case="j17", slug="sbatch-torchrun-in-batch-step-lightning-style-warnings-mirror-misses-validation-completes",
      how="case_j17: sbatch -N1 -n2 (lab29n1) with torchrun --nproc-per-node 2 in the batch step, Lightning-like banner, "
          "tqdm bar, FutureWarnings from both ranks and a DataLoader UserWarning, validation and checkpoints every 500; "
          "rank 0 tries a shard index on a mirror directory that lacks most files (real FileNotFoundErrors, caught, "
          "falling back to the local copy); nothing injected; lit-run-22.out, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4, job_nodes=["lab29n1"],
      why="The FutureWarnings, the DataLoader warning and the caught 'FileNotFoundError ... falling back to local copy' "
          "lines are noise; the bar runs at a steady 24-30 it/s to 2000/2000, four checkpoints are saved and the job ends "
          "'`Trainer.fit` stopped: `max_steps=2000` reached' and 'torchrun exit 0'."),

 dict(case="n07", slug="2host-torchrun-detectron2-style-hostname-warnings-futurewarnings-evals-completes",
      how=f"case_n07: {H2}; detectron2-like lines from rank 0, FutureWarnings from both ranks and a DataLoader "
          "UserWarning, evaluation and checkpoints every 500 of 2000 iterations; nothing injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4,
      why="The c10d 'hostname of the client socket cannot be retrieved' and deprecation warnings are start-up noise; "
          "iteration time stays 0.030-0.051 s, top1 rises 85 -> 97.6 and the run ends with 'Overall training speed: 1998 "
          "iterations' and 'Total training time'."),

 dict(case="j15", slug="sbatch-requeue-srun-label-pylog-step-cancelled-preemption-sigterm-checkpoint-step-718-exits-0",
      how=f"case_j15: sbatch -N2 (lab29n3, lab29n4) --requeue --open-mode=append + srun --label, Python logging from both "
          "ranks with a SIGTERM handler that saves a checkpoint and exits, --resume; after step 700 a 2-node job in "
          "partition 'urgent' on the same nodes preempted it: the step was cancelled, both ranks saved step 718 and exited "
          "0, so the batch script ended with 'srun exited 0' and Slurm recorded the job COMPLETED without requeueing it "
          "(718 of 1600 steps done); pl-pre-23.out, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, checkpoints=2, job_nodes=["lab29n3", "lab29n4"],
      why="'STEP 23.0 ON lab29n3 CANCELLED' and '[rank0] Preemption detected (signal 15, SIGTERM): will save checkpoint "
          "and exit' stop the run at step 718 of 1600 ('exiting for requeue'); the exit code is 0 but training did not "
          "finish: the scheduler preempted it, and a requeue resumes from the step-718 checkpoint."),
 dict(case="j20", slug="sbatch-torchrun-in-batch-step-tqdm-bar-both-ranks-exitcode-minus-7-sigbus",
      how="case_j20: sbatch -N1 -n2 (lab29n1) with torchrun --nproc-per-node 2 in the batch step, a bare tqdm bar with "
          "loss/lr postfix, checkpoints every 500; features np.memmap'ed from a private copy of the data file, which was "
          "truncated to 0 bytes after the step-500 checkpoint -> both ranks die of SIGBUS; tq-run-25.out, unedited",
      anomaly="CRASH", category="NODE", requeue=True, checkpoints=1, job_nodes=["lab29n1"],
      why="Both ranks end with 'exitcode  : -7 ... Signal 7 (SIGBUS)' in torchrun's ChildFailedError summary with no "
          "Python error: a bus error on the host (memory-mapped data became unreadable), not the training code."),
 dict(case="j21", slug="sbatch-srun-label-torchtune-style-node-failure-on-lab29n4-after-step-500-checkpoint",
      how="case_j21: sbatch -N2 (lab29n3, lab29n4) + srun --label, torchtune-like config dump, INFO lines and tqdm bar, "
          "checkpoints every 500; after the step-500 checkpoint an administrator set lab29n4 DOWN ('scontrol update "
          "nodename=lab29n4 state=down reason=\"memory errors (EDAC)\"'): Slurm cancelled the job for node failure; "
          "tt-dn-26.out, unedited",
      anomaly="CRASH", category="NODE", requeue=True, culprit_nodes=["lab29n4"], checkpoints=1,
      job_nodes=["lab29n3", "lab29n4"],
      why="'srun: error: Node failure on lab29n4' and 'JOB 26 ON lab29n3 CANCELLED ... DUE TO NODE FAILURE' end a run "
          "that had just saved its step-500 checkpoint: lab29n4 failed; requeue excluding it."),

 dict(case="j19", slug="sbatch-srun-label-jsonl-cpp-log-info-uv-loop-ebusy-evals-checkpoints-done",
      how=f"case_j19: {SB} (lab29n1, lab29n2) with TORCH_CPP_LOG_LEVEL=INFO, JSON-lines metrics from both ranks, "
          "evaluation and checkpoints every 400 of 1600 steps; nothing injected; jl-eval-27.out, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4, job_nodes=["lab29n1", "lab29n2"],
      why="The c10d INFO lines (socket connects, 'Reducer: comm-optimized memory allocator not found', 'uv_loop_close "
          "failed with:-16 errn:EBUSY' at shutdown) are informational; step_ms stays 24-51, val_loss falls 0.214 -> "
          "0.032, four checkpoint_end events and '\"event\": \"done\"' end the run."),

 dict(case="k16", slug="torchrun-keras-style-futurewarnings-wandb-retries-val-loss-10-of-10-epochs",
      how=f"case_k16: {TRN}, Keras-like epoch lines (150 steps each) with val_loss every other epoch, FutureWarnings and a "
          "DataLoader UserWarning, retried tracker-upload warnings, checkpoints every 300; nothing injected (a first run "
          "of this case, made while two other cases ran, was replaced by this one); out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=5,
      why="The warnings are deprecations and uploads that succeed after one retry; all 10/10 epochs finish at 19-37 "
          "ms/step with loss and val_loss falling, and the last epoch's model is saved."),

 dict(case="n08", slug="2host-torchrun-keras-style-both-ranks-gloo-recv-timeout-60000ms-during-epoch-4",
      how=f"case_n08: {H2}; Keras-like epoch lines from rank 0, --pg-timeout 60; during epoch 4 gpu-b29-02's address was "
          "removed from its veth ('ip addr flush dev l29bv2', link left up): both ranks' gloo recvs timed out after 60 s "
          "and gpu-b29-01's torchrun exited; gpu-b29-02's agent, stuck on the store, was SIGKILLed by hand 2 minutes "
          "later (the launching shell's 'Killed' line is the last line); out.log, unedited",
      anomaly="HANG", category=None, requeue=True,
      why="Epochs take 4-5 s, then epoch 4 never finishes and ~60 s later both ranks fail with 'Timed out waiting "
          "60000ms for recv operation to complete' (plus a c10d socket 'timed out after 60000ms'): a collective timeout, "
          "i.e. the job hung."),

 dict(case="j22", slug="sbatch-srun-label-mmengine-style-grad-norm-climbs-loss-nan-floatingpointerror-iter-900",
      how=f"case_j22: {SB} (lab29n1, lab29n2), MMEngine-like, checkpoints every 300; the logits are divided by a "
          "temperature annealed linearly to 0 at step 900 (a schedule bug): grad_norm climbs, the loss turns nan at "
          "iteration 900 and both ranks raise FloatingPointError; mm-temp-28.out, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, checkpoints=2, job_nodes=["lab29n1", "lab29n2"],
      why="grad_norm rises 1.5 -> 10.5 while the loss climbs, then 'grad_norm: nan  loss: nan' at Iter(train) [900/3000] "
          "and 'FloatingPointError: Loss is nan at step 900, stopping training' on both ranks: a diverging model/config "
          "(NaN loss)."),

 dict(case="j23", slug="sbatch-srun-label-hf-style-task1-terminated-rank0-connection-reset",
      how=f"case_j23: sbatch -N2 (lab29n3, lab29n4) + srun --label, HF-Trainer-like, evaluation and checkpoints every 500; "
          "after step 700 task 1 (rank 1) alone was sent SIGTERM from outside Slurm (kill -TERM by pid), with nothing "
          "printed about why -> rank 0's gloo read error, 'srun: error: lab29n4: task 1: Terminated'; hf-t-29.out, "
          "unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=1, job_nodes=["lab29n3", "lab29n4"],
      why="'srun: error: lab29n4: task 1: Terminated' is the first failure, with no CANCELLED line from slurmstepd and no "
          "message from the program; rank 0's 'Connection reset by peer' follows: a rank killed by a signal whose "
          "origin the log does not show."),
]

