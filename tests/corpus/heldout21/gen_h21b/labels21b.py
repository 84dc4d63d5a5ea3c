import json, os
P = "GENERATED: torch 2.13.0+cpu (gloo), Python 3.11.7: tests/corpus/heldout21/gen_h21b/"
SL = "Slurm 22.05.8 (private 4-node cluster lab21b on one VM, task/cgroup), "
L = {}
def add(f, case, how, anomaly, category, requeue, why, culprit=(), job_nodes=None, checkpoints=None, silence_s=None):
    e = {"source": P + case + ": " + how, "anomaly": anomaly, "category": category, "requeue": requeue,
         "culprit_nodes": list(culprit), "why": why}
    if job_nodes: e["job_nodes"] = list(job_nodes)
    if checkpoints is not None: e["checkpoints"] = checkpoints
    if silence_s is not None: e["silence_s"] = silence_s
    L["h21b_" + f + ".log"] = e

add("torchrun-hf-tqdm-rank1-dataloader-worker-killed-by-signal", "case_torchrun_hf_rank1_dl_worker_sigkill.sh",
    "torchrun --nproc-per-node 2 of t21.py with HF-Trainer-like dict lines and a tqdm bar, 2 DataLoader workers per rank; "
    "right after step 160 (14:22:31) one DataLoader worker process of rank 1 was SIGKILLed from outside (no memory limit, no OOM); "
    "out.log (torchrun's combined output) unedited",
    "CRASH", "UNKNOWN", True,
    "Rank 1 fails with 'RuntimeError: DataLoader worker (pid 3463) is killed by signal: Killed.' at 164/600 with no OOM or other "
    "cause shown, rank 0's gloo 'Connection closed by peer' and torchrun's SIGTERM of it are victims, and the ChildFailedError root "
    "cause is rank 1: a process killed by a signal the log does not explain.",
    checkpoints=1)
add("sbatch-rank-prefix-dataloader-worker-cache-cgroup-oom-both-nodes", "case_sbatch_rank_dl_worker_cache_cgroup_oom.sh",
    SL + "sbatch -N 2 --mem=1500M -w lab21n[1-2], srun of t21.py per-rank '[time][rank r/w host]' lines, 2 DataLoader workers per "
    "rank whose dataset caches every sample with a 1024-float feature row per token (--cache-samples), so the workers grow until the "
    "job's memory cgroup OOM-kills them (nothing injected from outside: the limit and the growth are real); slurm-3.out unedited",
    "CRASH", "NODE", True,
    "After step 180 both ranks fail with 'DataLoader worker (pid N) is killed by signal: Killed.' and both slurmstepds report "
    "'Detected 1 oom-kill event(s) in StepId=3.0 ... killed by the cgroup out-of-memory handler' with srun 'task 0: Out Of Memory': "
    "memory exhaustion (OOM killer) is NODE by the policy; both nodes alike, so no single culprit.",
    job_nodes=["lab21n1", "lab21n2"], checkpoints=1)
add("sbatch-srun-l-json-temp-anneal-to-zero-nan-anomaly-mode", "case_sbatch_srun_l_json_temp_anneal_nan_anomaly.sh",
    SL + "sbatch -N 2 -w lab21n[3-4], `srun -l` of t21.py JSON lines with torch.autograd.set_detect_anomaly(True); the logit "
    "temperature anneals by 0.004 per step with a floor of 0 (--temp-min 0, a configuration slip), so at step 250 the logits are "
    "divided by zero; nothing injected from outside; slurm-5.out unedited",
    "CRASH", "APPLICATION", False,
    "Both ranks print anomaly mode's 'Error detected in LogSoftmaxBackward0' warning and fail in loss.backward() with "
    "'RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output.' after step 225 (grad_norm rising "
    "to 6.7 before): a NaN loss from the training code/configuration, which a requeue would reproduce.",
    job_nodes=["lab21n3", "lab21n4"], checkpoints=2)
add("sbatch-srun-kill-on-bad-exit-json-rank1-lock-order-deadlock-gloo-send-timeout", "case_sbatch_json_rank1_lock_deadlock_gloo_timeout.sh",
    SL + "sbatch -N 2 -w lab21n[1-2], `srun -K` (kill on bad exit) of t21.py JSON lines with a 60 s process-group timeout; after the "
    "step-150 checkpoint each rank starts a background upload thread with a lock-order bug against the logging code; on rank 1 "
    "(lab21n2) the uploader holds its lock 6 s and rank 1's main thread and uploader deadlock in Python (no collective called on "
    "rank 1), rank 0 waits in all_gather; slurm-6.out unedited. A first run (job 4, 2 s hold) never deadlocked and was cancelled, not kept",
    "HANG", None, True,
    "Steps are logged every ~2-3 s up to step 150 and its checkpoint (14:24:56), then nothing until rank 0's all_gather fails with "
    "gloo 'Timed out waiting 60000ms for send operation to complete' and srun terminates rank 1, which printed no error: a "
    "collective timeout, the job hung; the log does not show why rank 1 stopped.",
    job_nodes=["lab21n1", "lab21n2"], checkpoints=1)
add("mp-spawn-rank-prefix-vocab-from-partition-ddp-param-shape-mismatch", "case_mpspawn_rank_vocab_from_partition_ddp_shape_mismatch.sh",
    "torch.multiprocessing.spawn of 2 ranks (t21.py --spawn 2) on one host (UTS hostname dgx-b07 via unshare), per-rank "
    "'[time][rank r/w host]' lines; each rank reads its own data partition and sizes the vocabulary from the largest token id it "
    "finds (--vocab-from-data): 8192 on rank 0, 8000 on rank 1; nothing injected from outside; out.log unedited",
    "CRASH", "APPLICATION", False,
    "The ranks log 'vocab size from data: 8192' and '8000', and DDP construction fails in process 1 with 'RuntimeError: [1]: "
    "params[0] in this process with sizes [8000, 64] appears not to match sizes of the same param in process 0' "
    "(ProcessRaisedException): a model/config mismatch in the code that fails again on requeue; the gloo hostname warnings are noise.")
add("sbatch-rank-prefix-node-drained-slurmd-restarted-warnings-completes-healthy", "case_sbatch_rank_drain_and_slurmd_restart_healthy.sh",
    SL + "sbatch -N 2 -w lab21n[1-2], srun of t21.py per-rank lines with 3 DataLoader workers per rank (worker-count UserWarning) "
    "and deprecated torch.cuda.amp wrappers (FutureWarnings); after step 200 lab21n2 was drained (`scontrol update state=drain`, "
    "14:25:54) and lab21n1's slurmd was killed and restarted under the job (14:26:17); the job finished; slurm-7.out unedited",
    "NONE", None, None,
    "Apart from FutureWarnings about torch.cuda.amp and the DataLoader worker-count UserWarning, both ranks log steady steps "
    "(~85-240 ms/it) with three checkpoints to 'Training completed: 700 steps in 98.1s' and 'srun finished with exit code 0'.",
    job_nodes=["lab21n1", "lab21n2"], checkpoints=3)
add("2host-torchrun-pdsh-rank-prefix-gzip-ckpt-32-41s-saves-healthy", "case_2host_rank_gzip_ckpt_long_save_healthy.sh",
    "torchrun --nnodes 2 --nproc-per-node 1 on two network-namespace hosts (hpc-c042, hpc-c043; rendezvous hpc-c042:29421), output "
    "prefixed with the host name as pdsh does, t21.py per-rank lines; rank 0 writes gzip-9 checkpoints with a 600 MiB payload at "
    "steps 200 and 400 (32 s and 41 s, no output meanwhile, rank 1 waits in the barrier); nothing injected; out.log unedited",
    "NONE", None, None,
    "The only pauses (14:27:16-14:27:48 and 14:28:34-14:29:15) are bracketed by 'saving checkpoint ...checkpoint-200.pt.gz' / "
    "'checkpoint saved ... (595.0 MiB in 31.9s)' and the same for step 400; steps resume at the earlier rate and the run ends "
    "'Training completed: 500 steps'; the c10d hostname warnings are noise.",
    job_nodes=["hpc-c042", "hpc-c043"], checkpoints=2)
add("srun-rank-prefix-job-cpu-quota-both-ranks-throughput-drop", "case_srun_rank_job_cpu_quota_all_ranks_slow.sh",
    SL + "srun -N 2 -w lab21n[3-4] directly (no batch script) of t21.py per-rank lines with ms/it and tok/s; right after the "
    "step-250 checkpoint (14:28:21) both tasks were moved into one cgroup-v1 cpu group with a 30% quota until the end (every rank "
    "alike); other cases shared the VM; out.log (srun's output) unedited",
    "STRAGGLER", None, True,
    "Both ranks go from ~110-240 ms/it (8600-18200 tok/s) up to step 250 to ~420-680 ms/it (3000-4900 tok/s) for all of the "
    "remaining 400 steps: a sustained throughput drop of the whole job (both ranks alike, so no culprit), although it finished.",
    job_nodes=["lab21n3", "lab21n4"], checkpoints=2)
add("torchrun-json-shard-per-epoch-rank1-indexerror", "case_torchrun_json_rank1_shard_rotation_indexerror.sh",
    "torchrun --nproc-per-node 2 of t21.py JSON lines with --shard-per-epoch (rank r reads files[epoch*world+r], no wrap-around) "
    "over 5 shards: at the start of epoch 2 (step 200) rank 1 indexes files[5]; nothing injected; out.log unedited",
    "CRASH", "APPLICATION", False,
    "At the epoch-2 boundary rank 1 fails in loader() at 'fl = [files[epoch * world + rank]]' with 'IndexError: list index out of "
    "range' (rank 0's 'Connection closed by peer' and torchrun's SIGTERM are victims; ChildFailedError root cause rank 1): a "
    "code bug that recurs on requeue.",
    checkpoints=2)

add("sbatch-json-lab21n4-rank1-fwd-time-straggler-noisy-neighbour", "case_sbatch_json_lab21n4_taskset_hog_straggler.sh",
    SL + "sbatch -N 2 -w lab21n[3-4], srun of t21.py JSON lines with per-rank forward times (fwd_ms_by_rank); after the step-200 "
    "checkpoint (14:30:35) lab21n3's task was pinned to CPU 0, lab21n4's task to CPU 1 and two busy loops started on CPU 1; they "
    "barely mattered (each in its own scheduler autogroup) until their autogroups were given nice -10 by hand at 14:31:37-14:31:45 "
    "(the script was not changed for that step), after which lab21n4's task got a small share of its CPU until the end; other "
    "cases shared the VM; slurm-9.out unedited",
    "STRAGGLER", None, True,
    "From step 425 to the end (300 steps) tokens_per_s fall from ~4500-15700 to ~1340-1450 and step_ms rise to ~1410-1530, while "
    "fwd_ms_by_rank shows rank 1 (started on lab21n4) at 245-280 ms against rank 0's 32-56 ms in every interval (before, the two "
    "were within a few ms): one persistently slow rank on lab21n4.",
    culprit=["lab21n4"], job_nodes=["lab21n3", "lab21n4"], checkpoints=3)

add("sbatch-srun-l-hf-lab21n4-slurmd-dead-node-failure", "case_sbatch_srun_l_hf_lab21n4_slurmd_dead_node_fail.sh",
    SL + "sbatch -N 2 -w lab21n[3-4] --no-requeue, `srun -l` of t21.py HF-like dict lines (tqdm bar on stderr); right after the "
    "step-200 checkpoint (14:40:33) lab21n4's slurmd was SIGKILLed and left down (its slurmstepd and task kept running); slurmctld "
    "marked lab21n4 down (not responding) and ended the job NODE_FAIL; slurm-10.out unedited; the slurmd was restarted after",
    "CRASH", "NODE", True,
    "Training and checkpoints (100, 200, 300) proceed normally until 'srun: error: Node failure on lab21n4' and "
    "'slurmstepd-lab21n3: error: *** JOB 10 ON lab21n3 CANCELLED AT 2026-11-24T14:40:59 DUE TO NODE FAILURE ***': a node "
    "failure; requeue excluding lab21n4.",
    culprit=["lab21n4"], job_nodes=["lab21n3", "lab21n4"], checkpoints=3)

add("sbatch-srun-l-rank-prefix-2min-time-limit-sigterm-ckpt-output-lost", "case_sbatch_srun_l_rank_sigterm_ckpt_time_limit.sh",
    SL + "sbatch -N 2 --time=2 -w lab21n[1-2], `srun -l` of t21.py per-rank lines with --sigterm-save; nothing injected: the "
    "2-minute limit is real (job 11, started 14:41:27, cancelled 14:43:49). The program did catch the limit's SIGTERM and rank 0 saved "
    "checkpoint-656.pt at 14:43:49 (seen on disk), but its lines about it never reached the log: srun had already aborted the "
    "step and stopped forwarding output, and the batch script's last echo was killed; slurm-11.out unedited",
    "CRASH", "SCHEDULER", True,
    "Steps run normally (~200 ms/it) to step 650 of 3000, then 'srun: Job step aborted' and slurmstepd-lab21n1 "
    "'*** STEP 11.0 ... CANCELLED AT 2026-11-24T14:43:49 DUE TO TIME LIMIT ***' / '*** JOB 11 ... DUE TO TIME LIMIT ***': "
    "the scheduler ended a healthy job at its time limit; a requeue can resume from the checkpoints.",
    job_nodes=["lab21n1", "lab21n2"], checkpoints=3)

add("torchrun-hf-tqdm-long-eval-pauses-completes-healthy", "case_torchrun_hf_long_eval_pause_healthy.sh",
    "torchrun --nproc-per-node 2 of t21.py HF-Trainer-like dict lines and a tqdm bar; at steps 250 and 500 an evaluation over 2500 "
    "batches of 256 windows runs with no output until its eval dict (280 s and 186 s here: other cases, among them busy loops, "
    "shared the 2 CPUs during the first); nothing injected; out.log unedited. A first try under `unshare --uts` with a host name "
    "that did not resolve was stopped and not kept",
    "NONE", None, None,
    "Both long gaps end in eval dicts that account for them ('eval_runtime': 279.69 at 250/600, 186.04 at 500/600), "
    "each followed by a checkpoint save and training at the earlier pace, and the run ends with 'Training completed.' and "
    "the train_runtime summary at 600/600.",
    checkpoints=2)

add("sbatch-srun-l-hf-resume-checkpoint-corrupted-miniz-invalid-header", "case_sbatch_srun_l_hf_resume_corrupted_ckpt.sh",
    SL + "a first sbatch job (12, not kept) trained 200 steps and saved checkpoints 100 and 200; then 2 MiB in the middle of "
    "checkpoint-200.pt were overwritten with zeros (dd conv=notrunc: a damaged checkpoint file); the kept job 13 (sbatch -N 2 "
    "-w lab21n[3-4], `srun -l` of t21.py HF-like lines with --resume) fails in torch.load on both ranks; slurm-13.out unedited. "
    "The batch script's final 'srun exit code 0' is wrong because its $(date) ran before $? was read (a bug of the script, kept)",
    "CRASH", "STORAGE", True,
    "Both ranks log 'loading checkpoint .../checkpoint-200.pt' and fail in torch.load with 'PytorchStreamReader failed reading "
    "file data/18: invalid header or archive is corrupted ... your checkpoint file is corrupted', and srun reports both tasks "
    "exited with code 1 before any step: the checkpoint on disk is damaged (not a code or config error); a requeue can resume "
    "from the earlier checkpoint once the bad one is set aside.",
    job_nodes=["lab21n3", "lab21n4"])

add("torchrun-json-deprecation-warnings-metrics-push-refused-retried-healthy", "case_torchrun_json_warnings_metrics_retry_healthy.sh",
    "torchrun --nproc-per-node 2 of t21.py JSON lines with the deprecated torch.cuda.amp wrappers (FutureWarnings from both ranks), "
    "4 DataLoader workers per rank (worker-count UserWarning) and a metrics push to 127.0.0.1:9 where nothing listens (each push "
    "retried 3 times, a WARNING per failure, disabled after 3 failed pushes); nothing injected; out.log unedited",
    "NONE", None, None,
    "Besides the FutureWarnings, the DataLoader worker-count UserWarning and nine 'metrics push ... failed: "
    "ConnectionRefusedError(111, 'Connection refused'); retrying' WARNINGs ending in 'metrics push disabled after 3 failed "
    "pushes; training continues', steps run on with falling loss and two checkpoints to 'Training completed: 500 steps in 70.7s'.",
    checkpoints=2)

add("mp-spawn-hf-tqdm-rank1-lock-deadlock-silent-after-ckpt", "case_mpspawn_hf_rank1_lock_deadlock_silent.sh",
    "torch.multiprocessing.spawn of 2 ranks (t21.py --spawn 2, UTS hostname ml-train-3) with HF-Trainer-like dict lines and a tqdm "
    "bar, default 30-minute process-group timeout; after the step-200 checkpoint rank 1's upload thread held its lock 6 s "
    "(--upload-slow-rank 1) and at the next logging step (210) rank 1's main thread and uploader deadlocked in Python, rank 0 "
    "waiting in all_gather; kept.log is out.log copied at 14:48:00 after 150 s without a new byte (last write 14:45:30, the "
    "tqdm refresh at 210/800), then the run was killed; unedited",
    "HANG", None, True,
    "Dicts are printed every ~1 s and the bar advances ~9 it/s up to the step-200 checkpoint and the upload lines at 14:45:24; "
    "the bar's last refresh shows 210/800 and then nothing more is written for 150 s, with no error: the job stopped making "
    "progress (the log does not show why; only one 'upload ... done' of the two uploads is printed).",
    checkpoints=1, silence_s=150)

add("sbatch-srun-l-json-job-suspended-45s-resumed-completes-healthy", "case_sbatch_srun_l_json_suspended_45s_resumed_healthy.sh",
    SL + "sbatch -N 2 -w lab21n[1-2], `srun -l` of t21.py JSON lines; right after step 200 an admin suspended the job "
    "(`scontrol suspend 14`, 14:47:21: every task SIGSTOPped) and resumed it 45 s later (`scontrol resume`, 14:48:06); "
    "nothing else injected; slurm-14.out unedited",
    "NONE", None, None,
    "Steps are logged every 2-6 s except one 47 s gap between step 200 (14:47:21) and step 225 (14:48:08), after which "
    "training goes on at its pace through the step-250 and step-500 checkpoints to 'Training completed: 500 steps' and "
    "'srun exit code 0': a pause the job recovered from, healthy.",
    job_nodes=["lab21n1", "lab21n2"], checkpoints=2)
add("sbatch-srun-torchrun-2x2-hf-tqdm-completes-healthy", "case_sbatch_srun_torchrun_2x2_hf_healthy.sh",
    SL + "sbatch -N 2 -w lab21n[3-4], srun of torchrun (--nnodes 2 --nproc-per-node 2, c10d rendezvous) on each node: 4 ranks "
    "of t21.py HF-like dict lines with a tqdm bar (written as one line at the end, as srun forwards \\r-separated refreshes); "
    "nothing injected; slurm-15.out unedited",
    "NONE", None, None,
    "After torchrun's OMP_NUM_THREADS notices, 4 ranks join (world_size 4), loss dicts fall from 6.2 to ~4.8, two checkpoints "
    "are saved and the run ends with 'Training completed.' and the train_runtime summary, then the script's 'done'.",
    job_nodes=["lab21n3", "lab21n4"], checkpoints=2)

add("torchrun-rank-prefix-gzip-ckpt-tmpfs-full-enospc", "case_torchrun_rank_gzip_ckpt_tmpfs_enospc.sh",
    "torchrun --nproc-per-node 2 of t21.py per-rank lines; rank 0 writes gzip-9 checkpoints with a 100 MiB payload (147 MiB "
    "each) every 100 steps to a 250 MiB tmpfs standing in for a nearly full checkpoint filesystem; the step-200 save runs out "
    "of space; out.log unedited",
    "CRASH", "STORAGE", True,
    "Rank 0's save of checkpoint-200.pt.gz fails in gzip's write and close with 'OSError: [Errno 28] No space left on "
    "device'; rank 1's 'Connection closed by peer' in the barrier and torchrun's SIGTERM are victims (root cause rank 0): "
    "the checkpoint filesystem is full.",
    checkpoints=1)

if __name__ == "__main__":
    out = "/work/wt21b/tests/corpus/heldout21/labels.json"
    have = set(f for f in os.listdir(os.path.dirname(out)) if f.startswith("h21b_"))
    assert have == set(L), (have ^ set(L))
    json.dump(L, open(out, "w"), indent=1, sort_keys=True, ensure_ascii=False); open(out, "a").write("\n")
    print(len(L), "labels")
