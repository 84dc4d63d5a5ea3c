"""Tiny Hugging Face ``Trainer`` run that saves, resumes and (optionally) dies mid-save.

Builds a 2-layer GPT-2 from a config (no downloads) and trains it on random token ids,
so the checkpoint lines in the log come from the real Trainer code.

Run (from the repo root, with the framework venv, output captured like a Slurm job log)::

    PYTHONUNBUFFERED=1 /work/fwenv/bin/python tests/corpus/tools/frameworks/hf_trainer_run.py \\
        --out /tmp/hf --max-steps 45 --save-steps 10 --log-level info > hf.log 2>&1

Options: ``--resume PATH`` resumes from a checkpoint folder; ``--kill-at-save N`` SIGKILLs
the process from inside the save of ``checkpoint-N`` (after the model weights are written,
while ``optimizer.pt`` is being written), i.e. a save that started and never completed;
``--save-model DIR`` calls ``Trainer.save_model(DIR)`` after training.
"""

from __future__ import annotations

import argparse
import os
import signal

import torch
from torch.utils.data import Dataset
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments


class RandomTokens(Dataset):
    """Random token ids; labels are the inputs (causal LM)."""

    def __init__(self, n: int, seq_len: int, vocab: int, seed: int = 0) -> None:
        g = torch.Generator().manual_seed(seed)
        self.data = torch.randint(0, vocab, (n, seq_len), generator=g)

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i: int) -> dict[str, torch.Tensor]:
        return {"input_ids": self.data[i], "labels": self.data[i]}


def install_kill_hook(step: int) -> None:
    """SIGKILL this process when the Trainer writes optimizer.pt of checkpoint-<step>."""
    real_save = torch.save

    def save(obj: object, f: object, *args: object, **kwargs: object) -> None:
        if isinstance(f, str) and f.endswith(os.path.join(f"checkpoint-{step}", "optimizer.pt")):
            os.kill(os.getpid(), signal.SIGKILL)
        real_save(obj, f, *args, **kwargs)  # type: ignore[arg-type]

    torch.save = save  # type: ignore[assignment]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--max-steps", type=int, default=45)
    p.add_argument("--save-steps", type=int, default=10)
    p.add_argument("--logging-steps", type=int, default=5)
    p.add_argument("--log-level", default="passive", help="TrainingArguments.log_level")
    p.add_argument("--resume", default=None, help="checkpoint folder to resume from")
    p.add_argument("--kill-at-save", type=int, default=None)
    p.add_argument("--save-model", default=None)
    a = p.parse_args()

    torch.manual_seed(0)
    cfg = GPT2Config(
        vocab_size=256,
        n_positions=64,
        n_embd=64,
        n_layer=2,
        n_head=2,
        bos_token_id=0,
        eos_token_id=0,
    )
    model = GPT2LMHeadModel(cfg)
    args = TrainingArguments(
        output_dir=a.out,
        max_steps=a.max_steps,
        per_device_train_batch_size=4,
        learning_rate=1e-3,
        save_strategy="steps",
        save_steps=a.save_steps,
        logging_steps=a.logging_steps,
        log_level=a.log_level,
        report_to="none",
        use_cpu=not torch.cuda.is_available(),
        dataloader_num_workers=0,
        seed=0,
    )
    if a.kill_at_save is not None:
        install_kill_hook(a.kill_at_save)
    trainer = Trainer(model=model, args=args, train_dataset=RandomTokens(400, 32, cfg.vocab_size))
    trainer.train(resume_from_checkpoint=a.resume)
    if a.save_model:
        trainer.save_model(a.save_model)


if __name__ == "__main__":
    main()
