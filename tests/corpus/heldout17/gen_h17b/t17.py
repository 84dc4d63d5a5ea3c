"""Tiny decoder LM trained with DDP on gloo (torch 2.13 CPU). Used by the h17b cases.

Log styles: --fmt table (rank 0 prints a per-rank step-time table with host names every --log-every steps),
--fmt nanogpt (nanoGPT's `iter N: loss L, time T ms, mfu M%` lines on rank 0). Launch with torchrun, or
under srun (SLURM_PROCID/SLURM_NTASKS/SLURMD_NODENAME are mapped to RANK/WORLD_SIZE/host).
"""
import argparse, datetime, os, socket, sys, time
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import torch.distributed as dist

p = argparse.ArgumentParser()
p.add_argument("--fmt", default="table", choices=["table", "nanogpt"])
p.add_argument("--steps", type=int, default=600)
p.add_argument("--hidden", type=int, default=256)
p.add_argument("--layers", type=int, default=2)
p.add_argument("--batch", type=int, default=16)
p.add_argument("--seq", type=int, default=64)
p.add_argument("--vocab", type=int, default=512)
p.add_argument("--log-every", type=int, default=20)
p.add_argument("--ckpt-dir", default="")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--pg-timeout", type=float, default=1800)
p.add_argument("--barrier-every", type=int, default=0, help="monitored_barrier every N steps (timeout --barrier-timeout)")
p.add_argument("--barrier-timeout", type=float, default=30)
p.add_argument("--data", default="", help="token file read with small reads per sample (np.fromfile)")
p.add_argument("--stuck-rank", type=int, default=-1, help="this rank opens --stuck-path at --stuck-step (a FIFO nobody writes)")
p.add_argument("--stuck-step", type=int, default=-1)
p.add_argument("--stuck-path", default="")
p.add_argument("--leak-rank", type=int, default=-1, help="this rank keeps every batch's activations in a cache")
p.add_argument("--leak-mb", type=float, default=0)
a = p.parse_args()

if "SLURM_PROCID" in os.environ and "RANK" not in os.environ:
    os.environ["RANK"] = os.environ["SLURM_PROCID"]; os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
    os.environ["LOCAL_RANK"] = os.environ.get("SLURM_LOCALID", "0")
host = os.environ.get("SLURMD_NODENAME") or socket.gethostname()
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=a.pg_timeout))
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(0)

class LM(nn.Module):
    def __init__(s):
        super().__init__()
        s.emb = nn.Embedding(a.vocab, a.hidden); s.pos = nn.Parameter(torch.zeros(a.seq, a.hidden))
        s.blocks = nn.ModuleList(nn.TransformerEncoderLayer(a.hidden, 4, 4 * a.hidden, 0.0, batch_first=True, norm_first=True) for _ in range(a.layers))
        s.ln = nn.LayerNorm(a.hidden); s.head = nn.Linear(a.hidden, a.vocab)
    def forward(s, x):
        h = s.emb(x) + s.pos
        mask = nn.Transformer.generate_square_subsequent_mask(x.shape[1])
        for b in s.blocks: h = b(h, src_mask=mask, is_causal=True)
        return s.head(s.ln(h))

model = torch.nn.parallel.DistributedDataParallel(LM())
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
nparams = sum(p.numel() for p in model.parameters())
g = torch.Generator().manual_seed(1234 + rank)
cache = []
def batch(step):
    if a.data:
        n = a.batch * (a.seq + 1); rows = []
        with open(a.data, "rb") as f:
            size = os.fstat(f.fileno()).st_size // 2
            for i in range(a.batch):
                off = int(torch.randint(0, size - a.seq - 1, (1,), generator=g))
                f.seek(off * 2); rows.append(np.frombuffer(f.read((a.seq + 1) * 2), dtype=np.uint16).astype(np.int64))
        t = torch.from_numpy(np.stack(rows)) % a.vocab
    else:
        t = torch.randint(0, a.vocab, (a.batch, a.seq + 1), generator=g)
        t[:, 1::2] = (t[:, 0::2][:, : t[:, 1::2].shape[1]] * 7 + 3) % a.vocab  # learnable structure
    return t[:, :-1], t[:, 1:]

def log(msg):
    print(msg, flush=True)

start = 0
if a.ckpt_dir and os.path.exists(os.path.join(a.ckpt_dir, "last.pt")):
    sd = torch.load(os.path.join(a.ckpt_dir, "last.pt"), map_location="cpu")
    model.module.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); start = sd["step"]
    if rank == 0: log(f"resumed from {os.path.join(a.ckpt_dir, 'last.pt')} at step {start}")
if rank == 0:
    if a.fmt == "nanogpt":
        log(f"number of parameters: {nparams/1e6:.2f}M")
        log(f"tokens per iteration will be: {a.batch * a.seq * world:,}")
    else:
        log(f"[rank0] world_size={world} params={nparams} steps={a.steps} batch={a.batch} seq={a.seq} host={host}")
hosts = [None] * world
dist.all_gather_object(hosts, host)
flops_per_iter = 6 * nparams * a.batch * a.seq * world
t_last = time.time(); acc_step = []; acc_data = []
for step in range(start + 1, a.steps + 1):
    t0 = time.time()
    x, y = batch(step)
    td = time.time() - t0
    if rank == a.leak_rank and a.leak_mb:
        cache.append(torch.ones(int(a.leak_mb * 262144)))
    logits = model(x)
    loss = F.cross_entropy(logits.reshape(-1, a.vocab), y.reshape(-1))
    tf = time.time() - t0 - td
    opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    acc_step.append(tf); acc_data.append(td)
    if rank == a.stuck_rank and step == a.stuck_step:  # e.g. an eval/stats hook reading from a hung mount
        with open(a.stuck_path, "rb") as f: f.read(1)
    if a.barrier_every and step % a.barrier_every == 0:
        dist.monitored_barrier(timeout=datetime.timedelta(seconds=a.barrier_timeout), wait_all_ranks=True)
    if step % a.log_every == 0:
        stats = torch.tensor([sum(acc_step) / len(acc_step) * 1000, sum(acc_data) / len(acc_data) * 1000, loss.item()])
        allst = [torch.zeros(3) for _ in range(world)]
        dist.all_gather(allst, stats)
        now = time.time(); dt = (now - t_last) / a.log_every; t_last = now
        if rank == 0:
            lossv = sum(float(s[2]) for s in allst) / world
            if a.fmt == "nanogpt":
                mfu = flops_per_iter / dt / 2.0e11 * 100
                log(f"iter {step}: loss {lossv:.4f}, time {dt*1000:.2f}ms, mfu {mfu:.2f}%")
            else:
                tok = a.batch * a.seq * world / dt
                log(f"[rank0] step {step}/{a.steps} loss={lossv:.4f} iter_ms={dt*1000:.1f} tokens_per_s={tok:.0f}")
                log("  rank  host        fwd_ms  data_ms")
                for r, s in enumerate(allst):
                    log(f"  {r:>4}  {hosts[r]:<10}  {float(s[0]):>6.1f}  {float(s[1]):>7.1f}")
        acc_step.clear(); acc_data.clear()
    if a.ckpt_dir and a.ckpt_every and step % a.ckpt_every == 0:
        if rank == 0:
            os.makedirs(a.ckpt_dir, exist_ok=True)
            path = os.path.join(a.ckpt_dir, f"step{step}.pt")
            torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step}, path + ".tmp")
            os.replace(path + ".tmp", path)
            if os.path.lexists(os.path.join(a.ckpt_dir, "last.pt")): os.remove(os.path.join(a.ckpt_dir, "last.pt"))
            os.symlink(os.path.basename(path), os.path.join(a.ckpt_dir, "last.pt"))
            log(f"[rank0] saved checkpoint {path}" if a.fmt == "table" else f"saving checkpoint to {a.ckpt_dir}")
        dist.barrier()
if rank == 0: log("[rank0] training finished" if a.fmt == "table" else "done")
dist.destroy_process_group()
