R = '/work/lab24b/runs/'
TRN = 'torchrun --nproc-per-node 2 (c10d rendezvous on localhost), t24.py '
add('h24b_torchrun-torchtitan-style-dynamic-loss-scale-overflow-skipped-steps-completes-healthy.log', R + 'c01/out.log',
    'case_c01_torchrun_titan_loss_scale_overflow_skips_healthy.sh',
    TRN + 'torchtitan-style lines with a dynamic loss scaler starting at 2^30 (gradients checked for fp16 overflow); '
    'nothing injected; out.log unedited. Other cases shared the 2 CPUs',
    anomaly='NONE', category=None, requeue=None, culprit_nodes=[], checkpoints=3,
    why="The 'Gradient overflow.  Skipping step, loss scale reduced to ...' WARNINGs are the loss scaler settling "
        "(a burst at start, then one after each scale growth); step lines keep a steady 12-22k tps with falling loss, "
        "evals and three finished saves, and 'Training completed: 2400 steps': healthy.")
add('h24b_torchrun-keras-style-epochs-with-large-checkpoint-saves-completes-healthy.log', R + 'c02/out.log',
    'case_c02_torchrun_keras_slow_checkpoint_saves_healthy.sh',
    TRN + 'Keras-style epoch lines (8 epochs of 300 steps); every second epoch saves a checkpoint with a 400 MB extra '
    'tensor, fsynced; nothing else injected; out.log unedited. Other cases shared the 2 CPUs',
    anomaly='NONE', category=None, requeue=None, culprit_nodes=[], checkpoints=4,
    why="All 8 epochs end with '300/300 - 12-25s - 40-84ms/step - loss: ...' and falling val_loss; the epochs that "
        "save a model are somewhat slower but the run reaches 'Training completed: 2400 steps': healthy.")
add('h24b_sbatch-srun-label-ptl-nemo-style-eval-batches-exceed-validation-split-valueerror-reshape.log',
    '/work/lab24b/c03a_keep/nemo-tiny-2.out',
    'case_c03_sbatch_srun_l_ptl_long_validation_node_drained_healthy.sh',
    SL + 'sbatch -N 2 -w lab24n1,lab24n2, srun --label, -o %x-%j.out, t24.py PTL/NeMo-style progress lines; a first '
    'version of this case (meant as a healthy long-validation run) asked for 1500 validation batches per rank, more than '
    'the held-out split holds (t24.py then indexed past the end of the token file; evaluate() was changed to wrap '
    'afterwards); nothing injected; nemo-tiny-2.out unedited (the case was stopped before it drained a node)',
    anomaly='CRASH', category='APPLICATION', requeue=False, culprit_nodes=[], job_nodes=['lab24n1', 'lab24n2'],
    why="At the first validation (after global_step=499) both ranks raise 'ValueError: cannot reshape array of size 0 "
        "into shape (32,17)' (rank 1) / 'size 256' (rank 0) in evaluate() and srun reports exit code 1 on both nodes: "
        "the eval config reads past the validation data, a deterministic bug.")
add('h24b_sbatch-json-metrics-scontrol-requeue-append-resumes-step-800-completes-healthy.log', R + 'c04/out.log',
    'case_c04_sbatch_json_scontrol_requeue_resumes_completes_healthy.sh',
    SL + 'sbatch -N 2 -w lab24n3,lab24n4 --requeue --open-mode=append, srun --label, t24.py JSON metric lines with '
    'tokens_per_sec, --resume, checkpoint every 400 steps; after step 900 `scontrol requeue` was run on the job (then '
    'StartTime=now); the second attempt resumed and finished; slurm-9.out unedited (both attempts). Irregularity: a first run of this case (job 1) was not kept: other cases started beside it cut its throughput at the end. Other cases shared the 2 CPUs',
    anomaly='NONE', category=None, requeue=None, culprit_nodes=[], job_nodes=['lab24n3', 'lab24n4'], checkpoints=6,
    why="'CANCELLED AT ... DUE TO JOB REQUEUE' is an operator requeue, after which 'restart_count=1' starts, 'Loading the "
        "checkpoint at step 800', trains at 13-38k tokens_per_sec (the first attempt ran at 8-11k; both vary with the shared host's load) to 'Training completed: 2400 steps' and "
        "srun_rc=0: a restart that succeeded, the job finished.")
add('h24b_torchrun-torchtitan-style-sgd-lr-typo-loss-nan-at-step-4.log', R + 'c05/out.log',
    'case_c05_torchrun_titan_sgd_lr_too_high_nan.sh',
    TRN + 'torchtitan-style lines, SGD momentum with lr 2000 (a config typo; 50-step warmup), no clipping, a NaN guard '
    'that raises on a non-finite loss; out.log unedited',
    anomaly='CRASH', category='APPLICATION', requeue=False, culprit_nodes=[],
    why="Both ranks raise 'RuntimeError: Loss is nan at step 4: training diverged' before the first step line; a NaN "
        "loss from the training configuration fails the same way on any hardware.")
add('h24b_torchrun-python-logging-batch-dump-scratch-inodes-exhausted-enospc.log', R + 'c08/out.log',
    'case_c08_torchrun_pylog_batch_dump_inode_exhaustion_enospc.sh',
    TRN + "Python-logging lines ('%(asctime)s %(levelname)s [%(process)d] host:rank ...'); each rank np.saves its batch "
    'indices every step into a 64 MB ext4 on a loop device made with only 2048 inodes, which ran out at step ~1017 '
    '(blocks still free): real ENOSPC; out.log unedited',
    anomaly='CRASH', category='STORAGE', requeue=True, culprit_nodes=[], checkpoints=2,
    why="After steady step lines and two saved checkpoints both ranks die with 'OSError: [Errno 28] No space left on "
        "device: '/work/lab24b/c08mnt/batch_dump/r1/batch_001017.npy'': the scratch filesystem is full.")
add('h24b_torchrun-keras-style-eval-metric-bleu-not-registered-keyerror.log', R + 'c10/out.log',
    'case_c10_torchrun_keras_eval_metric_not_registered_keyerror.sh',
    TRN + "Keras-style epoch lines with --eval-metrics loss,ppl,bleu ('bleu' is not in t24.py's metric table); "
    'nothing injected; out.log unedited',
    anomaly='CRASH', category='APPLICATION', requeue=False, culprit_nodes=[],
    why="At the end of 'Epoch 1/8' both ranks fail in evaluate() with \"KeyError: 'bleu'\" and torchrun reports "
        "ChildFailedError: a configuration/code bug that a requeue would repeat.")
add('h24b_torchrun-torchtitan-style-silent-after-step-400-eval-collective-mismatch-150s.log', R + 'c11/kept.log',
    'case_c11_torchrun_titan_rank0_only_eval_allreduce_deadlock_silent.sh',
    TRN + 'torchtitan-style lines, default 30-min process-group timeout; a bug: only rank 0 joins the all_reduce of the '
    'eval loss at step 400, so the ranks\' collectives no longer match; out.log copied to kept.log after 151 s of '
    'silence, then the run was killed',
    anomaly='HANG', category=None, requeue=True, culprit_nodes=[], silence_s=150,
    why="Step lines arrive every ~4 s up to 'step:  400' and then nothing at all (no eval line, no save) for 150 s: "
        "the job stopped making progress without an error.")
add('h24b_sbatch-srun-label-keras-style-time-limit-cut-by-admin-cancelled-due-to-time-limit.log', R + 'c07/out.log',
    'case_c07_sbatch_srun_l_keras_timelimit_shortened_by_admin.sh',
    SL + 'sbatch -N 2 -w lab24n3,lab24n4 --time=30 --no-requeue, srun --label, -o %x-%j.out, t24.py Keras-style epoch '
    'lines (20 epochs planned, checkpoint every 4 epochs); at epoch 4 `scontrol update jobid=5 TimeLimit=1` (already '
    'exceeded) was run: a real time-limit kill; keras-lm-5.out unedited',
    anomaly='CRASH', category='SCHEDULER', requeue=True, culprit_nodes=[], job_nodes=['lab24n3', 'lab24n4'],
    why="Three epochs finish normally (74-84 ms/step, val_loss falling), then 'slurmstepd-lab24n3: error: *** JOB 5 ON "
        "lab24n3 CANCELLED AT ... DUE TO TIME LIMIT ***' during epoch 4: Slurm ended the job at its limit, before any "
        "checkpoint; a requeue with enough time would progress.")
add('h24b_sbatch-srun-label-torchtitan-style-prefetch-cache-leak-lab24n2-cgroup-oom-kill.log', R + 'c09/out.log',
    'case_c09_sbatch_srun_l_titan_prefetch_cache_leak_cgroup_oom.sh',
    SL + 'sbatch -N 2 -w lab24n1,lab24n2 --mem=700M --no-requeue, srun --label, -o %x-%j.out, t24.py torchtitan-style '
    'lines with a prefetch cache that never evicts (1 MB per step per rank): the job step\'s memory cgroup (ConstrainRAMSpace) '
    'OOM-killed rank 1; titan-tiny-7.out unedited',
    anomaly='CRASH', category='NODE', requeue=True, culprit_nodes=['lab24n2'], job_nodes=['lab24n1', 'lab24n2'],
    checkpoints=1,
    why="After five step lines and one finished save, 'slurmstepd-lab24n2: error: Detected 1 oom-kill event(s) in "
        "StepId=7.0' and 'srun: error: lab24n2: task 1: Out Of Memory'; rank 0's gloo 'Connection reset by peer' is the "
        "victim: an OOM kill, NODE by the policy.")
add('h24b_sbatch-srun-label-ptl-nemo-style-3000-batch-validations-lab24n2-drained-completes-healthy.log', R + 'c03/out.log',
    'case_c03_sbatch_srun_l_ptl_long_validation_node_drained_healthy.sh',
    SL + 'sbatch -N 2 -w lab24n1,lab24n2, srun --label, -o %x-%j.out, t24.py PTL/NeMo-style progress lines with '
    '3000-batch validations every 500 steps (20-30 s each); at global_step ~800 an admin set lab24n2 DRAIN (no effect '
    'on the running job; it does not appear in the log); nemo-tiny-6.out unedited. Other cases shared the 2 CPUs',
    anomaly='NONE', category=None, requeue=None, culprit_nodes=[], job_nodes=['lab24n1', 'lab24n2'], checkpoints=4,
    why="Four epochs of progress lines at 10-29 it/s (the ~1 it/s line after each validation includes the 20-29 s "
        "'Validation DataLoader 0: 100%' pass), four 'val_loss reached ... saving model' lines and '`Trainer.fit` "
        "stopped: `max_steps=2000` reached.': healthy.")
add('h24b_torchrun-python-logging-per-rank-step-times-steady-completes-healthy.log', '/work/lab24b/c15_keep/out.log',
    'case_c15_torchrun_pylog_rank1_pinned_with_cpu_hog_no_effect_healthy.sh',
    TRN + "Python-logging lines ('%(asctime)s %(levelname)s [%(process)d] host:rank step ... compute_ms comm_ms "
    "step_ms'); after step 800 rank 1 was pinned to CPU 1 with a nice -5 busy loop pinned there too, which under this "
    'VM\'s load (other jobs) had no visible effect; out.log unedited',
    anomaly='NONE', category=None, requeue=None, culprit_nodes=[], checkpoints=3,
    why="Both ranks log every 100 steps with step_ms 62-102 throughout (no lasting change after step 800), three "
        "'checkpoint saved' lines and 'Training completed: 2400 steps' from both ranks: healthy.")
add('h24b_sbatch-srun-label-ptl-nemo-style-lab24n2-task-aborted-peer-connection-reset.log', R + 'c06/out.log',
    'case_c06_sbatch_srun_l_ptl_rank1_sigabrt.sh',
    SL + 'sbatch -N 2 -w lab24n1,lab24n2 --no-requeue, srun --label, -o %x-%j.out, t24.py PTL/NeMo-style progress '
    'lines; at global_step ~650 rank 1 (on lab24n2) got kill -ABRT; nemo-tiny-8.out unedited. Irregularity: a first run '
    'of this case (job 3) was discarded because t24.py was edited while it ran, so its traceback quoted wrong source lines',
    anomaly='CRASH', category='UNKNOWN', requeue=True, culprit_nodes=[], job_nodes=['lab24n1', 'lab24n2'], checkpoints=1,
    why="Training runs into epoch 1 (global_step=649), then 'srun: error: lab24n2: task 1: Aborted' with no message "
        "from rank 1, and rank 0's gloo 'Connection reset by peer' is the victim: a bare SIGABRT whose cause the log "
        "does not show.")
add('h24b_torchrun-json-metrics-rank1-frozen-gloo-recv-60s-timeout.log', R + 'c13/kept.log',
    'case_c13_torchrun_json_rank1_cgroup_frozen_gloo_timeout.sh',
    TRN + 'JSON metric lines (rank 0) with tokens_per_sec, --pg-timeout 60; after step 1000 rank 1 was put in a cgroup-v1 '
    'freezer group set FROZEN; rank 0 timed out in gloo; the case\'s own 330 s `timeout` then SIGTERMed torchrun (its '
    "'Received 15 death signal' line); out.log copied to kept.log before rank 1 was thawed and the rest killed",
    anomaly='HANG', category=None, requeue=True, culprit_nodes=[], checkpoints=2,
    why="After the step-1000 metrics, eval and checkpoint lines nothing more is logged until rank 0's 'RuntimeError: "
        "... Timed out waiting 60000ms for recv operation to complete' in backward: a collective that never completed "
        "because a peer stopped responding, a hang whose cause the log does not show.")
add('h24b_sbatch-srun-label-ptl-nemo-style-progress-stops-at-step-800-silent-until-time-limit.log', R + 'c12/out.log',
    'case_c12_sbatch_srun_l_ptl_rank1_sigstop_until_time_limit.sh',
    SL + 'sbatch -N 2 -w lab24n1,lab24n2 --time=3 --no-requeue (the batch script echoes its start time and limit), '
    'srun --label, -o %x-%j.out, t24.py PTL/NeMo-style progress lines every 25 steps (~2 s); at global_step ~800 rank 1 '
    '(lab24n2) was SIGSTOPped and never resumed while the job lived, so the job sat silent ~110 s until Slurm\'s time '
    'limit killed it; nemo-tiny-10.out unedited. Irregularity: a first run (job 4) did not print its start time, which '
    'left the silence invisible, and was not kept',
    anomaly='HANG', category=None, requeue=True, culprit_nodes=[], job_nodes=['lab24n1', 'lab24n2'], silence_s=110,
    why="The job started at 23:09:11 and its progress lines (one every ~2 s) stop at global_step=799 after [01:20] of "
        "training, about 23:10:40; nothing follows until 'CANCELLED AT 2026-11-24T23:12:33 DUE TO TIME LIMIT' ~110 s "
        "later: the job stopped making progress long before the limit, which only ended a hung job.")
add('h24b_torchrun-json-metrics-whole-job-cpu-throttled-tokens-per-sec-drop.log', R + 'c14/kept.log',
    'case_c14_torchrun_json_whole_job_cgroup_cpu_quota_tps_drop.sh',
    TRN + 'JSON metric lines (rank 0) with tokens_per_sec; after step 1000 the torchrun agent and both ranks were moved '
    'into a cgroup-v1 cpu group with cfs quota 0.3 CPU, lowered by hand to 0.08 CPU at step ~1400; out.log copied to '
    'kept.log at step 1800 of 2600 while the run was still going (cut there; nothing removed), then everything killed. '
    'Other cases shared the 2 CPUs',
    anomaly='STRAGGLER', category=None, requeue=True, culprit_nodes=[], checkpoints=1,
    why="tokens_per_sec runs 9.2-16.8k to step 1000, 7.7-9.2k for steps 1100-1400, then 3.4k, 2.2k, 2.2k, 2.2k "
        "(step_time_s ~0.46) to step 1800 with no error: a sustained ~5x throughput drop of the whole job, cause not shown.")
add('h24b_torchrun-python-logging-rank1-cpu-throttled-step-ms-rises-to-end.log', R + 'c17/out.log',
    'case_c17_torchrun_pylog_rank1_cfs_quota_step_time_rises.sh',
    TRN + "Python-logging lines ('%(asctime)s %(levelname)s [%(process)d] host:rank step ... compute_ms comm_ms "
    "step_ms'; compute_ms includes DDP's gradient all-reduce, so both ranks show the wait); after step ~700 rank 1 "
    'alone was moved into a cgroup-v1 cpu group with cfs quota 0.12 CPU until the end; out.log unedited. Other cases '
    'shared the 2 CPUs (they slowed the first 300 steps)',
    anomaly='STRAGGLER', category=None, requeue=True, culprit_nodes=[], checkpoints=3,
    why="step_ms falls from 129 to 35 by step 700 as the host frees up, then jumps to 120 at step 800 and stays at "
        "150-210 ms on both ranks for the remaining 1000 steps (4-6x slower, no error) until 'Training completed': a "
        "sustained slowdown of the job; the log does not show which rank causes it.")
