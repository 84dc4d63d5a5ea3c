"""Lightning ``Trainer`` on 2 CPU processes (strategy ddp, gloo) with an optional slow rank.

A small MLP classifier on random data made in the script. Lightning launches the second
process itself (``devices=2``). What the log shows comes from Lightning: its startup lines,
the model summary, the TQDM progress bar (``it/s``, ``loss`` logged with ``prog_bar=True``),
validation bars (``--val-every``); checkpoint saves (``--ckpt-every``) print nothing.

The slow rank is a callback whose ``on_train_batch_start`` calls ``slowrank.Injector`` with
the step about to run (SLOW_RANK / SLOW_FROM / SLOW_S / PAUSES, see slowrank.py). Run::

    SLOW_RANK=1 SLOW_FROM=150 SLOW_S=0.05 python tests/corpus/tools/stragglers/lightning_run.py \\
        --out /tmp/pl --max-steps 400
"""

from __future__ import annotations

import argparse

import lightning as L
import torch
from lightning.pytorch.callbacks import ModelCheckpoint, TQDMProgressBar
from lightning.pytorch.strategies import DDPStrategy
from slowrank import Injector
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Net(L.LightningModule):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(64, width),
            nn.ReLU(),
            nn.Linear(width, width),
            nn.ReLU(),
            nn.Linear(width, 10),
        )

    def training_step(self, batch, batch_idx):  # type: ignore[no-untyped-def]
        x, y = batch
        loss = nn.functional.cross_entropy(self.net(x), y)
        self.log("loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):  # type: ignore[no-untyped-def]
        x, y = batch
        self.log(
            "val_loss", nn.functional.cross_entropy(self.net(x), y), prog_bar=True, sync_dist=True
        )

    def configure_optimizers(self):  # type: ignore[no-untyped-def]
        return torch.optim.Adam(self.parameters(), lr=1e-3)


class StepTimer(L.Callback):
    """Applies slowrank.Injector at the start of every training batch."""

    def __init__(self) -> None:
        self.inj: Injector | None = None

    def on_train_batch_start(self, trainer, pl_module, batch, batch_idx):  # type: ignore[no-untyped-def]
        if self.inj is None:
            self.inj = Injector(trainer.global_rank)
        self.inj.at_step(trainer.global_step + 1)


def data(n: int, seed: int) -> TensorDataset:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 64, generator=g)
    return TensorDataset(x, (x[:, :10].argmax(dim=1)))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--max-steps", type=int, default=400)
    p.add_argument("--batches", type=int, default=100, help="training batches per epoch")
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--width", type=int, default=512)
    p.add_argument("--val-every", type=int, default=0, help="val_check_interval in batches")
    p.add_argument("--ckpt-every", type=int, default=0)
    p.add_argument("--refresh", type=int, default=1, help="TQDMProgressBar refresh_rate")
    a = p.parse_args()

    torch.set_num_threads(1)
    L.seed_everything(0)
    callbacks: list[L.Callback] = [TQDMProgressBar(refresh_rate=a.refresh), StepTimer()]
    if a.ckpt_every:
        callbacks.append(
            ModelCheckpoint(
                dirpath=f"{a.out}/checkpoints",
                every_n_train_steps=a.ckpt_every,
                save_top_k=-1,
                verbose=True,
            )
        )
    trainer = L.Trainer(
        accelerator="cpu",
        devices=2,
        strategy=DDPStrategy(process_group_backend="gloo"),
        max_steps=a.max_steps,
        max_epochs=-1,
        default_root_dir=a.out,
        callbacks=callbacks,
        enable_checkpointing=bool(a.ckpt_every),
        val_check_interval=a.val_every or None,
        limit_val_batches=10 if a.val_every else 0,
        num_sanity_val_steps=0,
        log_every_n_steps=10,
    )
    train = DataLoader(data(a.batches * a.batch * 2, 0), batch_size=a.batch, shuffle=True)
    val = DataLoader(data(20 * a.batch, 1), batch_size=a.batch)
    trainer.fit(Net(a.width), train, val if a.val_every else None)


if __name__ == "__main__":
    main()
