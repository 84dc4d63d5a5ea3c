# writes the h22b_ labels into ../labels.json (labels written by hand after reading each kept log)
import json, os
H = os.path.dirname(os.path.abspath(__file__)) + "/.."
PRE = "GENERATED: torch 2.13.0+cpu (gloo), Python 3.11.7: tests/corpus/heldout22/gen_h22b/"
SL = "Slurm 22.05.8 (private 4-node cluster lab22b on one VM, task/cgroup), "
L = {}
def lab(name, case, how, anomaly, category, requeue, why, culprit=(), **kw):
    d = dict(source=PRE + case + ": " + how, anomaly=anomaly, category=category, requeue=requeue,
             culprit_nodes=list(culprit), why=why)
    d.update(kw)
    L[name] = d

lab("h22b_torchrun-loguru-shard-file-missing-open-retried-completes-healthy.log",
    "case_torchrun_loguru_shard_missing_retried_healthy.sh",
    "torchrun --nproc-per-node 2 (c10d rendezvous), t22.py loguru lines; the data shard the job rotates to at step 601 "
    "was moved away before the rotation and moved back 6 s after the first retry warning, an lr spike (x5 for 10 steps "
    "at step 700); out.log (torchrun stdout+stderr) unedited. Irregularity: a first try with a x25 lr spike (loss did "
    "not come back) was not kept; this run overlapped the stop/cont straggler case",
    "NONE", None, None,
    "Both ranks warn 'could not open shard dat/shard2.bin: FileNotFoundError ... retrying' three times, then switch to "
    "the shard and train on at their usual ms/step to step 2000/2000 with checkpoints and 'training finished': caught "
    "and retried errors, a healthy run.",
    checkpoints=5)

lab("h22b_sbatch-srun-deepspeed-rank-lines-lab22n2-stop-cont-throttled-job-slowdown.log",
    "case_sbatch_ds_lab22n2_stopcont_straggler.sh",
    SL + "sbatch -N 2 (lab22n1, lab22n2) with plain srun, t22.py DeepSpeed-like '[Rank N] [host] step=...' lines; from "
    "step 400 rank 1's task on lab22n2 was SIGSTOPped 0.2 s / SIGCONTed 0.2 s in a loop until the end (a throttled "
    "host); slurm-2.out unedited. Irregularities: the first submission (job 1) used an unresolvable master name and "
    "was scancelled at start (not kept); from 18:43:44 another case shared the 2 CPUs, adding to the slowdown",
    "STRAGGLER", None, True,
    "elapsed_time_ms rises from ~30-45 ms (samples_per_sec ~1700-2200) to 70-128 ms (~500-900 samples/s) from step "
    "450 and stays there to the end; both ranks report similar local_ms (DDP waits hide which rank is slow), so it is "
    "a sustained job-wide throughput drop whose node is not shown.",
    job_nodes=["lab22n1", "lab22n2"], checkpoints=3)

lab("h22b_torchrun-pylog-tsv-rows-mmap-shard-truncated-sigbus-both-ranks.log",
    "case_torchrun_tsv_sigbus_truncated_shard.sh",
    "torchrun --nproc-per-node 2, t22.py Python-logging lines (ISO time, thread name) and tab-separated metric rows; "
    "the ranks np.memmap the training shard, which was truncated to 64 KiB under them after step 500; out.log unedited",
    "CRASH", "NODE", True,
    "Both ranks die with 'exitcode : -7 (SIGBUS)' / 'Signal 7 (SIGBUS) received' right after the step-500 checkpoint, "
    "with no Python traceback; a bus error is a host-level fault by the policy (the truncated file that caused it is "
    "not visible in the log).",
    checkpoints=2)

lab("h22b_sbatch-srun-kill-on-bad-exit-kv-eval-handshake-recv-deadlock-gloo-60s-timeout.log",
    "case_sbatch_kv_eval_handshake_deadlock_gloo_timeout.sh",
    SL + "sbatch -N 2 (lab22n3, lab22n4), srun --kill-on-bad-exit=1, t22.py key=value lines, gloo timeout 60 s; at step "
    "600 rank 0 waits in dist.recv for rank 1's eval stats, which rank 1 never sends (a program bug: rank 1 goes on to "
    "the checkpoint barrier); slurm-3.out unedited",
    "HANG", None, True,
    "After 'eval handshake: collecting validation stats' at step 600 nothing happens for 60 s, then rank 0 (in recv) "
    "and rank 1 (in barrier) both fail with gloo 'Timed out waiting 60000ms for recv operation to complete' and srun "
    "cancels the step: a collective timeout, so a hang; the log does not show why the two ranks stopped matching.",
    job_nodes=["lab22n3", "lab22n4"], checkpoints=1)

lab("h22b_sbatch-srun-l-lightning-progress-kept-autograd-graphs-leak-cgroup-oom.log",
    "case_sbatch_lit_keep_graphs_cgroup_oom.sh",
    SL + "sbatch -N 2 --mem=900M (lab22n1, lab22n2), srun -l, t22.py Lightning-like 'Epoch 0: ..%|..|' progress lines; "
    "--keep-graphs (a program bug: every step's loss and logits with their autograd graph and a 1.6 MB buffer kept in a "
    "list) grows memory until the job's cgroup limit; real cgroup OOM kill; slurm-4.out unedited",
    "CRASH", "NODE", True,
    "Progress is normal to 225/3000 and the step-200 checkpoint, then both slurmstepds report 'Detected 1 oom-kill "
    "event(s) in StepId=4.0 ... killed by the cgroup out-of-memory handler' and srun 'lab22n2: task 1: Out Of Memory': "
    "host memory exhaustion (OOM killer) is NODE by the policy; no single node is at fault (both hit the job's limit).",
    job_nodes=["lab22n1", "lab22n2"], checkpoints=1)

lab("h22b_sbatch-srun-pylog-tsv-rows-lab22n2-set-down-mid-job-node-failure.log",
    "case_sbatch_tsv_lab22n2_set_down_node_fail.sh",
    SL + "sbatch -N 2 --no-requeue (lab22n1, lab22n2), plain srun, t22.py Python-logging lines and tab-separated metric "
    "rows; right after the step-800 checkpoint `scontrol update nodename=lab22n2 state=down reason=\"hc: memory ECC "
    "threshold\"` was run under the job (as a health check would); slurm-5.out unedited",
    "CRASH", "NODE", True,
    "Training and checkpoints are normal to step 800, then 'STEP 5.0 ON lab22n1 CANCELLED ... DUE TO NODE FAILURE', "
    "'srun: error: Node failure on lab22n2' and 'JOB 5 ... CANCELLED ... DUE TO NODE FAILURE': the job was lost with "
    "node lab22n2.",
    culprit=["lab22n2"], job_nodes=["lab22n1", "lab22n2"], checkpoints=2)

lab("h22b_sbatch-srun-multi-prog-kv-step-cancelled-on-urgent-job-preemption.log",
    "case_sbatch_multiprog_kv_preempted.sh",
    SL + "sbatch -N 2 --no-requeue (lab22n3, lab22n4) in partition batch, `srun --multi-prog` (one t22.py line per task), "
    "key=value lines; right after the step-600 checkpoint an exclusive job was submitted to the higher-priority "
    "partition `urgent` on lab22n4 (PreemptType=preempt/partition_prio, PreemptMode=REQUEUE, job not requeueable) and "
    "the step was cancelled; slurm-6.out unedited. Irregularity: slurmstepd's line names no reason (no 'DUE TO "
    "PREEMPTION'), and the batch script went on to print 'srun exit 143'",
    "CRASH", "SCHEDULER", True,
    "Training, evals and checkpoints are normal to step 600, then 'slurmstepd-lab22n3: error: *** STEP 6.0 ON lab22n3 "
    "CANCELLED AT ... ***', both tasks 'Terminated' and srun exit 143 (SIGTERM) with no error from the program: Slurm "
    "cancelled the step (here a preemption), a scheduler-side end.",
    job_nodes=["lab22n3", "lab22n4"], checkpoints=2)

lab("h22b_torchrun-loguru-rank1-sigstopped-silent-170s.log",
    "case_torchrun_loguru_rank1_sigstop_silent.sh",
    "torchrun --nproc-per-node 2, t22.py loguru lines (rank 0 prints the step lines), default 30-min gloo timeout; "
    "rank 1 SIGSTOPped right after step 700 (18:46:53); out.log copied to kept.log after 170 s without a new line, "
    "then the run was killed; kept.log unedited",
    "HANG", None, True,
    "Step lines come every ~1.6-2 s (32-37 ms/step) up to 'step 700/3000' and then nothing for 170 s with no error or "
    "exit: the job stopped making progress, and the log does not show why.",
    checkpoints=1, silence_s=170)

lab("h22b_torchrun-kv-debug-dump-flood-fills-scratch-enospc.log",
    "case_torchrun_kv_debug_flood_tmpfs_enospc.sh",
    "torchrun --nproc-per-node 2, t22.py key=value lines; checkpoints and a per-step debug dump (48 KiB per step per "
    "rank, --debug-dump left on) share a 160 MiB tmpfs scratch mount; the dump fills it (real ENOSPC); out.log unedited",
    "CRASH", "STORAGE", True,
    "After the step-900 checkpoint both ranks fail in dbg.write/flush with 'OSError: [Errno 28] No space left on "
    "device' and torchrun reports ChildFailedError: the job's filesystem filled up (ENOSPC).",
    checkpoints=3)

lab("h22b_sbatch-array-task1-srun-kill-on-bad-exit-deepspeed-rank1-segfault-lab22n2.log",
    "case_sbatch_array_ds_rank_sigsegv.sh",
    SL + "sbatch --array=0-1 (a 2-point lr sweep), each array task -N 2 with `srun --kill-on-bad-exit=1`, t22.py "
    "DeepSpeed-like lines; array task 1 (job 9_1, lab22n1+lab22n2): its rank 1 got SIGSEGV (`kill -SEGV`) after step "
    "500; slurm-9_1.out unedited",
    "CRASH", "UNKNOWN", True,
    "srun reports 'lab22n2: task 1: Segmentation fault' with no message of its own from that rank; rank 0's gloo "
    "'Connection reset by peer' and the STEP CANCELLED / 'task 0: Terminated' lines are consequences (srun -K): a bare "
    "segfault, cause not shown.",
    job_nodes=["lab22n1", "lab22n2"], checkpoints=1)

lab("h22b_torchrun-max-restarts-lightning-rank1-killed-restarts-resumes-completes-healthy.log",
    "case_torchrun_lit_elastic_restart_rank1_killed_resumes_healthy.sh",
    "torchrun --nproc-per-node 2 --max-restarts 2 (elastic agent, c10d rendezvous), t22.py Lightning-like progress "
    "lines, --resume; rank 1 SIGKILLed after step 900 (18:52:35); the agent restarted the workers twice (the first "
    "restart's rank 1 could not connect to a peer still starting, gloo 'Connection refused'), the second restart "
    "resumed from the step-800 checkpoint and finished; out.log unedited. Ran beside two other cases (slower steps)",
    "NONE", None, None,
    "Rank 1 dies (exitcode -9, rank 0 'Connection reset by peer') and a restart fails with gloo connectFullMesh "
    "'Connection refused', but torchrun's own restarts bring both ranks back, they 'resumed from checkpoint "
    "ck/step_800.pt', checkpoint through step 1800 and print '`Trainer.fit` stopped: `max_steps=1800` reached' and "
    "'training finished': the job recovered by itself and completed.",
    checkpoints=5)

lab("h22b_sbatch-array-task0-deepspeed-lr-sweep-completes-healthy.log",
    "case_sbatch_array_ds_rank_sigsegv.sh",
    SL + "sbatch --array=0-1 (a 2-point lr sweep), each array task -N 2 with `srun --kill-on-bad-exit=1`, t22.py "
    "DeepSpeed-like lines; array task 0 (job 9_0 = job 10, lab22n1+lab22n2) was left alone (its sibling 9_1, on the "
    "same two nodes, got the injected segfault); slurm-9_0.out unedited. Step times vary with the other runs "
    "sharing the 2 CPUs",
    "NONE", None, None,
    "Both ranks log steps 50-1600 with checkpoints and 'training finished steps=1600' and 'srun exit 0', with no "
    "error or warning; step times move between ~45 and ~80 ms without a sustained drop: a healthy run.",
    job_nodes=["lab22n1", "lab22n2"], checkpoints=4)

lab("h22b_2host-torchrun-pdsh-prefix-pylog-tsv-gloo-connection-reset-and-abort.log",
    "case_2host_torchrun_tsv_ss_kill_gloo_conns_reset.sh",
    "two network-namespace hosts (gpu-r07n11, gpu-r07n12; veth, 10.222.7.11/12), torchrun --nnodes 2 "
    "--nproc-per-node 1 on each, output prefixed with the host name (sed -u, as pdsh does), both appended to one "
    "out.log; t22.py Python-logging lines and TSV rows; after step 600 the established TCP connections from "
    "gpu-r07n12 to gpu-r07n11 were destroyed with `ss -K` (the kernel aborts them and sends RSTs), as a flapping link "
    "or firewall would; out.log unedited",
    "CRASH", "NETWORK", True,
    "Both ranks fail in backward's gloo allreduce at the same moment, rank 0 with 'Read error [10.222.7.12]:42676: "
    "Connection reset by peer' and rank 1 with 'Read error [10.222.7.11]:22945: Software caused connection abort', "
    "and no rank crashed first: the connection between the two hosts broke.",
    job_nodes=["gpu-r07n11", "gpu-r07n12"], checkpoints=1)

lab("h22b_sbatch-srun-l-lightning-ckpt-dir-bind-mount-remounted-ro-erofs.log",
    "case_sbatch_srun_l_lit_ckpt_bind_mount_ro_erofs.sh",
    SL + "sbatch -N 2 (lab22n3, lab22n4), srun -l, t22.py Lightning-like progress lines; the checkpoint directory was a "
    "bind mount of itself, remounted read-only (`mount -o remount,bind,ro`) under the job after step 600; "
    "slurm-12.out unedited",
    "CRASH", "STORAGE", True,
    "At the step-800 save rank 0's torch.save fails with 'open file failed with strerror: Read-only file system' "
    "(EROFS) and rank 1 then gets gloo 'Connection closed by peer' in its barrier (a victim); both tasks exit 1: the "
    "checkpoint filesystem became read-only.",
    job_nodes=["lab22n3", "lab22n4"], checkpoints=1)

lab("h22b_sbatch-signal-usr1-ckpt-self-requeue-open-mode-append-twice-resumes-completes-healthy.log",
    "case_sbatch_ds_usr1_requeue_append_healthy.sh",
    SL + "sbatch -N 2 (lab22n3, lab22n4) --time=2 --signal=USR1@50 --requeue --open-mode=append, plain srun, t22.py "
    "DeepSpeed-like lines with --sig-save --resume: on USR1 the ranks save a checkpoint and exit 0, the batch script "
    "runs `scontrol requeue` on itself, and the requeued job (after Slurm's begin-time delay) resumes into the same "
    "output file; slurm-8.out unedited. Irregularity: the runs were slower than planned (three cases at once), so "
    "while the job was pending after its second requeue its limit was raised by hand to 6 min (`scontrol update "
    "jobid=8 timelimit=6`) so that the third run could finish",
    "NONE", None, None,
    "Twice 'received SIGUSR1; saving checkpoint and exiting' is followed by the script's requeue and 'JOB 8 ... "
    "CANCELLED ... DUE TO JOB REQUEUE', and each restart (restart 1, restart 2) logs 'resumed from checkpoint "
    "step_1001.pt / step_1479.pt'; the third run reaches 'training finished steps=3000' with srun exit 0: planned "
    "signal-driven save/requeue cycles, the job completed.",
    job_nodes=["lab22n3", "lab22n4"], checkpoints=8)

lab("h22b_sbatch-srun-l-kv-rank1-dataloader-worker-stopped-silent-174s.log",
    "case_sbatch_kv_dl_worker_stopped_timeout.sh",
    SL + "sbatch -N 2 (lab22n1, lab22n2), srun -l, t22.py key=value lines, one DataLoader worker per rank with "
    "timeout=45 s; right after step 500 rank 1's DataLoader worker process (on lab22n2) was SIGSTOPped. The "
    "DataLoader timeout never fired: rank 1's main thread sat in a blocking read of the worker's result pipe "
    "(/proc wchan unix_stream_read_generic; the worker was stopped mid-message). slurm-11.out copied to kept.log after "
    "174 s without a new line (18:57:14), then the job was scancelled; kept.log unedited",
    "HANG", None, True,
    "Both ranks log train records every ~2.5 s (47 ms/step) up to step 500 and the step-500 checkpoint, then nothing "
    "more for 174 s with no error or exit: the job stopped making progress; the log does not show why.",
    job_nodes=["lab22n1", "lab22n2"], checkpoints=2, silence_s=174)

lab("h22b_torchrun-distributed-debug-detail-both-ranks-sigsegv-after-ddp-reducer-init.log",
    "case_torchrun_tsv_debug_detail_ddp_init_segv.sh",
    "torchrun --nproc-per-node 2 with TORCH_CPP_LOG_LEVEL=INFO TORCH_DISTRIBUTED_DEBUG=DETAIL, t22.py Python-logging "
    "lines; meant as a healthy long-evaluation run, both ranks died with SIGSEGV right after DDP's Reducer was "
    "initialized (nothing injected: a real crash of this CPU build under the DETAIL debug wrapper on gloo; the "
    "healthy case was re-run without DETAIL); out.log unedited",
    "CRASH", "UNKNOWN", True,
    "After the ProcessGroupWrapper collective fingerprints and 'Reducer initialized ...' both ranks end with "
    "'exitcode : -11 (SIGSEGV)' / 'Signal 11 (SIGSEGV) received by PID', before any training step and with no Python "
    "error: a bare segfault whose cause the log does not show.")

lab("h22b_torchrun-loguru-both-ranks-pinned-one-cpu-throughput-drop.log",
    "case_torchrun_loguru_cpuset_collapse_job_slow.sh",
    "torchrun --nproc-per-node 2, t22.py loguru lines; right after step 600 both ranks and all their threads were "
    "pinned to CPU 0 (`taskset -a -p -c 0`, a misapplied cpuset) until the end; out.log unedited. From ~18:57:55 the "
    "long-evaluation case shared the VM as well",
    "STRAGGLER", None, True,
    "ms_per_step goes from 23-31 ms (tok_per_s 33-44k) before step 600 to 42-58 ms (tok_per_s 18-26k) from step 650 "
    "to the end, with both ranks' rank_ms rising together: a sustained job-wide throughput drop of ~40%; the job "
    "still finishes, and the log does not show the cause.",
    checkpoints=4)

lab("h22b_torchrun-kv-lr-misconfigured-1e36-warm-restart-nan-floatingpointerror.log",
    "case_torchrun_kv_lr_spike_nan.sh",
    "torchrun --nproc-per-node 2, t22.py key=value lines with --nan-check; a misconfigured lr warm restart multiplies "
    "the lr by 1e36 from step 500 (lr 2e+33); out.log unedited. Irregularity: a first run with a x1e5 factor (loss "
    "grew to ~2e21 but stayed finite) was stopped at step ~1300 and not kept",
    "CRASH", "APPLICATION", False,
    "The step-500 record shows lr=2.00e+33 and at step 501 both ranks raise 'FloatingPointError: loss is nan at step "
    "501 (lr=2e+33)': a NaN loss from the run's own configuration.",
    checkpoints=2)

lab("h22b_torchrun-tsv-long-eval-pauses-cpp-info-noise-completes-healthy.log",
    "case_torchrun_tsv_long_eval_pauses_healthy.sh",
    "torchrun --nproc-per-node 2 with TORCH_CPP_LOG_LEVEL=INFO, t22.py Python-logging lines and TSV rows; 1200-batch "
    "evaluations every 700 steps; nothing injected (re-run of the DETAIL case without TORCH_DISTRIBUTED_DEBUG); "
    "out.log unedited. Ran partly beside the cpuset straggler case",
    "NONE", None, None,
    "Metric rows stop for 17-33 s three times, each gap opened by 'running evaluation on 1200 held-out batches (this "
    "takes a while)' and closed by 'eval done ... eval_secs=..' and a checkpoint; c10d/reducer INFO lines are noise; "
    "the run ends with 'training finished steps=2100': healthy.",
    checkpoints=3)

if __name__ == "__main__":
    p = H + "/labels.json"
    d = json.load(open(p))
    d = {k: v for k, v in d.items() if not k.startswith("h22b_")}
    d.update(L)
    missing = [k for k in L if not os.path.exists(os.path.join(H, k))]
    assert not missing, missing
    extra = [f for f in os.listdir(H) if f.startswith("h22b_") and f not in L]
    assert not extra, extra
    assert len({v["source"] for v in L.values()}) == len(L)
    with open(p, "w") as f:
        json.dump(d, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")
    print(len(L), "h22b labels written")
