#!/usr/bin/env python3
"""t22: tiny next-token MLP trained with DDP on gloo, for the heldout22 (h22b) real-run cases.

Launch: torchrun (RANK/WORLD_SIZE/MASTER_*), srun (SLURM_PROCID/SLURM_NTASKS + --master host:port).
Log formats (--fmt): loguru | kv | ds | tsv | lit (see README.md).
"""
import argparse, datetime, io, logging, math, os, signal, socket, sys, threading, time

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--data", required=True, help="glob-free list of uint16 token shards, comma separated")
p.add_argument("--steps", type=int, default=400)
p.add_argument("--batch", type=int, default=32)
p.add_argument("--ctx", type=int, default=16)
p.add_argument("--vocab", type=int, default=4096)
p.add_argument("--dim", type=int, default=64)
p.add_argument("--hidden", type=int, default=256)
p.add_argument("--lr", type=float, default=2e-3)
p.add_argument("--log-every", type=int, default=10)
p.add_argument("--fmt", default="kv", choices=["loguru", "kv", "ds", "tsv", "lit"])
p.add_argument("--master", default=None, help="host:port when launched by srun")
p.add_argument("--pg-timeout", type=float, default=1800)
p.add_argument("--workers", type=int, default=0)
p.add_argument("--dl-timeout", type=float, default=0)
p.add_argument("--ckpt-dir", default=None)
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--ckpt-extra-mb", type=int, default=0)
p.add_argument("--resume", action="store_true")
p.add_argument("--shard-steps", type=int, default=0, help="rotate to the next shard every N steps (re-open with retries)")
p.add_argument("--open-retries", type=int, default=5)
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--eval-batches", type=int, default=50)
p.add_argument("--lr-spike", default=None, help="STEP:FACTOR:LEN multiply lr for LEN steps")
p.add_argument("--nan-check", action="store_true", help="raise when the loss is not finite")
p.add_argument("--keep-graphs", action="store_true", help="(bug) keep every step's loss tensor with its graph")
p.add_argument("--eval-handshake-bug", type=int, default=0, help="at this eval step rank 0 waits for rank 1's stats, which rank 1 never sends")
p.add_argument("--sig-save", action="store_true", help="on SIGTERM/SIGUSR1 save a checkpoint and exit")
p.add_argument("--exit-code-on-signal", type=int, default=0)
p.add_argument("--debug-dump", default=None, help="write verbose per-step debug records to this file")
p.add_argument("--debug-dump-kb", type=int, default=0)
p.add_argument("--gloo-warn", action="store_true")
a = p.parse_args()

# ---------------- ranks / hosts
if "RANK" in os.environ:
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
else:
    rank, world = int(os.environ.get("SLURM_PROCID", 0)), int(os.environ.get("SLURM_NTASKS", 1))
    local_rank = int(os.environ.get("SLURM_LOCALID", 0))
    h, pt = a.master.split(":")
    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = h, pt
host = os.environ.get("SLURMD_NODENAME") or socket.gethostname()

# ---------------- logging in the chosen format
def iso():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")

if a.fmt == "loguru":
    from loguru import logger
    logger.remove()
    logger.add(sys.stderr, format="{time:YYYY-MM-DD HH:mm:ss.SSS} | {level: <8} | {name}:{function}:{line} - [rank{extra[rank]}|{extra[host]}] {message}",
               colorize=False, enqueue=False)
    log = logger.bind(rank=rank, host=host)
    def info(msg, **kw): log.opt(depth=1).info(msg + ("" if not kw else " " + " ".join(f"{k}={v}" for k, v in kw.items())))
    def warn(msg, **kw): log.opt(depth=1).warning(msg + ("" if not kw else " " + " ".join(f"{k}={v}" for k, v in kw.items())))
    def err(msg, **kw): log.opt(depth=1).error(msg + ("" if not kw else " " + " ".join(f"{k}={v}" for k, v in kw.items())))
elif a.fmt == "kv":
    def _kv(level, msg, kw):
        parts = [f"ts={iso()}", f"level={level}", f"rank={rank}", f"host={host}", f'msg="{msg}"']
        parts += [f"{k}={v}" for k, v in kw.items()]
        print(" ".join(parts), flush=True)
    def info(msg, **kw): _kv("info", msg, kw)
    def warn(msg, **kw): _kv("warn", msg, kw)
    def err(msg, **kw): _kv("error", msg, kw)
elif a.fmt == "ds":
    def _ds(level, msg, kw):
        t = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
        extra = ", ".join(f"{k}={v}" for k, v in kw.items())
        print(f"[{t}] [{level}] [Rank {rank}] [{host}] {msg}{(' ' + extra) if extra else ''}", flush=True)
    def info(msg, **kw): _ds("INFO", msg, kw)
    def warn(msg, **kw): _ds("WARNING", msg, kw)
    def err(msg, **kw): _ds("ERROR", msg, kw)
else:  # tsv / lit: python logging with ISO timestamps and thread names for messages
    class F_(logging.Formatter):
        def formatTime(self, record, datefmt=None):
            return datetime.datetime.fromtimestamp(record.created, datetime.timezone.utc).isoformat(timespec="milliseconds")
    hdl = logging.StreamHandler(sys.stdout)
    hdl.setFormatter(F_(f"%(asctime)s [%(threadName)s] %(levelname)s t22 r{rank}@{host}: %(message)s"))
    L = logging.getLogger("t22"); L.addHandler(hdl); L.setLevel(logging.INFO); L.propagate = False
    def _m(msg, kw): return msg + ("" if not kw else " " + " ".join(f"{k}={v}" for k, v in kw.items()))
    def info(msg, **kw): L.info(_m(msg, kw))
    def warn(msg, **kw): L.warning(_m(msg, kw))
    def err(msg, **kw): L.error(_m(msg, kw))
    for h_ in logging.root.handlers: pass

# ---------------- data
shards = a.data.split(",")

def open_shard(i):
    path = shards[i % len(shards)]
    for t in range(a.open_retries):
        try:
            return path, np.memmap(path, dtype=np.uint16, mode="r")
        except (FileNotFoundError, OSError) as e:
            if t == a.open_retries - 1:
                raise
            wait = 2 ** t
            warn(f"could not open shard {path}: {e!r}; retrying in {wait}s", attempt=t + 1)
            time.sleep(wait)

class Tok(torch.utils.data.Dataset):
    def __init__(self, shard_i):
        self.path, self.mm = open_shard(shard_i)
        self.n = (len(self.mm) - a.ctx - 1)
    def __len__(self):
        return 1 << 30
    def __getitem__(self, i):
        g = np.random.default_rng(i * 7919 + rank)
        o = int(g.integers(0, self.n))
        x = torch.from_numpy(self.mm[o:o + a.ctx + 1].astype(np.int64))
        return x[:-1] % a.vocab, x[-1] % a.vocab

def make_loader(shard_i, start):
    ds = Tok(shard_i)
    idx = range(start * a.batch * world + rank * a.batch, 1 << 29)
    samp = torch.utils.data.SequentialSampler(idx)
    class S(torch.utils.data.Sampler):
        def __iter__(self): return iter(idx)
        def __len__(self): return len(idx)
    return ds, torch.utils.data.DataLoader(ds, batch_size=a.batch, sampler=S(), num_workers=a.workers,
                                           timeout=a.dl_timeout, persistent_workers=False)

# ---------------- model
class M(nn.Module):
    def __init__(s):
        super().__init__()
        s.emb = nn.Embedding(a.vocab, a.dim)
        s.l1 = nn.Linear(a.dim * a.ctx, a.hidden)
        s.l2 = nn.Linear(a.hidden, a.hidden)
        s.out = nn.Linear(a.hidden, a.vocab)
    def forward(s, x):
        h = s.emb(x).flatten(1)
        h = F.gelu(s.l1(h)); h = F.gelu(s.l2(h))
        return s.out(h)

torch.manual_seed(0)
info("initializing process group", backend="gloo", world_size=world, master=f"{os.environ.get('MASTER_ADDR')}:{os.environ.get('MASTER_PORT')}")
dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=a.pg_timeout))
info("process group ready", rank=rank, world_size=world, pid=os.getpid())
model = M()
ddp = nn.parallel.DistributedDataParallel(model)
opt = torch.optim.AdamW(ddp.parameters(), lr=a.lr)
nparam = sum(p_.numel() for p_ in model.parameters())

start = 0
if a.resume and a.ckpt_dir and os.path.isdir(a.ckpt_dir):
    cks = sorted([f for f in os.listdir(a.ckpt_dir) if f.startswith("step_") and f.endswith(".pt")], key=lambda f: int(f[5:-3]))
    if cks:
        path = os.path.join(a.ckpt_dir, cks[-1])
        sd = torch.load(path, map_location="cpu", weights_only=False)
        model.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); start = sd["step"]
        info(f"resumed from checkpoint {path}", step=start)
    else:
        info(f"no checkpoint in {a.ckpt_dir}, starting from scratch")

def save(step, why="periodic"):
    if rank != 0:
        return
    os.makedirs(a.ckpt_dir, exist_ok=True)
    path = os.path.join(a.ckpt_dir, f"step_{step}.pt")
    t0 = time.time()
    sd = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step}
    if a.ckpt_extra_mb:
        sd["ema_shadow"] = torch.randn(a.ckpt_extra_mb * 262144)
    info(f"saving checkpoint ({why}) to {path}")
    torch.save(sd, path + ".tmp")
    os.replace(path + ".tmp", path)
    info(f"checkpoint saved: {path}", size_mb=round(os.path.getsize(path) / 2**20, 1), secs=round(time.time() - t0, 2))

stop_sig = {"sig": None}
if a.sig_save:
    def h_(signum, frame):
        stop_sig["sig"] = signal.Signals(signum).name
    signal.signal(signal.SIGTERM, h_); signal.signal(signal.SIGUSR1, h_)

dbg = open(a.debug_dump, "a") if a.debug_dump else None
spike = None
if a.lr_spike:
    s_, f_, l_ = a.lr_spike.split(":"); spike = (int(s_), float(f_), int(l_))

info("training config", params=nparam, steps=a.steps, batch=a.batch, world=world, lr=a.lr, workers=a.workers, fmt=a.fmt)
if a.fmt == "tsv" and rank == 0:
    print("step\tloss\tlr\tms_per_step\ttok_per_s\t" + "\t".join(f"ms_r{r}" for r in range(world)), flush=True)

shard_i = (start // a.shard_steps) if a.shard_steps else 0
ds, dl = make_loader(shard_i, start)
it = iter(dl)
kept = []
t_last = time.time(); tokens = 0; step_times = []
loss_acc = 0.0; nacc = 0
t_train0 = time.time()
for step in range(start + 1, a.steps + 1):
    if a.shard_steps and (step - 1) % a.shard_steps == 0 and step > start + 1:
        shard_i += 1
        ds, dl = make_loader(shard_i, step - 1); it = iter(dl)
        info(f"switched to shard {ds.path}", step=step)
    ts = time.time()
    x, y = next(it)
    lr = a.lr
    if spike and spike[0] <= step < spike[0] + spike[2]:
        lr = a.lr * spike[1]
    for g_ in opt.param_groups: g_["lr"] = lr
    logits = ddp(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    if a.keep_graphs:
        kept.append((loss, logits * 1.0, torch.empty(400_000).fill_(1.0)))
    lv = loss.item()
    if a.nan_check and not math.isfinite(lv):
        raise FloatingPointError(f"loss is {lv} at step {step} (lr={lr:g}); aborting to avoid corrupting checkpoints")
    loss_acc += lv; nacc += 1
    step_times.append((time.time() - ts) * 1000)
    tokens += x.numel() * world
    if dbg:
        dbg.write(f"{iso()} DEBUG step={step} rank={rank} " + "x" * (a.debug_dump_kb * 1024) + "\n"); dbg.flush()
    if stop_sig["sig"]:
        flag = torch.tensor([1.0])
    else:
        flag = torch.tensor([0.0])
    dist.all_reduce(flag)
    if flag.item() > 0:
        info(f"received {stop_sig['sig'] or 'stop request from another rank'}; saving checkpoint and exiting", step=step)
        if a.ckpt_dir: save(step, why="signal")
        dist.barrier()
        dist.destroy_process_group()
        sys.exit(a.exit_code_on_signal)
    if step % a.log_every == 0:
        now = time.time(); dt = now - t_last; t_last = now
        my_ms = torch.tensor([sum(step_times) / len(step_times)])
        all_ms = [torch.zeros(1) for _ in range(world)]
        dist.all_gather(all_ms, my_ms)
        all_ms = [round(t.item(), 1) for t in all_ms]
        mean_loss = loss_acc / nacc; loss_acc = 0.0; nacc = 0
        tok_s = tokens / dt; tokens = 0
        ms = dt * 1000 / a.log_every
        step_times = []
        if a.fmt == "loguru":
            if rank == 0:
                info(f"step {step}/{a.steps}", loss=f"{mean_loss:.4f}", lr=f"{lr:.2e}", ms_per_step=f"{ms:.1f}", tok_per_s=f"{tok_s:.0f}", rank_ms=all_ms)
        elif a.fmt == "kv":
            info("train", step=step, loss=f"{mean_loss:.4f}", lr=f"{lr:.2e}", step_ms=f"{ms:.1f}", compute_ms=f"{my_ms.item():.1f}", tok_s=f"{tok_s:.0f}")
        elif a.fmt == "ds":
            info(f"step={step}, skipped=0, lr=[{lr:.6g}], mom=[(0.9, 0.999)]", loss=f"{mean_loss:.4f}", elapsed_time_ms=f"{ms:.1f}",
                 local_ms=f"{my_ms.item():.1f}", samples_per_sec=f"{a.batch * world * 1000 / ms:.1f}")
        elif a.fmt == "tsv":
            if rank == 0:
                print(f"{step}\t{mean_loss:.4f}\t{lr:.2e}\t{ms:.1f}\t{tok_s:.0f}\t" + "\t".join(str(v) for v in all_ms), flush=True)
        elif a.fmt == "lit":
            if rank == 0:
                from tqdm import tqdm
                el = time.time() - t_train0
                bar = tqdm.format_meter(step, a.steps, el, ncols=100, prefix="Epoch 0",
                                        rate=(step - start) / max(el, 1e-6), postfix=f"v_num=0, train_loss={mean_loss:.3f}, rank_ms={'/'.join(str(v) for v in all_ms)}")
                print(bar, flush=True)
    if a.eval_handshake_bug and step == a.eval_handshake_bug:
        info("eval handshake: collecting validation stats", step=step)
        if rank == 0:
            buf = torch.zeros(2)
            dist.recv(buf, src=1)      # waits for rank 1's stats
        # (bug) the sender side checks `rank == 0` too, so rank 1 never sends and moves on
    if a.eval_every and step % a.eval_every == 0:
        info(f"running evaluation on {a.eval_batches} held-out batches (this takes a while)", step=step)
        t0 = time.time(); vl = 0.0
        with torch.no_grad():
            for _ in range(a.eval_batches):
                xe, ye = next(it)
                for _k in range(6):
                    vl_ = F.cross_entropy(model(xe), ye).item()
                vl += vl_
        v = torch.tensor([vl / a.eval_batches]); dist.all_reduce(v); v /= world
        info("eval done", step=step, val_loss=f"{v.item():.4f}", val_ppl=f"{math.exp(v.item()):.1f}", eval_secs=f"{time.time() - t0:.1f}")
        t_last = time.time(); tokens = 0
    if a.ckpt_every and step % a.ckpt_every == 0:
        save(step)
        dist.barrier()
        t_last = time.time(); tokens = 0

if a.ckpt_dir and a.ckpt_every and a.steps % a.ckpt_every:
    save(a.steps, why="final")
dist.barrier()
if a.fmt == "lit" and rank == 0:
    info(f"`Trainer.fit` stopped: `max_steps={a.steps}` reached.")
info("training finished", steps=a.steps, wall_s=f"{time.time() - t_train0:.1f}")
dist.destroy_process_group()
