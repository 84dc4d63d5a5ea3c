# Labels of the h31b_ logs, written by hand from each kept log by tests/corpus/LABELLING.md (no engine was run).
TOOLS = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6, tqdm 4.70.1; Slurm 22.05.8 (private cluster lab31b, "
         "4 slurmd on one host) where sbatch/srun is named; iptables 1.8.9 (nf_tables) where named; gen_h31b/t31.py")
TRN = "torchrun --nproc-per-node 2 (c10d rendezvous on localhost)"
SB = "sbatch -N2 + srun --label"
H2 = ("two network namespaces as hosts gpu-b31-01/gpu-b31-02 (veth 10.231.7.11/12, UTS names via unshare), "
      "torchrun --nnodes 2 --nproc-per-node 1 on each, both hosts' output appended to one file")
ENTRIES = [
 dict(case="a01", slug="torchrun-ignite-style-futurewarnings-validation-17-epochs-engine-run-complete",
      how=f"case_a01: {TRN}, PyTorch-Ignite-style logging (Engine/Parallel logger lines, 'Epoch[E] Iteration[i/312] Loss:' "
          "lines, 'Validation Results - Epoch[E]'), 2 persistent DataLoader workers per rank, FutureWarnings, validation "
          "every epoch and (silent) checkpoints every 1000 iterations; nothing injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None,
      why="Seventeen epochs with steady 8.4k-15k samples/s and a falling validation loss, only FutureWarnings and a "
          "DataLoader worker-count UserWarning, and 'Engine run complete. Time taken: 00:01:35.714': a healthy run."),
 dict(case="a02", slug="torchrun-fastai-style-ulimit-64-event-file-reopened-errno-24-too-many-open-files-after-epoch-8",
      how=f"case_a02: {TRN} under 'ulimit -n 64', fastai-style results table (epochs of 300 steps, 'Better model found' "
          "lines); rank 0's metrics writer opens a new events.out.tfevents.* file every 50 steps and never closes it (a "
          "descriptor leak in the program) -> EMFILE after ~50 files at step 2750; out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False,
      why="After nine normal epochs rank 0 dies with \"OSError: [Errno 24] Too many open files: "
          "'.../runs/mlp48/events.out.tfevents.1795606381.vm.29023.2750'\" (one event file per logged step: a descriptor "
          "leak that recurs at the same point on a requeue) and rank 1 only sees 'Connection closed by peer' (a victim)."),
 dict(case="a03", slug="torchrun-timm-style-resume-checkpoint-900-failed-finding-central-directory",
      how=f"case_a03: {TRN}, timm train.py style. A first run (not kept) saved checkpoint-300/600 (66 MB each with "
          "padding) and was SIGKILLed, every process, while writing checkpoint-900.pth.tar (as when a node dies mid-save), "
          "leaving a 60.8 MB partial file; the kept second run is the same command with --resume, which picks the newest "
          "file, the partial one; out.log of the second run, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True,
      why="Right after 'Restoring model state from checkpoint...' both ranks fail in torch.load with 'PytorchStreamReader "
          "failed reading zip archive: failed finding central directory': the checkpoint file on disk is truncated/"
          "corrupt, a storage-side problem (an older checkpoint or a repaired file lets a requeue proceed)."),
 dict(case="a04", slug="torchrun-yolo-classify-style-shard-00017-filenotfound-in-dataloader-worker",
      how=f"case_a04: {TRN}, Ultralytics-YOLO-classify-style console (ANSI-coloured engine/trainer and train: lines, "
          "per-epoch tqdm bar), 2 DataLoader workers per rank; the data set is 30 shard files listed in index.json, one of "
          "which (shard-00017.bin) was never copied; the shard-ordered sampler reaches it at step ~62 -> "
          "FileNotFoundError in a DataLoader worker on both ranks; out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False,
      why="Both ranks fail with 'FileNotFoundError: Caught FileNotFoundError in DataLoader worker process 0' / '[Errno 2] "
          "No such file or directory: .../shards/shard-00017.bin' in the first epoch: a data set listed in its index "
          "but missing a shard, which a requeue hits again."),
 dict(case="a05", slug="torchrun-ray-worker-style-epoch-boundary-cant-start-new-thread-dataloader-worker-exit-1",
      how=f"case_a05: {TRN}, Ray-Train-worker style (every line of a worker prefixed '(RayTrainWorker pid=.., ip=..)'), "
          "2 DataLoader workers per rank re-created every epoch; after step 100 rank 0's training process (all its "
          "threads) was moved into a cgroup-v1 pids group with pids.max = its task count + 1, so at the first epoch "
          "boundary (step 312) new threads/processes cannot be created; out.log, unedited",
      anomaly="CRASH", category="NODE", requeue=True,
      why="At the epoch boundary rank 0 fails with 'RuntimeError: can't start new thread' while re-creating its "
          "DataLoader workers, a worker process dies with the same error ('DataLoader worker (pid 31515) exited "
          "unexpectedly with exit code 1') and rank 1 only sees 'Connection closed by peer': the host's process/thread "
          "limit was exhausted, not a program error."),
 dict(case="a06", slug="torchrun-levanter-style-three-non-finite-steps-skipped-5000-steps-complete",
      how=f"case_a06: {TRN}, Levanter-style logging ('Progress on:train Nit/5000it rate:.. remaining:..', "
          "levanter.checkpoint/levanter.eval lines); corrupt records (an inf feature in rank 0's batch at steps 1234, 1235 "
          "and 2890) make loss and gradients non-finite, and the trainer skips those updates; evaluation and checkpoints "
          "every 1000; completes; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=5,
      why="Three 'Non-finite loss or gradient at step N (loss=nan, grad_norm=nan); skipping this update' warnings, after "
          "which the loss and rate stay normal, five checkpoints are saved and 'Training complete. 5000 steps in "
          "0:00:58': a handled, harmless NaN."),
 dict(case="a07", slug="torchrun-hydra-style-rank1-shard-list-exhausted-final-barrier-gloo-timeout",
      how=f"case_a07: {TRN} --pg-timeout 60, Hydra-style logging (config dump, '[time][__main__][INFO] - step=..' lines, "
          "'Error executing job with overrides' + HYDRA_FULL_ERROR hint on failure); rank 1 'runs out of its shard list' "
          "at step 2400 (uneven shards, a program/data-split bug), leaves the training loop and waits at the final "
          "barrier while rank 0 keeps training -> mismatched collectives, gloo timeouts after 60 s; out.log, unedited",
      anomaly="HANG", category="APPLICATION", requeue=True, checkpoints=2,
      why="'rank 1: shard list exhausted after 2399 steps ... leaving the training loop' and 'waiting for the other ranks "
          "at the final barrier' are followed by a minute of silence and 'Timed out waiting 60000ms for recv operation' "
          "(plus 'Connection closed by peer' on the other rank): the job hung on uneven per-rank data, a program bug."),
 dict(case="a08", slug="torchrun-rich-style-silent-after-step-1500-gloo-recv-timeout-rank1-sigkill",
      how=f"case_a08: {TRN} --pg-timeout 60, rich-console logging (RichHandler layout '[mm/dd/yy HH:MM:SS] INFO  ...  "
          "t31.py:N' and '━━━' progress lines); after step 1500 rank 1 was SIGSTOPped (continued only after the log was "
          "complete) -> rank 0's gloo recv timeout, torchrun cannot stop rank 1 with SIGTERM and SIGKILLs it; out.log, "
          "unedited",
      anomaly="HANG", category=None, requeue=True, checkpoints=1,
      why="After 'step 1500/6000' nothing is logged for a minute, then rank 0 fails with 'Timed out waiting 60000ms for "
          "recv operation to complete' while rank 1 printed nothing and had to be killed ('Unable to shutdown process ... "
          "via 15, forcefully exiting via 9'): a collective timeout, i.e. the job hung, cause not shown."),
 dict(case="a11", slug="torchrun-espnet-style-train-time-19ms-to-64ms-from-batch-1500",
      how=f"case_a11: {TRN}, ESPnet-style logging ('[host] time (trainer:732) INFO: Nepoch:train:a-bbatch: ... "
          "train_time=..', epoch results, best-model lines), features read with O_DIRECT from a copy on an ext4 loop fs; "
          "after step 1500 rank 1 was put in a cgroup-v1 blkio group limited to 1500 read IOPS on that loop device until "
          "the run ended; out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True, checkpoints=4,
      why="train_time is 0.017-0.023 s for every window of batches 1-1500, then 0.048 and 0.064-0.067 s for every window "
          "from 1601 to 4000 (backward_time, where rank 0 waits for its peer, rises to ~0.05 s) with no error: a "
          "sustained ~3.4x slowdown, although the run completes."),
 dict(case="a14", slug="torchrun-timm-style-samples-per-sec-25k-to-9k-from-epoch-4",
      how=f"case_a14: {TRN}, timm train.py style ('Train: E [ i/312 (p%)]  Loss: ..  Time: ..s, N/s ..', 'Test:', "
          "'Current checkpoints:'); rank 0 pinned to CPU 0 and rank 1 to CPU 1 (taskset) from epoch 0; from epoch 4 a "
          "CPU-bound process at the same nice level was pinned to CPU 1 until the run ended (a noisy neighbour sharing "
          "rank 1's CPU); out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True, checkpoints=3,
      why="Throughput is 20-28k samples/s (0.007-0.009 s per step) through epoch 3, then 11-17k in epochs 4-7 and "
          "6-10k (0.020-0.025 s) in epochs 8-11 with no error: a sustained 2-3x slowdown, although training completes."),
 dict(case="b01", slug="sbatch-srun-label-hydra-style-60s-gap-after-step-2000-completed", file="out.log",
      how=f"case_b01: {SB}, Hydra-style logging; after step 2000 an operator ran 'scontrol suspend' on the job and "
          "'scontrol resume' 60 s later; the job continued and completed; the job's output file, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=6, job_nodes=["lab31n1", "lab31n2"],
      why="Between the step-2000 evaluation (11:27:48) and step 2100 (11:28:49) there is a one-minute gap (that window "
          "reports 313 samples/s), after which training runs at its earlier ~19k samples/s to 'Training finished at step "
          "6000' with all checkpoints saved: a pause, not a fault; the job completed."),
]
ENTRIES += [
 dict(case="b02", slug="sbatch-srun-espnet-style-6-epochs-completed",
      how="case_b02: sbatch -N2 + srun (no --label), ESPnet-style; after step 2000 the cluster's slurmctld was stopped "
          "(SIGTERM) and started again 20 s later, which the job does not see; the job completed; the job's output file, "
          "unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=6,
      why="Six epochs at a train_time of 0.010-0.022 s (three isolated windows at 0.033-0.035), epoch results with improving valid.acc, a saved model "
          "every epoch and 'The training was finished at 6 epochs': a healthy run."),
 dict(case="b03", slug="sbatch-srun-label-timm-style-lab31n2-draining-after-job-completed",
      how=f"case_b03: {SB}, timm train.py style; the job script prints 'sinfo -N -n $SLURM_JOB_NODELIST' before and after "
          "srun; in epoch 3 an administrator set task 1's node lab31n2 to DRAIN ('scheduled maintenance: BMC firmware "
          "update'), which lets running jobs finish; the job completed; the job's output file, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=3, job_nodes=["lab31n1", "lab31n2"],
      why="Twelve epochs train normally to '*** Best metric', and the closing sinfo shows lab31n2 'draining' for "
          "scheduled maintenance: an administrative drain that let the job finish, not a failure."),
 dict(case="b04", slug="sbatch-srun-label-levanter-style-cancelled-due-to-time-limit-sigterm-received",
      how=f"case_b04: {SB} --time=2, Levanter-style, a SIGTERM handler that saves a checkpoint and exits, checkpoints every "
          "2000; 100000 steps, so the job reaches its 2-minute limit (the handler's save of step 10459 happened on disk, "
          "but srun had already stopped forwarding output); the job's output file, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, checkpoints=5,
      why="'*** JOB 4 ON lab31n1 CANCELLED AT 2026-11-25T11:27:18 DUE TO TIME LIMIT ***' ends a healthy run at step "
          "~10400 of 100000, followed by the program's 'Received SIGTERM; will save a checkpoint': Slurm's time limit "
          "ended it."),
 dict(case="b05", slug="sbatch-srun-label-ray-worker-style-step-cancelled-at-2568-checkpoint-saved-exiting",
      how=f"case_b05: {SB} (-w lab31n3,lab31n4, --requeue --open-mode=append), Ray-Train-worker style, a SIGTERM handler "
          "that saves a checkpoint and exits 0, --resume; after step 2500 a job in partition urgent (PriorityTier 10) on "
          "the same nodes preempted it (PreemptMode=REQUEUE, GraceTime 15). As run: the handler saved and exited within "
          "the grace time, the batch script ended with 0 and Slurm recorded the job COMPLETED instead of requeueing it, so "
          "training stopped at step 2568 of 6000; the job's output file, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, checkpoints=3, job_nodes=["lab31n3", "lab31n4"],
      why="A healthy run (12k samples/s) is cut at step ~2568 of 6000 by 'slurmstepd-lab31n3: error: *** STEP 8.0 ON "
          "lab31n3 CANCELLED AT 2026-11-25T11:34:55 ***', both ranks report 'Received SIGTERM ... saving checkpoint' and "
          "'exiting for preemption', and the job ends: Slurm stopped it, with a checkpoint to resume from."),
 dict(case="b06", slug="sbatch-srun-label-ignite-style-dataloader-workers-26-epochs-completed",
      how=f"case_b06: {SB} --mem=900M, Ignite-style, 2 persistent DataLoader workers per rank that keep a 4 KiB upsampled "
          "copy of every sample they load (meant to grow into a cgroup OOM; the caches, keyed by sample index, levelled "
          "off below the limit) -> the job completed; the job's output file, unedited (the OOM was redone as b13)",
      anomaly="NONE", category=None, requeue=None,
      why="26 epochs at 8-18k samples/s, validation every epoch and 'Engine run complete. Time taken: "
          "00:01:44.688', no warning or error: a healthy run."),
 dict(case="b07", slug="sbatch-array-task-1-srun-label-opennmt-style-loss-nan-at-step-2500", file="out.log",
      how="case_b07: sbatch --array=0-1 (-N1 -n2 per task) + srun --label, OpenNMT-py-style ('[time INFO] Step  N/ 4000; "
          "acc: ..; ppl: ..; xent: ..', validation and 'Saving checkpoint' lines) sweep over a logit-temperature schedule; "
          "task 1's config anneals the temperature to 0 at step 2500 (a configuration error) -> logits divided by 0, nan "
          "loss, FloatingPointError on both ranks; task 1's output file, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, checkpoints=2, job_nodes=["lab31n2"],
      why="xent creeps up from 0.09 to 0.21 by step 2400 and both ranks then raise 'FloatingPointError: Loss is nan at step "
          "2500, stopping training' (srun: 'task 0/1: Exited with exit code 1'); the header shows this sweep task's "
          "temp_anneal_to=2500: a configuration bug that recurs on every run."),
 dict(case="b07", slug="sbatch-array-task-0-srun-label-opennmt-style-4000-steps-completed", file="out0.log",
      how="case_b07: sbatch --array=0-1 (-N1 -n2 per task) + srun --label, OpenNMT-py-style sweep; task 0 (no temperature "
          "annealing) trained to the end; task 0's output file, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4, job_nodes=["lab31n1"],
      why="Steps 100-4000 with accuracy rising to ~99%, validation every 1000 steps, four checkpoints and 'Training "
          "finished': a healthy sweep task."),
 dict(case="b12", slug="sbatch-srun-label-kill-on-bad-exit-colossalai-style-tcpstore-eaddrinuse-port-42653",
      how=f"case_b12: {SB} --kill-on-bad-exit=1, ColossalAI-style (rich-like 'colossalai - colossalai - INFO:' lines); a "
          "stale process from an earlier run still listened on the job's MASTER_PORT 42653 (0.0.0.0) on the host -> "
          "rank 0's TCPStore server cannot bind, srun kills task 1; the job's output file, unedited",
      anomaly="CRASH", category="NETWORK", requeue=True, culprit_nodes=["lab31n1"], job_nodes=["lab31n1", "lab31n2"],
      why="Rank 0 on lab31n1 fails in init_process_group with 'DistNetworkError: The server socket has failed to listen "
          "on any local network address. port: 42653 ... EADDRINUSE, message: address already in use' and srun then "
          "terminates task 1: the rendezvous port is taken on that node, so the job cannot start there."),
]
ENTRIES += [
 dict(case="a10", slug="torchrun-max-restarts-opennmt-style-rank1-exitcode-minus-9-restart-resumes-step-1500-completes",
      how=f"case_a10 (second attempt, see README): torchrun --max-restarts 1 --nproc-per-node 2 (c10d rendezvous on "
          "localhost), OpenNMT-py-style, checkpoints every 500 with --resume; after the step-1500 checkpoint rank 1 was "
          "SIGKILLed from outside; torchrun restarted the worker group, which restored step 1500 and finished; out.log, "
          "unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=10,
      why="Rank 1 dies ('failed (exitcode: -9) local_rank: 1', rank 0 'Connection reset by peer') but torchrun's restart "
          "brings both ranks back ('Loading checkpoint from .../model_step_1500.pt', 'Resuming from step 1500') and the "
          "run trains on to 'Training finished' at step 5000: a worker failure that the job recovered from."),
 dict(case="a12", slug="torchrun-fastai-style-save-model-1800-permissionerror-errno-13",
      how=f"case_a12: {TRN} run without CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH (setpriv bounding set, so file modes apply "
          "as for a normal user), fastai-style table, SaveModelCallback-like silent saves every 600 steps to models/; "
          "after models/model_1200.pth the directory was chowned to another user (nobody) with mode 755 -> EACCES at the "
          "step-1800 save; out.log, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True,
      why="After six normal epochs rank 0 dies with \"PermissionError: [Errno 13] Permission denied: "
          "'models/model_1800.pth'\" (earlier saves into the same directory had worked) and rank 1 only sees 'Connection "
          "closed by peer': the checkpoint directory became unwritable, a file-system permission problem."),
 dict(case="a13", slug="torchrun-yolo-classify-style-dataloader-worker-killed-by-signal-killed-epoch-6",
      how=f"case_a13: {TRN}, Ultralytics-YOLO-classify style, 2 persistent DataLoader workers per rank; early in epoch 6 "
          "one of rank 1's DataLoader workers was SIGKILLed from outside; out.log, unedited",
      anomaly="CRASH", category="NODE", requeue=True,
      why="Rank 1 fails with 'RuntimeError: DataLoader worker (pid 14694) is killed by signal: Killed.' / 'exited "
          "unexpectedly' and rank 0 then sees 'Connection closed by peer': a worker process killed by SIGKILL from "
          "outside the program, which on a training host is almost always the kernel's OOM killer."),
 dict(case="b08", slug="sbatch-time2-signal-usr1-srun-label-fastai-style-self-requeue-twice-cancelled-due-to-job-requeue-completes",
      how="case_b08: sbatch -N2 --time=2 --signal=USR1@40 --requeue --open-mode=append + srun --label, fastai-style "
          "table; a SIGUSR1 handler saves a checkpoint and runs 'scontrol requeue' on its own job; --resume; the job was "
          "requeued twice (steps 2716 and 5958) and the third run completed; the job's output file, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=2, job_nodes=["lab31n1", "lab31n2"],
      why="Each run ends with 'SIGUSR1 received: will save model and requeue', 'checkpoint for step N written; requeued "
          "job 12' and '*** JOB 12 ... CANCELLED ... DUE TO JOB REQUEUE ***', the next run resumes at the following "
          "epoch, and restart 2 trains to epoch 14 and 'srun exited 0': planned self-requeues, the job finished."),
]
ENTRIES += [
 dict(case="b09", slug="sbatch-srun-label-colossalai-style-silent-after-step-1500", file="kept.log",
      how=f"case_b09: {SB}, ColossalAI-style (rich-like 'colossalai - colossalai - INFO:' lines, tqdm epoch bar, "
          "'[step N] loss: .., throughput: ..' prints), process-group timeout 1800 s; after step 1500 task 1 (rank 1) was "
          "SIGSTOPped; kept.log is the job's output file copied after 150 s without a new line (then scancel)",
      anomaly="HANG", category=None, requeue=True, checkpoints=1, silence_s=150, job_nodes=["lab31n1", "lab31n2"],
      why="A healthy run (15-25k samples/s, ~10 ms steps) logs '[step 1500]' and then nothing for 150 s while the job is "
          "still running, with no error from either rank: the job went silent mid-training, i.e. hung."),
 dict(case="b10", slug="sbatch-mem1000-srun-label-rich-style-memory-86-percent-warnings-6000-steps-done",
      how=f"case_b10: {SB} --mem=1000M, rich-console logging; each rank grows an in-memory feature cache (48 MiB per "
          "logged step) while its job cgroup is under 84% of the limit and would evict above 90%, and reports its cgroup "
          "usage (WARNING above 85%); no OOM, the run completes; the job's output file, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=6, job_nodes=["lab31n1", "lab31n2"],
      why="Memory climbs to 844-859 MiB of 1000 MiB (84-86%) and rank 1 logs repeated WARNING 'host memory ... (86%)' "
          "lines, but it stays flat there, throughput holds (rising to 22-25k samples/s) and the run ends with 'done: "
          "6000 steps in 65.8s': memory pressure without a failure."),
 dict(case="b11", slug="sbatch-srun-label-yolo-classify-style-epoch-rate-125-to-55-it-per-s-from-epoch-5",
      how=f"case_b11: {SB} (-w lab31n1,lab31n2), Ultralytics-YOLO-classify style, each task pinned to CPU $SLURM_PROCID "
          "(taskset); from epoch 4 another Slurm job on lab31n2 ran a CPU-bound process pinned to CPU 1 (the same CPU as "
          "task 1) until the end (a noisy neighbour); the job's output file, unedited",
      anomaly="STRAGGLER", category=None, requeue=True,
      why="The per-epoch bars finish 312/312 at 118-129 it/s (2 s per epoch) in epochs 1-4 and at 49-61 it/s (5-6 s) in "
          "every epoch from 6 to 12, with no error: a sustained ~2.2x slowdown, although all 12 epochs complete."),
 dict(case="b13", slug="sbatch-mem900-srun-label-ignite-style-dataloader-worker-killed-oom-kill-event-epoch-3",
      how=f"case_b13 (b06 redone): {SB} --mem=900M, Ignite-style, 2 persistent DataLoader workers per rank that keep a "
          "10 KiB upsampled copy of every sample they load -> the job's memory cgroups on both nodes OOM-kill a "
          "DataLoader worker in epoch 3; the job's output file, unedited",
      anomaly="CRASH", category="NODE", requeue=True, job_nodes=["lab31n1", "lab31n2"],
      why="Ignite reports 'Engine run is terminating due to exception: DataLoader worker (pid(s) 24193) exited "
          "unexpectedly', rank 1 'DataLoader worker (pid 24192) is killed by signal: Killed.', and slurmstepd 'Detected 1 "
          "oom-kill event(s) in StepId=17.0' on lab31n1 and lab31n2 with 'task 0: Out Of Memory': the out-of-memory "
          "killer ended the job."),
 dict(case="c01", slug="2host-torchrun-levanter-style-rate-50-100-to-18-39-it-per-s-from-step-1600",
      how=f"case_c01: {H2}, Levanter-style logging; after step 1500 gpu-b31-02 dropped 5% of the packets it received from "
          "gpu-b31-01 at random (iptables -m statistic --mode random --probability 0.05 -j DROP, the netem-less way to "
          "lose packets) until the run ended; out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True, checkpoints=4,
      why="'Progress on:train' reports 50-100 it/s up to step 1600, then 18-39 it/s (one window 8.8) for every window "
          "from 1700 to 4000 with no error; the run still completes ('Training complete. 4000 steps in 0:02:01'): a "
          "sustained 2-3x slowdown."),
 dict(case="c02", slug="2host-torchrun-store-client-timed-out-connecting-gpu-b31-01-rendezvous-timeout",
      how=f"case_c02: {H2} with --rdzv-conf join_timeout=120, Hydra-style workers (never started); before the start "
          "gpu-b31-01's firewall rejected (iptables REJECT --reject-with tcp-reset) every connection from gpu-b31-02 to "
          "the rendezvous port 42682 -> host 2's agent cannot connect to the c10d store (retries, times out), host 1's "
          "agent waits for a second node until the join timeout; out.log, unedited",
      anomaly="CRASH", category="NETWORK", requeue=True,
      why="gpu-b31-02's torchrun logs 'The client socket has timed out after 60000ms while trying to connect to "
          "(gpu-b31-01, 42682)' twice and fails with 'RendezvousConnectionError: The connection to the C10d store has "
          "failed', while the other agent ends with 'RendezvousTimeoutError': the nodes cannot reach each other's "
          "rendezvous endpoint, a network problem."),
 dict(case="c03", slug="2host-torchrun-ray-worker-style-silent-after-step-1500-both-ranks-gloo-timeout",
      how=f"case_c03: {H2}, Ray-Train-worker style, --pg-timeout 60; after step 1500 gpu-b31-01's firewall dropped "
          "everything from gpu-b31-02 (iptables INPUT DROP); both ranks' gloo recv operations time out, then the agents "
          "lose the c10d store; out.log, unedited",
      anomaly="HANG", category=None, requeue=True, checkpoints=1,
      why="After step 1500 nothing is logged for a minute, then both ranks (ip=10.231.7.11 and 10.231.7.12) fail with "
          "'Timed out waiting 60000ms for recv operation to complete', followed by store-connection errors in the agents: "
          "a collective timeout on both sides, i.e. the job hung."),
]
ENTRIES += [
 dict(case="c04", slug="2host-torchrun-gpu-b31-01-temporary-failure-in-name-resolution-store-connection-failed",
      how=f"case_c04: {H2} with --rdzv-conf join_timeout=120, ESPnet-style workers (never started); gpu-b31-02's hosts "
          "file lacks gpu-b31-01 (and the namespace has no reachable DNS), so the rendezvous host name does not resolve "
          "there -> host 2's agent cannot create its store client, host 1's agent waits for a second node until the join "
          "timeout; out.log, unedited",
      anomaly="CRASH", category="NETWORK", requeue=True,
      why="Repeated 'The IPv6 network addresses of (gpu-b31-01, 42684) cannot be retrieved (gai error: -3 - Temporary "
          "failure in name resolution)', then 'The client socket has timed out ... (gpu-b31-01, 42684)', "
          "'RendezvousConnectionError: The connection to the C10d store has failed' and, on the other agent, "
          "'RendezvousTimeoutError': the rendezvous host cannot be resolved/reached, a network (name service) fault."),
 dict(case="c05", slug="2host-torchrun-opennmt-style-futurewarnings-validation-5000-steps-finished",
      how=f"case_c05: {H2}, OpenNMT-py-style, FutureWarnings, validation and checkpoints every 1000 steps; nothing "
          "injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=5,
      why="c10d 'hostname of the client socket cannot be retrieved' warnings and FutureWarnings at start, then 50 steady "
          "step lines (~20-25k samples/s), validation accuracy rising to ~100%, five checkpoints and 'Training "
          "finished': a healthy run."),
]
ENTRIES += [
 dict(case="c06", slug="2host-torchrun-timm-style-connection-closed-by-peer-10-231-7-12-then-pair-closure-timeout",
      how=f"case_c06: {H2}, timm train.py style, --pg-timeout 60; in epoch 4 gpu-b31-02's firewall started rejecting "
          "every TCP segment from gpu-b31-01 with a reset (iptables INPUT REJECT --reject-with tcp-reset) -> rank 0 on "
          "gpu-b31-01 sees its gloo connection reset at once, rank 1 (alive) times out 60 s later; out.log, unedited",
      anomaly="CRASH", category="NETWORK", requeue=True, checkpoints=1,
      why="Mid-epoch rank 0 fails with 'Connection closed by peer [10.231.7.12]:35477' although that peer had not "
          "crashed: rank 1 keeps waiting and only a minute later fails with 'Application timeout caused pair closure': a "
          "TCP connection between the hosts was torn down, a network fault."),
]
ENTRIES += [
 dict(case="c07", slug="2host-torchrun-rich-style-silent-after-step-1500-c10d-store-socket-timed-out", file="kept.log",
      how=f"case_c07: {H2}, rich-console logging, process-group timeout 1800 s; after step 1500 both hosts dropped "
          "everything from each other (iptables INPUT DROP on both: a network partition); kept.log is out.log copied "
          "after 150 s without a new line (then every process of the run was killed)",
      anomaly="HANG", category="NETWORK", requeue=True, checkpoints=1, silence_s=150,
      why="Training logs ~24k samples/s up to 'step 1500/5000' at 11:57:32 and then stops; the only later lines are the "
          "torchrun agent's c10d store socket 'waitForInput ... timed out after 60000ms' at 11:58:33, after which the job "
          "sits silent: both the training traffic and the agents' store connection stalled, a network partition."),
]
ENTRIES += [
 dict(case="a09", slug="torchrun-colossalai-style-fp16-overflow-skipped-steps-loss-scale-adjusted-completes",
      how=f"case_a09 (second run, see README): {TRN}, ColossalAI-style (rich-like 'colossalai - colossalai - INFO:' "
          "lines, tqdm 'Epoch [e/17]' bar, '[step N] loss: .., throughput: ..' prints), dynamic loss scaling with fp16 "
          "gradient overflow checks (start 65536, doubled after 200 clean steps, halved and the step skipped on "
          "overflow); evaluation and checkpoints every 1000 steps; completes; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=5,
      why="Fifteen 'Overflow detected in fp16 gradients, skipping step N; loss scale reduced from X to X/2' lines (X "
          "between 1048576 and 8388608) alternate with 'No overflow for 200 steps, loss scale increased', while throughput stays at "
          "20-25k samples/s, evaluation reaches 100% and 'Finish training, total time 42.5 s': normal mixed-precision "
          "loss scaling, a healthy run."),
]
ENTRIES += [
 dict(case="b14", slug="sbatch-srun-label-hydra-style-task-1-segmentation-fault-after-step-1900",
      how=f"case_b14: {SB}, Hydra-style; after step 1800 task 1's training process was sent SIGSEGV from outside Slurm (no "
          "handler, no message from the program) -> srun 'task 1: Segmentation fault', rank 0 'Connection reset by peer'; "
          "the job's output file, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=1, job_nodes=["lab31n1", "lab31n2"],
      why="A healthy run (~26k samples/s) is cut after step 1900 by 'srun: error: lab31n2: task 1: Segmentation fault' with "
          "no traceback from rank 1, and rank 0 then fails with 'Connection reset by peer' (a victim): a bare segfault "
          "whose cause the log does not show."),
]
