"""GPT-2 (from config, no download) trained with HF Trainer on CPU/gloo (torchrun). disable_tqdm, so the Trainer's
PrinterCallback prints the log dicts; dataloader_num_workers workers feed long random-token batches."""
import argparse, torch
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=300); p.add_argument("--seq", type=int, default=512)
p.add_argument("--batch", type=int, default=16); p.add_argument("--workers", type=int, default=2)
p.add_argument("--out", default="out")
a = p.parse_args()

class DS(torch.utils.data.Dataset):
    def __len__(s): return 100000
    def __getitem__(s, i):
        g = torch.Generator().manual_seed(i); t = torch.randint(0, 1000, (a.seq,), generator=g)
        return {"input_ids": t, "attention_mask": torch.ones_like(t), "labels": t.clone()}

cfg = GPT2Config(vocab_size=1000, n_positions=a.seq, n_embd=64, n_layer=2, n_head=2)
model = GPT2LMHeadModel(cfg)
args = TrainingArguments(output_dir=a.out, max_steps=a.steps, per_device_train_batch_size=a.batch, logging_steps=10,
                         save_steps=100, learning_rate=5e-4, warmup_steps=20, report_to=[], disable_tqdm=True,
                         dataloader_num_workers=a.workers, use_cpu=True, ddp_backend="gloo", seed=0)
Trainer(model=model, args=args, train_dataset=DS()).train()
