# Tiny GPT-2 (from config, no download) trained with HF Trainer on random tokens, DDP on gloo/CPU.
# disable_tqdm -> PrinterCallback prints the log dicts; a callback adds a windowed samples/s and step time to each dict.
# Fault options off by default: --block-at/--block-rank (rank sleeps forever in on_step_begin), --resume.
import argparse, os, time, datetime
for k_src, k_dst in (("SLURM_PROCID", "RANK"), ("SLURM_NTASKS", "WORLD_SIZE"), ("SLURM_LOCALID", "LOCAL_RANK")):
    if k_dst not in os.environ and k_src in os.environ:
        os.environ[k_dst] = os.environ[k_src]
import torch
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments, TrainerCallback

p = argparse.ArgumentParser()
p.add_argument("--out", default="hf_out")
p.add_argument("--steps", type=int, default=200)
p.add_argument("--log-steps", type=int, default=10)
p.add_argument("--save-steps", type=int, default=0)
p.add_argument("--n-embd", type=int, default=128)
p.add_argument("--ddp-timeout", type=int, default=1800)
p.add_argument("--block-at", type=int, default=-1)
p.add_argument("--block-rank", type=int, default=1)
p.add_argument("--resume", action="store_true")
p.add_argument("--tqdm", action="store_true")
a = p.parse_args()

class DS(torch.utils.data.Dataset):
    def __init__(self, n=100000, seq=64):
        g = torch.Generator().manual_seed(0)
        self.base = torch.randint(0, 1000, (8192,), generator=g); self.n = n; self.seq = seq
    def __len__(self): return self.n
    def __getitem__(self, i):
        o = (i * 37) % (8192 - self.seq)
        x = self.base[o:o + self.seq]
        return {"input_ids": x, "labels": x}

class Throughput(TrainerCallback):
    def __init__(self): self.t = time.time(); self.s = 0
    def on_step_begin(self, args, state, control, **kw):
        if state.global_step + 1 == a.block_at and args.process_index == a.block_rank:
            while True:
                time.sleep(5)
    def on_log(self, args, state, control, logs=None, **kw):
        if logs is not None and "loss" in logs:
            now = time.time(); n = state.global_step - self.s
            if n > 0:
                logs["samples_per_second"] = round(n * args.train_batch_size * args.world_size / (now - self.t), 2)
                logs["step_time_ms"] = round((now - self.t) / n * 1000, 1)
            self.t = now; self.s = state.global_step

cfg = GPT2Config(vocab_size=1000, n_positions=64, n_embd=a.n_embd, n_layer=2, n_head=4)
model = GPT2LMHeadModel(cfg)
args = TrainingArguments(output_dir=a.out, max_steps=a.steps, per_device_train_batch_size=8, learning_rate=1e-3,
                         logging_steps=a.log_steps, save_strategy="steps" if a.save_steps else "no", save_steps=a.save_steps or 500,
                         report_to=[], disable_tqdm=not a.tqdm, use_cpu=True, ddp_backend="gloo", ddp_timeout=a.ddp_timeout,
                         dataloader_num_workers=0, seed=0, warmup_steps=20)
tr = Trainer(model=model, args=args, train_dataset=DS(), callbacks=[Throughput()])
tr.train(resume_from_checkpoint=True if a.resume and os.path.isdir(a.out) and any(d.startswith("checkpoint-") for d in os.listdir(a.out)) else None)
