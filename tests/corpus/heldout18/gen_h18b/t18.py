"""Tiny decoder LM on gloo (torch 2.13 CPU), DDP or FSDP2 (fully_shard). Used by the h18b cases.

Log styles (rank 0 unless noted):
  --fmt absl     glog/absl-style lines as JAX/t5x trainers print them (`I1124 08:12:01.123456 1234 train.py:88] ...`)
  --fmt fairseq  fairseq-style `| epoch 001:    100 / 500 loss=... wps=... ups=... wpb=... num_updates=...` lines
  --fmt tqdm     a tqdm bar with loss/tok_s postfix (written to stderr, as tqdm does)
Launch with torchrun, or under srun (SLURM_PROCID/SLURM_NTASKS/SLURMD_NODENAME are mapped to RANK/WORLD_SIZE/host).
Checkpoints: --ckpt-every with torch.save (DDP) or torch.distributed.checkpoint (--fsdp, one shard file per rank).
"""
import argparse, datetime, math, os, socket, sys, threading, time
import torch, torch.nn as nn, torch.nn.functional as F
import torch.distributed as dist

p = argparse.ArgumentParser()
p.add_argument("--fmt", default="absl", choices=["absl", "fairseq", "tqdm"])
p.add_argument("--fsdp", action="store_true")
p.add_argument("--steps", type=int, default=500)
p.add_argument("--hidden", type=int, default=128)
p.add_argument("--layers", type=int, default=2)
p.add_argument("--batch", type=int, default=16)
p.add_argument("--seq", type=int, default=64)
p.add_argument("--vocab", type=int, default=512)
p.add_argument("--lr", type=float, default=3e-4)
p.add_argument("--optim", default="adamw", choices=["adamw", "sgd"])
p.add_argument("--log-every", type=int, default=25)
p.add_argument("--ckpt-dir", default="")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--pg-timeout", type=float, default=1800)
p.add_argument("--epoch-steps", type=int, default=250, help="fairseq format: updates per epoch")
a = p.parse_args()

if "SLURM_PROCID" in os.environ and "RANK" not in os.environ:
    os.environ["RANK"] = os.environ["SLURM_PROCID"]; os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
    os.environ["LOCAL_RANK"] = os.environ.get("SLURM_LOCALID", "0")
host = os.environ.get("SLURMD_NODENAME") or socket.gethostname()
torch.set_num_threads(1)

def absl(level, msg, rank=None):
    t = time.time(); lt = time.localtime(t)
    f = sys._getframe(1)
    print(f"{level}{time.strftime('%m%d %H:%M:%S', lt)}.{int((t % 1) * 1e6):06d} {threading.get_native_id():>7d} "
          f"{os.path.basename(f.f_code.co_filename)}:{f.f_lineno}] {msg}", flush=True)

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=a.pg_timeout))
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(0)
if a.fmt == "absl":
    absl("I", f"Process {rank} of {world} on host {host}: gloo process group initialized")

class Block(nn.Module):
    def __init__(s):
        super().__init__(); s.l = nn.TransformerEncoderLayer(a.hidden, 4, 4 * a.hidden, 0.0, batch_first=True, norm_first=True)
    def forward(s, h, mask): return s.l(h, src_mask=mask, is_causal=True)
class LM(nn.Module):
    def __init__(s):
        super().__init__()
        s.emb = nn.Embedding(a.vocab, a.hidden); s.pos = nn.Parameter(torch.zeros(a.seq, a.hidden))
        s.blocks = nn.ModuleList(Block() for _ in range(a.layers))
        s.ln = nn.LayerNorm(a.hidden); s.head = nn.Linear(a.hidden, a.vocab)
    def forward(s, x):
        h = s.emb(x) + s.pos
        mask = nn.Transformer.generate_square_subsequent_mask(x.shape[1])
        for b in s.blocks: h = b(h, mask)
        return s.head(s.ln(h))

net = LM()
nparams = sum(p.numel() for p in net.parameters())
if a.fsdp:
    from torch.distributed.fsdp import fully_shard
    for b in net.blocks: fully_shard(b)
    model = fully_shard(net)
else:
    model = torch.nn.parallel.DistributedDataParallel(net)
opt = (torch.optim.AdamW(model.parameters(), lr=a.lr) if a.optim == "adamw"
       else torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9))
g = torch.Generator().manual_seed(1234 + rank)
def batch():
    t = torch.randint(0, a.vocab, (a.batch, a.seq + 1), generator=g)
    t[:, 1::2] = (t[:, 0::2][:, : t[:, 1::2].shape[1]] * 7 + 3) % a.vocab
    return t[:, :-1], t[:, 1:]

def save(step):
    if a.fsdp:
        import torch.distributed.checkpoint as dcp
        from torch.distributed.checkpoint.state_dict import get_state_dict
        msd, osd = get_state_dict(model, opt)
        path = os.path.join(a.ckpt_dir, f"checkpoint_{step:07d}")
        dcp.save({"model": msd, "optim": osd, "step": torch.tensor(step)}, checkpoint_id=path)
    else:
        path = os.path.join(a.ckpt_dir, f"checkpoint_{step}.pt")
        if rank == 0:
            os.makedirs(a.ckpt_dir, exist_ok=True)
            torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step}, path)
        dist.barrier()
    return path

if rank == 0:
    if a.fmt == "absl":
        absl("I", f"Model: {nparams:,} parameters, {'FSDP2 fully_shard' if a.fsdp else 'DDP'}, world size {world}")
        absl("I", f"Config: steps={a.steps} per_host_batch={a.batch} seq_len={a.seq} lr={a.lr} optimizer={a.optim}")
    elif a.fmt == "fairseq":
        print(f"| distributed init (rank {rank}): gloo world_size={world}", flush=True)
        print(f"| model transformer_lm_tiny, criterion CrossEntropyCriterion", flush=True)
        print(f"| num. model params: {nparams} (num. trained: {nparams})", flush=True)
        print(f"| training on {world} devices (CPU)", flush=True)
        print(f"| max tokens per device = {a.batch * a.seq} and max sentences per device = {a.batch}", flush=True)
bar = None
if a.fmt == "tqdm" and rank == 0:
    from tqdm import tqdm
    bar = tqdm(total=a.steps, desc="train", dynamic_ncols=False, ncols=110, mininterval=1.0)
t_last = time.time(); tot_ntok = 0; t_start = time.time()
for step in range(1, a.steps + 1):
    x, y = batch()
    logits = model(x)
    loss = F.cross_entropy(logits.reshape(-1, a.vocab), y.reshape(-1))
    opt.zero_grad(set_to_none=True); loss.backward()
    gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1e9)
    opt.step()
    if bar is not None:
        bar.update(1)
    if step % a.log_every == 0:
        lt = loss.detach().clone(); dist.all_reduce(lt); lv = lt.item() / world
        now = time.time(); dt = (now - t_last) / a.log_every; t_last = now
        ntok = a.batch * a.seq * world
        gn = float(gnorm.full_tensor() if hasattr(gnorm, "full_tensor") else gnorm)
        if not math.isfinite(lv):
            raise FloatingPointError(f"Loss is {lv} at step {step} (grad norm {gn}); stopping training")
        if rank == 0:
            if a.fmt == "absl":
                absl("I", f"[{step}] train/loss={lv:.4f}, train/grad_norm={gn:.3f}, train/learning_rate={a.lr:.2e}, "
                          f"perf/step_time_s={dt:.4f}, perf/examples_per_sec={a.batch * world / dt:.1f}, perf/tokens_per_sec={ntok / dt:.0f}")
            elif a.fmt == "fairseq":
                ep = (step - 1) // a.epoch_steps + 1; es = (step - 1) % a.epoch_steps + 1
                print(f"| epoch {ep:03d}:   {es:>4d} / {a.epoch_steps} loss={lv / math.log(2):.3f}, ppl={2 ** (lv / math.log(2)):.2f}, "
                      f"wps={ntok / dt:.0f}, ups={1 / dt:.2f}, wpb={ntok}, bsz={a.batch * world}, num_updates={step}, lr={a.lr:g}, "
                      f"gnorm={gn:.3f}, train_wall={now - t_start:.0f}, wall={now - t_start:.0f}", flush=True)
            else:
                bar.set_postfix(loss=f"{lv:.3f}", tok_s=f"{ntok / dt:.0f}")
    if a.ckpt_dir and a.ckpt_every and step % a.ckpt_every == 0:
        t0 = time.time(); path = save(step)
        if rank == 0:
            if a.fmt == "absl": absl("I", f"Saved checkpoint for step {step} to {path} in {time.time() - t0:.2f}s")
            elif a.fmt == "fairseq": print(f"| saved checkpoint {path} (epoch {(step - 1) // a.epoch_steps + 1} @ {step} updates) (writing took {time.time() - t0:.2f} seconds)", flush=True)
            else: bar.write(f"saved {path}")
if bar is not None: bar.close()
if rank == 0:
    if a.fmt == "absl": absl("I", f"Training finished after {a.steps} steps ({time.time() - t_start:.1f}s)")
    elif a.fmt == "fairseq": print(f"| done training in {time.time() - t_start:.1f} seconds", flush=True)
    else: print("training done", flush=True)
dist.destroy_process_group()
