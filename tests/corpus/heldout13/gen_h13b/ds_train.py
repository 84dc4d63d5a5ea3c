# ds_train.py: tiny MLP-LM trained with DeepSpeed (CPU accelerator, gloo), ZeRO stage from --zero,
# DeepSpeed's own step/throughput logging plus a samples/s line every --log-every steps.
import argparse, os, time
import numpy as np, torch, torch.nn as nn, torch.nn.functional as F
import deepspeed

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=400)
p.add_argument("--zero", type=int, default=1)
p.add_argument("--log-every", type=int, default=25)
p.add_argument("--local_rank", type=int, default=-1)
p.add_argument("--save-every", type=int, default=0)
p.add_argument("--ds-log-level", default="warning")
args = p.parse_args()
from deepspeed.utils.logging import set_log_level_from_string
set_log_level_from_string(args.ds_log_level)
deepspeed.init_distributed(dist_backend="gloo")
rank = int(os.environ["RANK"])
torch.manual_seed(0); torch.set_num_threads(1)
V, T, D = 512, 64, 128
class M(nn.Module):
    def __init__(s):
        super().__init__(); s.e = nn.Embedding(V, D); s.f = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D)); s.o = nn.Linear(D, V)
    def forward(s, x): h = s.e(x); return s.o(h + s.f(h))
model = M()
cfg = {"train_micro_batch_size_per_gpu": 16, "gradient_accumulation_steps": 1, "steps_per_print": 100,
       "zero_optimization": {"stage": args.zero}, "gradient_clipping": 1.0, "wall_clock_breakdown": False}
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
engine, opt, _, _ = deepspeed.initialize(model=model, optimizer=opt, config=cfg)
data = np.fromfile("tokens.bin", dtype=np.uint16).astype(np.int64)
ws = engine.world_size
t0 = time.time()
for step in range(1, args.steps + 1):
    i = ((step * ws + rank) * 16 * (T + 1)) % (len(data) - 16 * (T + 1))
    b = torch.from_numpy(data[i:i + 16 * (T + 1)].reshape(16, T + 1))
    logits = engine(b[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, V), b[:, 1:].reshape(-1))
    engine.backward(loss)
    engine.step()
    if step % args.log_every == 0 and rank == 0:
        el = time.time() - t0; t0 = time.time()
        print(f"[train] step={step} loss={loss.item():.4f} samples/s={args.log_every * 16 * ws / el:.1f} step_time={el / args.log_every * 1000:.1f}ms", flush=True)
    if args.save_every and step % args.save_every == 0:
        engine.save_checkpoint("ds_ckpt", tag=f"global_step{step}")
print(f"[train] rank {rank} done", flush=True)
