# Labels of the h32b_ logs, written by hand from each kept log by tests/corpus/LABELLING.md (no engine was run).
TOOLS = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6, tqdm 4.70.1; Slurm 22.05.8 (private cluster lab32b, "
         "4 slurmd on one host) where sbatch/srun is named; iptables 1.8.9 (nf_tables) and iproute2 tc where named; gen_h32b/t32.py")
TRN = "torchrun --nproc-per-node 2 (c10d rendezvous on localhost)"
SB = "sbatch -N2 + srun --label"
H2 = ("two network namespaces as hosts gpu-b32-01/gpu-b32-02 (veth 10.232.7.11/12, UTS names via unshare), "
      "torchrun --nnodes 2 --nproc-per-node 1 on each, both hosts' output appended to one file")
ENTRIES = [
 dict(case="a01", slug="torchrun_nanogpt_style_metrics_sink_refused_retries_futurewarnings_healthy",
      how=f"case_a01: {TRN}, nanoGPT-style output ('iter N: loss .., time ..ms, mfu ..%', 'step N: train loss .., val loss ..', "
          "'saving checkpoint to out'), FutureWarnings; rank 0's metrics uploader thread posts to 127.0.0.1:43690 where nothing "
          "listens (ConnectionRefusedError caught, retried with backoff, WARNING lines); nothing else injected; out.log, unedited",
      anomaly="NONE", category=None, requeue=None, checkpoints=4,
      why="4000 iterations at a steady 7-11 ms each, falling train/val loss and four 'saving checkpoint' lines; the only alarming "
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
]
