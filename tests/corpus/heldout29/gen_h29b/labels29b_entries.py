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
]

