"""HF Trainer on a GPT-2 built from a config (no downloads), synthetic token dataset."""
import argparse, os
import numpy as np, torch
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments

p = argparse.ArgumentParser()
p.add_argument("--out", required=True)
p.add_argument("--max-steps", type=int, default=200)
p.add_argument("--n-embd", type=int, default=64)
p.add_argument("--n-layer", type=int, default=2)
p.add_argument("--save-steps", type=int, default=50)
p.add_argument("--resume", default=None)
p.add_argument("--data", default="/work/lab11b/tokens.bin")
p.add_argument("--log-level", default="info")
a = p.parse_args()

class DS(torch.utils.data.Dataset):
    def __init__(s, path, seq=64, n=100000):
        s.path, s.seq, s.n = path, seq, n
    def __len__(s): return s.n
    def __getitem__(s, i):
        d = np.memmap(s.path, dtype=np.uint16, mode="r")
        o = (i * 7919) % (len(d) - s.seq)
        x = torch.from_numpy(d[o:o + s.seq].astype(np.int64))
        return {"input_ids": x, "labels": x.clone()}

cfg = GPT2Config(vocab_size=512, n_positions=64, n_embd=a.n_embd, n_layer=a.n_layer, n_head=4)
model = GPT2LMHeadModel(cfg)
args = TrainingArguments(output_dir=a.out, max_steps=a.max_steps, per_device_train_batch_size=8,
                         learning_rate=1e-3, warmup_steps=10, logging_steps=10, save_steps=a.save_steps,
                         report_to=[], log_level=a.log_level, disable_tqdm=True, use_cpu=True,
                         dataloader_num_workers=0, save_total_limit=3)
tr = Trainer(model=model, args=args, train_dataset=DS(a.data))
tr.train(resume_from_checkpoint=a.resume)
