# Labels of the h33b_ logs, written by hand from each kept log by tests/corpus/LABELLING.md (no engine was run).
TOOLS = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6, tqdm 4.70.1; Slurm 22.05.8 (private cluster lab33b, "
         "4 slurmd on one host) where sbatch/srun is named; iptables 1.8.9 (nf_tables) and iproute2 ip/tc where named; gen_h33b/t33.py")
TRN = "torchrun --nproc-per-node 2 (c10d rendezvous on localhost)"
SB = "sbatch -N2 + srun --label"
H2 = ("two network namespaces as hosts gpu-b33-01/gpu-b33-02 (veth 10.233.7.11/12, UTS names via unshare), "
      "torchrun --nnodes 2 --nproc-per-node 1 on each, both hosts' output appended to one file")
ENTRIES = [
 dict(case="a01", slug="torchrun_neox_style_cpp_log_info_metrics_sink_refused_retries_futurewarnings_3000_iters",
      how=f"case_a01: {TRN}, GPT-NeoX-style output (' samples/sec: .. | iteration N/M | elapsed time per iteration (ms): ..', validation "
          "results blocks, 'saving checkpoint at iteration'), TORCH_CPP_LOG_LEVEL=INFO, FutureWarnings; rank 0's metrics uploader thread posts "
          "to 127.0.0.1:44699 where nothing listens (ConnectionRefusedError caught, retried with backoff, WARNING lines); nothing else injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=3,
      why="3000 iterations at a steady 7-13 ms each with falling lm_loss, validation every 500 iterations, three 'successfully saved checkpoint' "
          "lines and 'training finished'; c10d INFO lines (including 'uv_loop_close failed ... EBUSY' at shutdown), FutureWarnings and caught, "
          "retried metrics-upload refusals are noise."),
 dict(case="a05", slug="torchrun_ulimit_v_axolotl_style_index_build_numpy_memoryerror",
      how=f"case_a05: {TRN} started under 'ulimit -v 4000000' (KiB of address space), axolotl-style output ('[time] [LEVEL] [logger.func:line] "
          "[PID:n] [RANK:r] ..', HF-Trainer dicts {{'loss': ..}}); at step 1200 each rank allocates a 3000 MiB in-memory index -> numpy "
          "_ArrayMemoryError; out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, checkpoints=1,
      why="Right after 'building in-memory feature index (3000 MiB per rank)' both ranks die with numpy '_ArrayMemoryError: Unable to allocate "
          "2.93 GiB for an array': the job's own allocation failed (no kernel OOM killer, no node error), a memory-sizing problem of the job "
          "that a requeue would hit again."),
 dict(case="a06", slug="torchrun_ulimit_s_gluon_style_nested_config_dump_segfault",
      how=f"case_a06: {TRN} started under 'ulimit -s 512' (KiB of stack), Gluon/MXNet-style logging ('INFO:root:Epoch[e] Batch [a-b]\\tSpeed: .. "
          "samples/sec\\taccuracy=..'), faulthandler enabled; at step 1300 rank 0 json-dumps a 60000-deep nested run config with the recursion "
          "limit raised -> C stack overflow -> SIGSEGV; out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=2,
      why="After 'writing resolved run config to run_config.json' rank 0 prints 'Fatal Python error: Segmentation fault' and torchrun reports "
          "exitcode -11 for local_rank 0: a bare segfault whose cause the log does not show."),
 dict(case="a07", slug="torchrun_mindspore_style_dataloader_workers_bus_error_feature_file_truncated",
      how=f"case_a07: {TRN}, MindSpore-style output ('epoch: E step: N, loss is ..', 'epoch time: .. ms, per step time: .. ms', "
          "'[WARNING] ME(pid:tid,MainProcess):..' lines), 2 persistent DataLoader workers per rank reading a memmap'ed private copy of the feature "
          "file; after 'epoch: 3 step: 100' the file was truncated to half its size (truncate -s 5760000) -> SIGBUS in the workers; out.log, unedited "
          "(it holds two NUL bytes that torch's worker signal handler wrote)",
      anomaly="CRASH", category="NODE", requeue=True,
      why="'ERROR: Unexpected bus error encountered in worker' and 'DataLoader worker (pid N) is killed by signal: Bus error' on both ranks (rank 0 "
          "also sees the peer close): a Bus error in the data path, a host-level fault (shared memory / mapped file) by the policy, not a bug in "
          "the training code."),
 dict(case="b01", slug="sbatch_srun_tvref_style_scancel_signal_int_keyboardinterrupt",
      file="tvref-mlp-1.out",
      how=f"case_b01: {SB}, torchvision-references-style MetricLogger output ('Epoch: [e]  [i/N]  eta: ..  lr: ..  img/s: ..  loss: .. time: .. "
          "data: ..', 'Test:  Acc@1 ..'); 'scancel --signal=INT <job>' in epoch 3 (no handler); the job's output file, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, job_nodes=["lab33n1", "lab33n2"],
      why="Training runs normally into epoch 3, then both tasks raise KeyboardInterrupt at the same moment and srun reports 'task 0: Interrupt' "
          "and 'task 1: Interrupt' on both nodes: a SIGINT delivered to every task by the job control (scancel --signal=INT / srun), not a "
          "fault of the code or a node."),
 dict(case="a10", slug="torchrun_neox_style_rank1_sigkill_exitcode_minus9",
      how=f"case_a10: {TRN}, GPT-NeoX-style output; rank 1 SIGKILLed from outside (kill -KILL) right after 'iteration 1500'; out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=1,
      why="After iteration 1500 rank 0 gets 'Connection closed by peer ... typically caused by a remote worker crashing' and torchrun reports "
          "'failed (exitcode: -9) local_rank: 1': rank 1 was killed by SIGKILL with no message and no OOM-killer evidence in the log."),
 dict(case="a12", slug="torchrun_sb3_style_data_fs_unmounted_midrun_feature_file_not_found",
      how=f"case_a12: {TRN}, stable-baselines3-style metric tables (rollout/, time/ fps, train/ ..), features read with open()+read() per "
          "sample from an ext4 loop file system; after the 12th table (step 1200) the data file system was lazily unmounted (umount -l) -> "
          "FileNotFoundError; out.log, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True,
      why="After 12 normal tables both ranks fail inside the DataLoader fetch with 'FileNotFoundError: [Errno 2] No such file or directory: "
          "/work/lab33b/mnt/a12data/feat.bin', a data file they had been reading for 1200 steps: the data mount went away under the job, a "
          "storage fault rather than a wrong path in the configuration."),
 dict(case="b03", slug="sbatch_srun_neox_style_task1_node_set_down_node_failure",
      how=f"case_b03: sbatch -N2 -w lab33n1,lab33n2 + srun --label, GPT-NeoX-style output; 3 s after the iteration-1000 checkpoint an "
          "administrator set lab33n2 (task 1's node) DOWN ('scontrol update nodename=lab33n2 state=down reason=...'); the job's output file, "
          "copied to out.log once the job left the queue, unedited",
      anomaly="CRASH", category="NODE", requeue=True, culprit_nodes=["lab33n2"], job_nodes=["lab33n1", "lab33n2"], checkpoints=1,
      why="'srun: error: Node failure on lab33n2' and 'JOB 2 ON lab33n1 CANCELLED ... DUE TO NODE FAILURE' right after a healthy stretch "
          "of iterations: the node lab33n2 was lost, so requeue excluding it."),
 dict(case="c01", slug="two_hosts_neox_style_rendezvous_syns_dropped_first_30s_then_normal_run",
      how=f"case_c01: {H2}; GPT-NeoX-style output, TORCH_CPP_LOG_LEVEL=INFO; for the first 30 s gpu-b33-01 dropped SYNs from gpu-b33-02 "
          "to the rendezvous port (iptables INPUT --syn DROP), so host 2's store client kept retrying; then the rule was flushed; "
          "out.log (both hosts' torchrun appended), unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=3,
      why="After a 35 s wait at start (c10d 'hostname of the client socket cannot be retrieved' warnings, then 'client socket has connected') "
          "training runs all 3000 iterations at 7-18 ms each with validation, three saved checkpoints and 'training finished'; the c10d "
          "INFO/W lines and the shutdown 'uv_loop_close failed ... EBUSY' are noise."),
 dict(case="b02", slug="sbatch_srun_dgl_style_time_limit_lowered_midrun_cancelled",
      how=f"case_b02: {SB}, DGL-dist-style output (every task prints 'Part r | Epoch .. | Step .. | Loss .. | Speed (samples/sec) ..', "
          "'Part r, Epoch Time(s): ..'); 100 s into the run the job's TimeLimit was lowered to 1 minute by an administrator "
          "('scontrol update jobid=.. TimeLimit=1'); the job's output file, copied to out.log, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, job_nodes=["lab33n1", "lab33n2"], checkpoints=7,
      why="A healthy run (7-11k samples/s per part, rising accuracy, checkpoints) ends with 'JOB 3 ON lab33n1 CANCELLED ... DUE TO TIME "
          "LIMIT' and 'STEP 3.0 ... CANCELLED ... DUE TO TIME LIMIT': Slurm killed it for its time limit."),
 dict(case="a04", slug="torchrun_catalyst_style_ckpt_save_errno30_retried_then_8_epochs_completed",
      how=f"case_a04: {TRN}, Catalyst-style output (tqdm '1/8 * Epoch (train)' bars, 'train (e/N) _timer/_fps: .. | .. | loss: ..', "
          "'valid (e/N) ..'), FutureWarnings, checkpoints on a 64 MiB ext4 loop file system with up to 3 retries 5 s apart; right after "
          "'train (2/8)' the file system was remounted read-only for 8 s, then read-write; out.log, unedited",
      anomaly="NONE", category=None, requeue=None,
      why="Two WARNINGs 'checkpoint save ... failed ([Errno 30] Read-only file system ...); retrying in 5 s (1/3)', '(2/3)', then the save "
          "goes through and all 8 epochs finish at a steady 16-25k samples/s with 'Top best models': a transient, retried storage error that "
          "did not stop training."),
 dict(case="a08", slug="torchrun_dgl_style_speed_10k_to_1_7k_samples_per_sec_from_epoch2",
      how=f"case_a08: {TRN}, DGL-dist-style output (every rank prints 'Part r | Epoch .. | Step .. | Speed (samples/sec) .. | Mean step time "
          ".. s' and 'Part r, Epoch Time(s): ..'); early in epoch 2 every thread of rank 1 was moved into a cgroup-v1 cpu group with "
          "cpu.cfs_quota_us=15000 per 100000 us, to the end; out.log, unedited (lines of the two ranks sometimes run together)",
      anomaly="STRAGGLER", category=None, requeue=True, checkpoints=4,
      why="Speed falls from 6.6-11k samples/s per part (epoch time 3.7-4.8 s) to 1.4-1.9k samples/s (mean step time 0.05-0.06 s, epoch "
          "times 21 s) from epoch 2 to the end, on both parts in lock-step, with no error: a sustained slowdown the log does not explain."),
 dict(case="a02", slug="torchrun_tvref_style_truncation_warning_every_step_three_epochs",
      how=f"case_a02: {TRN}, torchvision-references-style MetricLogger output; both ranks print a tokenizer truncation WARNING on every "
          "step (1800 lines); nothing else injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None,
      why="Three epochs with falling loss, 'Test:  Acc@1 ..' after each and 'Training time 0:00:12' at the end; the ~1800 repeated "
          "truncation WARNINGs are a log flood, not a fault."),
 dict(case="c03", slug="two_hosts_tvref_style_plugin_module_missing_on_host2",
      how=f"case_c03: {H2}; torchvision-references-style, --pg-timeout 60, '--plugin lab_metrics_hook' imported at start: the module lived "
          "only in a site directory on gpu-b33-01's PYTHONPATH, not on gpu-b33-02's; out.log (both hosts' torchrun appended), unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, job_nodes=["gpu-b33-01", "gpu-b33-02"],
      why="Rank 1 on gpu-b33-02 fails at start with 'ModuleNotFoundError: No module named lab_metrics_hook' and rank 0 on gpu-b33-01 then "
          "times out waiting for it ('DistStoreError: wait timeout after 60000ms'): a missing Python dependency in the job's environment, "
          "which a requeue does not fix; the store timeout is the victim."),
 dict(case="b05", slug="sbatch_srun_monai_style_tasks_end_with_user_defined_signal_2",
      how=f"case_b05: {SB}, MONAI-style output (StatsHandler 'Epoch: e/N, Iter: i/M -- train_loss: ..', 'Epoch[e] Metrics -- ..', "
          "ignite 'Epoch[e] Complete. Time taken: ..'), no signal handler; 'scancel --signal=USR2 <job>' in epoch 4; the job's output "
          "file, copied to out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, job_nodes=["lab33n1", "lab33n2"], checkpoints=1,
      why="Mid-epoch, with normal loss lines just before, srun reports 'lab33n1: task 0: User defined signal 2' and 'lab33n2: task 1: User "
          "defined signal 2' and nothing else: both tasks were killed by a bare SIGUSR2 whose sender and reason the log does not show."),
 dict(case="a11", slug="torchrun_monai_style_silent_after_epoch3_checkpoint", file="kept.log",
      how=f"case_a11: {TRN}, MONAI-style output, 2 (non-persistent) DataLoader workers per rank, pg timeout 1800 s: from step 650 a stats "
          "thread holds a lock that the workers' __getitem__ also takes, so the workers forked for the next pass over the data (step 937) "
          "inherit it locked and never deliver a batch; kept.log is out.log copied after 150 s without output (the case then stopped the run)",
      anomaly="HANG", category=None, requeue=True, silence_s=150, checkpoints=3,
      why="Three normal epochs (loss, val_accuracy, 'Epoch[3] Complete', 'Saved checkpoint at epoch: 3'), then no line at all for 150 s "
          "although the run was set for 10 epochs of ~5 s: the job stopped making progress without an error."),
 dict(case="a03", slug="torchrun_flair_style_110s_gap_before_first_dev_score_then_five_epochs",
      how=f"case_a03: {TRN}, Flair-style ModelTrainer output ('epoch E - iter i/N - loss .. - samples/sec: ..', 'EPOCH E done', 'DEV : loss .. - "
          "f1-score (micro avg) ..'); the first end-of-epoch evaluation is a 'full' one during which both ranks sit silent for 110 s "
          "(--eval-extra-s 110); nothing else injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None,
      why="After epoch 1's last iteration the log is silent for 110 s, then 'EPOCH 1 done' and the DEV score arrive and epochs 2-5 run at "
          "the same ~12k samples/s to 'Done.' and the final Results: a long evaluation pause inside a run that completed, not a hang."),
 dict(case="a13", slug="torchrun_neox_style_rank0_brokenpipeerror_printing_validation_results",
      how=f"case_a13: {TRN}, GPT-NeoX-style output; torchrun's stdout piped through 'tee -a out.log' (stderr appended to out.log directly); "
          "the tee was SIGKILLed right after 'iteration 1500', so rank 0's next print to stdout met a pipe without a reader; out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=1,
      why="Rank 0 dies with 'BrokenPipeError: [Errno 32] Broken pipe' raised by print() of the validation results (its stdout went away), "
          "rank 1 then sees 'Connection closed by peer' and torchrun reports exitcode 1 for local_rank 0: the job's output consumer vanished "
          "for a reason the log does not show; nothing points at the code, a node or the network, and a rerun would go through."),
 dict(case="a14", slug="torchrun_flair_style_logging_error_brokenpipe_on_every_record_run_completes",
      how=f"case_a14: {TRN}, Flair-style output through Python logging to stdout; stdout piped through 'tee -a out.log' (stderr appended to "
          "out.log directly); the tee was SIGKILLed in epoch 2; out.log, unedited",
      anomaly="NONE", category=None, requeue=None,
      why="From epoch 2 every log record becomes a '--- Logging error --- ... BrokenPipeError: [Errno 32] Broken pipe' block on stderr, "
          "but each block's 'Message:' shows training going on (EPOCH 2-4 done, DEV f1 0.96 -> 0.997, the final Results) and no rank "
          "fails: lost log output, not a failed job."),
 dict(case="a16", slug="torchrun_neox_style_resume_keyerror_opt_on_both_ranks",
      how=f"case_a16: {TRN}, GPT-NeoX-style output, --resume; the latest checkpoint (checkpoints/global_step1000) held only model weights "
          "and the step (an export without optimizer state, written by the case); out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False,
      why="Right after 'Resuming from checkpoints/global_step1000/mp_rank_00_model_states.pt' both ranks raise \"KeyError: 'opt'\" while "
          "loading it: the checkpoint lacks the optimizer state the resume code expects, a deterministic configuration/data problem."),
 dict(case="c04", slug="two_hosts_gluon_style_gloo_read_error_connection_timed_out_on_gpu_b33_02",
      how=f"case_c04: {H2}; Gluon/MXNet-style logging, pg timeout 1800 s; gpu-b33-02's namespace had net.ipv4.tcp_retries2=3; at "
          "'Epoch[2] Batch [0-100]' gpu-b33-02 began dropping every packet from gpu-b33-01 (iptables INPUT DROP), so its TCP gave up on "
          "unacknowledged data after a few retransmissions (ETIMEDOUT); host 1's worker stayed blocked and its agent was SIGTERMed by the "
          "case 5 minutes later; out.log (both hosts' torchrun appended), unedited",
      anomaly="CRASH", category="NETWORK", requeue=True, job_nodes=["gpu-b33-01", "gpu-b33-02"], checkpoints=1,
      why="Seconds after normal progress, rank 1 fails with gloo 'Read error [10.233.7.11]:..: Connection timed out' and gpu-b33-02's agent "
          "loses the c10d store ('recvValueWithTimeout failed ... Connection timed out', 'sendBytes failed ... Broken pipe', "
          "RendezvousConnectionError): TCP connections between the hosts timed out at the socket level, a network fault; host 1 is only "
          "terminated afterwards."),
 dict(case="a17", slug="torchrun_axolotl_style_rank0_fatal_python_error_illegal_instruction",
      how=f"case_a17: {TRN}, axolotl-style output, faulthandler enabled; rank 0 sent SIGILL from outside (kill -ILL) at step 1800; out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=2,
      why="Rank 0 prints 'Fatal Python error: Illegal instruction' and torchrun reports 'failed (exitcode: -4) local_rank: 0', rank 1 only a "
          "'Connection reset by peer': a bare fatal signal with no stated cause."),
 dict(case="b07", slug="sbatch_srun_mindspore_style_sigusr1_emergency_checkpoint_then_ten_epochs",
      how=f"case_b07: {SB}, MindSpore-style output ('epoch: E step: N, loss is ..', 'epoch time: .. ms, per step time: .. ms', "
          "'[WARNING] ME(..)' lines), a SIGUSR1 handler that logs a WARNING, writes an emergency checkpoint and goes on; 'scancel "
          "--signal=USR1 <job>' in epoch 4; the job's output file, copied to out.log, unedited",
      anomaly="NONE", category=None, requeue=None, job_nodes=["lab33n1", "lab33n2"],
      why="Both tasks log 'Received SIGUSR1 (job may be preempted): saving an emergency checkpoint at step 1097 and continuing', the checkpoint "
          "is written, and training goes on at the same 7.4-8.3 ms per step through epoch 10 to 'End Training': a warning signal that was "
          "handled, with no preemption or kill following."),
 dict(case="a18", slug="torchrun_catalyst_style_gloo_recv_timeout_60000ms_rank1_unkillable",
      how=f"case_a18: {TRN}, Catalyst-style output, --pg-timeout 60; early in epoch 4 gdb attached to rank 1 in batch mode and ran 'shell "
          "sleep 150' before detaching, so rank 1 sat ptrace-stopped for 150 s; out.log, unedited",
      anomaly="HANG", category=None, requeue=True,
      why="Three healthy epochs, then the epoch-4 bar stalls at 5/300 ('12.06s/it') and rank 0 fails with gloo 'Timed out waiting 60000ms "
          "for recv operation to complete'; torchrun cannot stop rank 1 ('Unable to shutdown process ... via 15', 'did not exit after "
          "SIGKILL within 30s'): a collective timeout, i.e. the job hung on a stuck rank."),
 dict(case="a19", slug="torchrun_mindspore_style_gloo_read_error_connection_timed_out_on_loopback",
      how=f"case_a19: {TRN} inside a private network namespace (unshare -n, lo up), MindSpore-style output; after 'epoch: 4 step: 100' the "
          "namespace's loopback got a tbf qdisc (rate 60mbit, burst 32k, latency 100ms); with lo's 64 KiB MTU the large segments exceed "
          "the burst and are all dropped, so the ranks' gloo connection stalled (meant as a slowdown); out.log, unedited",
      anomaly="CRASH", category="NETWORK", requeue=True,
      why="Right after normal epochs (10-11 ms per step) rank 0 fails with gloo 'Read error [127.0.0.1]:..: Connection timed out' and "
          "torchrun ends the job: the TCP connection between the ranks timed out at the socket level (no peer crash shown first), a "
          "transport fault."),
 dict(case="b06", slug="sbatch_srun_sb3_style_fps_23k_to_4_7k_from_iteration_11",
      how=f"case_b06: {SB}, stable-baselines3-style metric tables from task 0 (time/fps, time/iterations, ..); right after the 10th table "
          "task 1's training process (every thread) was moved into a cgroup-v1 cpu group with cpu.cfs_quota_us=20000 per 100000 us, to the "
          "end; the job's output file, copied to out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True, job_nodes=["lab33n1", "lab33n2"],
      why="time/fps is 21.7-25.2k for iterations 1-10, then 7.3k and 4.3-5.1k for every table from iteration 11 to 40 with no error and "
          "the loss still falling: a sustained ~5x throughput drop for the rest of the run."),
 dict(case="a20", slug="torchrun_dgl_style_distributed_debug_info_ddp_logger_six_epochs",
      how=f"case_a20: {TRN}, DGL-dist-style output, TORCH_DISTRIBUTED_DEBUG=INFO and TORCH_CPP_LOG_LEVEL=INFO (c10d debug lines, the DDP "
          "logger's 'DDP Initialized with:' dump), FutureWarnings, evaluation and checkpoints; nothing injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None,
      why="Six epochs at a steady 7.4-10.3k samples/s per part (epoch time 4.0-4.3 s), val accuracy rising to 0.9995, three 'saving model' "
          "lines and a clean teardown; the c10d debug chatter, 'uv_loop_close failed ... EBUSY' and FutureWarnings are noise."),
 dict(case="c05", slug="two_hosts_monai_style_gloo_recv_timeout_60000ms_both_ranks_in_epoch3",
      how=f"case_c05: {H2}; MONAI-style output, --pg-timeout 60; at 'Epoch: 3/10, Iter: 100/' gpu-b33-01 began rejecting every packet from "
          "gpu-b33-02 with ICMP host-unreachable (iptables INPUT REJECT --reject-with icmp-host-unreachable); out.log (both hosts' torchrun "
          "appended), unedited",
      anomaly="HANG", category=None, requeue=True, job_nodes=["gpu-b33-01", "gpu-b33-02"], checkpoints=1,
      why="Two normal epochs, then no progress for a minute and both ranks fail with gloo 'Timed out waiting 60000ms for recv operation to "
          "complete'; the agents' store errors ('Failed to recv, got 0 bytes', RendezvousConnectionError) follow: a collective timeout, "
          "i.e. the job hung."),
 dict(case="a21", slug="torchrun_axolotl_style_rank0_oserror_errno5_reading_features",
      how=f"case_a21: {TRN}, axolotl-style output, features read with os.pread from an ext4 loop file system; at step 1500 the loop device's "
          "backing image was truncated to 1 MiB and the page cache dropped (echo 1 > /proc/sys/vm/drop_caches); out.log, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True, checkpoints=1,
      why="Rank 0 fails reading a batch with 'OSError: [Errno 5] Input/output error' and rank 1 then sees the peer close: an I/O error "
          "from the data file system."),
 dict(case="b04", slug="sbatch_srun_catalyst_style_cpp_log_info_futurewarnings_ten_epochs",
      how=f"case_b04: {SB}, Catalyst-style output, TORCH_CPP_LOG_LEVEL=INFO, FutureWarnings; in epoch 3 the slurmd of lab33n2 (task 1's "
          "node) was stopped (SIGTERM) and started again 15 s later (the job's steps kept running under their slurmstepd); the job's output "
          "file, copied to out.log, unedited",
      anomaly="NONE", category=None, requeue=None, job_nodes=["lab33n1", "lab33n2"],
      why="Ten epochs at a steady 13.2-14.4k samples/s ('train (e/10) _timer/_fps: ..'), validation after each, 'Top best models' at the "
          "end; the c10d INFO lines, 'uv_loop_close failed ... EBUSY' and FutureWarnings are noise, and nothing from the slurmd restart shows."),
 dict(case="b10", slug="sbatch_time2_srun_gluon_style_sigusr1_warning_then_cancelled_due_to_time_limit",
      how=f"case_b10: sbatch -N2 -w lab33n3,lab33n4 --time=2 --signal=USR1@60 + srun --label, Gluon/MXNet-style logging, a SIGUSR1 handler "
          "that logs a WARNING, writes an emergency checkpoint and goes on training (nothing makes the run stop); the job's output file, "
          "copied to out.log, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, job_nodes=["lab33n3", "lab33n4"], checkpoints=9,
      why="Both tasks log 'Received SIGUSR1 (job may be preempted): saving an emergency checkpoint at step 3541 and continuing', training "
          "goes on, and a minute later 'JOB 7 ON lab33n3 CANCELLED ... DUE TO TIME LIMIT' / 'STEP 7.0 ... DUE TO TIME LIMIT' ends it: "
          "Slurm's pre-timeout signal was caught but the job ran into its time limit."),
 dict(case="a19b", slug="torchrun_mindspore_style_per_step_time_8ms_to_49ms_from_epoch4",
      how=f"case_a19b: {TRN} inside a private network namespace (unshare -n, lo up), MindSpore-style output; after 'epoch: 4 step: 100' the "
          "namespace's loopback (which carries both ranks' gloo traffic) got a tbf qdisc (rate 400mbit, burst 256k, latency 100ms), to the end; "
          "out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True,
      why="'per step time' is 7.7-8.4 ms for epochs 1-3, 29.6 ms for epoch 4 and 48.8-49.8 ms for each of epochs 5-8 (epoch time 2.3-2.5 s "
          "-> 14.6-14.9 s) with no error and the loss still falling: a sustained ~6x slowdown to the end of the run."),
 dict(case="b11", slug="sbatch_srun_catalyst_style_feature_index_task1_out_of_memory_oom_kill_events",
      how=f"case_b11: sbatch -N2 -w lab33n3,lab33n4 --mem=1000M + srun --label, Catalyst-style output; at step 1000 every task builds a "
          "1100 MiB in-memory feature index, beyond the job's memory cgroup limit on each node (ConstrainRAMSpace=yes); the job's output file, "
          "copied to out.log, unedited",
      anomaly="CRASH", category="NODE", requeue=True, job_nodes=["lab33n3", "lab33n4"],
      why="Right after 'building in-memory feature index (1100 MiB per rank)' srun reports 'lab33n4: task 1: Out Of Memory' and slurmstepd on "
          "both nodes 'Detected 1 oom-kill event(s) in StepId=9.0': processes killed by the out-of-memory handler, a host-memory kill that "
          "the policy files under NODE."),
 dict(case="a23", slug="torchrun_tvref_style_rank0_oserror_errno28_in_torch_save_epoch2",
      how=f"case_a23: {TRN}, torchvision-references-style MetricLogger output, checkpoints (2 MiB padding each) after every epoch on a 48 MiB "
          "ext4 loop file system shared with another writer: at 'Epoch: [2]  [  0/300]' a dd (as if another job's scratch file) filled the "
          "file system; out.log, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True,
      why="At the end of epoch 2 rank 0 fails in torch.save with 'OSError: [Errno 28] No space left on device' (then 'unexpected pos' from the "
          "zip writer) and rank 1 sees the peer close: the checkpoint file system is full."),
 dict(case="c06", slug="two_hosts_sb3_style_gloo_recv_timeout_60000ms_after_iteration_8",
      how=f"case_c06: {H2}; stable-baselines3-style tables, --pg-timeout 60; after the 8th table gpu-b33-02's interface was set down "
          "(ip link set l33bv2 down) for good; host 1's agent exited after its worker failed, host 2's agent (cut off from the store) was "
          "SIGKILLed by the case, so the file ends with the launching shell's 'Killed' job-status line for it; out.log (both hosts' torchrun "
          "appended), unedited",
      anomaly="HANG", category=None, requeue=True, job_nodes=["gpu-b33-01", "gpu-b33-02"],
      why="Eight normal tables, then nothing for a minute and both ranks fail with gloo 'Timed out waiting 60000ms for recv operation to "
          "complete': a collective timeout, i.e. the job hung (the log does not show why)."),
 dict(case="b08", slug="sbatch_srun_flair_style_silent_in_epoch3_after_iter_120", file="kept.log",
      how=f"case_b08: {SB}, Flair-style output, features read with open()+read() per sample from a private copy of the feature file (pg "
          "timeout 1800 s); at 'epoch 3 - iter 120/' the file was replaced by a named pipe with no writer (mkfifo + mv), so every rank's next "
          "open() blocked; kept.log is the job's output file copied after 150 s without output (the case then scancelled the job)",
      anomaly="HANG", category=None, requeue=True, silence_s=150, job_nodes=["lab33n1", "lab33n2"], checkpoints=2,
      why="Two epochs and the start of a third at ~11k samples/s with a line every 0.3 s, then no output for 150 s and no error: the job "
          "stopped making progress mid-epoch."),
 dict(case="c07", slug="two_hosts_catalyst_style_cpp_log_info_futurewarnings_eight_epochs",
      how=f"case_c07: {H2}; Catalyst-style output, TORCH_CPP_LOG_LEVEL=INFO, FutureWarnings, validation and checkpoints; nothing injected; "
          "out.log (both hosts' torchrun appended), unedited",
      anomaly="NONE", category=None, requeue=None, job_nodes=["gpu-b33-01", "gpu-b33-02"],
      why="Eight epochs at 21.9-25.3k samples/s ('train (e/8) _timer/_fps: ..') with validation after each and 'Top best models' at the end; "
          "c10d INFO/W lines ('hostname of the client socket cannot be retrieved', 'uv_loop_close failed ... EBUSY') and FutureWarnings "
          "are noise."),
 dict(case="c08", slug="two_hosts_axolotl_style_client_socket_timed_out_connecting_gpu_b33_01_store_at_init",
      how=f"case_c08: {H2}; axolotl-style output, --pg-timeout 60; from the start gpu-b33-01 refused new TCP connections from gpu-b33-02 to "
          "any port but the rendezvous port (iptables -m conntrack --ctstate NEW ! --dport <rdzv> -j REJECT --reject-with "
          "icmp-port-unreachable), so the rendezvous worked but the workers' store on gpu-b33-01 could not be reached; out.log (both hosts' "
          "torchrun appended), unedited",
      anomaly="CRASH", category="NETWORK", requeue=True, job_nodes=["gpu-b33-01", "gpu-b33-02"],
      why="gpu-b33-02's worker reports 'The client socket has timed out after 60000ms while trying to connect to (gpu-b33-01, 41557)' and "
          "'TCP client failed to connect/validate to host gpu-b33-01:41557 - retrying', then rank 0 'DistStoreError: wait timeout after "
          "60000ms' and both agents' store errors: the hosts could not open connections to each other's store, a network fault at init."),
 dict(case="c02b", slug="two_hosts_dgl_style_speed_11k_to_2k_samples_per_sec_from_epoch2",
      how=f"case_c02b: {H2}; DGL-dist-style output; after 'Epoch 00002 | Step 00100' gpu-b33-02 dropped packets from gpu-b33-01 above "
          "24 MB/s (iptables INPUT -m hashlimit --hashlimit-above 24mb/s --hashlimit-burst 32mb --hashlimit-mode srcip -j DROP), to the end "
          "(1904 packets, 88 MB dropped); out.log (both hosts' torchrun appended), unedited",
      anomaly="STRAGGLER", category=None, requeue=True, job_nodes=["gpu-b33-01", "gpu-b33-02"], checkpoints=4,
      why="Speed is 10.4-13.8k samples/s per part (epoch time 3.0-3.5 s) through epoch 1, then 5.3k and 1.99-2.08k samples/s on every "
          "report from epoch 2 to the end (epoch time 18.6-18.8 s), with no error and rising accuracy: a sustained ~5x slowdown."),
]
