# Labels of the h32b_ logs, written by hand from each kept log by tests/corpus/LABELLING.md (no engine was run).
TOOLS = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6, tqdm 4.70.1; Slurm 22.05.8 (private cluster lab32b, "
         "4 slurmd on one host) where sbatch/srun is named; iptables 1.8.9 (nf_tables) and iproute2 tc where named; gen_h32b/t32.py")
TRN = "torchrun --nproc-per-node 2 (c10d rendezvous on localhost)"
SB = "sbatch -N2 + srun --label"
H2 = ("two network namespaces as hosts gpu-b32-01/gpu-b32-02 (veth 10.232.7.11/12, UTS names via unshare), "
      "torchrun --nnodes 2 --nproc-per-node 1 on each, both hosts' output appended to one file")
ENTRIES = [
 dict(case="a01", slug="torchrun_nanogpt_style_metrics_sink_refused_retries_futurewarnings_4000_iters",
      how=f"case_a01: {TRN}, nanoGPT-style output ('iter N: loss .., time ..ms, mfu ..%', 'step N: train loss .., val loss ..', "
          "'saving checkpoint to out'), FutureWarnings; rank 0's metrics uploader thread posts to 127.0.0.1:43690 where nothing "
          "listens (ConnectionRefusedError caught, retried with backoff, WARNING lines); nothing else injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4,
      why="4000 iterations at 6.5-14.4 ms each (after the 24.7 ms first one), falling train/val loss and four 'saving checkpoint' lines; the only alarming "
          "lines are FutureWarnings and caught, retried metrics-upload ConnectionRefusedErrors, which do not touch training."),
 dict(case="a07", slug="torchrun_maxtext_style_feature_file_overwritten_midrun_loss_nan",
      how=f"case_a07: {TRN}, MaxText-style absl logging ('completed step: N, seconds: .., TFLOP/s/device: .., Tokens/s/device: ..'), "
          "features memmap'ed from a private copy of the feature file; after step 1500 6 MiB of that file (from offset 2 MiB) were "
          "overwritten in place with random bytes (dd if=/dev/urandom conv=notrunc); out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False, checkpoints=1,
      why="After step 1500 numpy 'invalid value/overflow encountered in matmul' RuntimeWarnings appear and both ranks raise "
          "'FloatingPointError: Loss is nan (grad norm nan) at step 1537': a non-finite loss ends the run (bad input data), which "
          "the policy counts as APPLICATION; requeueing would read the same data."),
 dict(case="a11", slug="torchrun_nanogpt_style_rank0_sigabrt_fatal_python_error_aborted",
      how=f"case_a11: {TRN}, nanoGPT-style output, faulthandler enabled; rank 0 was sent SIGABRT from outside (kill -ABRT) right "
          "after 'iter 2000'; out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=2,
      why="Rank 0 prints 'Fatal Python error: Aborted' with a stack in backward and torchrun reports exitcode -6 (SIGABRT) as root "
          "cause, rank 1 only sees 'Connection reset by peer': a bare fatal signal with no stated cause."),
 dict(case="a12", slug="torchrun_litgpt_style_third_checkpoint_on_14m_tmpfs_errno_28",
      how=f"case_a12: {TRN}, litgpt-style output ('Epoch 1 | iter N step N | loss train: .., val: .. | iter time: .. ms (step) "
          "remaining time: ..', 'Saving checkpoint to ..lit_model.pth'); checkpoints (padded to ~6.6 MB) on a 14 MiB tmpfs mounted "
          "for the case, so the third save runs out of space; out.log, unedited",
      anomaly="CRASH", category="STORAGE", requeue=True, checkpoints=2,
      why="Saving step-00002400 fails on rank 0 with 'OSError: [Errno 28] No space left on device' (then torch's 'unexpected pos' "
          "RuntimeError); rank 1 only sees 'Connection closed by peer': the checkpoint file system is full."),
 dict(case="b04", slug="sbatch_n2_srun_speechbrain_style_sidecar_step_modulenotfound_training_completes",
      how=f"case_b04: {SB}, SpeechBrain-style output ('speechbrain.core - ..' lines, a tqdm bar per epoch, 'speechbrain.utils.train_logger - "
          "epoch: N, lr: .. - train loss: .. - valid loss: .., valid error_rate: ..', 'Saved an end-of-epoch checkpoint in ..'); 20 s into "
          "the job a one-task sidecar step (srun -N1 -n1 --overlap) meant to write TensorBoard summaries fails with ModuleNotFoundError "
          "(tensorboard not installed) while the training step runs on to the end; rates vary 43-86 it/s with the other cases' load on "
          "the shared VM; the job's output file, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=7,
      why="The only failure is the side step ('No module named tensorboard', 'srun: error: lab32n1: task 0: Exited with exit code 1'); "
          "the training step keeps logging epochs with falling loss, saves every second epoch and ends with 'Training completed'."),
 dict(case="b06", slug="sbatch_n2_srun_maxtext_style_scancel_job_cancelled_at",
      how=f"case_b06: {SB}, MaxText-style absl logging; the job was cancelled with plain 'scancel <jobid>' right after step 1500; "
          "the job's output file, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, checkpoints=1,
      why="Training is healthy up to step 1500, then 'slurmstepd-lab32n1: error: *** STEP 2.0 ON lab32n1 CANCELLED AT ..' and "
          "'*** JOB 2 ON lab32n1 CANCELLED AT .. ***' end it: the job was cancelled through Slurm, not by a fault of its own."),
 dict(case="a06", slug="torchrun_allennlp_style_rank1_busy_wait_application_timeout_pair_closure_abort",
      how=f"case_a06: {TRN} --pg-timeout 60, AllenNLP-style logging (params, 'Epoch N/16', ascii tqdm bar 'accuracy: .., batch_loss: "
          ".., loss: .. ||: ..', the Training | Validation metric table, 'Epoch duration'); at step 1400 rank 1 busy-waits (a Python loop "
          "with no sleep and no output) for a prefetcher's ready-file that never appears, while rank 0 waits in the gradient allreduce; "
          "out.log, unedited",
      anomaly="HANG", category=None, requeue=True, checkpoints=2,
      why="Epoch 4's bar stops at 199/300 and, a minute later, rank 0 fails with gloo's 'RuntimeError: Application timeout caused pair "
          "closure' inside backward (then 'terminate called without an active exception' / 'Fatal Python error: Aborted' while tearing "
          "down): a collective that timed out waiting for its peer, i.e. a hang; the log does not show why rank 1 stopped."),
 dict(case="a09", slug="torchrun_sockeye_style_resume_weights_only_unpicklingerror_numpy_scalar",
      how=f"case_a09: {TRN}, Sockeye-style logging ('[date:LEVEL:sockeye.training:func] Epoch[e] Batch [N] Speed: .. samples/sec ..', "
          "'Checkpoint [k] Train-perplexity=..'); a first run (not kept) wrote params.00001/params.00002 whose metadata holds numpy scalars; "
          "the kept second run resumes from params.00002 with torch.load's defaults (weights_only=True since torch 2.6); out.log, unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False,
      why="Right after 'Resuming from .../params.00002' both ranks raise '_pickle.UnpicklingError: Weights only load failed ... Unsupported "
          "global: GLOBAL numpy._core.multiarray.scalar': the code loads its own checkpoint in a way this torch version refuses, which "
          "fails the same way on every retry."),
 dict(case="b01", slug="sbatch_n2_srun_allennlp_style_index_build_out_of_memory_oom_kill_event",
      how=f"case_b01: sbatch -N2 -c1 --mem-per-cpu=500M + srun --label, AllenNLP-style logging; at step 1300 every rank builds a 600 MiB "
          "in-memory index ('building in-memory feature index (600 MiB per rank)'), beyond the step's memory cgroup (task/cgroup, "
          "ConstrainRAMSpace) -> the cgroup OOM killer; the job's output file, unedited",
      anomaly="CRASH", category="NODE", requeue=True, job_nodes=["lab32n1", "lab32n2"],
      why="Right after the index build starts, 'srun: error: lab32n1: task 0: Out Of Memory' and 'slurmstepd-lab32n2: error: Detected 1 "
          "oom-kill event(s) in StepId=3.0 ... killed by the cgroup out-of-memory handler': the out-of-memory killer ended the job."),
 dict(case="a02", slug="torchrun_litgpt_style_dev_shm_full_unable_to_allocate_shared_memory_dataloader_worker",
      how=f"case_a02: {TRN}, started in a private mount namespace whose /dev/shm is an 8 MiB tmpfs, litgpt-style output (Lightning Fabric "
          "'Initializing distributed' banner, 'Epoch 1 | iter N step N | loss train: ..'), 2 persistent DataLoader workers per rank (batches "
          "pass through /dev/shm); after iter 1000 another process in that namespace filled /dev/shm with dd; out.log, unedited",
      anomaly="CRASH", category="NODE", requeue=True, checkpoints=1,
      why="Rank 0 dies with 'Caught RuntimeError in DataLoader worker process 0 ... unable to allocate shared memory(shm) for file "
          "</torch_..>: No space left on device (28)' and rank 1 only sees 'Connection closed by peer': the host's shared memory "
          "(/dev/shm) ran out, a node resource rather than the job's code or its storage."),
 dict(case="b05", slug="sbatch_n2_srun_sockeye_style_step_creation_temporarily_disabled_then_trains",
      how=f"case_b05: sbatch -N2 -c2 + srun --label, Sockeye-style logging; the job script starts a staging step (2 tasks x 2 CPUs: copy "
          "the feature file, print 'staged on ..', wait 25 s) in the background and then the training step, which cannot get CPUs until "
          "the staging step ends ('step creation temporarily disabled, retrying'); no fault injected; the job's output file, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4,
      why="'srun: Job 4 step creation temporarily disabled, retrying (Requested nodes are busy)' is followed by 'Step created' 30 s "
          "later; training then runs 4000 updates at 6-15k samples/s with falling perplexity, four saved checkpoints and 'Training "
          "finished': a wait for resources inside the allocation, not a fault."),
 dict(case="a10", slug="torchrun_paddlenlp_style_checkpoint_mirror_errno_28_warnings_training_completed",
      how=f"case_a10: {TRN}, PaddleNLP-trainer-style logging ('[time] [    INFO] - loss: .., learning_rate: .., global_step: N, "
          "interval_runtime: .., interval_samples_per_second: ..', '***** Running Evaluation *****', 'Saving model checkpoint to ..'), "
          "FutureWarnings; each checkpoint is also mirrored, best effort, to a 2 MiB tmpfs that cannot hold it (Errno 28 caught and "
          "logged as a WARNING); nothing else injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4,
      why="Every 'Saving model checkpoint' is followed by a WARNING that the mirror copy failed with '[Errno 28] No space left on "
          "device' and 'continuing (the primary checkpoint ... is intact)'; training logs all 4000 steps at 7.5-25k samples/s with "
          "falling loss and ends with 'Training completed.': noise, not a failure."),
 dict(case="b13", slug="sbatch_array_task1_srun_litgpt_style_resume_size_mismatch_for_inp_weight",
      how=f"case_b13: sbatch --array=0-1 -N2 + srun --label, litgpt-style fine-tune sweep; both tasks resume from a copy of one pretrained "
          "checkpoint (hidden width 512, made by a torchrun run first, not kept); task 1's sweep value sets the width to 1024; task 1's "
          "output file (lit-ft-5_1.out), unedited",
      anomaly="CRASH", category="APPLICATION", requeue=False,
      why="Right after 'Resuming training from ..step-00001000/lit_model.pth' both ranks fail with 'Error(s) in loading state_dict for "
          "Net: size mismatch for inp.weight: copying a param with shape torch.Size([512, 48]) ... current model is torch.Size([1024, "
          "48])': a configuration that does not match the checkpoint, the same on every retry."),
 dict(case="b13", file="out0.log", slug="sbatch_array_task0_srun_litgpt_style_resumed_fine_tune_completed",
      how=f"case_b13: sbatch --array=0-1 -N2 + srun --label, litgpt-style fine-tune sweep; task 0 (the pretrained width) resumes from "
          "step 1000 and trains to step 3000; nothing injected; task 0's output file (lit-ft-5_0.out), unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=2,
      why="'Resuming training from ..step-00001000' then iterations 1100-3000 at 8-26 ms, validation and two saves, ending with "
          "'Training time: 30.73s': a healthy resumed run."),
 dict(case="a13", slug="torchrun_olmo_style_c10d_debug_detail_segmentation_fault_in_ddp_init",
      how=f"case_a13: {TRN}, OLMo-style logging, TORCH_DISTRIBUTED_DEBUG=DETAIL + TORCH_CPP_LOG_LEVEL=INFO (c10d trace lines); meant as "
          "a healthy noisy run, but both ranks died with SIGSEGV inside DistributedDataParallel's constructor (_ddp_init_helper) under "
          "the DETAIL debug level, before the first step; nothing was injected; out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True,
      why="After the c10d store trace lines both ranks print 'Fatal Python error: Segmentation fault' with a stack in "
          "torch/nn/parallel/distributed.py _ddp_init_helper and torchrun reports exitcode -11: a bare segfault whose cause the log "
          "does not state."),
 dict(case="b02", slug="sbatch_n2_srun_step_time_limit_nanotron_style_step_cancelled_due_to_time_limit",
      how=f"case_b02: sbatch -N2 (no job time limit) + 'srun --label --time=1' (a one-minute time limit on the training step), "
          "Nanotron-style logging ('[INFO|DP=0|PP=0|TP=0|host]: iteration: N / 100000 | consumed_tokens: .. | "
          "elapsed_time_per_iteration_ms: .. | tokens_per_sec: ..'); the job's output file, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, job_nodes=["lab32n1", "lab32n2"],
      why="A steady run is ended by 'slurmstepd-lab32n1: error: *** STEP 7.0 ON lab32n1 CANCELLED AT .. DUE TO TIME LIMIT ***', "
          "then 'task 0/1: Terminated' and 'Force Terminated StepId=7.0': Slurm's time limit ended it."),
 dict(case="b07", slug="sbatch_n2_time1_srun_horovod_style_job_cancelled_due_to_time_limit",
      how=f"case_b07: sbatch -N2 --time=1 + srun --label, Horovod-style output (every line tagged '[1,R]<stdout>:' as mpirun "
          "--tag-output does, 'Train Epoch: E [n/N (p%)]\tLoss: ..', 'Test set: Average loss: .., Accuracy: ..%'), no signal handler; "
          "the job's output file, unedited",
      anomaly="CRASH", category="SCHEDULER", requeue=True, checkpoints=3,
      why="Mid-epoch 8 'srun: Job step aborted' and 'slurmstepd-lab32n1: error: *** STEP 8.0 / JOB 8 ON lab32n1 CANCELLED AT .. "
          "DUE TO TIME LIMIT ***' end a healthy run: the job hit its time limit."),
 dict(case="b03", slug="sbatch_n2_srun_litgpt_style_node_failure_on_lab32n2_slurmd_hung",
      how=f"case_b03: sbatch -N2 -w lab32n1,lab32n2 + srun --label, litgpt-style output; after iter 1500 lab32n2's slurmd was SIGSTOPped "
          "(a hung node daemon; the job's processes kept running), so slurmctld found lab32n2 not responding (SlurmdTimeout=20) and set "
          "it DOWN; the slurmd was SIGCONTed after the job left the queue; the job's output file, unedited",
      anomaly="CRASH", category="NODE", requeue=True, culprit_nodes=["lab32n2"], job_nodes=["lab32n1", "lab32n2"], checkpoints=5,
      why="Training is healthy to iter 5200, then 'srun: error: Node failure on lab32n2' and '*** JOB 9 ON lab32n1 CANCELLED AT .. DUE "
          "TO NODE FAILURE ***': Slurm lost node lab32n2; requeueing without it should work."),
 dict(case="b10", slug="sbatch_n2_srun_kill_on_bad_exit_maxtext_style_cpp_log_info_completed",
      how=f"case_b10: sbatch -N2 -w lab32n1,lab32n2 + srun --label --kill-on-bad-exit=1, MaxText-style absl logging, "
          "TORCH_CPP_LOG_LEVEL=INFO (c10d/reducer INFO lines); during the run lab32n4 (not in the job) was set DOWN by 'scontrol update' "
          "(reason 'Kill task failed'), but ReturnToService=2 returned it within 11 s, so the job script's closing 'sinfo -R' printed "
          "only its header; the job's output file, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4,
      why="4000 steps at a steady 8-17 ms/step with falling loss, four finished saves and 'Training completed: 4000 steps in 45.3 "
          "seconds'; the C++ INFO lines (reducer, store) are start-up chatter and the final 'sinfo -R' lists no node."),
 dict(case="a05", file="kept.log", slug="torchrun_speechbrain_style_silent_mid_epoch_5",
      how=f"case_a05: {TRN} (process-group timeout 1800 s), SpeechBrain-style output, 2 persistent DataLoader workers per rank; early "
          "in epoch 5 both of rank 0's DataLoader workers were SIGSTOPped (rank 0 then waits for a batch for ever, rank 1 in the "
          "gradient allreduce); the log was copied (kept.log) after 150 s without a new byte, then the agents were stopped; unedited",
      anomaly="HANG", category=None, requeue=True, checkpoints=2, silence_s=150,
      why="Epoch 5's progress bar stops at 256/300 (57.87 it/s) with no error, no exit and no further output for 150 s, after four "
          "normal epochs: the job stopped making progress; the log does not say why."),
 dict(case="a08", slug="torchrun_horovod_style_rank1_exitcode_minus_24_sigxcpu",
      how=f"case_a08: {TRN}, Horovod-style output (every line tagged '[1,R]<stdout>:'/'<stderr>:' as horovodrun/mpirun --tag-output "
          "does), epochs of 400 steps; in epoch 3 rank 1's RLIMIT_CPU was lowered from outside (prlimit --cpu=22:52, a few CPU-seconds "
          "above what it had used) -> SIGXCPU when the soft limit was reached, in epoch 9; out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=4,
      why="Both ranks log normally into epoch 9, then rank 0 gets 'Connection reset by peer' and torchrun names rank 1 the root cause "
          "with 'exitcode -24 ... Signal 24 (SIGXCPU) received by PID 7768': a bare fatal signal, nothing in the log says who set a "
          "CPU-time limit or why."),
 dict(case="a16", slug="torchrun_horovod_style_checkpoint_fsync_errno_28_thin_loop_fs",
      how=f"case_a16: {TRN}, Horovod-style output; checkpoints (padded to ~5.6 MB) on an ext4 (no journal) made on a sparse 64 MiB "
          "loop file that itself lives on a 10 MiB tmpfs (a thin-provisioned volume): the first save fits, the second overruns the "
          "backing store and the loop device fails the writeback; meant to give EIO, the kernel passed ENOSPC up to fsync; out.log, "
          "unedited",
      anomaly="CRASH", category="STORAGE", requeue=True, checkpoints=1,
      why="After 'Saved checkpoint ..checkpoint-800.pth.tar' the next save dies in os.fsync with 'OSError: [Errno 28] No space left "
          "on device' on rank 0 and rank 1 only sees 'Connection closed by peer': the checkpoint storage ran out of space."),
 dict(case="a17", slug="torchrun_nanotron_style_rank1_exitcode_minus_5_sigtrap",
      how=f"case_a17: {TRN}, Nanotron-style logging; rank 1 was sent SIGTRAP from outside (kill -TRAP) right after iteration 2000, "
          "while rank 0 was saving the step-2000 checkpoint; out.log, unedited",
      anomaly="CRASH", category="UNKNOWN", requeue=True, checkpoints=1,
      why="During 'Saving checkpoint at checkpoints/2000' rank 0 fails with 'Connection reset by peer' and torchrun names rank 1 the "
          "root cause with 'exitcode -5 ... Signal 5 (SIGTRAP)': rank 1 died from a bare signal, with no message of its own."),
 dict(case="a15", slug="torchrun_maxtext_style_c10d_debug_info_uv_loop_close_ebusy_completed",
      how=f"case_a15: {TRN}, MaxText-style absl logging, TORCH_DISTRIBUTED_DEBUG=INFO + TORCH_CPP_LOG_LEVEL=INFO (c10d store/socket, "
          "reducer and 'DDP Initialized with:' lines, store shutdown lines), FutureWarnings logged through absl, evaluation and "
          "checkpoints; nothing injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4,
      why="4000 steps at 7-12 ms/step with falling loss, four 'Finished synchronous save' lines and 'Training completed: 4000 steps'; "
          "the c10d chatter, FutureWarnings and the closing 'uv_loop_close failed with:-16 errn:EBUSY' are shutdown noise after a "
          "clean finish."),
 dict(case="a03", slug="torchrun_olmo_style_checkpoint_dir_immutable_permissionerror_errno_1",
      how=f"case_a03: {TRN}, OLMo-style logging (tab-separated time/host:rank/logger:line/level, '[step=N/M]' metric blocks, "
          "'Saving unsharded checkpoint...', uncaught exceptions logged by olmo.util as 'CRITICAL Uncaught ..'); the checkpoint "
          "directory was made immutable (chattr +i) right after 'Checkpoint saved to ../step1000-unsharded'; out.log of the second "
          "attempt (see Discarded), unedited",
      anomaly="CRASH", category="STORAGE", requeue=True, checkpoints=1,
      why="At the step-2000 save rank 0 logs 'CRITICAL Uncaught PermissionError: [Errno 1] Operation not permitted: "
          "'/work/lab32b/runs/a03/ckpt/step2000-unsharded'' from os.makedirs; torchrun then SIGTERMs rank 1 and names rank 0 "
          "(exitcode 1) the root cause: the checkpoint directory could no longer be written."),
 dict(case="b14", file="kept.log", slug="sbatch_n2_srun_olmo_style_silent_after_saving_unsharded_checkpoint",
      how=f"case_b14: {SB}, OLMo-style logging (process-group timeout 1800 s); rank 0 takes an exclusive flock on <ckpt>/.lock around "
          "each save; after the step-1000 save another process on the host took that lock and kept it, so rank 0 blocked in the "
          "step-2000 save and rank 1 in the barrier after it; the job's output file was copied (kept.log) after 150 s without a new "
          "byte, then the job was scancelled; unedited",
      anomaly="HANG", category=None, requeue=True, checkpoints=1, silence_s=150,
      why="The last line is 'Saving unsharded checkpoint...' at step 2000 (the step-1000 save had finished in well under a second) "
          "and nothing follows for 150 s, no error and no exit: the job stopped making progress in a checkpoint save."),
 dict(case="c02", slug="2host_torchrun_sockeye_style_host2_waits_40s_for_rendezvous_host_then_trains",
      how=f"case_c02: {H2}, Sockeye-style logging; gpu-b32-02's torchrun was started 40 s before gpu-b32-01's (the rendezvous host), "
          "so its agent waited for the store to come up (printing only c10d's 'hostname of the client socket cannot be retrieved. "
          "err=-3' warning, as every agent here does); then a normal run; nothing else injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=3,
      why="After the c10d socket warnings (40 s apart) training starts and runs 3000 updates at a steady 13-21k samples/s with three "
          "saved checkpoints and 'Training finished': a late start of one host, no fault."),
 dict(case="a04b", slug="torchrun_nanotron_style_iteration_time_7ms_to_90ms_from_iteration_1600",
      how=f"case_a04b: {TRN}, Nanotron-style logging ('iteration: N / 4000 | consumed_tokens: .. | elapsed_time_per_iteration_ms: .. | "
          "tokens_per_sec: ..'); after iteration 1500 strace was attached to rank 1 with a 2 ms delay injected on the exit of every "
          "read/write/sendmsg/recvmsg/sendto/recvfrom call of all its threads (strace -f -e inject=..:delay_exit=2000) and left "
          "there to the end; out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True, checkpoints=2,
      why="elapsed_time_per_iteration_ms is 7-11 for iterations 100-1500 and 53-144 (mostly ~90) for every report from 1600 to 4000, "
          "with tokens_per_sec falling accordingly, and the run still finishes: a sustained ~12x slowdown, the signature of a slow "
          "rank, though the log does not name it."),
 dict(case="c01", slug="2host_torchrun_olmo_style_tokens_per_second_300k_to_43k_from_step_1400",
      how=f"case_c01: {H2}, OLMo-style logging; after step 1200 gpu-b32-02's veth egress was shaped with 'tc qdisc add dev l32bv2 root "
          "tbf rate 100mbit burst 32kbit latency 400ms' until the end (every gradient allreduce crosses that link); out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True, checkpoints=2,
      why="throughput/device/tokens_per_second is 190k-380k for steps 100-1300 and 42-44k for every report from 1400 to 2600 while "
          "the loss keeps falling and the run completes ('Training loop complete'): a sustained ~7x slowdown; the log does not say "
          "which host or link is slow."),
 dict(case="a13b", slug="torchrun_olmo_style_metrics_uploader_thread_exception_training_loop_complete",
      how=f"case_a13b: {TRN}, OLMo-style logging, TORCH_CPP_LOG_LEVEL=INFO (reducer/store INFO lines); rank 0's metrics uploader "
          "thread posts to 127.0.0.1:43692 where nothing listens (ConnectionRefusedError WARNINGs with backoff) and raises "
          "ConnectionError in its thread once past step 1500 ('Exception in thread metrics-uploader:' traceback); training does not "
          "depend on it; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=3,
      why="Despite refused-connection WARNINGs and an 'Exception in thread metrics-uploader: ... ConnectionError: metrics sink .. "
          "closed the stream (HTTP 502 Bad Gateway)' traceback, the [step=N] blocks continue at a steady rate, three checkpoints are "
          "saved and 'Training loop complete' ends the run: only a side thread died."),
 dict(case="c03", slug="2host_torchrun_paddlenlp_style_c10d_store_connection_reset_by_peer_rendezvousconnectionerror",
      how=f"case_c03: {H2}, PaddleNLP-style logging; right after the step-1000 checkpoint gpu-b32-01 answered every TCP segment from "
          "gpu-b32-02 to the rendezvous/store port 43683 with a reset (iptables REJECT --reject-with tcp-reset; gloo's own "
          "connections untouched); gpu-b32-02's agent lost its store connection and stopped its worker; gpu-b32-01's worker then sat "
          "in the step's allreduce (pg timeout 1800 s) and its agent was SIGTERMed by the case about 5 minutes later; out.log, unedited",
      anomaly="CRASH", category="NETWORK", requeue=True, checkpoints=1,
      why="gpu-b32-02's agent logs 'recvValueWithTimeout failed ... Connection reset by peer', 'sendBytes failed ... Broken pipe' "
          "and 'RendezvousConnectionError: The connection to the C10d store has failed', then SIGTERMs its worker: the store "
          "connection between the hosts was reset, with no crash of a peer before it."),
 dict(case="c04", slug="2host_torchrun_litgpt_style_timed_out_waiting_60000ms_for_recv_after_iter_1200",
      how=f"case_c04: {H2}, litgpt-style output, --pg-timeout 60; after iter 1200 gpu-b32-02 dropped every packet from gpu-b32-01 of "
          "1000 bytes or more (iptables -m length --length 1000:65535 -j DROP), so full-size TCP segments of the gradient exchange "
          "never arrived while small ones (ACKs, the store's keep-alives) still did; out.log, unedited",
      anomaly="HANG", category=None, requeue=True, checkpoints=1,
      why="Progress stops after iter 1200 and a minute later rank 1 fails with gloo's 'Timed out waiting 60000ms for recv operation "
          "to complete', after which rank 0 sees 'Connection closed by peer [10.232.7.12]' (a victim): a collective that timed out, "
          "i.e. a hang, whose cause the log does not show."),
 dict(case="c05", slug="2host_torchrun_horovod_style_client_socket_timed_out_connecting_gpu_b32_01_store_at_init",
      how=f"case_c05: {H2}, Horovod-style output, --pg-timeout 60; before the start gpu-b32-01 answered every TCP segment from "
          "gpu-b32-02 to any port except the rendezvous port 43685 with a reset (iptables REJECT --reject-with tcp-reset): the "
          "rendezvous completed, but gpu-b32-02's worker could not reach the workers' store on gpu-b32-01 (port 37635, chosen by "
          "the agent) during init_process_group; meant to break gloo's full mesh, it broke the store connection first; out.log, "
          "unedited",
      anomaly="CRASH", category="NETWORK", requeue=True,
      why="Before any training line gpu-b32-02 logs 'The client socket has timed out after 60000ms while trying to connect to "
          "(gpu-b32-01, 37635)' / 'TCP client failed to connect/validate to host gpu-b32-01:37635', rank 0 then gives up with "
          "'DistStoreError: wait timeout after 60000ms, keys: /default_pg/0//cpu//0/1' (waiting for rank 1) and host 2's agent ends "
          "with RendezvousConnectionError: one host could not connect to the other at start-up."),
 dict(case="a14b", slug="torchrun_paddlenlp_style_samples_per_second_12k_to_470_from_step_1300",
      how=f"case_a14b: {TRN}, PaddleNLP-trainer-style logging; ranks pinned to CPU 0/1 (taskset) at step 300; after step 1200 rank 1 was "
          "moved into a cgroup-v1 cpu group with cpu.shares=32 and a CPU-bound process pinned to CPU 1 ran in a group with "
          "cpu.shares=1024 until the end (a noisy neighbour winning the CPU of one rank); out.log, unedited",
      anomaly="STRAGGLER", category=None, requeue=True, checkpoints=2,
      why="interval_samples_per_second is 9.1k-12.9k for steps 100-1200 and 427-515 for every report from 1300 to 2400, yet the run "
          "finishes ('Training completed.', train_samples_per_second 884): a sustained ~25x slowdown of a job that keeps going; the log "
          "does not name the slow rank."),
 dict(case="c06", slug="2host_torchrun_allennlp_style_futurewarnings_ten_epochs_archived",
      how=f"case_c06: {H2}, AllenNLP-style logging, FutureWarnings (routed through py.warnings as WARNING lines), validation every "
          "epoch of 300 batches and checkpoints every 600; nothing injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=5,
      why="Ten epochs at 68-131 it/s with accuracy rising to 1.000, five 'Best validation performance so far. Copying weights' lines "
          "and the closing 'archiving weights and vocabulary': the c10d socket and FutureWarning WARNINGs are noise."),
 dict(case="c07", slug="2host_torchrun_client_socket_no_route_to_host_gpu_b32_01_rendezvous_timeout",
      how=f"case_c07: {H2}, Nanotron-style trainer (never started), --rdzv-conf join_timeout=60; gpu-b32-02's hosts file carried a "
          "stale address for gpu-b32-01 (10.232.7.21, which no host has), so its agent's connections to the rendezvous store got "
          "EHOSTUNREACH (this torch build prints garbled peer addresses in those warnings); gpu-b32-01's agent waited for the "
          "second node until join_timeout; out.log, unedited",
      anomaly="CRASH", category="NETWORK", requeue=True,
      why="gpu-b32-02 keeps logging 'The client socket has failed to connect to ... (errno: 113 - No route to host)' / 'failed to "
          "connect to any network address of (gpu-b32-01, 43687)' and ends with RendezvousConnectionError, while gpu-b32-01 ends "
          "with RendezvousTimeoutError: the hosts could not reach each other, before any training."),
 dict(case="b09c", slug="sbatch_n2_srun_nanogpt_style_iter_time_8ms_to_14ms_from_iter_1350",
      how=f"case_b09c: sbatch -N2 -w lab32n1,lab32n2 + srun --label, nanoGPT-style output; task 0 bound to CPU 0 and task 1 to CPU 1 "
          "(taskset) at iter 300; after iter 1200 task 1 (all threads) was re-bound to CPU 0, next to task 0, and reniced to 19 (a "
          "mistaken cpuset/priority change on one node) until the end; the job's output file, unedited",
      anomaly="STRAGGLER", category=None, requeue=True, checkpoints=3,
      why="'iter N: .. time ..ms' is 7-9.5 ms for iterations 50-1300 and 12.3-16.2 ms for all 34 reports from 1350 to 3000 (mfu falls "
          "with it) while the job completes: a sustained ~1.8x slowdown; the log does not say which task is slow."),
]
