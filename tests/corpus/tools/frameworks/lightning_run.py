"""Tiny PyTorch Lightning run that saves, resumes and (optionally) dies mid-save.

A small MLP regression on random data (no downloads), checkpointed by ``ModelCheckpoint``.

Run (from the repo root, with the framework venv, output captured like a Slurm job log)::

    PYTHONUNBUFFERED=1 /work/fwenv/bin/python tests/corpus/tools/frameworks/lightning_run.py \\
        --out /tmp/pl --max-steps 45 --every 10 --monitor --verbose > pl.log 2>&1

Options: ``--monitor`` makes ModelCheckpoint monitor ``train_loss`` (only then does
``--verbose`` print a line per save); ``--default-callback`` uses the Trainer's own default
ModelCheckpoint (end of every epoch, silent) instead; ``--progress none`` sets
``enable_progress_bar=False``, ``--progress tqdm`` forces ``TQDMProgressBar`` (the default bar is
``RichProgressBar`` when ``rich`` is installed, as here, else ``TQDMProgressBar``);
``--ckpt-path P`` resumes from a checkpoint file;
``--kill-at-save N`` SIGKILLs the process from inside the checkpoint write of global step N.
"""

from __future__ import annotations

import argparse
import os
import signal
from typing import Any

import lightning as L
import torch
from lightning.pytorch.callbacks import Callback, ModelCheckpoint, TQDMProgressBar
from lightning.pytorch.plugins.io import TorchCheckpointIO
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Regressor(L.LightningModule):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))

    def training_step(
        self, batch: tuple[torch.Tensor, torch.Tensor], batch_idx: int
    ) -> torch.Tensor:
        x, y = batch
        loss = nn.functional.mse_loss(self.net(x), y)
        self.log("train_loss", loss, on_step=True, prog_bar=True)
        return loss

    def configure_optimizers(self) -> torch.optim.Optimizer:
        return torch.optim.Adam(self.parameters(), lr=1e-2)


class KillingCheckpointIO(TorchCheckpointIO):
    """Checkpoint IO that SIGKILLs the process when asked to write the checkpoint of one step."""

    def __init__(self, step: int) -> None:
        super().__init__()
        self.step = step

    def save_checkpoint(
        self, checkpoint: dict[str, Any], path: Any, storage_options: Any = None
    ) -> None:
        if checkpoint.get("global_step") == self.step:
            os.kill(os.getpid(), signal.SIGKILL)
        super().save_checkpoint(checkpoint, path, storage_options)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--max-steps", type=int, default=45)
    p.add_argument("--max-epochs", type=int, default=None)
    p.add_argument("--batches", type=int, default=100, help="batches per epoch")
    p.add_argument("--every", type=int, default=10, help="every_n_train_steps")
    p.add_argument("--monitor", action="store_true")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--default-callback", action="store_true")
    p.add_argument("--progress", choices=["default", "tqdm", "none"], default="default")
    p.add_argument("--ckpt-path", default=None)
    p.add_argument("--kill-at-save", type=int, default=None)
    a = p.parse_args()

    L.seed_everything(0)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(a.batches * 8, 16, generator=g)
    y = x.sum(dim=1, keepdim=True)
    data = DataLoader(TensorDataset(x, y), batch_size=8)

    callbacks: list[Callback] = [TQDMProgressBar()] if a.progress == "tqdm" else []
    if not a.default_callback:
        callbacks.append(
            ModelCheckpoint(
                dirpath=os.path.join(a.out, "checkpoints"),
                filename="{epoch}-{step}",
                every_n_train_steps=a.every,
                save_top_k=-1,
                monitor="train_loss" if a.monitor else None,
                verbose=a.verbose,
            )
        )
    plugins = [KillingCheckpointIO(a.kill_at_save)] if a.kill_at_save is not None else None
    trainer = L.Trainer(
        default_root_dir=a.out,
        accelerator="cpu",
        devices=1,
        max_steps=a.max_steps,
        max_epochs=a.max_epochs,
        callbacks=callbacks,
        enable_progress_bar=a.progress != "none",
        logger=False,
        log_every_n_steps=5,
        plugins=plugins,
    )
    trainer.fit(Regressor(), data, ckpt_path=a.ckpt_path)


if __name__ == "__main__":
    main()
