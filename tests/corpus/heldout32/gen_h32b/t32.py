#!/usr/bin/env python3
"""t32: a small DDP (gloo, CPU) classification trainer that prints like ten other projects, for heldout32 gen_h32b
(started from heldout31's gen_h31b/t31.py: same model, data and optimiser; every t31 style dropped, new styles and knobs).

Rank/world come from torchrun (RANK/WORLD_SIZE) or from srun (SLURM_PROCID/SLURM_NTASKS with --master host:port).
Styles (--style): nanogpt, litgpt, olmo, nanotron, speechbrain, allennlp, maxtext, horovod, sockeye, paddle.
"""
import argparse, datetime, faulthandler, io, json, logging, math, os, re, shutil, signal, socket, sys, threading, time, traceback, warnings

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, DistributedSampler

p = argparse.ArgumentParser()
p.add_argument("--style", default="nanogpt")
p.add_argument("--data", default="/work/lab32b/data/feat.bin")
p.add_argument("--rows", type=int, default=60000)
p.add_argument("--dim", type=int, default=48)
p.add_argument("--hidden", type=int, default=512)
p.add_argument("--batch", type=int, default=96)
p.add_argument("--steps", type=int, default=2000)
p.add_argument("--lr", type=float, default=3e-3)
p.add_argument("--log-every", type=int, default=50)
p.add_argument("--epoch-steps", type=int, default=0)
p.add_argument("--ckpt-dir", default="")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--ckpt-pad-mb", type=int, default=0)
p.add_argument("--resume", action="store_true")
p.add_argument("--master", default="")
p.add_argument("--pg-timeout", type=int, default=1800)
p.add_argument("--workers", type=int, default=0)
p.add_argument("--persistent", action="store_true")
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--noisy", action="store_true")
p.add_argument("--read", default="memmap")               # memmap | pread
p.add_argument("--spin-at", type=int, default=0)         # last rank busy-waits (no sleep, no output) for a ready-file here
p.add_argument("--uploader", default="")                 # host:port of a metrics collector; a background thread posts to it
p.add_argument("--uploader-die-at", type=int, default=0) # the uploader thread raises at this step (caught by nothing: thread dies)
p.add_argument("--best-copy", default="")                # also copy each checkpoint here (best effort: errors are logged, not fatal)
p.add_argument("--np-meta", action="store_true")         # checkpoints carry numpy scalars in their metadata
p.add_argument("--load-legacy", action="store_true")     # resume with torch.load defaults (weights_only=True on torch >= 2.6)
p.add_argument("--cache-mb", type=int, default=0)     # at --cache-at every rank builds an in-memory feature index of this size
p.add_argument("--cache-at", type=int, default=0)
p.add_argument("--ckpt-lock", action="store_true")     # rank 0 takes an exclusive flock on <ckpt-dir>/.lock around each save
p.add_argument("--tag", default="")
a = p.parse_args()

if a.master:
    mh, mp = a.master.split(":")
    os.environ.setdefault("MASTER_ADDR", mh); os.environ.setdefault("MASTER_PORT", mp)
    os.environ.setdefault("RANK", os.environ.get("SLURM_PROCID", "0"))
    os.environ.setdefault("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1"))
    os.environ.setdefault("LOCAL_RANK", "0")
rank = int(os.environ.get("RANK", 0)); world = int(os.environ.get("WORLD_SIZE", 1)); lrank = int(os.environ.get("LOCAL_RANK", 0))
S = a.style
host = os.environ.get("SLURMD_NODENAME") or os.uname().nodename
PID = os.getpid()
EXP = a.tag or "mlp48"
faulthandler.enable()

def hms(sec):
    sec = int(sec); return f"{sec // 3600}:{sec % 3600 // 60:02d}:{sec % 60:02d}"

# ---------------------------------------------------------------- output plumbing per style
class Prefixed(io.TextIOBase):
    """mpirun --tag-output (horovodrun): every line a rank writes is prefixed [jobid,rank]<stdout|stderr>:"""
    def __init__(s, raw, prefix): s.raw, s.prefix, s.buf = raw, prefix, ""
    def writable(s): return True
    def write(s, t):
        s.buf += t
        while "\n" in s.buf:
            line, s.buf = s.buf.split("\n", 1); s.raw.write(s.prefix + line + "\n")
        s.raw.flush(); return len(t)
    def flush(s):
        if s.buf: s.raw.write(s.prefix + s.buf + "\n"); s.buf = ""
        s.raw.flush()

if S == "horovod":
    sys.stdout = Prefixed(sys.__stdout__, f"[1,{rank}]<stdout>:"); sys.stderr = Prefixed(sys.__stderr__, f"[1,{rank}]<stderr>:")

class Absl(logging.Formatter):
    """absl: 'I1125 13:45:00.123456 140245 file.py:123] message'."""
    def format(s, r):
        t = datetime.datetime.fromtimestamp(r.created)
        return f"{r.levelname[0]}{t.strftime('%m%d %H:%M:%S.%f')} {r.thread % 1000000000000:d} {getattr(r, 'src', r.filename + ':' + str(r.lineno))}] {r.getMessage()}"

class Olmo(logging.Formatter):
    def format(s, r):
        t = datetime.datetime.fromtimestamp(r.created).strftime("%Y-%m-%d %H:%M:%S.") + f"{int(r.msecs):03d}"
        return f"{t}\t{host}:{lrank}\t{getattr(r, 'src', r.name + ':' + str(r.lineno))}\t{r.levelname}\t{r.getMessage()}"

class Nanotron(logging.Formatter):
    def format(s, r):
        t = datetime.datetime.fromtimestamp(r.created).strftime("%m/%d/%Y %H:%M:%S")
        return f"{t} [{r.levelname}|DP={rank}|PP=0|TP=0|{host}]: {r.getMessage()}"

root = logging.getLogger(); root.handlers.clear()
h = logging.StreamHandler(sys.stdout)
lvl = logging.INFO
if S == "olmo":
    h.setFormatter(Olmo())
elif S == "nanotron":
    h.setFormatter(Nanotron())
elif S == "speechbrain":
    h.setFormatter(logging.Formatter("%(name)s - %(message)s")); lvl = logging.INFO if rank == 0 else logging.WARNING
elif S == "allennlp":
    h.setFormatter(logging.Formatter("%(asctime)s - %(levelname)s - %(name)s - %(message)s")); lvl = logging.INFO if rank == 0 else logging.WARNING
elif S == "maxtext":
    h.setFormatter(Absl())
elif S == "sockeye":
    h.setFormatter(logging.Formatter("[%(asctime)s:%(levelname)s:%(name)s:%(funcName)s] %(message)s", "%Y-%m-%d:%H:%M:%S"))
    lvl = logging.INFO if rank == 0 else logging.WARNING
elif S == "paddle":
    class Pad(logging.Formatter):
        def format(s, r):
            return f"[{s.formatTime(r)}] [{r.levelname:>8}] - {r.getMessage()}"
    h.setFormatter(Pad()); lvl = logging.INFO if rank == 0 else logging.WARNING
else:
    h.setFormatter(logging.Formatter("%(message)s")); lvl = logging.INFO if rank == 0 else logging.WARNING
root.addHandler(h); root.setLevel(lvl)
logging.captureWarnings(True)
L = logging.getLogger({"olmo": "olmo.train", "nanotron": "nanotron", "speechbrain": "speechbrain.core", "allennlp": "allennlp.training.gradient_descent_trainer",
                       "maxtext": "absl", "sockeye": "sockeye.training", "paddle": "paddlenlp"}.get(S, "__main__"))
def lg(name): return logging.getLogger(name)
def src(logger, level, msg, where):
    logger.log(level, msg, extra={"src": where})

def r0(msg, err=False):
    if rank == 0: print(msg, file=sys.stderr if err else sys.stdout, flush=True)

def info(msg, where=""):
    """An informational line the way the style writes one (rank 0 only for single-process-logging styles)."""
    if S in ("nanogpt", "litgpt", "horovod"): r0(msg)
    elif S == "olmo": src(L, logging.INFO, msg, where or "olmo.train:1033")
    elif S == "maxtext": src(L, logging.INFO, msg, where or "train.py:612")
    elif S == "nanotron": (L.info(msg) if rank == 0 else None)
    else: L.info(msg)

def warn(msg, where=""):
    if S in ("nanogpt", "litgpt", "horovod"): print(f"WARNING: {msg}" if S != "litgpt" else msg, file=sys.stderr, flush=True)
    elif S == "olmo": src(L, logging.WARNING, msg, where or "olmo.train:1040")
    elif S == "maxtext": src(L, logging.WARNING, msg, where or "train.py:640")
    else: L.warning(msg)

# ---------------------------------------------------------------- distributed init
if S == "litgpt":
    sys.stderr.write(f"Initializing distributed: GLOBAL_RANK: {rank}, MEMBER: {rank + 1}/{world}\n"); sys.stderr.flush()
if S == "maxtext":
    src(L, logging.INFO, f"Jax distributed system initialized! (process_id={rank}, num_processes={world}, coordinator_address={os.environ.get('MASTER_ADDR')}:{os.environ.get('MASTER_PORT')})", "max_utils.py:244")
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=a.pg_timeout))
torch.manual_seed(0); torch.set_num_threads(1)
if S == "litgpt" and rank == 0:
    print("-" * 100 + f"\ndistributed_backend=gloo\nAll distributed processes registered. Starting with {world} processes\n" + "-" * 100 + "\n", file=sys.stderr, flush=True)
if S == "nanotron":
    L.info(f"Config:\nConfig(general=GeneralArgs(project='{EXP}', run='%date_%jobid', seed=42, step=None, consumed_train_samples=None,"
           f" benchmark_csv_path=None, ignore_sanity_checks=True),\n       parallelism=ParallelismArgs(dp={world}, pp=1, tp=1, pp_engine=<nanotron.parallel.pipeline_parallel.engine.OneForwardOneBackwardPipelineEngine object at 0x7f3c{PID:08x}>,"
           f" tp_mode=<TensorParallelLinearMode.ALL_REDUCE: 1>, tp_linear_async_communication=False),") if rank == 0 else None

# ---------------------------------------------------------------- data
class Feats(Dataset):
    def __init__(s):
        g = np.random.default_rng(11); s.w = g.standard_normal((a.dim, 10)).astype(np.float32)
        s.x = np.memmap(a.data, dtype=np.float32, mode="r", shape=(a.rows, a.dim)); s.fd = None
        if a.read == "pread": s.fd = os.open(a.data, os.O_RDONLY)
    def __len__(s): return a.rows
    def row(s, i):
        if s.fd is not None:
            return np.frombuffer(os.pread(s.fd, a.dim * 4, i * a.dim * 4), dtype=np.float32).copy()
        return np.array(s.x[i])
    def __getitem__(s, i):
        x = s.row(i)
        return torch.from_numpy(x), int(np.argmax(x @ s.w))

class Net(nn.Module):
    def __init__(s):
        super().__init__()
        s.inp = nn.Linear(a.dim, a.hidden); s.mid = nn.Linear(a.hidden, a.hidden); s.out = nn.Linear(a.hidden, 10)
        s.norm = nn.LayerNorm(a.hidden)
    def forward(s, x):
        h = F.gelu(s.inp(x))
        h = s.norm(F.gelu(s.mid(h)) + h)
        return s.out(h)

model = Net(); nparam = sum(q.numel() for q in model.parameters())
ddp = nn.parallel.DistributedDataParallel(model)
opt = torch.optim.AdamW(ddp.parameters(), lr=a.lr, weight_decay=0.01)
ds = Feats()
sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=3)
dl = DataLoader(ds, batch_size=a.batch, sampler=sampler, num_workers=a.workers, drop_last=True,
                persistent_workers=a.persistent and a.workers > 0)
per_epoch = len(dl)
EP = a.epoch_steps or per_epoch
NEP = math.ceil(a.steps / EP)
TOK = a.dim  # "tokens" per sample, for the token-rate styles
PEAK = 2.0e11

def lr_at(s):
    w = 100
    return a.lr * (s / w if s < w else 0.5 * (1 + math.cos(math.pi * min(1.0, (s - w) / max(1, a.steps - w)))))

# ---------------------------------------------------------------- checkpoints
def ckpt_path(step):
    d = a.ckpt_dir
    return {"nanogpt": f"{d}/ckpt_{step}.pt", "litgpt": f"{d}/step-{step:08d}/lit_model.pth", "olmo": f"{d}/step{step}-unsharded/model.pt",
            "nanotron": f"{d}/{step}/model.pt", "speechbrain": f"{d}/save/CKPT+step{step}/model.ckpt", "allennlp": f"{d}/model_state_e{step // EP}_b{step}.th",
            "maxtext": f"{d}/checkpoints/{step}/items/state.pt", "horovod": f"{d}/checkpoint-{step}.pth.tar", "sockeye": f"{d}/params.{step // max(1, a.ckpt_every):05d}",
            "paddle": f"{d}/checkpoint-{step}/model_state.pdparams"}[S]

def latest_ckpt():
    if not (a.ckpt_dir and os.path.isdir(a.ckpt_dir)): return None, 0
    best = (None, 0)
    for dp, dn, fn in os.walk(a.ckpt_dir):
        for f in fn:
            full = os.path.join(dp, f)
            for n in range(0, a.steps + 1, max(1, a.ckpt_every)):
                if n and ckpt_path(n) == full and n > best[1]: best = (full, n)
    return best

start = 0
if a.resume:
    path, st = latest_ckpt()
    if path:
        if S == "nanogpt": r0(f"Resuming training from {a.ckpt_dir}")
        elif S == "litgpt": r0(f"Resuming training from '{path}'")
        elif S == "olmo": info(f"Loading checkpoint from {os.path.dirname(path)}...", "olmo.train:656")
        elif S == "maxtext": info(f"restoring from this run's directory step {st}", "checkpointing.py:515")
        elif S == "speechbrain": lg("speechbrain.utils.checkpoints").info(f"Loading a checkpoint from {os.path.dirname(path)}")
        elif S == "paddle": info(f"Loading model from {os.path.dirname(path)} .")
        else: info(f"Resuming from {path}")
        sd = torch.load(path, map_location="cpu") if a.load_legacy else torch.load(path, map_location="cpu", weights_only=False)
        model.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); start = sd["step"]
        if S == "olmo": info(f"Checkpoint successfully loaded", "olmo.train:660")

def save(step):
    path = ckpt_path(step); t0 = time.time()
    if rank == 0:
        if S == "nanogpt": print(f"saving checkpoint to {a.ckpt_dir}", flush=True)
        elif S == "litgpt": print(f"Saving checkpoint to {path!r}", file=sys.stderr, flush=True)
        elif S == "olmo": info("Saving unsharded checkpoint...", "olmo.train:1147")
        elif S == "nanotron": L.info(f"Saving checkpoint at {os.path.dirname(path)}")
        elif S == "maxtext": src(L, logging.INFO, f"[process=0] Saving checkpoint at step {step}", "checkpoint_manager.py:1442")
        elif S == "paddle": info(f"Saving model checkpoint to {os.path.dirname(path)}")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        lk = None
        if a.ckpt_lock:
            import fcntl
            lk = open(os.path.join(a.ckpt_dir, ".lock"), "w"); fcntl.flock(lk, fcntl.LOCK_EX)
        sd = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step}
        if a.np_meta: sd["meta"] = {"best_val_loss": np.float64(W.best or 0.0), "epoch": np.int64(step // EP), "config": vars(a)}
        if a.ckpt_pad_mb: sd["pad"] = torch.zeros(a.ckpt_pad_mb * 262144)
        with open(path, "wb") as f:
            torch.save(sd, f); f.flush(); os.fsync(f.fileno())
        if a.best_copy:
            try:
                os.makedirs(a.best_copy, exist_ok=True); shutil.copyfile(path, os.path.join(a.best_copy, "best.pt"))
            except OSError as e:
                warn(f"could not mirror checkpoint to {a.best_copy}: {e}; continuing (the primary checkpoint at {path} is intact)")
        if lk is not None: lk.close()
    dist.barrier()
    dt = time.time() - t0
    if rank == 0:
        if S == "olmo": info(f"Checkpoint saved to {os.path.dirname(path)}", "olmo.train:1151")
        elif S == "speechbrain": lg("speechbrain.utils.checkpoints").info(f"Saved an end-of-epoch checkpoint in {os.path.dirname(path)}")
        elif S == "maxtext": src(L, logging.INFO, f"[process=0] Finished synchronous save in {dt:.2f} seconds to {os.path.dirname(os.path.dirname(path))}", "checkpoint_manager.py:1519")
        elif S == "sockeye":
            L.info(f"Saved params/optimizer/lr_scheduler to \"{path}\"")
        elif S == "horovod": print(f"Saved checkpoint {path} in {dt:.2f}s", flush=True)
        elif S == "paddle": info(f"Model weights saved in {path}")
        elif S == "allennlp": lg("allennlp.training.checkpointer").info(f"Best validation performance so far. Copying weights to '{a.ckpt_dir}/best.th'.")

# ---------------------------------------------------------------- evaluation
def evaluate():
    ddp.eval(); tot = 0.0; c1 = 0.0; n = 0; t0 = time.time()
    with torch.no_grad():
        for i in range(0, 12000, 1000):
            xb = torch.from_numpy(np.array(ds.x[i:i + 1000]))
            yb = torch.from_numpy(np.argmax(xb.numpy() @ ds.w, 1))
            o = model(xb); tot += F.cross_entropy(o, yb).item() * len(xb); n += len(xb)
            c1 += (o.argmax(1) == yb).sum().item()
    t = torch.tensor([tot, c1, n]); dist.all_reduce(t); ddp.train()
    return (t[0] / t[2]).item(), (t[1] / t[2]).item(), time.time() - t0

# ---------------------------------------------------------------- a metrics uploader thread (noise)
UPQ = []
def uploader():
    backoff = 1
    while True:
        time.sleep(2)
        if not UPQ: continue
        step = UPQ[-1]
        if a.uploader_die_at and step >= a.uploader_die_at:
            raise ConnectionError(f"metrics sink {a.uploader} closed the stream after {step} records (HTTP 502 Bad Gateway)")
        try:
            hh, pp = a.uploader.split(":")
            c = socket.create_connection((hh, int(pp)), timeout=2); c.sendall(json.dumps({"step": step}).encode()); c.close(); backoff = 1
        except OSError as e:
            warn(f"metrics upload failed ({e!r}); retrying in {backoff}s, {len(UPQ)} records buffered")
            time.sleep(backoff); backoff = min(backoff * 2, 16)
if a.uploader and rank == 0:
    threading.Thread(target=uploader, name="metrics-uploader", daemon=True).start()

# ---------------------------------------------------------------- banners
def banner():
    tpi = a.batch * world * TOK
    if S == "nanogpt":
        r0(f"tokens per iteration will be: {tpi:,}")
        r0("Initializing a new model from scratch" if not start else f"Resuming training from {a.ckpt_dir}")
        r0(f"number of parameters: {nparam / 1e6:.2f}M")
        r0(f"num decayed parameter tensors: 3, with {48 * 512 + 512 * 512 + 5120:,} parameters")
        r0(f"num non-decayed parameter tensors: 5, with {nparam - (48 * 512 + 512 * 512 + 5120):,} parameters")
        r0("using fused AdamW: False")
    elif S == "litgpt":
        if rank == 0:
            print(f"{{'data': {{'path': '{a.data}', 'num_workers': {a.workers}}}, 'devices': {world}, 'num_nodes': 1, 'out_dir': '{a.ckpt_dir or 'out/pretrain'}', "
                  f"'train': {{'global_batch_size': {a.batch * world}, 'log_interval': {a.log_every}, 'lr_warmup_steps': 100, 'max_steps': {a.steps}, "
                  f"'micro_batch_size': {a.batch}, 'save_interval': {a.ckpt_every or None}}}, 'eval': {{'interval': {a.eval_every or 1000}, 'max_iters': 12}}}}", file=sys.stderr, flush=True)
            print("Seed set to 42", file=sys.stderr, flush=True)
            print(f"Time to instantiate model: 0.01 seconds.\nTotal parameters: {nparam:,}", file=sys.stderr, flush=True)
            print(f"Measured TFLOPs: {6 * nparam * a.batch / 1e12:.2f}", file=sys.stderr, flush=True)
    elif S == "olmo":
        if rank == 0:
            info(f"Number of parameters: {nparam:,d}", "olmo.train:202"); info(f"Number of non-embedding parameters: {nparam:,d}", "olmo.train:203")
            info(f"Peak GPU Memory (MB) before FSDP: 0", "olmo.train:205")
            info("Saving pre-train checkpoint..." if not start else f"Resuming from step {start}", "olmo.train:245")
        info(f"Starting training...", "olmo.train:1020")
    elif S == "nanotron":
        if rank == 0:
            L.info(f"Total number of parameters: {nparam / 1e3:.1f}K ({nparam * 4 / 2**20:.2f}MiB)")
            L.info(f"Local number of parameters: {nparam / 1e3:.1f}K ({nparam * 4 / 2**20:.2f}MiB)")
            L.info(f"[After model building] Memory usage: {nparam * 4 / 2**20:.2f}MiB. Peak allocated: 0.00MiB Peak reserved: 0.00MiB")
            L.info(f"[Start training] datetime: {datetime.datetime.now().strftime('%Y-%m-%d %H:%M:%S.%f')} | mbs: {a.batch} | grad_accum: 1 | global_batch_size: {a.batch * world} | sequence_length: {TOK} | train_steps: {a.steps} | start_iteration_step: {start} | consumed_train_samples: {start * a.batch * world}")
    elif S == "speechbrain":
        L.info("Beginning experiment!"); L.info(f"Experiment folder: {a.ckpt_dir or 'results/' + EXP}")
        L.info("Info: ckpt_interval_minutes arg from hparam file is used"); L.info("Gradscaler enabled: False. Using precision: fp32.")
        L.info(f"{EXP} Model Statistics:\n* Total Number of Trainable Parameters: {nparam / 1e3:.1f}k\n* Total Number of Parameters: {nparam / 1e3:.1f}k\n* Trainable Parameters represent 100.0000% of the total size.")
        lg("speechbrain.utils.checkpoints").info("Would load a checkpoint here, but none found yet." if not start else "Loading a checkpoint")
    elif S == "allennlp":
        lg("allennlp.common.params").info(f"trainer.num_epochs = {NEP}"); lg("allennlp.common.params").info(f"trainer.cuda_device = -1")
        lg("allennlp.common.params").info(f"data_loader.batch_size = {a.batch}")
        lg("allennlp.training.optimizers").info(f"Number of trainable parameters: {nparam}")
        L.info("Beginning training.")
    elif S == "maxtext":
        if rank == 0:
            for k, v in (("base_emb_dim", a.hidden), ("base_num_decoder_layers", 2), ("per_device_batch_size", a.batch), ("steps", a.steps),
                         ("learning_rate", a.lr), ("checkpoint_period", a.ckpt_every), ("enable_checkpointing", bool(a.ckpt_dir)),
                         ("log_period", a.log_every), ("eval_interval", a.eval_every or -1), ("run_name", EXP)):
                src(L, logging.INFO, f"Config param {k}: {v}", "pyconfig.py:612")
            src(L, logging.INFO, f"number parameters: {nparam / 1e9:.3f} billion", "max_utils.py:608")
    elif S == "horovod":
        if rank == 0: print(f"Horovod: initialized with size {world}, backend gloo (CPU operations: GLOO)", flush=True)
    elif S == "sockeye":
        lg("sockeye.model").info(f"# of parameters: {nparam} | trainable: {nparam} (100.00%) | fixed: 0 (0.00%)")
        L.info(f"Using bucketing. Default max_seq_len={TOK}"); L.info(f"Early stopping by optimizing 'perplexity'")
        L.info(f"Training started.")
    elif S == "paddle":
        info("***** Running training *****"); info(f"  Num examples = {a.rows:,}"); info(f"  Num Epochs = {NEP}")
        info(f"  Instantaneous batch size per device = {a.batch}"); info(f"  Total train batch size (w. parallel, distributed & accumulation) = {a.batch * world}")
        info(f"  Total optimization steps = {a.steps}"); info(f"  Total num train samples = {a.steps * a.batch * world:,}")
        info(f"  Number of trainable parameters = {nparam:,} (per device)")
    if a.noisy:
        warnings.warn("torch.distributed._all_gather_base is a private function and will be deprecated. Please use torch.distributed.all_gather_into_tensor instead.", FutureWarning)
        warnings.warn("`torch.cpu.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cpu', args...)` instead.", FutureWarning)

# ---------------------------------------------------------------- per-style progress lines
class W:
    t = time.time(); ep_t = time.time(); loss_sum = 0.0; loss_n = 0; ep_loss = 0.0; ep_n = 0; best = None; tot_loss = 0.0; tot_n = 0; acc = 0.0; val = None
from tqdm import tqdm
bar = None

def new_epoch(ep):
    global bar
    W.ep_t = time.time(); W.ep_loss = 0.0; W.ep_n = 0; W.acc = 0.0
    if rank != 0: return
    if S == "allennlp":
        L.info(f"Epoch {ep}/{NEP - 1}"); L.info(f"Worker 0 memory usage: {torch.tensor(0).new_empty(0).numel() + 0.61:.2f}G"); L.info("Training")
        bar = tqdm(total=EP, ascii=True, mininterval=2.0, file=sys.stderr, bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}]")
    elif S == "speechbrain":
        lg("speechbrain.utils.epoch_loop").info(f"Going into epoch {ep + 1}")
        bar = tqdm(total=EP, mininterval=2.0, file=sys.stderr, dynamic_ncols=False, ncols=100)

def on_step(step, loss, gn, acc1):
    ep = (step - 1) // EP
    W.loss_sum += loss; W.loss_n += 1; W.ep_loss += loss; W.ep_n += 1; W.tot_loss += loss; W.tot_n += 1; W.acc += acc1
    if bar is not None:
        bar.update(1)
        if S == "allennlp": bar.set_description_str(f"accuracy: {W.acc / W.ep_n:.4f}, batch_loss: {loss:.4f}, loss: {W.ep_loss / W.ep_n:.4f} ||", refresh=False)
        if S == "speechbrain": bar.set_postfix(train_loss=f"{W.ep_loss / W.ep_n:.3f}", refresh=False)
    if step % a.log_every and not (S == "nanogpt" and step == start + 1): return
    dt = time.time() - W.t; W.t = time.time(); n = max(1, W.loss_n); sps = a.batch * world * n / dt; lr = lr_at(step)
    avg = W.loss_sum / n; W.loss_sum = 0.0; W.loss_n = 0
    ms = 1000 * dt / n
    if S == "nanogpt":
        mfu = -100.0 if step <= start + 5 else 100 * 6 * nparam * a.batch * world / (dt / n) / PEAK
        r0(f"iter {step}: loss {loss:.4f}, time {ms:.2f}ms, mfu {mfu:.2f}%")
    elif S == "litgpt":
        if rank == 0:
            vl = f"{W.val:.3f}" if W.val is not None else "n/a"
            rem = (a.steps - step) * dt / n
            print(f"Epoch {ep + 1} | iter {step} step {step} | loss train: {avg:.3f}, val: {vl} | iter time: {ms:.2f} ms (step) remaining time: {hms(rem)}", file=sys.stderr, flush=True)
    elif S == "olmo":
        if rank == 0:
            toks = a.batch * TOK * n / dt
            info(f"[step={step}/{a.steps}]\n    train/CrossEntropyLoss={avg:.4f}\n    train/Perplexity={math.exp(min(avg, 50)):.4f}\n"
                 f"    throughput/total_tokens={step * a.batch * world * TOK:,d}\n    throughput/device/tokens_per_second={toks:.1f}\n"
                 f"    throughput/device/batches_per_second={n / dt:.4f}\n    optim/total_grad_norm={gn:.4f}\n    optim/learning_rate_group0={lr:.6f}\n"
                 f"    System/Peak GPU Memory (MB)=0", "olmo.train:966")
    elif S == "nanotron":
        if rank == 0:
            toks = a.batch * world * TOK * n / dt
            def k(v): return f"{v / 1e6:.3g}M" if v >= 1e6 else f"{v / 1e3:.3g}K" if v >= 1e3 else f"{v:.3g}"
            L.info(f"iteration: {step} / {a.steps} | consumed_tokens: {k(step * a.batch * world * TOK)} | elapsed_time_per_iteration_ms: {k(ms)} | "
                   f"tokens_per_sec: {k(toks)} | tokens_per_sec_per_gpu: {k(toks / world)} | global_batch_size: {a.batch * world} | lm_loss: {avg:.4g} | "
                   f"lr: {lr:.3g} | model_tflops_per_gpu: {6 * nparam * toks / TOK / world / 1e12:.3g} | hardware_tflops_per_gpu: {6 * nparam * toks / TOK / world / 1e12:.3g} | grad_norm: {gn:.3g}")
    elif S == "maxtext":
        if rank == 0:
            src(L, logging.INFO, f"completed step: {step}, seconds: {dt / n:.3f}, TFLOP/s/device: {6 * nparam * a.batch / (dt / n) / 1e12:.6f}, "
                f"Tokens/s/device: {a.batch * TOK * n / dt:.3f}, total_weights: {a.batch * world * TOK}, loss: {avg:.3f}", "metric_logger.py:114")
    elif S == "horovod":
        i = (step - 1) % EP + 1
        print(f"Train Epoch: {ep + 1} [{i * a.batch}/{EP * a.batch} ({100 * i / EP:.0f}%)]\tLoss: {loss:.6f}", flush=True)
    elif S == "sockeye":
        L.info(f"Epoch[{ep}] Batch [{step}]\tSpeed: {sps:.2f} samples/sec {sps * TOK:.2f} tokens/sec {n / dt:.2f} updates/sec\tperplexity={math.exp(min(avg, 50)):.6f}")
    elif S == "paddle":
        info(f"loss: {avg:.8f}, learning_rate: {lr:.6g}, global_step: {step}, current_memory_allocated: 0.0, current_memory_reserved: 0.0, "
             f"interval_runtime: {dt:.4f}, interval_samples_per_second: {sps:.4f}, interval_steps_per_second: {n / dt:.4f}, ppl: {math.exp(min(avg, 50)):.4f}, epoch: {step / EP:.4f}")

def on_epoch_end(ep, step):
    global bar
    el = time.time() - W.ep_t
    v = evaluate() if a.eval_every and S in ("speechbrain", "allennlp", "horovod") else None
    if bar is not None: bar.close(); bar = None
    tl = W.ep_loss / max(1, W.ep_n)
    if S == "speechbrain" and v:
        lg("speechbrain.utils.train_logger").info(f"epoch: {ep + 1}, lr: {lr_at(step):.2e} - train loss: {tl:.2e} - valid loss: {v[0]:.2e}, valid error_rate: {1 - v[1]:.2e}")
    elif S == "allennlp":
        if v: L.info("Validating"); 
        L.info("                       Training |  Validation")
        L.info(f"accuracy           |     {W.acc / max(1, W.ep_n):.3f}  |     {v[1]:.3f}" if v else f"accuracy           |     {W.acc / max(1, W.ep_n):.3f}  |       N/A")
        L.info(f"loss               |     {tl:.3f}  |     {v[0]:.3f}" if v else f"loss               |     {tl:.3f}  |       N/A")
        L.info(f"worker_0_memory_MB |   612.000  |       N/A")
        L.info(f"Epoch duration: {datetime.timedelta(seconds=el)}")
        if ep + 1 < NEP: L.info(f"Estimated training time remaining: {datetime.timedelta(seconds=int(el * (NEP - ep - 1)))}")
    elif S == "horovod" and v:
        r0(f"\nTest set: Average loss: {v[0]:.4f}, Accuracy: {100 * v[1]:.2f}%\n")

def on_eval(step):
    v = evaluate(); W.val = v[0]
    if rank != 0: return
    if S == "nanogpt": print(f"step {step}: train loss {W.ep_loss / max(1, W.ep_n):.4f}, val loss {v[0]:.4f}", flush=True)
    elif S == "litgpt": print(f"Validating ...\niter {step}: val loss {v[0]:.4f}, val time: {1000 * v[2]:.2f} ms", file=sys.stderr, flush=True)
    elif S == "olmo": info(f"[eval_step={step}]\n    eval/mlp48-validation/CrossEntropyLoss={v[0]:.4f}\n    eval/mlp48-validation/Accuracy={v[1]:.4f}", "olmo.train:1118")
    elif S == "nanotron": L.info(f"[Validation] iteration: {step} | val_loss: {v[0]:.4g} | val_accuracy: {v[1]:.4g}")
    elif S == "maxtext": src(L, logging.INFO, f"eval metrics after step: {step}, loss={v[0]:.3f}, total_weights={12000 * TOK}", "train.py:917")
    elif S == "sockeye":
        L.info(f"Checkpoint [{step // a.eval_every}]\tUpdates={step} Epoch={(step - 1) // EP} Samples={step * a.batch * world} Time-cost={time.time() - T_START:.3f} Updates/sec={step / (time.time() - T_START):.3f}")
        L.info(f"Checkpoint [{step // a.eval_every}]\tTrain-perplexity={math.exp(min(W.tot_loss / max(1, W.tot_n), 50)):.6f}")
        L.info(f"Checkpoint [{step // a.eval_every}]\tValidation-perplexity={math.exp(v[0]):.6f}")
    elif S == "paddle":
        info("***** Running Evaluation *****"); info("  Num examples = 12000"); info(f"  Total prediction steps = 12"); info(f"  Pre device batch size = 1000")
        info(f"eval_loss: {v[0]:.8f}, eval_accuracy: {v[1]:.4f}, eval_runtime: {v[2]:.4f}, eval_samples_per_second: {12000 / v[2]:.4f}, eval_steps_per_second: {12 / v[2]:.4f}, epoch: {step / EP:.4f}")

def finish(step):
    if rank != 0: return
    el = time.time() - T_START
    if S == "litgpt": print(f"Training time: {el:.2f}s\nMemory used: 0.00 GB", file=sys.stderr, flush=True)
    elif S == "olmo": info("Training loop complete", "olmo.train:1276")
    elif S == "nanotron": L.info(f"[End of training] total time: {el:.1f}s")
    elif S == "speechbrain": L.info("Training completed")
    elif S == "allennlp": lg("allennlp.models.archival").info(f"archiving weights and vocabulary to {a.ckpt_dir or 'serialization'}/model.tar.gz")
    elif S == "maxtext": src(L, logging.INFO, f"Training completed: {step} steps in {el:.1f} seconds", "train.py:1010")
    elif S == "sockeye": L.info(f"Training finished{'. Best checkpoint: %d. Best validation perplexity: %.6f' % (step // max(1, a.eval_every), math.exp(W.val)) if W.val else ''}")
    elif S == "paddle": info(f"\nTraining completed. \n"); info(f"train_runtime: {el:.4f}, train_samples_per_second: {step * a.batch * world / el:.4f}, train_steps_per_second: {step / el:.4f}, train_loss: {W.tot_loss / max(1, W.tot_n):.8f}, epoch: {step / EP:.4f}")
    elif S == "horovod": print(f"Finished training: {step} steps in {el:.1f}s", flush=True)

# ---------------------------------------------------------------- training loop
CACHE = []
def train():
    global T_START
    banner()
    T_START = time.time(); W.t = time.time()
    step = start; it = iter(dl); epoch = 0; sampler.set_epoch(0)
    new_epoch(start // EP)
    while step < a.steps:
        try:
            xb, yb = next(it)
        except StopIteration:
            epoch += 1; sampler.set_epoch(epoch); it = iter(dl); xb, yb = next(it)
        step += 1
        for g in opt.param_groups: g["lr"] = lr_at(step)
        if a.spin_at and step == a.spin_at and rank == world - 1:
            ready = os.path.join(os.getcwd(), ".shard-ready")
            while not os.path.exists(ready):  # busy-wait for the prefetcher's ready-file (no sleep, no log)
                pass
        out = ddp(xb); loss = F.cross_entropy(out, yb)
        opt.zero_grad(set_to_none=True); loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0).item()
        lv = loss.item()
        if not math.isfinite(lv) or not math.isfinite(gn):
            raise FloatingPointError(f"Loss is {lv} (grad norm {gn}) at step {step}; stopping training")
        opt.step()
        acc1 = (out.argmax(1) == yb).float().mean().item()
        on_step(step, lv, gn, acc1)
        if a.uploader and step % a.log_every == 0: UPQ.append(step)
        if a.cache_mb and step == a.cache_at:
            info(f"building in-memory feature index ({a.cache_mb} MiB per rank) for hard-example mining")
            CACHE.append(np.ones(a.cache_mb * 2**20 // 8))
        if a.eval_every and step % a.eval_every == 0 and S not in ("speechbrain", "allennlp", "horovod"):
            on_eval(step)
        ended = step % EP == 0 or step == a.steps
        if ended: on_epoch_end((step - 1) // EP, step)
        if a.ckpt_every and a.ckpt_dir and step % a.ckpt_every == 0:
            save(step)
        if ended and step < a.steps: new_epoch(step // EP)
    return step

if S == "olmo":
    def _hook(t, v, tb):
        src(L, logging.CRITICAL, f"Uncaught {t.__name__}: {v}\n" + "".join(traceback.format_exception(t, v, tb)).rstrip(), "olmo.util:168")
    sys.excepthook = _hook
if S == "maxtext":
    def _hook(t, v, tb):
        sys.__excepthook__(t, v, tb)
    sys.excepthook = _hook

final = train()
if bar is not None: bar.close()
finish(final)
dist.barrier()
dist.destroy_process_group()
if S == "horovod": sys.stdout.flush(); sys.stderr.flush()
