"""Tiny DDP LM trainer (gloo/CPU) with CSV or timm-style metric lines. Fault options are off by default."""
import argparse, faulthandler, os, signal, sys, threading, time, warnings
import numpy as np, torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--data", required=True); p.add_argument("--steps", type=int, default=200)
p.add_argument("--bs", type=int, default=16); p.add_argument("--seq", type=int, default=32)
p.add_argument("--hidden", type=int, default=64); p.add_argument("--lr", type=float, default=3e-3)
p.add_argument("--fmt", default="csv", choices=["csv", "timm"]); p.add_argument("--log-every", type=int, default=5)
p.add_argument("--ckpt-dir", default="ckpt"); p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--fsync", action="store_true"); p.add_argument("--resume", action="store_true")
p.add_argument("--workers", type=int, default=1); p.add_argument("--epoch-len", type=int, default=0)
p.add_argument("--chunk", type=int, default=0, help="read samples in chunks of this many bytes")
p.add_argument("--per-rank", action="store_true", help="all_gather step times, print per-rank columns")
p.add_argument("--branch-at", type=int, default=-1, help="rank 1 skips the aux head from this step")
p.add_argument("--watchdog", type=float, default=0, help="faulthandler.dump_traceback_later per step")
p.add_argument("--profile-dir", default=""); p.add_argument("--profile-every", type=int, default=0)
p.add_argument("--heartbeat-every", type=int, default=0); p.add_argument("--stats-thread", action="store_true")
p.add_argument("--leak-mb", type=float, default=0, help="dataset cache growth per sample in a worker")
a = p.parse_args()

if os.environ.get("STORE_PORT"):
    _st = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["STORE_PORT"]), int(os.environ["WORLD_SIZE"]),
                        os.environ["RANK"] == "0", timeout=__import__("datetime").timedelta(seconds=60))
    dist.init_process_group("gloo", store=_st, rank=int(os.environ["RANK"]), world_size=int(os.environ["WORLD_SIZE"]))
else:
    dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(0)
def log(msg, all_ranks=False):
    if rank == 0 or all_ranks:
        print(f"[{time.strftime('%Y-%m-%d %H:%M:%S')}][rank{rank}] {msg}", flush=True)

V = 256
stats_lock = threading.Lock()
class Tokens(torch.utils.data.Dataset):
    def __init__(s, path, seq): s.path, s.seq = path, seq; s.n = os.path.getsize(path) // 2 - seq - 1; s.cache = []
    def __len__(s): return a.epoch_len or s.n // s.seq
    def __getitem__(s, i):
        off = (i * 7919 * s.seq) % s.n
        with stats_lock:
            pass
        with open(s.path, "rb", buffering=0 if a.chunk else -1) as f:
            f.seek(off * 2)
            if a.chunk:
                buf = b"".join(f.read(a.chunk) for _ in range((s.seq + 1) * 2 // a.chunk + 1))[: (s.seq + 1) * 2]
            else:
                buf = f.read((s.seq + 1) * 2)
        if a.leak_mb:
            s.cache.append(np.ones(int(a.leak_mb * 2**20), np.uint8))
        t = torch.from_numpy(np.frombuffer(buf, np.uint16).astype(np.int64)) % V
        return t[:-1], t[1:]

class LM(nn.Module):
    def __init__(s, h):
        super().__init__(); s.emb = nn.Embedding(V, h); s.l1 = nn.Linear(h, 4 * h); s.l2 = nn.Linear(4 * h, h)
        s.out = nn.Linear(h, V); s.aux = nn.Linear(h, V)
    def forward(s, x, use_aux=True):
        h = s.emb(x); h = h + s.l2(torch.relu(s.l1(h)))
        y = s.out(h)
        return y + 0.1 * s.aux(h) if use_aux else y

ds = Tokens(a.data, a.seq)
sampler = torch.utils.data.distributed.DistributedSampler(ds, world, rank, shuffle=True, seed=0)
dl = torch.utils.data.DataLoader(ds, batch_size=a.bs, sampler=sampler, num_workers=a.workers, drop_last=True)
model = DDP(LM(a.hidden))
opt = torch.optim.AdamW(model.parameters(), lr=a.lr)
nparams = sum(p.numel() for p in model.parameters())
step = 0
os.makedirs(a.ckpt_dir, exist_ok=True)
last = os.path.join(a.ckpt_dir, "last.pt")
if a.resume and os.path.exists(last):
    sd = torch.load(last, map_location="cpu")
    model.module.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); step = sd["step"]
    log(f"resumed from {last} at step {step}")
log(f"world_size={world} params={nparams} batch={a.bs}x{a.seq} steps={a.steps} data={a.data} len={len(ds)}")

def save(step):
    if rank != 0: return
    tmp = os.path.join(a.ckpt_dir, f"step{step:06d}.pt.tmp")
    with open(tmp, "wb") as f:
        torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step}, f)
        f.flush()
        if a.fsync: os.fsync(f.fileno())
    final = os.path.join(a.ckpt_dir, f"step{step:06d}.pt"); os.replace(tmp, final)
    if os.path.lexists(last): os.remove(last)
    os.symlink(os.path.basename(final), last)
    log(f"saved checkpoint {final}")

if a.stats_thread:
    def flusher():
        while True:
            time.sleep(0.05)
            if os.path.exists("flush_stats"):
                with stats_lock:
                    time.sleep(3600)  # stats flush to a remote sink, holds the lock
    threading.Thread(target=flusher, daemon=True).start()

store = dist.distributed_c10d._get_default_store() if a.heartbeat_every else None
if a.fmt == "csv" and rank == 0:
    cols = "step,epoch,loss,lr,step_ms,tokens_per_s" + (",rank0_data_ms,rank1_data_ms" if a.per_rank else "")
    print(cols, flush=True)
epoch, lossavg, tavg = 0, None, None
t_last = time.time()
while step < a.steps:
    sampler.set_epoch(epoch)
    if a.stats_thread and epoch == 1 and rank == 1:
        open("flush_stats", "w").close(); time.sleep(0.3)
    t_fetch = time.time(); data_acc = 0.0
    for i, (x, y) in enumerate(dl):
        t0 = time.time(); data_acc += t0 - t_fetch
        if a.watchdog: faulthandler.dump_traceback_later(a.watchdog, repeat=False)
        use_aux = not (a.branch_at >= 0 and step >= a.branch_at and rank == 1)
        out = model(x, use_aux)
        loss = nn.functional.cross_entropy(out.reshape(-1, V), y.reshape(-1))
        opt.zero_grad(); loss.backward(); opt.step()
        step += 1
        if a.watchdog: faulthandler.cancel_dump_traceback_later()
        lv = loss.item(); lossavg = lv if lossavg is None else 0.9 * lossavg + 0.1 * lv
        if a.heartbeat_every and step % a.heartbeat_every == 0:
            store.set(f"hb/{rank}", str(step)); store.add("hb/count", 1)
        if a.profile_every and step % a.profile_every == 0 and rank == 0:
            try:
                with open(os.path.join(a.profile_dir, f"trace_step{step}.json"), "w") as f:
                    f.write('{"traceEvents": [' + ",".join(['{"ph":"X","ts":%d,"dur":5}' % k for k in range(20000)]) + "]}")
            except OSError as e:
                log(f"WARNING profiler trace for step {step} not written: {e!r}; continuing without it")
        if step % a.log_every == 0:
            dt = (time.time() - t_last) / a.log_every; t_last = time.time()
            toks = a.bs * a.seq * world / dt
            if a.per_rank:
                ts = [torch.zeros(1) for _ in range(world)]; dist.all_gather(ts, torch.tensor([data_acc * 1000 / a.log_every]))
            data_acc = 0.0
            if a.fmt == "csv" and rank == 0:
                row = f"{step},{epoch},{lv:.4f},{a.lr:.2e},{dt*1000:.1f},{toks:.0f}"
                if a.per_rank: row += "," + ",".join(f"{t.item():.1f}" for t in ts)
                print(row, flush=True)
            elif rank == 0:
                tavg = dt if tavg is None else 0.9 * tavg + 0.1 * dt
                pct = 100.0 * step / a.steps
                print(f"Train: {epoch} [{step:>4d}/{a.steps} ({pct:>3.0f}%)]  Loss: {lv:#.3g} ({lossavg:#.3g})  "
                      f"Time: {dt:.3f}s, {a.bs*world/dt:>7.2f}/s  ({tavg:.3f}s, {a.bs*world/tavg:>7.2f}/s)  "
                      f"LR: {a.lr:.3e}  Data: 0.000 (0.000)", flush=True)
        if a.ckpt_every and step % a.ckpt_every == 0:
            save(step)
        if step >= a.steps: break
        t_fetch = time.time()
    epoch += 1
dist.barrier()
log(f"done: {step} steps, final loss {lv:.4f}")
dist.destroy_process_group()
