# Tiny MLP-LM trained with DeepSpeed ZeRO-1 on the CPU accelerator (gloo), DeepSpeed logger at INFO:
# steps_per_print progress/throughput lines, optional wall_clock_breakdown timers and flops profiler.
# Fault options off by default: --block-at/--block-rank (rank sleeps forever before a step), --timeout (process group).
import argparse, datetime, os, time, json
import torch, torch.nn as nn, torch.nn.functional as F
import deepspeed

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=400)
p.add_argument("--local_rank", type=int, default=-1)
p.add_argument("--micro", type=int, default=16)
p.add_argument("--train-batch", type=int, default=0)
p.add_argument("--print-every", type=int, default=50)
p.add_argument("--timers", action="store_true")
p.add_argument("--flops-profile-step", type=int, default=0)
p.add_argument("--timeout", type=int, default=1800)
p.add_argument("--block-at", type=int, default=-1)
p.add_argument("--block-rank", type=int, default=1)
p.add_argument("--hidden", type=int, default=256)
p.add_argument("--save-every", type=int, default=0)
args = p.parse_args()
from deepspeed.utils.logging import set_log_level_from_string
set_log_level_from_string("info")
deepspeed.init_distributed(dist_backend="gloo", timeout=datetime.timedelta(seconds=args.timeout))
rank = int(os.environ["RANK"])
torch.manual_seed(0); torch.set_num_threads(1)
V, T, D = 512, 64, args.hidden
class M(nn.Module):
    def __init__(s):
        super().__init__(); s.e = nn.Embedding(V, D); s.f = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D)); s.o = nn.Linear(D, V)
    def forward(s, x): h = s.e(x); return s.o(h + s.f(h))
model = M()
cfg = {"train_micro_batch_size_per_gpu": args.micro, "gradient_accumulation_steps": 1, "steps_per_print": args.print_every,
       "zero_optimization": {"stage": 1}, "gradient_clipping": 1.0, "wall_clock_breakdown": args.timers,
       "scheduler": {"type": "WarmupLR", "params": {"warmup_min_lr": 0, "warmup_max_lr": 3e-3, "warmup_num_steps": 50}}}
if args.train_batch:
    cfg["train_batch_size"] = args.train_batch
if args.flops_profile_step:
    cfg["flops_profiler"] = {"enabled": True, "profile_step": args.flops_profile_step, "module_depth": -1, "top_modules": 1, "detailed": True}
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
engine, opt, _, _ = deepspeed.initialize(model=model, optimizer=opt, config=cfg)
g = torch.Generator().manual_seed(100 + rank)
base = torch.randint(0, V, (8192,), generator=g)
for step in range(1, args.steps + 1):
    if step == args.block_at and rank == args.block_rank:
        while True:
            time.sleep(5)
    idx = torch.randint(0, 8192 - T - 1, (args.micro,), generator=g).tolist()
    b = torch.stack([base[i:i + T + 1] for i in idx])
    logits = engine(b[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, V), b[:, 1:].reshape(-1))
    engine.backward(loss)
    engine.step()
    if args.save_every and step % args.save_every == 0:
        engine.save_checkpoint("ds_ckpt", tag=f"global_step{step}")
if rank == 0:
    print(f"training finished: {args.steps} steps, final loss {loss.item():.4f}", flush=True)
