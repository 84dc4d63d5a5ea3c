#!/usr/bin/env python3
"""t30: a small DDP (gloo, CPU) classification trainer with several log styles, for heldout30b runs (from heldout29 gen_h29b/t29.py).

Rank/world come from torchrun (RANK/WORLD_SIZE) or from srun (SLURM_PROCID/SLURM_NTASKS with --master host:port).
"""
import argparse, datetime, json, logging, math, os, signal, sys, time, warnings

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, DistributedSampler

p = argparse.ArgumentParser()
p.add_argument("--style", default="plain")
p.add_argument("--data", default="/work/lab30b/data/feat.bin")
p.add_argument("--rows", type=int, default=60000)
p.add_argument("--dim", type=int, default=48)
p.add_argument("--hidden", type=int, default=512)
p.add_argument("--batch", type=int, default=96)
p.add_argument("--steps", type=int, default=3000)
p.add_argument("--lr", type=float, default=3e-3)
p.add_argument("--log-every", type=int, default=50)
p.add_argument("--ckpt-dir", default="")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--ckpt-pad-mb", type=int, default=0)
p.add_argument("--resume", action="store_true")
p.add_argument("--master", default="")
p.add_argument("--pg-timeout", type=int, default=1800)
p.add_argument("--workers", type=int, default=0)
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--eval-rounds", type=int, default=1)
p.add_argument("--anomaly", action="store_true")
p.add_argument("--sqrt-feature-at", type=int, default=0)
p.add_argument("--grad-accum", type=int, default=1)
p.add_argument("--global-batch", type=int, default=0)
p.add_argument("--tracker-flaky", action="store_true")
p.add_argument("--noisy", action="store_true")
p.add_argument("--spike-at", type=int, default=0)
p.add_argument("--mem-probe-at", type=int, default=0)
p.add_argument("--mem-probe-gb", type=float, default=3.0)
p.add_argument("--rank-detour-at", type=int, default=0)
p.add_argument("--sigterm-ckpt", action="store_true")
p.add_argument("--sleep-ms", type=float, default=0.0)
p.add_argument("--read", default="memmap")            # memmap | pread (os.pread per sample)
p.add_argument("--model-dim", type=int, default=0)     # input width the model is built for (0 = --dim)
p.add_argument("--curriculum-at", type=int, default=0) # from this step, labels go through a coarse class map
p.add_argument("--anneal-temp-to", type=int, default=0) # logits / temperature, temperature annealed to 0 at this step
p.add_argument("--eval-bug", action="store_true")
p.add_argument("--worker-cache-kb", type=int, default=0) # DataLoader workers keep an upsampled copy of every sample
p.add_argument("--monitored-barrier", type=int, default=0) # seconds; monitored_barrier after each checkpoint
p.add_argument("--keep", type=int, default=0)
p.add_argument("--epoch-steps", type=int, default=200)
p.add_argument("--unk-class-at", type=int, default=0)  # from this step low-margin samples get an extra "unknown" class id 10
p.add_argument("--dtype-bug-at", type=int, default=0)  # from this step features are standardised with float64 statistics
p.add_argument("--lock-at", type=int, default=0)       # last rank re-enters a non-reentrant metrics lock at this step
p.add_argument("--fifo-at", type=int, default=0)       # rank 0 reads the next shard manifest from --fifo at this step
p.add_argument("--fifo", default="")
p.add_argument("--metrics-file", default="")          # rank 0 appends a CSV row per logged step
p.add_argument("--mirror", default="")                # rank 0 tries a shard index on a mirror dir per logged step, falls back
p.add_argument("--tag", default="")
p.add_argument("--aug-at", type=int, default=0)       # from this step a "positional" feature column is appended to each batch
p.add_argument("--accum-bug", action="store_true")    # grad accumulation count read from env as a string
a = p.parse_args()

if a.master:
    host, port = a.master.split(":")
    os.environ.setdefault("MASTER_ADDR", host); os.environ.setdefault("MASTER_PORT", port)
    os.environ.setdefault("RANK", os.environ.get("SLURM_PROCID", "0"))
    os.environ.setdefault("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1"))
    os.environ.setdefault("LOCAL_RANK", "0")
rank = int(os.environ.get("RANK", 0)); world = int(os.environ.get("WORLD_SIZE", 1))
S = a.style
host = os.uname().nodename
if "SLURMD_NODENAME" in os.environ:
    host = os.environ["SLURMD_NODENAME"]

logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format="%(asctime)s %(levelname)s %(name)s [rank%(rank)s]: %(message)s"
                    if S == "pylog" else
                    "[%(asctime)s] [%(levelname)s] [%(name)s] %(message)s" if S == "deepspeed" else
                    "[titan] %(asctime)s - %(name)s - %(levelname)s - %(message)s" if S == "titan" else
                    "%(asctime)s - mmengine - %(levelname)s - %(message)s" if S == "mmengine" else
                    "[%(asctime)s %(name)s]: %(message)s" if S == "detectron2" else
                    "%(levelname)s:%(name)s:%(message)s" if S == "torchtune" else
                    "%(asctime)s - %(levelname)s - %(name)s - %(message)s" if S == "accelerate" else
                    "[NeMo %(levelname).1s %(asctime)s %(module)s:%(lineno)d] %(message)s" if S == "nemo" else
                    "%(asctime)s: rank%(rank)s[%(process)d][MainThread]: %(levelname)s: %(name)s: %(message)s" if S == "composer" else
                    "%(asctime)s - %(levelname)s - %(name)s - %(message)s",
                    datefmt="%m/%d %H:%M:%S" if S in ("mmengine", "detectron2") else "%m/%d/%Y %H:%M:%S" if S == "accelerate" else "%Y-%m-%d %H:%M:%S" if S == "nemo" else None)
_old = logging.getLogRecordFactory()
def _f(*x, **k):
    r = _old(*x, **k); r.rank = rank; return r
logging.setLogRecordFactory(_f)
log = logging.getLogger({"pylog": "trainer.loop", "deepspeed": "DeepSpeed", "titan": "root", "detectron2": "d2.utils.events",
                         "torchtune": "torchtune.utils._logging", "mmengine": "mmengine", "accelerate": "__main__", "nemo": "nemo_logger", "composer": "composer.trainer.trainer"}.get(S, "__main__"))
d2 = lambda name: logging.getLogger(name)

def fs(mod, msg, lvl="INFO"):
    if rank == 0: print(f"{now()} | {lvl} | {mod} | {msg}", flush=True)

def now():
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")

def out(msg, all_ranks=False):
    if rank == 0 or all_ranks:
        print(msg, flush=True)

def jl(**k):
    k = dict(ts=round(time.time(), 3), rank=rank, **k); print(json.dumps(k), flush=True)

# ---------------- config checks (the config-error case trips these) ----------------
if a.global_batch:
    if a.global_batch % (a.batch * world * a.grad_accum) != 0:
        raise ValueError(f"global_batch_size ({a.global_batch}) must be divisible by micro_batch_size ({a.batch}) * "
                         f"data_parallel_size ({world}) * gradient_accumulation_steps ({a.grad_accum})")

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=a.pg_timeout))
torch.manual_seed(0); torch.set_num_threads(1)
if S == "deepspeed":
    log.info(f"[Rank {rank}] process group initialized: backend=gloo world_size={world} host={host}")

class Feats(Dataset):
    def __init__(s):
        s.x = np.memmap(a.data, dtype=np.float32, mode="r", shape=(a.rows, a.dim))
        s.fd = os.open(a.data, os.O_RDONLY) if a.read == "pread" else None
        g = np.random.default_rng(11); s.w = g.standard_normal((a.dim, 10)).astype(np.float32)
        s.cache = {}
    def __len__(s): return a.rows
    def __getitem__(s, i):
        if s.fd is not None:
            x = np.frombuffer(os.pread(s.fd, a.dim * 4, i * a.dim * 4), dtype=np.float32).copy()
        else:
            x = np.array(s.x[i])
        if a.worker_cache_kb:
            s.cache[i] = np.repeat(x, a.worker_cache_kb * 256 // a.dim)
        y = int(np.argmax(x @ s.w)); return torch.from_numpy(x), y

class Net(nn.Module):
    def __init__(s):
        super().__init__()
        s.inp = nn.Linear(a.model_dim or a.dim, a.hidden); s.mid = nn.Linear(a.hidden, a.hidden); s.out = nn.Linear(a.hidden, 10)
        s.norm = nn.LayerNorm(a.hidden)
    def forward(s, x, step=0):
        h = F.gelu(s.inp(x))
        if a.sqrt_feature_at and step >= a.sqrt_feature_at:
            # "variance feature" added by a config flag: sqrt of a quantity that is not guaranteed non-negative
            h = h + torch.sqrt(h - h.mean(dim=-1, keepdim=True))
        h = s.norm(F.gelu(s.mid(h)) + h)
        o = s.out(h)
        if a.anneal_temp_to:
            temp = max(0.0, 1.0 - step / a.anneal_temp_to)  # "sharpening" schedule
            o = o / temp
        return o

model = Net(); nparam = sum(q.numel() for q in model.parameters())
ddp = nn.parallel.DistributedDataParallel(model)
opt = torch.optim.AdamW(ddp.parameters(), lr=a.lr, weight_decay=0.01)
ds = Feats(); sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=3)
dl = DataLoader(ds, batch_size=a.batch, sampler=sampler, num_workers=a.workers, drop_last=True,
                persistent_workers=a.workers > 0)
per_epoch = len(dl)
def lr_at(s):
    w = 100
    return a.lr * (s / w if s < w else 0.5 * (1 + math.cos(math.pi * min(1.0, (s - w) / max(1, a.steps - w)))))

start = 0
per_epoch_est = a.rows // (a.batch * world)
if a.resume and a.ckpt_dir and os.path.isdir(a.ckpt_dir):
    cks = sorted([d for d in os.listdir(a.ckpt_dir) if d.startswith("step_")], key=lambda d: int(d[5:]))
    if cks:
        path = os.path.join(a.ckpt_dir, cks[-1], "model.pt")
        if S == "megatron":
            out(f" loading checkpoint from {a.ckpt_dir} at iteration {cks[-1][5:]}")
        elif S == "titan":
            log.info(f"Loading the checkpoint at step {cks[-1][5:]}.") if rank == 0 else None
        elif S == "mmengine":
            log.info(f"Load checkpoint from {path}") if rank == 0 else None
        elif S == "detectron2":
            d2("fvcore.common.checkpoint").info(f"[Checkpointer] Loading from {path} ...") if rank == 0 else None
        elif S == "torchtune":
            log.info(f"Resuming training from checkpoint {path}") if rank == 0 else None
        elif S == "accelerate":
            log.info(f"Resumed from checkpoint: {os.path.dirname(path)}") if rank == 0 else None
        elif S == "nemo":
            log.info(f"Restoring states from the checkpoint path at {path}") if rank == 0 else None
        elif S == "composer":
            log.info(f"Loading checkpoint at {path}") if rank == 0 else None
        else:
            out(f"Resuming from checkpoint {path}")
        sd = torch.load(path, map_location="cpu")
        model.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); start = sd["step"]
        if S == "megatron":
            out(f"  successfully loaded checkpoint from {a.ckpt_dir} at iteration {start}")
        elif S == "titan" and rank == 0:
            log.info(f"Finished loading the checkpoint in {0.4:.2f} seconds.")
        elif S == "mmengine" and rank == 0:
            log.info(f"resumed epoch: {start // per_epoch_est}, iter: {start}")
        elif S == "detectron2" and rank == 0:
            d2("d2.engine.hooks").info(f"Resuming from iteration {start}")

def save(step):
    d = os.path.join(a.ckpt_dir, f"step_{step}")
    t0 = time.time()
    if rank == 0:
        if S == "megatron": out(f"saving checkpoint at iteration {step:8d} to {a.ckpt_dir}")
        elif S == "hf": out(f"Saving model checkpoint to {d}")
        elif S == "titan": log.info(f"Saving the checkpoint (or staging if async is enabled).")
        elif S == "pylog": logging.getLogger("trainer.checkpoint").info(f"saving checkpoint to {d}")
        elif S == "jsonl": jl(event="checkpoint_begin", step=step, path=d)
        elif S == "deepspeed": log.info(f"[Rank 0] Saving model checkpoint: {d}/mp_rank_00_model_states.pt")
        elif S == "keras": out(f"\nEpoch {step // a.epoch_steps}: saving model to {d}/model.weights.h5")
        elif S == "fairseq": pass
        elif S == "tqdm": bar.write(f"saving checkpoint to {d}")
        elif S == "mmengine": log.info(f"Saving checkpoint at {step} iterations")
        elif S == "detectron2": d2("fvcore.common.checkpoint").info(f"Saving checkpoint to {d}/model_{step - 1:07d}.pth")
        elif S == "torchtune": log.info("Saving checkpoint. This may take some time. Retrieving full model state dict...")
        elif S == "accelerate": log.info(f"Saving current state to {d}")
        elif S == "nemo": pass
        elif S == "composer": log.info(f"Saving checkpoint to ep{step // per_epoch}-ba{step}-rank0.pt")
        else: out(f"[{now()}] saving checkpoint step {step} -> {d}")
        os.makedirs(d, exist_ok=True)
        sd = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step}
        if a.ckpt_pad_mb: sd["pad"] = torch.zeros(a.ckpt_pad_mb * 262144)
        with open(os.path.join(d, "model.pt"), "wb") as f:
            torch.save(sd, f); f.flush(); os.fsync(f.fileno())
        with open(os.path.join(d, "trainer_state.json"), "w") as f:
            json.dump({"global_step": step}, f)
    if a.monitored_barrier:
        dist.monitored_barrier(timeout=datetime.timedelta(seconds=a.monitored_barrier))
    else:
        dist.barrier()
    dt = time.time() - t0
    if rank == 0:
        if S == "megatron": out(f"  successfully saved checkpoint at iteration {step:8d} to {a.ckpt_dir}")
        elif S == "lightning": out(f"Epoch {step // per_epoch}, global step {step}: 'val_loss' reached {last_loss:.5f} (best {last_loss:.5f}), saving model to '{d}/model.ckpt' as top 1")
        elif S == "titan": log.info(f"Finished saving the checkpoint (or staging if async is enabled)in {dt:.2f} seconds.")
        elif S == "jsonl": jl(event="checkpoint_end", step=step, seconds=round(dt, 3))
        elif S == "deepspeed": log.info(f"[Rank 0] Saved checkpoint {d} in {dt:.2f}s")
        elif S == "pylog": logging.getLogger("trainer.checkpoint").info(f"checkpoint step {step} saved in {dt:.2f}s")
        elif S == "fairseq": fs("fairseq.checkpoint_utils", f"Saved checkpoint {d}/checkpoint_{step // per_epoch + 1}_{step}.pt (epoch {step // per_epoch + 1} @ {step} updates, score {last_loss:.3f}) (writing took {dt:.6f} seconds)")
        elif S == "tqdm": bar.write(f"checkpoint saved ({dt:.2f}s)")
        elif S == "torchtune": log.info(f"Model checkpoint of size {os.path.getsize(os.path.join(d, 'model.pt')) / 2**30:.2f} GiB saved to {d}/model.pt"); log.info(f"Saving checkpoint took {dt:.2f} secs")
        elif S == "accelerate": log.info(f"Model weights saved in {d}/model.safetensors"); log.info(f"Optimizer state saved in {d}/optimizer.bin")
        elif S == "nemo": print(f"Epoch {step // per_epoch}, global step {step}: 'val_loss' reached {last_loss:.5f} (best {last_loss:.5f}), saving model to '{d}/megatron_mlp--val_loss={last_loss:.2f}-step={step}-consumed_samples={step * a.batch * world:.1f}.ckpt' as top 3", file=sys.stderr, flush=True)
        elif S == "composer": log.info(f"Checkpoint saved to {d}/ep{step // per_epoch}-ba{step}-rank0.pt in {dt:.2f}s")

def evaluate(step):
    if a.eval_bug:
        eval_cfg = {"eval_batch_size": 1000, "max_eval_samples": None}
        per_rank = eval_cfg.get("max_eval_samples") // world
    ddp.eval(); tot = 0.0; n = 0; t0 = time.time()
    with torch.no_grad():
        for r in range(a.eval_rounds):
            for i in range(0, 12000, 1000):
                xb = torch.from_numpy(np.array(ds.x[i:i + 1000])); yb = torch.from_numpy(np.argmax(xb.numpy() @ ds.w, 1))
                tot += F.cross_entropy(model(xb), yb).item() * len(xb); n += len(xb)
            if S in ("lightning", "hf") and rank == 0:
                print(f"Validation DataLoader 0: {100 * (r + 1) // a.eval_rounds:3d}%| round {r + 1}/{a.eval_rounds}", file=sys.stderr, flush=True)
    t = torch.tensor([tot, n]); dist.all_reduce(t); v = (t[0] / t[1]).item(); ddp.train()
    if S == "hf": out(str({"eval_loss": round(v, 4), "eval_runtime": round(time.time() - t0, 4), "eval_samples_per_second": round(n / (time.time() - t0), 3), "epoch": round(step / per_epoch, 2)}))
    elif S == "lightning": out(f"Epoch {step // per_epoch}: val_loss={v:.4f} (validation took {time.time() - t0:.1f}s)")
    elif S == "megatron": out(f" validation loss at iteration {step} | lm loss value: {v:.6E} | lm loss PPL: {math.exp(min(v, 50)):.6E} |")
    elif S == "jsonl": jl(event="eval", step=step, val_loss=round(v, 5), seconds=round(time.time() - t0, 2)) if rank == 0 else None
    elif S == "fairseq": fs("valid", f"epoch {step // per_epoch + 1:03d} | valid on 'valid' subset | loss {v / math.log(2):.3f} | nll_loss {v / math.log(2):.3f} | ppl {2 ** (v / math.log(2)):.2f} | wps 0 | wpb 1000 | bsz 1000 | num_updates {step}")
    elif S == "keras": kstate["val"] = v
    elif S == "tqdm": bar.write(f"eval @ {step}: val_loss={v:.4f}") if bar is not None else None
    elif S == "mmengine":
        if rank == 0: log.info(f"Epoch(val) [{step // per_epoch + 1}][12/12]    loss: {v:.4f}  data_time: 0.0011  time: {(time.time() - t0) / 12:.4f}")
    elif S == "detectron2":
        if rank == 0:
            d2("d2.evaluation.evaluator").info(f"Total inference time: 0:00:{time.time() - t0:04.1f} ({(time.time() - t0) / 12:.6f} s / iter per device, on {world} devices)")
            d2("d2.evaluation.testing").info(f"copypaste: Task: classification")
            d2("d2.evaluation.testing").info(f"copypaste: val_loss,top1")
            d2("d2.evaluation.testing").info(f"copypaste: {v:.4f},{100 * math.exp(-v):.4f}")
    elif S == "torchtune":
        if rank == 0: log.info(f"Validation loss at step {step}: {v:.4f}")
    elif S == "accelerate":
        if rank == 0: log.info(f"epoch {step // per_epoch}: {{'eval_loss': {v:.4f}, 'accuracy': {math.exp(-v):.4f}}}")
    elif S == "nemo":
        if rank == 0: print(f"Validation: |          | 12/12 [00:0{min(9, int(time.time() - t0))}<00:00] val_loss={v:.4f}", file=sys.stderr, flush=True)
    elif S == "composer":
        if rank == 0: print(f"[Eval batch=12/12] Eval on eval data:\n\t Eval metrics/eval/CrossEntropy: {v:.4f}\n\t Eval metrics/eval/Accuracy: {math.exp(-v):.4f}", flush=True)
    else: out(f"[{now()}] eval step {step}: val_loss {v:.4f}")

stop_req = {"v": False}
if a.sigterm_ckpt:
    def _h(sig, frm):
        stop_req["v"] = True
        print(f"[rank{rank}] Preemption detected (signal {sig}, SIGTERM): will save checkpoint and exit", flush=True)
    signal.signal(signal.SIGTERM, _h)

# ---------------- banners ----------------
if rank == 0:
    if S == "hf":
        print("***** Running training *****\n  Num examples = {:,}\n  Num Epochs = {}\n  Instantaneous batch size per device = {}\n  Total train batch size (w. parallel, distributed & accumulation) = {}\n  Gradient Accumulation steps = 1\n  Total optimization steps = {:,}\n  Number of trainable parameters = {:,}".format(a.rows, math.ceil(a.steps / per_epoch), a.batch, a.batch * world, a.steps, nparam), flush=True)
    elif S == "lightning":
        print("GPU available: False, used: False\nTPU available: False, using: 0 TPU cores\nHPU available: False, using: 0 HPUs", file=sys.stderr)
        print(f"\n  | Name  | Type      | Params | Mode\n--------------------------------------------\n0 | model | Net       | {nparam / 1e3:.0f} K  | train\n--------------------------------------------\n{nparam / 1e3:.0f} K     Trainable params\n0         Non-trainable params\n", flush=True)
    elif S == "megatron":
        print("------------------------ arguments ------------------------", flush=True)
        for k, v in sorted(vars(a).items()):
            if k in ("style", "keep", "epoch_steps") or (k not in ("lr", "batch", "steps", "hidden", "dim", "data", "log_every") and v == p.get_default(k)):
                continue  # generator knobs left at their defaults are not printed
            print(f"  {k} {'.' * (38 - len(k))} {v}")
        print(f"  world_size {'.' * 28} {world}\n-------------------- end of arguments ---------------------", flush=True)
        print(f" > number of parameters on (tensor, pipeline) model parallel rank (0, 0): {nparam}", flush=True)
        print(f"[after dataloaders are built] datetime: {now()} \ntraining ...", flush=True)
    elif S == "titan":
        log.info(f"Building 1-D device mesh with ['dp_shard'], [{world}]")
        log.info(f"Model tiny-mlp size: {nparam:,} total parameters")
        log.info(f"Training starts at step {start + 1}.")
    elif S == "deepspeed":
        log.info(f"DeepSpeed info: version=0.0-local, git-hash=unknown, git-branch=unknown")
        log.info(f"[Rank 0] DeepSpeedEngine configuration: train_micro_batch_size_per_gpu={a.batch} gradient_accumulation_steps=1 zero_optimization.stage=0")
    elif S == "mmengine":
        log.info(f"Distributed training is enabled: backend gloo, world size {world}, launcher {'slurm' if 'SLURM_JOB_ID' in os.environ else 'pytorch'}")
        log.warning('"FileClient" will be deprecated in future. Please use io functions in https://mmengine.readthedocs.io/en/latest/api/fileio.html#file-io')
        log.info(f"Checkpoints will be saved to {os.path.abspath(a.ckpt_dir) if a.ckpt_dir else os.getcwd()}.")
        log.info(f"model: TabularMLP, {nparam:,} parameters; optim_wrapper: AdamW lr={a.lr} weight_decay=0.01; max_iters={a.steps}")
    elif S == "detectron2":
        d2("d2.engine.defaults").info(f"Model:\nTabularMLP(\n  (inp): Linear(in_features={a.model_dim or a.dim}, out_features={a.hidden}, bias=True)\n  (mid): Linear(in_features={a.hidden}, out_features={a.hidden}, bias=True)\n  (out): Linear(in_features={a.hidden}, out_features=10, bias=True)\n  (norm): LayerNorm(({a.hidden},), eps=1e-05, elementwise_affine=True)\n)")
        d2("d2.data.build").info(f"Using training sampler TrainingSampler")
        d2("d2.engine.train_loop").info(f"Starting training from iteration {start}")
    elif S == "torchtune":
        log.info(f"Running FullFinetuneRecipeDistributed with resolved config:\n\nbatch_size: {a.batch}\nepochs: 1\nmax_steps_per_epoch: {a.steps}\noptimizer:\n  _component_: torch.optim.AdamW\n  lr: {a.lr}\n  weight_decay: 0.01\noutput_dir: {a.ckpt_dir or '.'}\nseed: 0\n")
        log.info(f"Model is initialized with precision torch.float32.")
        log.info(f"Optimizer is initialized.")
        log.info(f"Dataset and Sampler are initialized.")
        log.info(f"Learning rate scheduler is initialized.")
    elif S == "accelerate":
        log.info(f"Distributed environment: MULTI_CPU  Backend: gloo\nNum processes: {world}\nProcess index: {rank}\nLocal process index: {os.environ.get('LOCAL_RANK', 0)}\nDevice: cpu\n\nMixed precision type: no\n")
        log.info("***** Running training *****")
        log.info(f"  Num examples = {a.rows}")
        log.info(f"  Instantaneous batch size per device = {a.batch}")
        log.info(f"  Total train batch size (w. parallel, distributed & accumulation) = {a.batch * world}")
        log.info(f"  Total optimization steps = {a.steps}")
    elif S == "nemo":
        log.info(f"Experiments will be logged at {os.getcwd()}/nemo_experiments/mlp_pretrain/{now().replace(' ', '_')}")
        log.warning("No version folders would be created under the log folder as 'resume_if_exists' is enabled.")
        log.info(f"Trainer config - \ndevices: {world}\naccelerator: cpu\nnum_nodes: 1\nprecision: 32\nmax_steps: {a.steps}\nlog_every_n_steps: {a.log_every}\nval_check_interval: {a.eval_every or a.steps}")
        print(f"GPU available: False, used: False\nTPU available: False, using: 0 TPU cores\nHPU available: False, using: 0 HPUs", file=sys.stderr, flush=True)
        print(f"Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/{world}\n----------------------------------------------------------------------------------------------------\ndistributed_backend=gloo\nAll distributed processes registered. Starting with {world} processes\n----------------------------------------------------------------------------------------------------", file=sys.stderr, flush=True)
        log.info(f"\n  | Name  | Type       | Params\n-------------------------------------\n0 | model | TabularMLP | {nparam / 1e3:.0f} K\n-------------------------------------\n{nparam / 1e3:.0f} K     Trainable params")
    elif S == "composer":
        print(f"******************************\nConfig:\nnode_name: {host}\nnum_gpus_per_node: 0\nnum_nodes: {max(1, world // 2)}\nrank_zero_seed: 0\n******************************", flush=True)
        log.info(f"Stepping schedulers every batch. To step schedulers every epoch, set `step_schedulers_every_batch=False`.")
        log.info(f"Setting seed to 0")
if a.noisy:
    warnings.warn("torch.distributed._all_gather_base is a private function and will be deprecated. Please use torch.distributed.all_gather_into_tensor instead.", FutureWarning)
    warnings.warn("`torch.cpu.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cpu', args...)` instead.", FutureWarning)
    if rank == 0:
        print("UserWarning: This DataLoader will create 4 worker processes in total. Our suggested max number of worker in current system is 2, which is smaller than what this DataLoader is going to create.", file=sys.stderr, flush=True)

import threading
METRICS_LOCK = threading.Lock(); METRICS = []
def flush_metrics(step):
    with METRICS_LOCK:
        METRICS.clear()
bar = None
kstate = {"val": None, "t0": time.time(), "acc": 0.0, "n": 0}
COARSE = {0: 0, 1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3, 8: 4}  # class 9 was dropped from the coarse taxonomy
if rank == 0 and S == "fairseq":
    fs("fairseq_cli.train", f"model tiny_mlp, criterion CrossEntropyCriterion")
    fs("fairseq_cli.train", f"num. shared model params: {nparam:,} (num. trained: {nparam:,})")
    fs("fairseq_cli.train", f"training on {world} devices (GPUs/TPUs)")
    fs("fairseq_cli.train", f"max tokens per device = None and max sentences per device = {a.batch}")
    fs("fairseq.trainer", "begin training epoch 1")
if rank == 0 and S == "keras":
    print(f"Model: \"functional\"\nTotal params: {nparam:,} ({nparam * 4 / 2**20:.2f} MB)\nTrainable params: {nparam:,}\nNon-trainable params: 0", flush=True)
    print(f"Epoch 1/{math.ceil(a.steps / a.epoch_steps)}", flush=True)
if rank == 0 and S in ("hf", "lightning", "tqdm", "torchtune", "nemo"):
    from tqdm import tqdm
    bar = tqdm(total=a.steps, initial=start, desc=("Epoch 0" if S in ("lightning", "nemo") else "train" if S == "tqdm" else f"1|{start}|Loss: nan" if S == "torchtune" else None), mininterval=2.0, file=sys.stderr)

T_START = time.time()
step = start; last_loss = float("nan"); t_win = time.time(); it = iter(dl); epoch = 0; sampler.set_epoch(0)
if a.anomaly:
    torch.autograd.set_detect_anomaly(True)
    if rank == 0: print("anomaly detection enabled (torch.autograd.set_detect_anomaly(True))", flush=True)
while step < a.steps:
    try:
        xb, yb = next(it)
    except StopIteration:
        epoch += 1; sampler.set_epoch(epoch); it = iter(dl); xb, yb = next(it)
        if S == "lightning" and bar is not None: bar.set_description(f"Epoch {epoch}")
    step += 1
    for g in opt.param_groups: g["lr"] = lr_at(step)
    if a.curriculum_at and step >= a.curriculum_at:
        yb = torch.tensor([COARSE[int(v)] for v in yb])  # stage 2: coarse labels
    if a.spike_at and a.spike_at <= step < a.spike_at + 30:
        yb = (yb + 3) % 10  # a stretch of mislabelled shards: the loss spikes then recovers
    if a.mem_probe_at and step == a.mem_probe_at:
        out(f"[{now()}] building full-resolution feature cache ({a.mem_probe_gb:.1f} GB per rank)", all_ranks=True)
        cache = [torch.ones(int(a.mem_probe_gb * 2 ** 28 / 8)) for _ in range(8)]
    if a.rank_detour_at and step == a.rank_detour_at and rank == world - 1:
        # a rank-conditional branch meant for rank 0 only: this rank waits for a file that never appears
        while not os.path.exists("/nonexistent/ready.flag"): time.sleep(1)
    if a.unk_class_at and step >= a.unk_class_at:
        with torch.no_grad():
            tl = torch.from_numpy(xb.numpy() @ ds.w); top2 = tl.topk(2, dim=1).values
        yb = torch.where(top2[:, 0] - top2[:, 1] < 0.05, torch.full_like(yb, 10), yb)  # "unknown" bucket for ambiguous rows
    if a.dtype_bug_at and step >= a.dtype_bug_at:
        mu = xb.numpy().mean(0); sdv = xb.numpy().std(0) + 1e-6
        xb = torch.from_numpy((xb.numpy() - mu.astype(np.float64)) / sdv.astype(np.float64))  # per-batch standardisation
    if a.lock_at and step == a.lock_at and rank == world - 1:
        with METRICS_LOCK:
            flush_metrics(step)  # flush_metrics takes METRICS_LOCK itself
    if a.aug_at and step >= a.aug_at:
        pos = torch.linspace(0, 1, xb.shape[0]).unsqueeze(1)
        xb = torch.cat([xb, pos], dim=1)  # "positional" feature from the augmentation stage
    if a.fifo_at and step == a.fifo_at and rank == 0:
        with open(a.fifo) as mf:
            manifest = mf.read()
    loss = F.cross_entropy(ddp(xb, step), yb)
    opt.zero_grad(set_to_none=True); loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0).item()
    opt.step(); last_loss = loss.item()
    if S == "keras":
        if step % a.epoch_steps == 0 and rank == 0:
            el = time.time() - kstate["t0"]; kstate["t0"] = time.time()
            vl = f" - val_loss: {kstate['val']:.4f}" if kstate["val"] is not None else ""
            print(f"{a.epoch_steps}/{a.epoch_steps} - {el:.0f}s - {1000 * el / a.epoch_steps:.0f}ms/step - loss: {last_loss:.4f}{vl}", flush=True)
            kstate["val"] = None
            if step < a.steps: print(f"Epoch {step // a.epoch_steps + 1}/{math.ceil(a.steps / a.epoch_steps)}", flush=True)
    if a.sleep_ms: time.sleep(a.sleep_ms / 1000)
    if bar is not None:
        bar.update(1)
        if S == "lightning": bar.set_postfix(train_loss=f"{last_loss:.3f}", v_num=0, refresh=False)
        if S == "tqdm": bar.set_postfix(loss=f"{last_loss:.4f}", lr=f"{lr_at(step):.2e}", refresh=False)
        if S == "torchtune": bar.set_description(f"{epoch + 1}|{step}|Loss: {last_loss}", refresh=False)
        if S == "nemo": bar.set_postfix({"reduced_train_loss": f"{last_loss:.3f}", "global_step": f"{step - 1}.0", "consumed_samples": f"{step * a.batch * world}.0", "train_step_timing in s": f"{(time.time() - kstate['t0']):.3f}"}, refresh=False); kstate["t0"] = time.time()
    if step % a.log_every == 0:
        dt = time.time() - t_win; t_win = time.time(); ms = 1000 * dt / a.log_every; sps = a.batch * world * a.log_every / dt
        if S == "hf":
            out(str({"loss": round(last_loss, 4), "grad_norm": round(gn, 4), "learning_rate": float(f"{lr_at(step):.4e}"), "epoch": round(step / per_epoch, 2)}))
        elif S == "megatron":
            out(f" iteration {step:8d}/{a.steps:8d} | consumed samples: {step * a.batch * world:10d} | elapsed time per iteration (ms): {ms:.1f} | learning rate: {lr_at(step):.6E} | global batch size: {a.batch * world:5d} | lm loss: {last_loss:.6E} | loss scale: 1.0 | grad norm: {gn:.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |")
        elif S == "titan":
            if rank == 0: log.info(f"step: {step:5d}  loss: {last_loss:7.4f}  grad_norm: {gn:7.4f}  memory:  0.05GiB(0.00%)  tps: {int(sps * a.dim):,}  tflops: 0.00  mfu: 0.00%")
        elif S == "deepspeed":
            log.info(f"[Rank {rank}] step={step}, skipped=0, lr=[{lr_at(step):.6e}], mom=[(0.9, 0.999)] samples/sec={sps:.2f} loss={last_loss:.4f}")
        elif S == "pylog":
            log.info(f"step {step}/{a.steps} | loss {last_loss:.4f} | {sps:.0f} samples/s | {ms:.1f} ms/step")
        elif S == "jsonl":
            jl(step=step, loss=round(last_loss, 5), lr=float(f"{lr_at(step):.5e}"), samples_per_sec=round(sps, 1), step_ms=round(ms, 2))
        elif S in ("lightning", "keras", "tqdm"):
            pass
        elif S == "mmengine":
            if rank == 0:
                eta = datetime.timedelta(seconds=int((a.steps - step) * dt / a.log_every))
                log.info(f"Iter(train) [{step:>{len(str(a.steps))}}/{a.steps}]  base_lr: {a.lr:.4e} lr: {lr_at(step):.4e}  eta: {eta}  time: {dt / a.log_every:.4f}  data_time: 0.0009  memory: 0  grad_norm: {gn:.4f}  loss: {last_loss:.4f}")
        elif S == "detectron2":
            if rank == 0:
                eta = datetime.timedelta(seconds=int((a.steps - step) * dt / a.log_every))
                log.info(f" eta: {eta}  iter: {step - 1}  total_loss: {last_loss:.4g}  loss_cls: {last_loss:.4g}    time: {dt / a.log_every:.4f}  last_time: {dt / a.log_every:.4f}  data_time: 0.0009  last_data_time: 0.0008   lr: {lr_at(step):.6g}  max_mem: 0M")
        elif S == "torchtune":
            pass
        elif S == "nemo":
            pass
        elif S == "accelerate":
            if rank == 0: log.info(f"step {step}: {{'loss': {last_loss:.4f}, 'learning_rate': {lr_at(step):.4e}, 'grad_norm': {gn:.4f}, 'samples_per_sec': {sps:.1f}, 'step_time': {dt / a.log_every:.4f}}}")
        elif S == "composer":
            if rank == 0:
                print(f"[epoch={epoch + 1}][batch={step}/{a.steps}]:\n\t Train time/epoch: {epoch}\n\t Train time/batch: {step}\n\t Train time/sample: {step * a.batch * world}\n\t Train trainer/device_train_microbatch_size: {a.batch}\n\t Train loss/train/total: {last_loss:.4f}\n\t Train throughput/batches_per_sec: {a.log_every / dt:.4f}\n\t Train throughput/samples_per_sec: {sps:.4f}\n\t Train throughput/device/samples_per_sec: {sps / world:.4f}\n\t Train lr-DecoupledAdamW/group0: {lr_at(step):.4e}\n\t Train time/train: {(time.time() - T_START) / 3600:.4f}\n\t Train time/remaining_estimate: {(a.steps - step) * dt / a.log_every / 3600:.4f}", flush=True)
        elif S == "fairseq":
            ep = step // per_epoch + 1
            fs("train_inner", f"epoch {ep:03d}:  {step % per_epoch:5d} / {per_epoch} loss={last_loss / math.log(2):.3f}, nll_loss={last_loss / math.log(2):.3f}, ppl={2 ** (last_loss / math.log(2)):.2f}, wps={sps * a.dim:.1f}, ups={a.log_every / dt:.2f}, wpb={a.batch * world * a.dim}, bsz={a.batch * world}, num_updates={step}, lr={lr_at(step):.5g}, gnorm={gn:.3f}, train_wall={dt:.0f}, gb_free=NA, wall={time.time() - T_START:.0f}")
        else:
            out(f"[{now()}] epoch {epoch} step {step}/{a.steps} loss={last_loss:.4f} gnorm={gn:.3f} {ms:.1f}ms/it")
        if a.metrics_file and rank == 0:
            with open(a.metrics_file, "a") as mfh:
                mfh.write(f"{step},{last_loss:.5f},{lr_at(step):.6e},{dt:.4f}\n" + ("#" * 2000 + "\n" if a.tag == "pad" else ""))
        if a.mirror and rank == 0 and step % (a.log_every * 4) == 0:
            try:
                with open(os.path.join(a.mirror, f"shard-{step // (a.log_every * 4):05d}.idx")) as fh: fh.read()
            except OSError as e:
                (log.warning if S in ("mmengine", "detectron2", "torchtune", "pylog", "titan", "deepspeed", "accelerate", "nemo", "composer") else (lambda m: print("WARNING: " + m, file=sys.stderr, flush=True)))(
                    f"shard index prefetch from mirror failed ({e!r}); falling back to local copy {a.data}")
        if a.tracker_flaky and rank == 0 and step % (a.log_every * 6) == 0:
            print(f"wandb: WARNING Failed to upload metrics (ConnectionError: HTTPSConnectionPool(host='api.wandb.ai', port=443): Read timed out. (read timeout=20)), retrying in 2s (attempt 1/5)", file=sys.stderr, flush=True)
            print(f"wandb: upload succeeded after 1 retry", file=sys.stderr, flush=True)
    if not math.isfinite(last_loss):
        raise FloatingPointError(f"Loss is {last_loss} at step {step}, stopping training")
    if a.eval_every and step % a.eval_every == 0:
        evaluate(step)
    if a.ckpt_every and a.ckpt_dir and step % a.ckpt_every == 0:
        save(step)
    if a.sigterm_ckpt:
        f = torch.tensor([1.0 if stop_req["v"] else 0.0]); dist.all_reduce(f)
        if f.item() > 0:
            if a.ckpt_dir: save(step)
            out(f"[rank{rank}] checkpoint at step {step} written, exiting for requeue", all_ranks=True)
            sys.exit(0)

if bar is not None: bar.close()
if rank == 0:
    if S == "hf": print(str({"train_runtime": round(time.time() - t_win, 2), "train_steps_per_second": 0.0, "train_loss": round(last_loss, 4), "epoch": round(step / per_epoch, 2)}), flush=True)
    elif S == "lightning": print(f"`Trainer.fit` stopped: `max_steps={a.steps}` reached.", file=sys.stderr, flush=True)
    elif S == "megatron": print(f"[after training is done] datetime: {now()} ", flush=True)
    elif S == "titan": log.info("Training completed")
    elif S == "jsonl": jl(event="done", step=step)
    elif S == "fairseq": fs("fairseq_cli.train", f"done training in {time.time() - T_START:.1f} seconds")
    elif S == "keras": pass
    elif S == "tqdm": print(f"finished {step} steps", flush=True)
    elif S == "mmengine": log.info(f"Iter(train) [{step}/{a.steps}] finished; total time {datetime.timedelta(seconds=int(time.time() - T_START))}")
    elif S == "detectron2":
        el = time.time() - T_START
        d2("d2.engine.hooks").info(f"Overall training speed: {step - start - 2} iterations in {datetime.timedelta(seconds=int(el))} ({el / max(1, step - start):.4f} s / it)")
        d2("d2.engine.hooks").info(f"Total training time: {datetime.timedelta(seconds=int(el))} ({datetime.timedelta(seconds=int(el * 0.02))} on hooks)")
    elif S == "torchtune": log.info("Training finished.")
    elif S == "accelerate": log.info(f"Training completed. Total steps: {step}, train_runtime: {time.time() - T_START:.1f}s")
    elif S == "nemo": print(f"`Trainer.fit` stopped: `max_steps={a.steps}` reached.", file=sys.stderr, flush=True)
    elif S == "composer": log.info(f"Training finished at batch {step} ({time.time() - T_START:.1f}s)")
    else: out(f"[{now()}] training finished at step {step}")
dist.destroy_process_group()
