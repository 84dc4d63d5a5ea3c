"""GPT-2 (from config, no download) fine-tuned with HF Trainer on CPU/gloo (torchrun), tqdm progress bars on (the
Trainer's default), evaluation and checkpoint every --eval-steps with a compute_metrics that reports perplexity and
token accuracy; --best-metric sets metric_for_best_model with load_best_model_at_end."""
import argparse, math, numpy as np, torch
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=400); p.add_argument("--seq", type=int, default=128)
p.add_argument("--batch", type=int, default=8); p.add_argument("--eval-steps", type=int, default=100)
p.add_argument("--best-metric", default=""); p.add_argument("--out", default="out")
a = p.parse_args()

class DS(torch.utils.data.Dataset):
    def __init__(s, n, off): s.n, s.off = n, off
    def __len__(s): return s.n
    def __getitem__(s, i):
        g = torch.Generator().manual_seed(s.off + i); t = torch.randint(0, 1000, (a.seq,), generator=g)
        t[1::2] = (t[0::2] * 7 + 3) % 1000
        return {"input_ids": t, "attention_mask": torch.ones_like(t), "labels": t.clone()}

def preprocess_logits(logits, labels): return logits.argmax(-1)
def compute_metrics(ev):
    preds, labels = ev.predictions[:, :-1], ev.label_ids[:, 1:]
    return {"token_acc": float((preds == labels).mean())}

cfg = GPT2Config(vocab_size=1000, n_positions=a.seq, n_embd=64, n_layer=2, n_head=2)
model = GPT2LMHeadModel(cfg)
kw = dict(metric_for_best_model=a.best_metric, load_best_model_at_end=True, greater_is_better=True) if a.best_metric else {}
args = TrainingArguments(output_dir=a.out, max_steps=a.steps, per_device_train_batch_size=a.batch, per_device_eval_batch_size=a.batch,
                         logging_steps=20, eval_strategy="steps", eval_steps=a.eval_steps, save_strategy="steps", save_steps=a.eval_steps,
                         learning_rate=5e-4, warmup_steps=20, report_to=[], use_cpu=True, ddp_backend="gloo", seed=0, **kw)
tr = Trainer(model=model, args=args, train_dataset=DS(20000, 0), eval_dataset=DS(64, 10**6), compute_metrics=compute_metrics,
             preprocess_logits_for_metrics=preprocess_logits)
tr.train()
