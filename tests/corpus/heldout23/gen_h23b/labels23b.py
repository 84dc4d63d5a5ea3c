# writes the h23b_ labels into ../labels.json (labels written by hand after reading each kept log)
import json, os
H = os.path.dirname(os.path.abspath(__file__)) + "/.."
PRE = "GENERATED: torch 2.13.0+cpu (gloo), Python 3.11, numpy 2.4.6: tests/corpus/heldout23/gen_h23b/"
SL = "Slurm 22.05.8 (private 4-node cluster lab23b on one 2-CPU VM, proctrack+task cgroup v1), "
L = {}


def lab(name, case, how, anomaly, category, requeue, why, culprit=(), **kw):
    d = dict(source=PRE + case + ": " + how, anomaly=anomaly, category=category, requeue=requeue,
             culprit_nodes=list(culprit), why=why)
    d.update(kw)
    L[name] = d


lab("h23b_torchrun-megatron-style-fresh-start-no-ckpt-warning-evals-completes-healthy.log",
    "case_c01_torchrun_mega_long_eval_healthy.sh",
    "torchrun --nproc-per-node 2 (c10d rendezvous), t23.py Megatron-style lines from the last rank; nothing injected "
    "(a fresh start with --resume prints the missing-metadata WARNING; 1500-batch validations every 1000 iterations); "
    "out.log (torchrun stdout+stderr) unedited. Another case shared the 2 CPUs for most of the run",
    "NONE", None, None,
    "After 'WARNING: could not find the metadata file ... will start from random' (a normal fresh start) the run logs "
    "iterations 50..3000/3000 at 23-63 ms per iteration, validations and three successful checkpoint saves, and ends with "
    "'[after training is done]': healthy.",
    checkpoints=3)

lab("h23b_torchrun-megatron-style-pad-only-batch-masked-mean-nan-floatingpointerror.log",
    "case_c11_torchrun_mega_zero_region_all_pad_batch_nan.sh",
    "torchrun --nproc-per-node 2, t23.py Megatron-style lines with a NaN guard; the token file has a 64 KiB region of "
    "zeros (the pad id) reached at iteration 1801, so the masked-mean loss over zero target tokens is 0/0 = NaN; "
    "out.log unedited",
    "CRASH", "APPLICATION", False,
    "Both ranks raise 'FloatingPointError: Loss is nan, stopping training (rank N, iteration 1801)' after a normally "
    "decreasing lm loss, and torchrun reports ChildFailedError exitcode 1: a NaN loss from the data/loss code, "
    "which a requeue would hit again at the same iteration.",
    checkpoints=1)

lab("h23b_torchrun-megatron-style-rank1-stopped-25s-one-slow-interval-recovers-completes-healthy.log",
    "case_c02_torchrun_mega_rank1_stopped_25s_recovers_healthy.sh",
    "torchrun --nproc-per-node 2, t23.py Megatron-style lines; rank 1 SIGSTOPped after iteration 1200 for 25 s, then "
    "SIGCONTed; out.log unedited. Another case shared the 2 CPUs",
    "NONE", None, None,
    "One 50-iteration interval takes 28 s (elapsed time per iteration 554.6 ms at iteration 1250), then iterations go "
    "back to 22-64 ms (as before the stall) and the run reaches 3000/3000 with checkpoints and '[after training is done]': a transient "
    "stall that recovered, not a hang or a persistent straggler.",
    checkpoints=3)

lab("h23b_sbatch-srun-label-megatron-style-lab23n2-slurmd-frozen-node-failure.log",
    "case_c03_sbatch_srun_l_mega_lab23n2_slurmd_frozen_node_fail.sh",
    SL + "sbatch -N 2 -w lab23n1,lab23n2 --no-requeue, srun --label, t23.py Megatron-style lines; after iteration "
    "1000 lab23n2's slurmd was SIGSTOPped (task left running) until the job ended; slurm-2.out unedited. "
    "Irregularity: a first submission (job 1) failed at init (t23.py did not export RANK under srun; fixed) and "
    "was not kept",
    "CRASH", "NODE", True,
    "Training runs normally to iteration 1800, then 'srun: error: Node failure on lab23n2' and 'slurmstepd-lab23n1: "
    "error: *** JOB 2 ON lab23n1 CANCELLED ... DUE TO NODE FAILURE': Slurm lost node lab23n2 and killed the job; "
    "requeue excluding lab23n2.",
    culprit=["lab23n2"], job_nodes=["lab23n1", "lab23n2"], checkpoints=1)

lab("h23b_sbatch-srun-label-kill-on-bad-exit-hf-trainer-style-scratch-disk-blocks-lost-data-read-eio.log",
    "case_c04_sbatch_srun_l_hf_scratch_loop_backing_truncated_eio.sh",
    SL + "sbatch -N 2 -w lab23n3,lab23n4, srun --label -K, t23.py HF-Trainer-style dict lines; the token file is "
    "read with os.pread from an ext4 on a loop device whose backing image was truncated to 4 MiB after step 600 "
    "(lost blocks) and the file's page cache dropped; slurm-3.out unedited",
    "CRASH", "STORAGE", True,
    "Both ranks fail in batch_at's os.pread with 'OSError: [Errno 5] Input/output error' after normal loss lines, "
    "and srun reports both tasks exited 1: an I/O error reading the training data from storage.",
    job_nodes=["lab23n3", "lab23n4"], checkpoints=1)

lab("h23b_sbatch-srun-label-kill-on-bad-exit-hf-trainer-style-epoch-window-cache-node-scratch-full-enospc.log",
    "case_c15_sbatch_srun_l_hf_window_cache_scratch_full_enospc.sh",
    SL + "sbatch -N 2 -w lab23n3,lab23n4, srun --label -K, t23.py HF-Trainer-style; each rank writes a 40 MiB window "
    "cache per epoch to a 100 MiB ext4 scratch (loop device) shared by both ranks; the second epoch's caches do not "
    "fit; slurm-4.out unedited",
    "CRASH", "STORAGE", True,
    "At the epoch boundary after checkpoint-600, rank 1 fails in np.save with 'OSError: Not enough free space to "
    "write 41943040 bytes' and rank 0 with 'OSError: [Errno 28] No space left on device': the scratch filesystem "
    "is full.",
    job_nodes=["lab23n3", "lab23n4"], checkpoints=1)

lab("h23b_torchrun-tee-prefix-fairseq-style-rank1-sigill-peer-connection-reset.log",
    "case_c12_torchrun_tee_fseq_rank1_sigill.sh",
    "torchrun --nproc-per-node 2 --tee 3 (per-rank [defaultN]: prefixes), t23.py fairseq-style lines; rank 1 got "
    "SIGILL (kill -ILL) at num_updates ~900; out.log unedited",
    "CRASH", "UNKNOWN", True,
    "Rank 1 dies with 'exitcode: -4 (SIGILL)' (the Root Cause in torchrun's summary) without a message of its own; "
    "rank 0's gloo 'Connection reset by peer' is the victim; a bare fatal signal whose cause the log does not show.",
    checkpoints=1)

lab("h23b_torchrun-hf-trainer-style-relaunch-hidden-size-changed-resume-state-dict-size-mismatch.log",
    "case_c10_torchrun_hf_resume_hidden_changed_size_mismatch.sh",
    "torchrun --nproc-per-node 2, t23.py HF-Trainer-style; a first launch (not kept) trained 600 steps with hidden "
    "size 384 and saved; the kept relaunch resumes from the same checkpoint dir with --hidden 512; out.log unedited",
    "CRASH", "APPLICATION", False,
    "Right after 'Loading model from ck/iter_0000600/model_optim_rng.pt' both ranks fail with 'RuntimeError: "
    "Error(s) in loading state_dict for LM: size mismatch for fc1.weight ... [384, 1024] from checkpoint ... "
    "[512, 1024] in current model': the model configuration does not match the checkpoint, a deterministic "
    "configuration error.")

lab("h23b_2host-torchrun-tee-prefix-fairseq-style-second-node-joins-44s-late-completes-healthy.log",
    "case_c14_2host_torchrun_tee_fseq_host2_late_join_healthy.sh",
    "two network-namespace hosts cn-b23-01/cn-b23-02 (veth 10.223.7.11/12), torchrun --nnodes 2 --nproc-per-node 1 "
    "--tee 3 on each (c10d rendezvous at cn-b23-01:29423), both appending to one out.log (kept.log, copied after "
    "both agents exited), t23.py fairseq-style; host 2's agent started 45 s after host 1's; nothing else injected",
    "NONE", None, None,
    "After c10d 'hostname of the client socket cannot be retrieved' warnings (no reverse DNS) and a 44 s wait for "
    "the second node, both ranks initialise and train_inner lines run at ~10-22 ups through 4 epochs with "
    "validations, checkpoints and 'done training in 146.0 seconds': healthy.",
    job_nodes=["cn-b23-01", "cn-b23-02"], checkpoints=4)

lab("h23b_torchrun-megatron-style-pre-eval-monitored-barrier-rank1-60s-timeout.log",
    "case_c07_torchrun_mega_monitored_barrier_rank1_waits_manifest.sh",
    "torchrun --nproc-per-node 2, t23.py Megatron-style; before each validation a 60 s dist.monitored_barrier; rank 1 "
    "first waits for an eval-shard manifest file that is never written (nothing printed while it waits); out.log "
    "unedited",
    "HANG", None, True,
    "After iteration 700 the log is silent for 60 s, then rank 0 reports 'Rank 1 failed to pass monitoredBarrier in "
    "60000 ms' ('Timed out waiting 60000ms for recv') and torchrun tears the job down: rank 1 stopped making "
    "progress, and the log does not show why.",
    checkpoints=1)

lab("h23b_sbatch-srun-label-hf-trainer-style-step-creation-temporarily-disabled-retrying-completes-healthy.log",
    "case_c13_sbatch_srun_l_hf_stagein_step_busy_retrying_healthy.sh",
    SL + "sbatch -N 2 -w lab23n1,lab23n2 --mem=1500M; the batch script first starts a background stage-in step "
    "holding the job's memory for 25 s, then the training step (srun --label --mem=1400M, t23.py HF-Trainer-style "
    "dict lines); nothing else injected; slurm-5.out unedited. Other cases shared the 2 CPUs",
    "NONE", None, None,
    "srun's 'Job 5 step creation temporarily disabled, retrying (Requested nodes are busy)' is followed by 'Step "
    "created for job 5'; the run then logs steady loss dicts, three evaluations and checkpoints, 'Training "
    "completed' and the final train_runtime dict: healthy.",
    job_nodes=["lab23n1", "lab23n2"], checkpoints=3)

lab("h23b_sbatch-srun-label-fairseq-style-2min-limit-cancelled-due-to-time-limit-before-first-checkpoint.log",
    "case_c09_sbatch_srun_l_fseq_time_limit.sh",
    SL + "sbatch -N 2 -w lab23n3,lab23n4 --time=2 (no --signal) --no-requeue, srun --label, t23.py fairseq-style "
    "lines planned for 20000 updates (checkpoint every 2000); a real time limit; slurm-6.out unedited",
    "CRASH", "SCHEDULER", True,
    "train_inner lines run normally to num_updates=1400 at ~11-15 ups, then 'slurmstepd-lab23n3: error: *** JOB 6 "
    "ON lab23n3 CANCELLED AT ... DUE TO TIME LIMIT ***': Slurm ended the job at its 2-minute limit, before any "
    "checkpoint; requeue (with a longer limit) would let it progress.",
    job_nodes=["lab23n3", "lab23n4"])

lab("h23b_2host-torchrun-tee-prefix-fairseq-style-link-rate-limited-ups-drop-8-to-3.log",
    "case_c05_2host_torchrun_tee_fseq_link_tbf_rate_limit_straggler.sh",
    "two network-namespace hosts cn-b23-01/cn-b23-02 (veth 10.223.7.11/12), torchrun --nnodes 2 --nproc-per-node 1 "
    "--tee 3 on each, both appending to one out.log (kept.log), t23.py fairseq-style; from num_updates 800 both veth "
    "ends rate-limited with `tc qdisc ... tbf rate 300mbit burst 1mb latency 100ms` until the end (the kernel has no "
    "netem). Irregularity: a first try with netem was stopped at start (not kept); a leftover script of it ran "
    "netem (failed, no qdisc) against the namespaces during this run without effect and was killed before it "
    "touched this run's processes",
    "STRAGGLER", None, True,
    "train_inner throughput falls from ~8-11 ups (wps ~8000-11000) to ~3.1-3.6 ups (wps ~3200-3600) at num_updates "
    "850 and stays there through the last 750 updates (epochs take 120 s instead of ~43 s), a sustained job-wide "
    "slowdown whose cause the log does not show; the run still finishes.",
    job_nodes=["cn-b23-01", "cn-b23-02"], checkpoints=4)

lab("h23b_torchrun-fairseq-style-rank1-freezer-cgroup-duty-cycle-ups-halved.log",
    "case_c17_torchrun_fseq_rank1_freezer_cgroup_duty_cycle_straggler.sh",
    "torchrun --nproc-per-node 2 (no tee), t23.py fairseq-style lines from rank 0; from num_updates 1000 rank 1 was in "
    "its own cgroup-v1 freezer group FROZEN 0.25 s / THAWED 0.15 s in a loop to the end (a throttled rank); out.log "
    "unedited. Other cases shared the 2 CPUs",
    "STRAGGLER", None, True,
    "ups falls from ~9-13.6 to ~4.1-6.7 (wps ~9000-14000 -> ~4200-6900) at num_updates 1050 and stays there for the last "
    "1350 updates (the first epoch took 58 s, the last two 115 s and 108 s): a sustained slowdown, with nothing in the log saying which rank "
    "or why; the run still finishes.",
    checkpoints=4)

lab("h23b_2host-torchrun-tee-prefix-fairseq-style-link-down-gloo-recv-60s-timeout.log",
    "case_c06_2host_torchrun_tee_fseq_link_down_gloo_timeout.sh",
    "two network-namespace hosts cn-b23-01/cn-b23-02 (veth 10.223.7.11/12), torchrun --nnodes 2 --nproc-per-node 1 "
    "--tee 3 on each, both appending to one out.log, t23.py fairseq-style with --pg-timeout 60; after num_updates "
    "600 host 1's veth end was set down (`ip link set l23bv1 down`); kept.log copied ~5 min after host 1's agent "
    "exited (host 2's agent was still blocked and printed nothing more), then everything killed. Irregularity: an "
    "earlier version of this case (netem, unavailable here) was started by mistake and its processes killed at "
    "start (not kept)",
    "HANG", None, True,
    "After num_updates=600 both ranks sit 60 s and then fail in loss.backward with gloo 'Timed out waiting 60000ms "
    "for recv operation to complete', followed by c10d store 'waitForInput ... timed out after 60000ms' and "
    "torchrun's ChildFailedError on cn-b23-01: the collective hung, with no crash or error of either rank before it.",
    job_nodes=["cn-b23-01", "cn-b23-02"], checkpoints=1)

lab("h23b_torchrun-megatron-style-ckpt-fs-frozen-save-blocks-silent-150s.log",
    "case_c16_torchrun_mega_ckpt_fs_frozen_silent.sh",
    "torchrun --nproc-per-node 2, t23.py Megatron-style, checkpoints to an ext4 on a loop device; after the "
    "iteration-1000 save the filesystem was frozen with `fsfreeze -f` (never thawed while the run was watched), so "
    "the iteration-1500 save blocked in write; out.log copied to kept.log after 151 s of silence, then thawed and "
    "killed. Irregularity: a first run of this case missed its trigger (a spacing typo in the waited-for line), "
    "trained to the end unfrozen and was not kept",
    "HANG", None, True,
    "The last lines are 'saving checkpoint at iteration 1500' and the iteration-1500 line, with no 'successfully "
    "saved' after them and 150 s of silence where iterations came every ~1.5 s: the job stopped making progress "
    "inside the checkpoint save, with no error showing why.",
    checkpoints=2, silence_s=150)

lab("h23b_torchrun-fairseq-style-relaunch-loads-checkpoint-1000-completes-healthy.log",
    "case_c18_torchrun_fseq_resume_after_stop_completes_healthy.sh",
    "torchrun --nproc-per-node 2, t23.py fairseq-style; a first launch (not kept) was stopped with SIGTERM to "
    "torchrun after its num_updates-1000 checkpoint; the kept relaunch loads it and trains to the end; nothing else "
    "injected; out.log unedited (two ranks' 'initialized host' lines interleave on one line)",
    "NONE", None, None,
    "'Loaded checkpoint ck/iter_0001000/model_optim_rng.pt (epoch 3 @ 1000 updates)', then train_inner lines from "
    "num_updates=1050 at a steady ~32-38 ups, three validations and checkpoints and 'done training in 45.1 seconds': "
    "a normal resumed run.",
    checkpoints=3)

lab("h23b_torchrun-megatron-style-rank1-cfs-quota-15pct-iteration-time-up.log",
    "case_c19_torchrun_mega_rank1_cpu_cfs_quota_straggler.sh",
    "torchrun --nproc-per-node 2, t23.py Megatron-style; after iteration 800 rank 1 was moved into a cgroup-v1 cpu "
    "group with cpu.cfs_quota_us=15000 per 100000 (15% of a CPU) until the end; out.log unedited. Other cases shared "
    "the 2 CPUs",
    "STRAGGLER", None, True,
    "elapsed time per iteration goes from ~23-46 ms to 113-200 ms at iteration 850 and stays at ~130-165 ms for the "
    "remaining 1150 iterations, a sustained 3-5x slowdown that the log does not attribute to a rank or cause; the run "
    "still finishes.",
    checkpoints=2)

if __name__ == "__main__":
    p = H + "/labels.json"
    d = json.load(open(p))
    d = {k: v for k, v in d.items() if not k.startswith("h23b_")}
    d.update(L)
    missing = [k for k in L if not os.path.exists(os.path.join(H, k))]
    assert not missing, missing
    extra = [f for f in os.listdir(H) if f.startswith("h23b_") and f not in L]
    assert not extra, extra
    assert len({v["source"] for v in L.values()}) == len(L)
    with open(p, "w") as f:
        json.dump(d, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")
    print(len(L), "h23b labels written")
