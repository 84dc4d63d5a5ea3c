#!/usr/bin/env python3
"""t31: a small DDP (gloo, CPU) classification trainer that prints like eleven other frameworks, for heldout31 gen_h31b
(started from heldout30's gen_h30b/t30.py: same model, data and optimiser; new log styles and fault knobs).

Rank/world come from torchrun (RANK/WORLD_SIZE) or from srun (SLURM_PROCID/SLURM_NTASKS with --master host:port).
Styles (--style): ignite, fastai, timm, yolo, ray, levanter, hydra, rich, colossalai, opennmt, espnet.
"""
import argparse, datetime, io, json, logging, math, os, re, signal, subprocess, sys, time, traceback, warnings

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, DistributedSampler, Sampler

p = argparse.ArgumentParser()
p.add_argument("--style", default="hydra")
p.add_argument("--data", default="/work/lab31b/data/feat.bin")
p.add_argument("--rows", type=int, default=60000)
p.add_argument("--dim", type=int, default=48)
p.add_argument("--hidden", type=int, default=512)
p.add_argument("--batch", type=int, default=96)
p.add_argument("--steps", type=int, default=2000)
p.add_argument("--lr", type=float, default=3e-3)
p.add_argument("--log-every", type=int, default=50)
p.add_argument("--epoch-steps", type=int, default=0)      # logical epoch length for the epoch-based styles (0 = one pass)
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
p.add_argument("--read", default="memmap")               # memmap | pread | direct (O_DIRECT, 4 KiB aligned reads)
p.add_argument("--fadvise", action="store_true")         # pread: drop each page from the page cache after reading it
p.add_argument("--shards", default="")                   # directory with index.json + shard-NNNNN.bin files
p.add_argument("--worker-cache-kb", type=int, default=0) # DataLoader workers keep an upsampled copy of every sample
p.add_argument("--nan-at", default="")                   # comma list of steps whose rank-0 batch holds an inf feature
p.add_argument("--nan-skip", action="store_true")        # skip updates with non-finite gradients instead of stopping
p.add_argument("--loss-scale", type=float, default=0.0)  # dynamic loss scaling with fp16 gradient overflow checks
p.add_argument("--leak-events", action="store_true")     # rank 0 reopens an event file per logged step and never closes it
p.add_argument("--exit-early-at", type=int, default=0)   # last rank runs out of batches here and waits at the final barrier
p.add_argument("--sigterm-ckpt", action="store_true")    # SIGTERM: save a checkpoint and exit
p.add_argument("--usr1-requeue", action="store_true")    # SIGUSR1: save a checkpoint, 'scontrol requeue' the job, exit
p.add_argument("--mem-cache-mb", type=int, default=0)    # per-rank in-memory feature cache, kept under 90% of the cgroup limit
p.add_argument("--temp-anneal-to", type=int, default=0)  # logits / temperature, temperature annealed to 0 at this step
p.add_argument("--tag", default="")
a = p.parse_args()

if a.master:
    mh, mp = a.master.split(":")
    os.environ.setdefault("MASTER_ADDR", mh); os.environ.setdefault("MASTER_PORT", mp)
    os.environ.setdefault("RANK", os.environ.get("SLURM_PROCID", "0"))
    os.environ.setdefault("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1"))
    os.environ.setdefault("LOCAL_RANK", "0")
rank = int(os.environ.get("RANK", 0)); world = int(os.environ.get("WORLD_SIZE", 1))
S = a.style
host = os.environ.get("SLURMD_NODENAME") or os.uname().nodename
PID = os.getpid()
T0 = time.time()
EXP = a.tag or "mlp48"

def now(fmt="%Y-%m-%d %H:%M:%S"):
    return datetime.datetime.now().strftime(fmt)

def hms(sec):
    sec = int(sec); return f"{sec // 3600:02d}:{sec % 3600 // 60:02d}:{sec % 60:02d}"

# ---------------------------------------------------------------- output plumbing per style
class Prefixed(io.TextIOBase):
    """Ray's log monitor prefixes every line a worker writes with the actor name, pid and ip."""
    def __init__(s, raw, prefix): s.raw, s.prefix, s.buf = raw, prefix, ""
    def writable(s): return True
    def write(s, t):
        s.buf += t
        while "\n" in s.buf:
            line, s.buf = s.buf.split("\n", 1); s.raw.write(s.prefix + line + "\n")
        s.raw.flush(); return len(t)
    def flush(s):
        s.raw.flush()

if S == "ray":
    ip = {"gpu-b31-01": "10.231.7.11", "gpu-b31-02": "10.231.7.12"}.get(host, "127.0.0.1")
    pre = f"(RayTrainWorker pid={PID}, ip={ip}) "
    sys.stdout = Prefixed(sys.__stdout__, pre); sys.stderr = Prefixed(sys.__stderr__, pre)

class RichLike(logging.Handler):
    """RichHandler's layout: [time] LEVEL    message ............................ file.py:line (time shown once per second)."""
    W = 120
    def __init__(s, prefix=""): super().__init__(); s.last = None; s.prefix = prefix
    def emit(s, r):
        t = datetime.datetime.fromtimestamp(r.created).strftime("[%m/%d/%y %H:%M:%S]")
        ts = t if t != s.last else " " * len(t); s.last = t
        lines = ((s.prefix % r.levelname if s.prefix else "") + r.getMessage()).split("\n")
        path = f"{r.filename}:{r.lineno}"
        head = f"{ts} {r.levelname:<8} "
        room = s.W - len(head) - len(path) - 1
        out = [head + lines[0].ljust(room) + " " + path] + [" " * len(head) + ln for ln in lines[1:]]
        print("\n".join(out), file=sys.stdout, flush=True)

class NoInfo(logging.Formatter):
    """timm's FormatterNoInfo: INFO records print the bare message, others 'LEVEL: message'."""
    def format(s, r):
        return r.getMessage() if r.levelno == logging.INFO else f"{r.levelname}: {r.getMessage()}"

class Esp(logging.Formatter):
    """ESPnet: '[host] time (module:line) LEVEL: message'."""
    def format(s, r):
        return f"[{host}] {s.formatTime(r)} ({getattr(r, 'mod', 'trainer:732')}) {r.levelname}: {r.getMessage()}"

root = logging.getLogger(); root.handlers.clear()
h = logging.StreamHandler(sys.stdout)
lvl = logging.INFO
if S == "ignite":
    h.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s: %(message)s")); lvl = logging.INFO if rank == 0 else logging.WARNING
elif S == "timm":
    h.setFormatter(NoInfo())
elif S in ("yolo", "fastai"):
    h.setFormatter(logging.Formatter("%(message)s")); lvl = logging.INFO if rank == 0 else logging.WARNING
elif S == "ray":
    h.setFormatter(logging.Formatter("%(asctime)s\t%(levelname)s %(filename)s:%(lineno)d -- %(message)s"))
elif S == "levanter":
    h.setFormatter(logging.Formatter("%(asctime)s - %(process)d - %(name)s - %(levelname)s :: %(message)s", "%Y-%m-%dT%H:%M:%S"))
elif S == "hydra":
    h.setFormatter(logging.Formatter("[%(asctime)s][%(name)s][%(levelname)s] - %(message)s"))
elif S == "rich":
    h = RichLike()
elif S == "colossalai":
    h = RichLike("colossalai - colossalai - %s: ")
elif S == "opennmt":
    h.setFormatter(logging.Formatter("[%(asctime)s %(levelname)s] %(message)s"))
elif S == "espnet":
    h.setFormatter(Esp()); lvl = logging.INFO if rank == 0 else logging.WARNING
root.addHandler(h); root.setLevel(lvl)
logging.captureWarnings(True)
L = logging.getLogger({"ignite": "trainer", "timm": "train", "yolo": "ultralytics", "ray": "ray.train", "levanter": "levanter.trainer",
                       "hydra": "__main__", "rich": "train", "colossalai": "colossalai", "opennmt": "onmt", "espnet": "espnet2",
                       "fastai": "fastai"}.get(S, "__main__"))
def lg(name): return logging.getLogger(name)

def r0(msg, err=False):
    if rank == 0: print(msg, file=sys.stderr if err else sys.stdout, flush=True)

def esp(msg, mod="trainer:732", level=logging.INFO):
    L.log(level, msg, extra={"mod": mod})

def warn(msg):
    """A warning printed the way the style prints warnings (all ranks that see it)."""
    if S == "ignite": lg("trainer").warning(msg)
    elif S == "timm": L.warning(msg)
    elif S in ("yolo",): r0(f"WARNING ⚠️ {msg}")
    elif S == "fastai": r0(f"WARNING: {msg}", err=True)
    elif S == "espnet": esp(msg, "trainer:650", logging.WARNING)
    elif S == "colossalai": lg("colossalai").warning(msg)
    else: L.warning(msg)

# ---------------------------------------------------------------- config checks, distributed init
if S == "colossalai":
    lg("colossalai").info(f"launch: rank {rank} of {world} on {host}, backend gloo, MASTER_ADDR={os.environ.get('MASTER_ADDR')} MASTER_PORT={os.environ.get('MASTER_PORT')}")
if S == "ray":
    lg("ray.train.torch.config").info(f"Setting up process group for: env:// [rank={rank}, world_size={world}]")

RESTART = os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")
if RESTART != "0" and os.environ.get("TORCHELASTIC_USE_AGENT_STORE") == "True":
    # after a torchrun restart the agent's store still holds the previous attempt's gloo addresses: use a fresh prefix
    _st = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]), world, False,
                        timeout=datetime.timedelta(seconds=a.pg_timeout))
    dist.init_process_group("gloo", store=dist.PrefixStore(f"attempt{RESTART}", _st), rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=a.pg_timeout))
else:
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=a.pg_timeout))
torch.manual_seed(0); torch.set_num_threads(1)

if S == "colossalai":
    lg("colossalai").info(f"Distributed environment is initialized, world size: {world}")
if S == "ignite" and rank == 0:
    lg("ignite.distributed.launcher.Parallel").info("Initialized processing group with backend: 'gloo'")

# ---------------------------------------------------------------- data
class Feats(Dataset):
    def __init__(s):
        g = np.random.default_rng(11); s.w = g.standard_normal((a.dim, 10)).astype(np.float32)
        s.cache = {}; s.fd = None; s.x = None; s.shards = None
        if a.shards:
            idx = json.load(open(os.path.join(a.shards, "index.json")))
            s.shards = idx["shards"]; s.srows = idx["rows_per_shard"]
        else:
            s.x = np.memmap(a.data, dtype=np.float32, mode="r", shape=(a.rows, a.dim))
            if a.read == "pread": s.fd = os.open(a.data, os.O_RDONLY)
            if a.read == "direct": s.fd = os.open(a.data, os.O_RDONLY | os.O_DIRECT); s.buf = None
    def __len__(s): return a.rows
    def row(s, i):
        if s.shards is not None:
            return np.fromfile(os.path.join(a.shards, s.shards[i // s.srows]), dtype=np.float32, count=a.dim,
                               offset=(i % s.srows) * a.dim * 4)
        if s.fd is not None and a.read == "direct":
            import mmap
            if s.buf is None: s.buf = mmap.mmap(-1, 8192)  # page-aligned buffer (per process: DataLoader workers fork)
            off = i * a.dim * 4; base = off - off % 4096; os.preadv(s.fd, [s.buf], base)
            return np.frombuffer(s.buf, dtype=np.float32, count=a.dim, offset=off - base).copy()
        if s.fd is not None:
            off = i * a.dim * 4
            x = np.frombuffer(os.pread(s.fd, a.dim * 4, off), dtype=np.float32).copy()
            if a.fadvise: os.posix_fadvise(s.fd, off - off % 4096, 8192, os.POSIX_FADV_DONTNEED)
            return x
        return np.array(s.x[i])
    def __getitem__(s, i):
        x = s.row(i)
        if a.worker_cache_kb:
            s.cache[i] = np.repeat(x, a.worker_cache_kb * 256 // a.dim)
        return torch.from_numpy(x), int(np.argmax(x @ s.w))

class ShardSampler(Sampler):
    """Shard-ordered sampling (shards in a per-epoch random order, rows shuffled within a shard), split over ranks."""
    def __init__(s, ds): s.ds = ds; s.epoch = 0
    def set_epoch(s, e): s.epoch = e
    def __len__(s): return a.rows // world
    def __iter__(s):
        g = np.random.default_rng(3 + s.epoch); order = []
        for k in g.permutation(len(s.ds.shards)):
            order.extend((k * s.ds.srows + g.permutation(s.ds.srows)).tolist())
        return iter(order[rank::world][:len(s)])

class Net(nn.Module):
    def __init__(s):
        super().__init__()
        s.inp = nn.Linear(a.dim, a.hidden); s.mid = nn.Linear(a.hidden, a.hidden); s.out = nn.Linear(a.hidden, 10)
        s.norm = nn.LayerNorm(a.hidden)
    def forward(s, x, step=0):
        h = F.gelu(s.inp(x))
        h = s.norm(F.gelu(s.mid(h)) + h)
        o = s.out(h)
        if a.temp_anneal_to:
            o = o / max(0.0, 1.0 - step / a.temp_anneal_to)  # "sharpening" schedule from the sweep config
        return o

model = Net(); nparam = sum(q.numel() for q in model.parameters())
if S == "ray":
    lg("ray.train.torch.train_loop_utils").info("Moving model to device: cpu")
    lg("ray.train.torch.train_loop_utils").info("Wrapping provided model in DistributedDataParallel.")
ddp = nn.parallel.DistributedDataParallel(model)
opt = torch.optim.AdamW(ddp.parameters(), lr=a.lr, weight_decay=0.01)
ds = Feats()
sampler = ShardSampler(ds) if a.shards else DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=3)
dl = DataLoader(ds, batch_size=a.batch, sampler=sampler, num_workers=a.workers, drop_last=True,
                persistent_workers=a.persistent and a.workers > 0)
per_epoch = len(dl)
EP = a.epoch_steps or per_epoch
NEP = math.ceil(a.steps / EP)

def lr_at(s):
    w = 100
    return a.lr * (s / w if s < w else 0.5 * (1 + math.cos(math.pi * min(1.0, (s - w) / max(1, a.steps - w)))))

# ---------------------------------------------------------------- checkpoints
def ckpt_path(step):
    d = a.ckpt_dir
    return {"timm": f"{d}/checkpoint-{step}.pth.tar", "fastai": f"{d}/model_{step}.pth", "ignite": f"{d}/checkpoint_{step}.pt",
            "yolo": f"{d}/weights/step{step}.pt", "opennmt": f"{d}/model_step_{step}.pt", "espnet": f"{d}/{step}step.pth",
            "levanter": f"{d}/step-{step}/state.pt", "ray": f"{d}/checkpoint_{step:06d}/model.pt",
            "hydra": f"{d}/step_{step}.pt", "rich": f"{d}/ckpt-{step:06d}.pt", "colossalai": f"{d}/step{step}/model.pt"}[S]

def latest_ckpt():
    if not (a.ckpt_dir and os.path.isdir(a.ckpt_dir)): return None, 0
    best = (None, 0)
    for dp, dn, fn in os.walk(a.ckpt_dir):
        for f in fn:
            full = os.path.join(dp, f)
            for n in map(int, re.findall(r"\d+", os.path.relpath(full, a.ckpt_dir))):
                if ckpt_path(n) == full and n > best[1]: best = (full, n)
    return best

start = 0
if a.resume:
    path, st = latest_ckpt()
    if path:
        if rank == 0:
            if S == "timm": L.info("Restoring model state from checkpoint...")
            elif S == "ignite": lg("ignite.handlers.checkpoint").info(f"Loading checkpoint from {path}")
            elif S == "fastai": pass
            elif S == "yolo": r0(f"Resuming training {path} from epoch {st // EP + 1} to {NEP} total epochs")
            elif S == "ray": print(f"Restoring from checkpoint: Checkpoint(filesystem=local, path={os.path.dirname(path)})", flush=True)
            elif S == "levanter": L.info(f"Loading checkpoint from {os.path.dirname(path)}")
            elif S == "hydra": lg("src.utils.checkpoint").info(f"Resuming from {path}")
            elif S == "opennmt": L.info(f"Loading checkpoint from {path}")
            elif S == "espnet": esp(f"The training was resumed using {path}", "trainer:163")
            else: L.info(f"Resuming from {path}")
        sd = torch.load(path, map_location="cpu")
        model.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); start = sd["step"]
        if rank == 0:
            if S == "timm": L.info("Restoring optimizer state from checkpoint..."); L.info(f"Loaded checkpoint '{path}' (epoch {start // EP})")
            elif S == "levanter": L.info(f"Resuming training from step {start}")
            elif S == "ray": print(f"Resumed at step {start}", flush=True)
            elif S == "opennmt": L.info(f"Resuming from step {start}")
            elif S in ("rich", "colossalai", "hydra", "ignite"): L.info(f"Restored model/optimizer state at step {start}")

LEAK = []
def save(step):
    path = ckpt_path(step); t0 = time.time()
    if rank == 0:
        if S == "levanter": lg("levanter.checkpoint").info(f"Saving checkpoint to {os.path.dirname(path)} for step {step}")
        elif S == "opennmt": L.info(f"Saving checkpoint {path}")
        elif S == "hydra": pass
        elif S == "rich": L.info(f"Saving checkpoint to {path}")
        elif S == "colossalai": pass
        os.makedirs(os.path.dirname(path), exist_ok=True)
        sd = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step}
        if a.ckpt_pad_mb: sd["pad"] = torch.zeros(a.ckpt_pad_mb * 262144)
        with open(path, "wb") as f:
            torch.save(sd, f); f.flush(); os.fsync(f.fileno())
    dist.barrier()
    dt = time.time() - t0
    if rank == 0:
        if S == "levanter": lg("levanter.checkpoint").info(f"Saved checkpoint for step {step}")
        elif S == "hydra": lg("src.utils.checkpoint").info(f"Saved checkpoint to {path} ({dt:.2f}s)")
        elif S == "ray": print(f"Checkpoint successfully created at: Checkpoint(filesystem=local, path={os.path.dirname(path)})", flush=True)
        elif S == "colossalai": lg("colossalai").info(f"Saved model and optimizer states to {os.path.dirname(path)} in {dt:.2f}s")
        elif S == "ignite": pass
        elif S == "yolo": pass
        elif S == "espnet": esp(f"Saving the model at {path}", "trainer:350")
        elif S == "timm": pass

# ---------------------------------------------------------------- evaluation
def evaluate(step):
    ddp.eval(); tot = 0.0; c1 = 0.0; c5 = 0.0; n = 0; t0 = time.time()
    with torch.no_grad():
        for i in range(0, 12000, 1000):
            if a.shards:
                xb = torch.from_numpy(np.stack([ds.row(j) for j in range(i, i + 1000, 10)]))
            else:
                xb = torch.from_numpy(np.array(ds.x[i:i + 1000]) if ds.x is not None else np.stack([ds.row(j) for j in range(i, i + 1000)]))
            yb = torch.from_numpy(np.argmax(xb.numpy() @ ds.w, 1))
            o = model(xb); tot += F.cross_entropy(o, yb).item() * len(xb); n += len(xb)
            c1 += (o.argmax(1) == yb).sum().item(); c5 += (o.topk(5, 1).indices == yb[:, None]).any(1).sum().item()
    t = torch.tensor([tot, c1, c5, n]); dist.all_reduce(t); ddp.train()
    return (t[0] / t[3]).item(), (t[1] / t[3]).item(), (t[2] / t[3]).item(), time.time() - t0

# ---------------------------------------------------------------- signal handlers
stop_req = {"v": False, "sig": None}
def _h(sig, frm):
    stop_req["v"] = True; stop_req["sig"] = sig
    name = signal.Signals(sig).name
    if S == "levanter": L.warning(f"Received {name}; will save a checkpoint at the end of this step and exit")
    elif S == "ray": print(f"Received {name} on rank {rank}: saving checkpoint before shutdown", flush=True)
    elif S == "fastai": print(f"[rank {rank}] {name} received: will save model and requeue", flush=True)
    else: L.warning(f"[rank {rank}] received {name}")
if a.sigterm_ckpt: signal.signal(signal.SIGTERM, _h)
if a.usr1_requeue: signal.signal(signal.SIGUSR1, _h)

# ---------------------------------------------------------------- banners
def banner():
    if S == "ignite":
        if rank == 0:
            lg("ignite.distributed.launcher.Parallel").info(f"- Run '<function training at 0x7f{PID:08x}>' in {world} processes")
            L.info(f"Train {EXP} on CIFAR-like tabular data\n- PyTorch version: {torch.__version__}\n- Ignite version: (from source)\n"
                   f"- Parameters:\n\t batch_size: {a.batch}\n\t num_epochs: {NEP}\n\t learning_rate: {a.lr}\n\t num_workers: {a.workers}\n"
                   f"\t backend: gloo\n\t nproc_per_node: {world}\n\t output_path: {a.ckpt_dir or '/tmp/output'}")
            lg("ignite.engine.engine.Engine").info(f"Engine run starting with max_epochs={NEP}.")
    elif S == "fastai":
        if rank == 0:
            print(f"epoch     train_loss  valid_loss  accuracy  top_k_accuracy  time    ", flush=True)
    elif S == "timm":
        L.info(f"Training in distributed mode with multiple processes, 1 device per process.Process {rank}, total {world}, device cpu.")
        if rank == 0:
            L.info(f"Model {EXP} created, param count:{nparam}")
            L.info(f"Data processing configuration for current model + dataset:\n\tinput_size: (1, {a.dim})\n\tinterpolation: none\n\tmean: (0.0,)\n\tstd: (1.0,)\n\tcrop_pct: 1.0")
            L.info("Using native Torch DistributedDataParallel.")
            L.info(f"Scheduled epochs: {NEP}. LR stepped per epoch.")
    elif S == "yolo":
        r0(f"Ultralytics 🚀 Python-3.11.7 torch-{torch.__version__} CPU ({os.cpu_count()} cores)")
        r0(f"\x1b[34m\x1b[1mengine/trainer: \x1b[0mtask=classify, mode=train, model={EXP}-cls.yaml, data={a.shards or a.data}, epochs={NEP}, "
           f"batch={a.batch * world}, imgsz={a.dim}, save=True, save_period={a.ckpt_every // EP if a.ckpt_every else -1}, device=cpu, workers={a.workers}, "
           f"project=None, name=train, exist_ok=False, pretrained=False, optimizer=AdamW, seed=0, deterministic=True, lr0={a.lr}, weight_decay=0.01")
        if a.shards and rank == 0:
            r0(f"\x1b[34m\x1b[1mtrain: \x1b[0mScanning {a.shards}... {len(ds.shards)} shards, {a.rows} rows, 10 classes ✅")
        r0(f"\x1b[34m\x1b[1moptimizer:\x1b[0m AdamW(lr={a.lr}, momentum=0.9) with parameter groups 3 weight(decay=0.0), 3 weight(decay=0.01), 4 bias(decay=0.0)")
        r0(f"Image sizes {a.dim} train, {a.dim} val\nUsing {a.workers} dataloader workers\nLogging results to \x1b[1mruns/classify/train\x1b[0m\nStarting training for {NEP} epochs...")
    elif S == "ray":
        if rank == 0:
            print(f"Training started with configuration:\n╭──────────────────────────────────────╮\n│ Training config                      │\n"
                  f"├──────────────────────────────────────┤\n│ train_loop_config/batch_size      {a.batch:>4} │\n"
                  f"│ train_loop_config/lr            {a.lr:>6} │\n│ train_loop_config/num_steps     {a.steps:>6} │\n╰──────────────────────────────────────╯", flush=True)
    elif S == "levanter":
        if rank == 0:
            L.info(f"Distributed initialized: process {rank} of {world}, {world} local devices (cpu)")
            lg("levanter.utils.jax_utils").info(f"Parameter count: {nparam / 1e3:.1f}K")
            L.info(f"Training for {a.steps} steps, batch size {a.batch * world}, learning rate {a.lr}")
            if start: L.info(f"Resuming from step {start}")
            else: L.info("No checkpoint found. Starting from scratch.")
    elif S == "hydra":
        if rank == 0:
            L.info(f"\ntrainer:\n  max_steps: {a.steps}\n  log_every_n_steps: {a.log_every}\n  val_every_n_steps: {a.eval_every or 'null'}\n"
                   f"  ckpt_every_n_steps: {a.ckpt_every or 'null'}\n  pg_timeout_s: {a.pg_timeout}\nmodel:\n  _target_: src.models.mlp.MLP\n  in_dim: {a.dim}\n"
                   f"  hidden: {a.hidden}\n  n_classes: 10\noptim:\n  _target_: torch.optim.AdamW\n  lr: {a.lr}\n  weight_decay: 0.01\n"
                   f"data:\n  path: {a.shards or a.data}\n  batch_size: {a.batch}\n  num_workers: {a.workers}\n")
        L.info(f"Instantiating model <src.models.mlp.MLP> on rank {rank}/{world} ({host})")
        if rank == 0: L.info(f"Output directory: {os.getcwd()}/outputs/{now('%Y-%m-%d')}/{now('%H-%M-%S')}")
    elif S == "rich":
        if rank == 0:
            L.info(f"world size {world}, backend gloo, {nparam:,} parameters")
            L.info(f"train rows {a.rows}, batch {a.batch}/rank, {a.steps} steps")
    elif S == "colossalai":
        if rank == 0:
            lg("colossalai").info(f"Booster: plugin=TorchDDPPlugin, mixed_precision={'fp16' if a.loss_scale else 'no'}, world size {world}")
            print(f"Model params: {nparam / 1e6:.2f} M", flush=True)
    elif S == "opennmt":
        if rank == 0:
            L.info(f"Starting training on CPU, world size: {world}")
            L.info(f"* number of parameters: {nparam}")
            L.info(f"Start training loop {'and validate every %d steps' % a.eval_every if a.eval_every else 'without validation'}...")
    elif S == "espnet":
        esp(f"pytorch.version={torch.__version__}, cuda.available=False, cudnn.version=None, cudnn.benchmark=False, cudnn.deterministic=True", "asr:318")
        esp(f"Model summary:\n    Class Name: ESPnetMLPModel\n    Total Number of model parameters: {nparam / 1e6:.2f} M\n    Number of trainable parameters: {nparam / 1e6:.2f} M (100.0%)\n    Size: {nparam * 4 / 1e6:.2f} MB\n    Type: torch.float32", "abs_task:1291")
        esp(f"Optimizer:\nAdamW (\nParameter Group 0\n    amsgrad: False\n    betas: [0.9, 0.999]\n    eps: 1e-08\n    lr: {a.lr}\n    weight_decay: 0.01\n)", "abs_task:1292")
        esp(f"Scheduler: WarmupLR(warmup_steps=100)", "abs_task:1293")
    if a.noisy:
        warnings.warn("torch.distributed._all_gather_base is a private function and will be deprecated. Please use torch.distributed.all_gather_into_tensor instead.", FutureWarning)
        warnings.warn("`torch.cpu.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cpu', args...)` instead.", FutureWarning)
        if rank == 0:
            print("UserWarning: This DataLoader will create 4 worker processes in total. Our suggested max number of worker in current system is 2, which is smaller than what this DataLoader is going to create.", file=sys.stderr, flush=True)

# ---------------------------------------------------------------- per-style progress lines
class W:  # rolling window / epoch accumulators
    t = time.time(); ep_t = time.time(); loss_sum = 0.0; loss_n = 0; ep_loss = 0.0; ep_n = 0; acc = 0.0; fwd = 0.0; bwd = 0.0; opt_t = 0.0
    data = 0.0; best = None; best_ep = 0; tot_loss = 0.0; tot_n = 0
bar = None
from tqdm import tqdm

def new_bar(ep):
    global bar
    if rank != 0: return
    if S == "yolo":
        r0(f"\n{'Epoch':>11}{'GPU_mem':>11}{'loss':>11}{'Instances':>11}{'Size':>11}", err=True)
        bar = tqdm(total=EP, bar_format="{l_bar}{bar:10}{r_bar}", mininterval=1.0, file=sys.stderr)
    elif S == "colossalai":
        bar = tqdm(total=EP, desc=f"Epoch [{ep + 1}/{NEP}]", mininterval=2.0, file=sys.stderr)

def on_step(step, loss, gn, acc1):
    ep = (step - 1) // EP
    W.loss_sum += loss; W.loss_n += 1; W.ep_loss += loss; W.ep_n += 1; W.tot_loss += loss; W.tot_n += 1
    if bar is not None:
        bar.update(1)
        if S == "yolo": bar.set_description(f"{f'{ep + 1}/{NEP}':>11}{'0G':>11}{W.ep_loss / W.ep_n:>11.4g}{a.batch:>11}{a.dim:>11}", refresh=False)
        if S == "colossalai": bar.set_postfix(loss=f"{loss:.4f}", refresh=False)
    if step % a.log_every: return
    dt = time.time() - W.t; W.t = time.time(); n = a.log_every; sps = a.batch * world * n / dt; lr = lr_at(step)
    avg = W.loss_sum / max(1, W.loss_n); W.loss_sum = 0.0; W.loss_n = 0
    it_in_ep = (step - 1) % EP + 1
    if S == "ignite":
        lg("trainer").info(f"Epoch[{ep + 1}] Iteration[{it_in_ep}/{EP}] Loss: {loss:.4f} Lr: {lr:.2e} ({sps:.1f} samples/s)")
    elif S == "timm":
        if rank == 0:
            L.info(f"Train: {ep} [{it_in_ep:>4d}/{EP} ({100 * it_in_ep / EP:>3.0f}%)]  Loss: {loss:#.3g} ({W.ep_loss / W.ep_n:#.3g})  "
                   f"Time: {dt / n:.3f}s, {sps:>7.2f}/s  ({(time.time() - W.ep_t) / W.ep_n:.3f}s, {a.batch * world * W.ep_n / (time.time() - W.ep_t):>7.2f}/s)  "
                   f"LR: {lr:.3e}  Data: {W.data / n:.3f} ({W.data / n:.3f})")
        W.data = 0.0
    elif S == "ray":
        if rank == 0: print(str({"epoch": ep, "step": step, "loss": round(loss, 4), "lr": float(f"{lr:.4e}"), "samples_per_sec": round(sps, 1)}), flush=True)
    elif S == "levanter":
        if rank == 0:
            el = time.time() - T_START; rem = (a.steps - step) * dt / n
            L.info(f"Progress on:train {step}it/{a.steps}it rate:{n / dt:.1f}it/s remaining:{datetime.timedelta(seconds=int(rem))} "
                   f"elapsed:{datetime.timedelta(seconds=int(el))} postfix:loss={loss:.4g}")
    elif S == "hydra":
        if rank == 0: L.info(f"step={step} epoch={ep} loss={loss:.4f} lr={lr:.3e} grad_norm={gn:.3f} samples/s={sps:.1f}")
    elif S == "rich":
        if rank == 0:
            L.info(f"step {step}/{a.steps}  loss {loss:.4f}  lr {lr:.2e}  {sps:,.0f} samples/s")
            if step % (a.log_every * 4) == 0:
                done = int(40 * step / a.steps)
                el = time.time() - T_START; rem = (a.steps - step) * dt / n
                print(f"Training {'━' * done}{'╺' if done < 40 else ''}{'━' * max(0, 39 - done)} {100 * step / a.steps:3.0f}% {step}/{a.steps} "
                      f"{datetime.timedelta(seconds=int(el))} • {datetime.timedelta(seconds=int(rem))} {n / dt:.1f} it/s", flush=True)
    elif S == "colossalai":
        if rank == 0 and step % (a.log_every * 2) == 0:
            print(f"[step {step}] loss: {avg:.4f}, lr: {lr:.3e}, throughput: {sps:.1f} samples/s, step time: {1000 * dt / n:.1f} ms", flush=True)
    elif S == "opennmt":
        if rank == 0:
            L.info(f"Step {step:>6d}/{a.steps:>6d}; acc: {100 * acc1:6.2f}; ppl: {math.exp(min(avg, 50)):8.2f}; xent: {avg:6.2f}; lr: {lr:.5f}; "
                   f"sents: {a.batch * world * n:>8d}; bsz: {a.batch:>4d}/{a.batch:>4d}/{1:>2d}; {sps * a.dim:>6.0f}/{sps * a.dim:>6.0f} tok/s; "
                   f"{time.time() - T_START:>6.0f} sec")
    elif S == "espnet":
        esp(f"{ep + 1}epoch:train:{step - n + 1}-{step}batch: iter_time={W.data / n:.3e}, forward_time={W.fwd / n:.3f}, loss={avg:.3f}, "
            f"acc={acc1:.3f}, backward_time={W.bwd / n:.3f}, grad_norm={gn:.3f}, clip=100.000, loss_scale=1.000, "
            f"optim_step_time={W.opt_t / n:.3f}, optim0_lr0={lr:.3e}, train_time={dt / n:.3f}", "trainer:732")
        W.fwd = W.bwd = W.opt_t = W.data = 0.0

def on_epoch_end(ep, step):
    """ep is 0-based; runs at steps multiple of EP (and at the end)."""
    global bar
    el = time.time() - W.ep_t
    do_eval = bool(a.eval_every) and S in ("ignite", "fastai", "timm", "yolo", "espnet")
    v = evaluate(step) if do_eval else None
    if bar is not None: bar.close(); bar = None
    tl = W.ep_loss / max(1, W.ep_n)
    if S == "ignite":
        lg("ignite.engine.engine.Engine").info(f"Epoch[{ep + 1}] Complete. Time taken: {hms(el)}.{int(1000 * (el % 1)):03d}")
        if v: lg("trainer").info(f"Validation Results - Epoch[{ep + 1}] Avg accuracy: {v[1]:.4f} Avg loss: {v[0]:.4f}")
    elif S == "fastai":
        if rank == 0:
            vl, va, v5 = (f"{v[0]:.6f}", f"{v[1]:.6f}", f"{v[2]:.6f}") if v else ("None", "None", "None")
            print(f"{ep:<10}{tl:<12.6f}{vl:<12}{va:<10}{v5:<16}{int(el) // 60:02d}:{int(el) % 60:02d}     ", flush=True)
            if v and (W.best is None or v[0] < W.best):
                W.best = v[0]; print(f"Better model found at epoch {ep} with valid_loss value: {v[0]}.", flush=True)
    elif S == "timm":
        if rank == 0 and v:
            L.info(f"Test: [  11/11]  Time: {v[3] / 12:.3f} ({v[3] / 12:.3f})  Loss: {v[0]:>7.3f} ({v[0]:>7.3f})  Acc@1: {100 * v[1]:>7.3f} ({100 * v[1]:>7.3f})  Acc@5: {100 * v[2]:>7.3f} ({100 * v[2]:>7.3f})")
            if W.best is None or v[1] > W.best: W.best, W.best_ep = v[1], ep
    elif S == "yolo":
        if rank == 0 and v:
            print(f"{'classes':>22}{'top1_acc':>11}{'top5_acc':>11}: 100%|██████████| 12/12 [00:0{min(9, int(v[3]))}<00:00, {12 / max(v[3], 1e-3):.2f}it/s]", file=sys.stderr, flush=True)
            print(f"{'all':>22}{v[1]:>11.3g}{v[2]:>11.3g}", file=sys.stderr, flush=True)
    elif S == "espnet":
        if v:
            esp(f"{ep + 1}epoch results: [train] loss={tl:.3f}, time={int(el)} seconds, total_count={W.ep_n * (ep + 1)}, "
                f"gpu_max_cached_mem_GB=0.000, [valid] loss={v[0]:.3f}, acc={v[1]:.3f}, time={v[3]:.2f} seconds, total_count={12 * (ep + 1)}", "trainer:338")
            if W.best is None or v[1] > W.best:
                W.best = v[1]; esp("The best model has been updated: valid.acc", "trainer:384")
    W.ep_t = time.time(); W.ep_loss = 0.0; W.ep_n = 0

def on_eval(step):
    v = evaluate(step)
    if rank != 0: return
    if S == "ray": print(str({"step": step, "val_loss": round(v[0], 4), "val_acc": round(v[1], 4)}), flush=True)
    elif S == "levanter": lg("levanter.eval").info(f"eval loss: {v[0]:.4f} | accuracy: {v[1]:.4f} | eval time: {v[3]:.2f}s")
    elif S == "hydra": L.info(f"eval step={step} val_loss={v[0]:.4f} val_acc={v[1]:.4f}")
    elif S == "rich": L.info(f"validation @ {step}: loss {v[0]:.4f}  acc {100 * v[1]:.2f}%")
    elif S == "colossalai": print(f"Evaluation @ step {step}: loss = {v[0]:.4f}, accuracy = {100 * v[1]:.2f}%", flush=True)
    elif S == "opennmt": L.info(f"Validation perplexity: {math.exp(v[0]):.4f}"); L.info(f"Validation accuracy: {100 * v[1]:.4f}")

def on_save(step):
    save(step)

def finish(step):
    if rank != 0: return
    el = time.time() - T_START
    if S == "ignite":
        lg("ignite.engine.engine.Engine").info(f"Engine run complete. Time taken: {hms(el)}.{int(1000 * (el % 1)):03d}")
    elif S == "timm":
        if W.best is not None: L.info(f"*** Best metric: {100 * W.best:.3f} (epoch {W.best_ep})")
    elif S == "yolo":
        print(f"\n{NEP} epochs completed in {el / 3600:.3f} hours.", flush=True)
        if a.ckpt_dir: print(f"Optimizer stripped from {a.ckpt_dir}/weights/last.pt, {nparam * 4 / 1e6:.1f}MB", flush=True)
        print("Results saved to \x1b[1mruns/classify/train\x1b[0m", flush=True)
    elif S == "ray": print(f"Training finished: {step} steps in {el:.1f}s", flush=True)
    elif S == "levanter": L.info(f"Training complete. {step} steps in {datetime.timedelta(seconds=int(el))}")
    elif S == "hydra": L.info(f"Training finished at step {step}")
    elif S == "rich": L.info(f"done: {step} steps in {el:.1f}s")
    elif S == "colossalai": print(f"Finish training, total time {el:.1f} s", flush=True)
    elif S == "opennmt": L.info(f"Train perplexity: {math.exp(min(W.tot_loss / max(1, W.tot_n), 50)):.4f}"); L.info("Training finished")
    elif S == "espnet": esp(f"The training was finished at {NEP} epochs ", "trainer:452")

# ---------------------------------------------------------------- memory reporting (cgroup v1)
def cg_mem():
    path = ""
    for ln in open("/proc/self/cgroup"):
        f = ln.strip().split(":", 2)
        if "memory" in f[1].split(","): path = f[2]
    best = None
    while True:
        b = "/sys/fs/cgroup/memory" + path
        try:
            lim = int(open(b + "/memory.limit_in_bytes").read()); use = int(open(b + "/memory.usage_in_bytes").read())
            if lim < (1 << 50) and (best is None or lim < best[1]): best = (use, lim)
        except OSError:
            pass
        if path in ("", "/"): break
        path = os.path.dirname(path)
    return best

CACHE = []
def mem_tick(step):
    m = cg_mem()
    if not m: return
    use, lim = m; pct = 100 * use / lim
    if pct < 84 and sum(len(c) for c in CACHE) * 8 < a.mem_cache_mb * 2**20:
        CACHE.append(np.full(48 * 2**20 // 8, float(step)))  # 48 MiB of cached features
    elif pct > 90 and CACHE:
        CACHE.pop(0); CACHE.pop(0) if CACHE else None
        warn(f"[rank {rank}] memory pressure: {use / 2**20:.0f} MiB of {lim / 2**20:.0f} MiB ({pct:.0f}%) in use; evicted 96 MiB from the feature cache")
    if step % (a.log_every * 2) == 0:
        msg = f"[rank {rank} {host}] host memory {use / 2**20:.0f} MiB / {lim / 2**20:.0f} MiB ({pct:.0f}%), feature cache {len(CACHE) * 48} MiB"
        (L.warning if pct > 85 else L.info)(msg)

# ---------------------------------------------------------------- training loop
NAN_AT = {int(x) for x in a.nan_at.split(",") if x}
scale = {"s": a.loss_scale, "good": 0}
EV_DIR = os.path.join(os.getcwd(), "runs", EXP)

def train():
    global T_START
    banner()
    T_START = time.time(); W.t = W.ep_t = time.time()
    step = start; it = iter(dl); epoch = 0; sampler.set_epoch(0)
    new_bar(start // EP)
    while step < a.steps:
        td = time.time()
        try:
            xb, yb = next(it)
        except StopIteration:
            epoch += 1; sampler.set_epoch(epoch); it = iter(dl); xb, yb = next(it)
        W.data += time.time() - td
        step += 1
        for g in opt.param_groups: g["lr"] = lr_at(step)
        if a.exit_early_at and step == a.exit_early_at and rank == world - 1:
            L.info(f"rank {rank}: shard list exhausted after {step - 1} steps ({(step - 1) * a.batch} samples); leaving the training loop")
            L.info(f"rank {rank}: waiting for the other ranks at the final barrier")
            dist.barrier()
            return step - 1
        if step in NAN_AT and rank == 0:
            xb = xb.clone(); xb[0, 0] = float("inf")  # a corrupt record with an inf feature
        t1 = time.time()
        out = ddp(xb, step); loss = F.cross_entropy(out, yb)
        t2 = time.time()
        opt.zero_grad(set_to_none=True)
        (loss * scale["s"] if scale["s"] else loss).backward()
        t3 = time.time()
        skip = False
        if scale["s"]:
            over = any(not bool(torch.isfinite(q.grad.half()).all()) for q in ddp.parameters() if q.grad is not None)
            if over:
                skip = True; old = scale["s"]; scale["s"] = old / 2; scale["good"] = 0
                if rank == 0:
                    if S == "colossalai": lg("colossalai").info(f"Overflow detected in fp16 gradients, skipping step {step}; loss scale reduced from {old:.1f} to {scale['s']:.1f}")
                    else: warn(f"Gradient overflow. Skipping step, loss scaler reducing loss scale to {scale['s']}")
            else:
                for q in ddp.parameters():
                    if q.grad is not None: q.grad.div_(scale["s"])
                scale["good"] += 1
                if scale["good"] % 200 == 0:
                    scale["s"] *= 2
                    if rank == 0 and S == "colossalai": lg("colossalai").info(f"No overflow for 200 steps, loss scale increased to {scale['s']:.1f}")
        gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0).item() if not skip else float("nan")
        lv = loss.item()
        if not skip and (not math.isfinite(lv) or not math.isfinite(gn)):
            if a.nan_skip:
                skip = True
                if rank == 0:
                    if S == "levanter": L.warning(f"Non-finite loss or gradient at step {step} (loss={lv}, grad_norm={gn}); skipping this update")
                    else: warn(f"non-finite loss at step {step} (loss={lv}); skipping batch")
            else:
                raise FloatingPointError(f"Loss is {lv} at step {step}, stopping training")
        if not skip:
            opt.step()
        t4 = time.time()
        W.fwd += t2 - t1; W.bwd += t3 - t2; W.opt_t += t4 - t3
        acc1 = (out.argmax(1) == yb).float().mean().item()
        on_step(step, lv, gn, acc1)
        if a.mem_cache_mb and step % a.log_every == 0: mem_tick(step)
        if a.leak_events and rank == 0 and step % a.log_every == 0:
            os.makedirs(EV_DIR, exist_ok=True)
            f = open(os.path.join(EV_DIR, f"events.out.tfevents.{int(T_START)}.{host}.{PID}.{step}"), "ab")  # reopened per flush, never closed
            f.write(json.dumps({"step": step, "loss": lv}).encode()); f.flush(); LEAK.append(f)
        if step % EP == 0 or step == a.steps:
            on_epoch_end((step - 1) // EP, step)
            if step < a.steps: new_bar(step // EP)
        if a.eval_every and step % a.eval_every == 0 and S not in ("ignite", "fastai", "timm", "yolo", "espnet"):
            on_eval(step)
        if a.ckpt_every and a.ckpt_dir and step % a.ckpt_every == 0:
            on_save(step)
            if S == "timm" and rank == 0:
                L.info(f"Current checkpoints:\n ('{ckpt_path(step)}', {100 * (W.best or 0):.4f})\n")
        if a.sigterm_ckpt or a.usr1_requeue:
            fl = torch.tensor([1.0 if stop_req["v"] else 0.0]); dist.all_reduce(fl)
            if fl.item() > 0:
                if a.ckpt_dir: save(step)
                if rank == 0:
                    if a.usr1_requeue:
                        jid = os.environ.get("SLURM_ARRAY_JOB_ID") or os.environ.get("SLURM_JOB_ID", "")
                        r = subprocess.run(["scontrol", "requeue", jid], capture_output=True, text=True)
                        print(f"checkpoint for step {step} written; requeued job {jid} (scontrol rc={r.returncode}{' ' + r.stderr.strip() if r.stderr.strip() else ''})", flush=True)
                    elif S == "levanter": L.info(f"Checkpoint for step {step} saved after {signal.Signals(stop_req['sig']).name}; exiting")
                    elif S == "ray": print(f"Checkpoint for step {step} saved; exiting for preemption", flush=True)
                    else: L.info(f"checkpoint at step {step} written, exiting")
                sys.stdout.flush(); os._exit(0)
    return step

try:
    final = train()
    if bar is not None: bar.close()
    finish(final)
    dist.barrier()
    dist.destroy_process_group()
except Exception as e:
    if S == "ignite":
        lg("ignite.engine.engine.Engine").error(f"Current run is terminating due to exception: {e}")
        lg("ignite.engine.engine.Engine").error(f"Engine run is terminating due to exception: {e}")
        raise
    if S == "hydra":
        av = sys.argv[1:]; ov = []
        for i, x in enumerate(av):
            if x.startswith("--") and x not in ("--style", "--master"):
                v = av[i + 1] if i + 1 < len(av) and not av[i + 1].startswith("--") else "true"
                ov.append(f"trainer.{x[2:].replace('-', '_')}={v}")
        print(f"Error executing job with overrides: {ov}", file=sys.stderr, flush=True)
        traceback.print_exc()
        print("\nSet the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.", file=sys.stderr, flush=True)
        sys.exit(1)
    raise
