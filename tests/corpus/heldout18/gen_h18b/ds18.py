# Tiny MLP-LM trained with DeepSpeed (ZeRO stage --zero, CPU accelerator, gloo); DeepSpeed logger at INFO, and a
# JSON-lines metrics record from rank 0 every --print-every steps (step, loss, lr, samples_per_sec, step_ms, host).
# Launch with the deepspeed launcher or under srun (SLURM_PROCID/NTASKS/LOCALID mapped to RANK/WORLD_SIZE/LOCAL_RANK).
import argparse, datetime, json, os, socket, time
import torch, torch.nn as nn, torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=400)
p.add_argument("--local_rank", type=int, default=-1)
p.add_argument("--micro", type=int, default=16)
p.add_argument("--zero", type=int, default=2)
p.add_argument("--print-every", type=int, default=50)
p.add_argument("--timeout", type=int, default=1800)
p.add_argument("--hidden", type=int, default=256)
p.add_argument("--save-every", type=int, default=0)
p.add_argument("--save-dir", default="ds_ckpt")
args = p.parse_args()
if "SLURM_PROCID" in os.environ and "RANK" not in os.environ:
    os.environ["RANK"] = os.environ["SLURM_PROCID"]; os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
    os.environ["LOCAL_RANK"] = os.environ.get("SLURM_LOCALID", "0")
host = os.environ.get("SLURMD_NODENAME") or socket.gethostname()
import deepspeed
from deepspeed.utils.logging import set_log_level_from_string
set_log_level_from_string("info")
deepspeed.init_distributed(dist_backend="gloo", timeout=datetime.timedelta(seconds=args.timeout))
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
torch.manual_seed(0); torch.set_num_threads(1)
V, T, D = 512, 64, args.hidden
class M(nn.Module):
    def __init__(s):
        super().__init__(); s.e = nn.Embedding(V, D); s.f = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D)); s.o = nn.Linear(D, V)
    def forward(s, x): h = s.e(x); return s.o(h + s.f(h))
model = M()
cfg = {"train_micro_batch_size_per_gpu": args.micro, "gradient_accumulation_steps": 1, "steps_per_print": args.print_every,
       "zero_optimization": {"stage": args.zero}, "gradient_clipping": 1.0,
       "scheduler": {"type": "WarmupCosineLR", "params": {"total_num_steps": args.steps, "warmup_num_steps": 50}}}
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
engine, opt, _, sched = deepspeed.initialize(model=model, optimizer=opt, config=cfg)
g = torch.Generator().manual_seed(100 + rank)
base = torch.randint(0, V, (8192,), generator=g)
t_last = time.time()
for step in range(1, args.steps + 1):
    idx = torch.randint(0, 8192 - T - 1, (args.micro,), generator=g).tolist()
    b = torch.stack([base[i:i + T + 1] for i in idx])
    logits = engine(b[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, V), b[:, 1:].reshape(-1))
    engine.backward(loss)
    engine.step()
    if step % args.print_every == 0:
        now = time.time(); dt = (now - t_last) / args.print_every; t_last = now
        if rank == 0:
            print(json.dumps({"ts": round(now, 3), "step": step, "loss": round(loss.item(), 4), "lr": float(f"{sched.get_last_lr()[0]:.3e}"),
                              "samples_per_sec": round(args.micro * world / dt, 1), "step_ms": round(dt * 1000, 1), "world_size": world, "host": host}), flush=True)
    if args.save_every and step % args.save_every == 0:
        engine.save_checkpoint(args.save_dir, tag=f"global_step{step}")
if rank == 0:
    print(json.dumps({"event": "train_end", "steps": args.steps, "final_loss": round(loss.item(), 4)}), flush=True)
