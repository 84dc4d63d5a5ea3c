"""Hugging Face ``Trainer`` on 2 CPU ranks (DDP, gloo) with an optional injected slow rank.

A 2-layer GPT-2 made from a config (no downloads) trains on random token ids. What the log
shows comes from the Trainer: tqdm's ``it/s`` bar, the ``logging_steps`` dicts (with
``--tokens-seen``: ``num_input_tokens_seen``, ``train_runtime`` and ``train_tokens_per_second``,
the cumulative token rate since the start), eval dicts (``--eval-steps``), checkpoint saves
(``--save-steps``) and the final ``train_samples_per_second`` summary.

The slow rank is a ``TrainerCallback`` whose ``on_step_begin`` calls ``slowrank.Injector``
(SLOW_RANK / SLOW_FROM / SLOW_S / PAUSES, see slowrank.py) with the step about to run. Run::

    SLOW_RANK=1 SLOW_FROM=120 SLOW_S=0.1 torchrun --nproc-per-node 2 \\
        tests/corpus/tools/stragglers/hf_trainer_run.py --out /tmp/hf --max-steps 300 --tokens-seen
"""

from __future__ import annotations

import argparse

import torch
from slowrank import Injector
from torch.utils.data import Dataset
from transformers import (
    GPT2Config,
    GPT2LMHeadModel,
    Trainer,
    TrainerCallback,
    TrainingArguments,
)


class RandomTokens(Dataset):
    def __init__(self, n: int, seq_len: int, vocab: int, seed: int) -> None:
        g = torch.Generator().manual_seed(seed)
        self.data = torch.randint(0, vocab, (n, seq_len), generator=g)

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i: int) -> dict[str, torch.Tensor]:
        return {"input_ids": self.data[i], "labels": self.data[i]}


class SlowRankCallback(TrainerCallback):
    def __init__(self) -> None:
        self.inj = Injector()

    def on_step_begin(self, args, state, control, **kwargs):  # type: ignore[no-untyped-def]
        self.inj.at_step(state.global_step + 1)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--max-steps", type=int, default=300)
    p.add_argument("--logging-steps", type=int, default=10)
    p.add_argument("--eval-steps", type=int, default=0)
    p.add_argument("--save-steps", type=int, default=0)
    p.add_argument("--tokens-seen", action="store_true", help="include_num_input_tokens_seen")
    p.add_argument("--log-level", default="passive")
    p.add_argument("--disable-tqdm", action="store_true")
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--seq", type=int, default=64)
    p.add_argument("--n-embd", type=int, default=128)
    a = p.parse_args()

    torch.set_num_threads(1)
    cfg = GPT2Config(
        vocab_size=512,
        n_positions=a.seq,
        n_embd=a.n_embd,
        n_layer=2,
        n_head=4,
        bos_token_id=0,
        eos_token_id=0,
    )
    torch.manual_seed(0)
    model = GPT2LMHeadModel(cfg)
    args = TrainingArguments(
        output_dir=a.out,
        max_steps=a.max_steps,
        per_device_train_batch_size=a.batch,
        per_device_eval_batch_size=a.batch,
        learning_rate=5e-4,
        logging_steps=a.logging_steps,
        eval_strategy="steps" if a.eval_steps else "no",
        eval_steps=a.eval_steps or None,
        save_strategy="steps" if a.save_steps else "no",
        save_steps=a.save_steps or 500,
        include_num_input_tokens_seen=a.tokens_seen,
        log_level=a.log_level,
        disable_tqdm=a.disable_tqdm,
        report_to="none",
        use_cpu=True,
        ddp_backend="gloo",
        dataloader_num_workers=0,
        seed=0,
    )
    trainer = Trainer(
        model=model,
        args=args,
        train_dataset=RandomTokens(a.batch * 2 * a.max_steps, a.seq, cfg.vocab_size, 0),
        eval_dataset=RandomTokens(a.batch * 2 * 8, a.seq, cfg.vocab_size, 1)
        if a.eval_steps
        else None,
        callbacks=[SlowRankCallback()],
    )
    trainer.train()
    if torch.distributed.is_initialized():  # a clean exit (see README: hf_trainer_gen_3)
        torch.distributed.destroy_process_group()


if __name__ == "__main__":
    main()
