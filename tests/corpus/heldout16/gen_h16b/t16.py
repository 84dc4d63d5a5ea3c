# Tiny DDP LM on gloo/CPU with three log styles: --fmt rich (RichHandler), json (JSON lines), logfmt (custom logging format).
# Per-rank step time is all_gathered so rank 0 can report the slowest rank. Checkpoints with torch.save (.tmp + os.replace).
# Fault options (all off by default): --block-at/--block-rank (rank waits forever on a lock file), --sigterm-ckpt,
# --data-dir (read token shards from a directory, e.g. a FUSE mount), --pg-timeout.
import argparse, datetime, json, logging, os, signal, sys, time
import torch, torch.distributed as dist, torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=300)
p.add_argument("--log-every", type=int, default=10)
p.add_argument("--fmt", default="logfmt", choices=["rich", "json", "logfmt"])
p.add_argument("--hidden", type=int, default=128)
p.add_argument("--batch", type=int, default=16)
p.add_argument("--seq", type=int, default=64)
p.add_argument("--ckpt-dir", default="")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--resume", action="store_true")
p.add_argument("--data-dir", default="")
p.add_argument("--block-at", type=int, default=-1)
p.add_argument("--block-rank", type=int, default=1)
p.add_argument("--sigterm-ckpt", action="store_true")
p.add_argument("--pg-timeout", type=int, default=1800)
a = p.parse_args()

for k_src, k_dst in (("SLURM_PROCID", "RANK"), ("SLURM_NTASKS", "WORLD_SIZE"), ("SLURM_LOCALID", "LOCAL_RANK")):
    if k_dst not in os.environ and k_src in os.environ:
        os.environ[k_dst] = os.environ[k_src]
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
host = os.environ.get("SLURMD_NODENAME", os.uname().nodename)

log = logging.getLogger("trainer")
log.setLevel(logging.INFO)
if a.fmt == "rich":
    from rich.logging import RichHandler
    from rich.console import Console
    h = RichHandler(console=Console(width=150, force_terminal=False), show_path=True, rich_tracebacks=False)
    h.setFormatter(logging.Formatter(f"[rank{rank}] %(message)s"))
elif a.fmt == "json":
    class J(logging.Formatter):
        def format(self, r):
            d = {"ts": datetime.datetime.fromtimestamp(r.created).isoformat(timespec="milliseconds"), "level": r.levelname.lower(),
                 "logger": r.name, "rank": rank, "host": host, "event": r.getMessage()}
            d.update(getattr(r, "kv", {}))
            if r.exc_info:
                d["exc"] = self.formatException(r.exc_info)
            return json.dumps(d)
    h = logging.StreamHandler(sys.stdout); h.setFormatter(J())
else:
    h = logging.StreamHandler(sys.stdout)
    h.setFormatter(logging.Formatter(f"%(asctime)s.%(msecs)03d | %(levelname)-5s | {host} r{rank} | %(name)s:%(lineno)d | %(message)s", "%Y-%m-%d %H:%M:%S"))
log.addHandler(h); log.propagate = False

def info(msg, **kv):
    if a.fmt == "json":
        log.info(msg, extra={"kv": kv})
    else:
        log.info(msg + ("" if not kv else " " + " ".join(f"{k}={v}" for k, v in kv.items())))

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=a.pg_timeout))
torch.manual_seed(0)
V = 512
model = nn.Sequential(nn.Embedding(V, a.hidden), nn.Linear(a.hidden, 4 * a.hidden), nn.GELU(), nn.Linear(4 * a.hidden, a.hidden), nn.LayerNorm(a.hidden), nn.Linear(a.hidden, V))
nparams = sum(p.numel() for p in model.parameters())
ddp = nn.parallel.DistributedDataParallel(model)
opt = torch.optim.AdamW(ddp.parameters(), lr=3e-3)
start = 0
if a.resume and a.ckpt_dir and os.path.exists(os.path.join(a.ckpt_dir, "last.pt")):
    sd = torch.load(os.path.join(a.ckpt_dir, "last.pt"))
    model.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); start = sd["step"]
    info("resumed from checkpoint", path=os.path.join(a.ckpt_dir, "last.pt"), step=start)
if rank == 0:
    info("starting training", world_size=world, params=nparams, steps=a.steps, batch=a.batch, seq=a.seq, backend="gloo")

g = torch.Generator().manual_seed(1234 + rank)
base = torch.randint(0, V, (4096,), generator=g)

def get_batch(step):
    if a.data_dir:
        fn = os.path.join(a.data_dir, f"shard_{rank:02d}_{step % 64:04d}.bin")
        with open(fn, "rb") as f:
            buf = f.read()
        t = torch.frombuffer(bytearray(buf), dtype=torch.int16).long() % V
        t = t[: a.batch * (a.seq + 1)].view(a.batch, a.seq + 1)
        return t
    idx = torch.randint(0, 4096 - a.seq - 1, (a.batch,), generator=g)
    return torch.stack([base[i:i + a.seq + 1] for i in idx.tolist()])

def save(step, reason="periodic"):
    if not a.ckpt_dir or rank != 0:
        return
    os.makedirs(a.ckpt_dir, exist_ok=True)
    t0 = time.time()
    tmp = os.path.join(a.ckpt_dir, f"step_{step:06d}.pt.tmp")
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step}, tmp)
    os.replace(tmp, os.path.join(a.ckpt_dir, f"step_{step:06d}.pt"))
    lp = os.path.join(a.ckpt_dir, "last.pt")
    if os.path.lexists(lp):
        os.remove(lp)
    os.symlink(f"step_{step:06d}.pt", lp)
    info("saved checkpoint", path=os.path.join(a.ckpt_dir, f"step_{step:06d}.pt"), step=step, reason=reason, secs=round(time.time() - t0, 3))

stop = {"sig": None}
if a.sigterm_ckpt:
    def on_term(sig, frm):
        stop["sig"] = sig
        log.warning(f"received signal {signal.Signals(sig).name}; will save a checkpoint at the end of this step and exit")
    signal.signal(signal.SIGTERM, on_term)

lossf = nn.CrossEntropyLoss()
win_t0 = time.time(); win_tok = 0; step_times = []; fwd_times = []
for step in range(start + 1, a.steps + 1):
    t0 = time.time()
    if step == a.block_at and rank == a.block_rank:
        lockf = "/tmp/lab16b_dataset.lock"
        open(lockf, "a").close()
        import fcntl
        fd = os.open(lockf, os.O_RDWR)
        while True:  # lock held by another job on this host: wait forever
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB); break
            except BlockingIOError:
                time.sleep(1)
    x = get_batch(step)
    tf = time.time()
    out = ddp(x[:, :-1])
    loss = lossf(out.reshape(-1, V), x[:, 1:].reshape(-1))
    fwd_times.append(time.time() - tf)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    dt = time.time() - t0
    step_times.append(dt); win_tok += a.batch * a.seq * world
    flag = torch.tensor([1.0 if stop["sig"] else 0.0])
    if a.sigterm_ckpt:
        dist.all_reduce(flag)
    if step % a.log_every == 0:
        mine = torch.tensor([sum(fwd_times) / len(fwd_times)])
        allt = [torch.zeros(1) for _ in range(world)]
        dist.all_gather(allt, mine)
        allt = [float(t) * 1000 for t in allt]
        el = time.time() - win_t0
        if rank == 0:
            slow = max(range(world), key=lambda i: allt[i])
            info("train", step=step, loss=round(loss.item(), 4), tok_per_s=int(win_tok / el), step_ms=round(el / a.log_every * 1000, 1),
                 rank_fwd_ms="/".join(f"{t:.1f}" for t in allt), slowest_rank=slow,
                 imbalance=round(max(allt) / max(min(allt), 1e-6), 2))
        win_t0 = time.time(); win_tok = 0; step_times = []; fwd_times = []
    if a.ckpt_every and step % a.ckpt_every == 0:
        save(step)
    if flag.item() > 0:
        save(step, reason="signal")
        info("exiting after signal checkpoint", step=step)
        dist.destroy_process_group()
        sys.exit(0)
if rank == 0:
    info("training complete", step=a.steps)
dist.destroy_process_group()
