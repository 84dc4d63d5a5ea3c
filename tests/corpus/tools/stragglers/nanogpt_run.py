"""Run karpathy/nanoGPT's unmodified ``train.py`` on CPU ranks (DDP, gloo) with a slow rank.

nanoGPT is not vendored: ``--nanogpt DIR`` is a checkout holding ``train.py``, ``model.py`` and
``configurator.py`` (commit 3adf61e154c3fe3fca428ad6bc3818b27a3b8291 was used). This wrapper

* writes a synthetic token stream (a seeded noisy bigram chain, so the loss falls) as
  ``data/<dataset>/{train,val}.bin`` + ``meta.pkl`` under ``--workdir`` and runs there;
* makes DDP work on CPU without touching the logic: in the source text of train.py it drops the
  two lines that pin ``cuda:<local_rank>`` (``device = f'cuda:...'``, ``torch.cuda.set_device``)
  and passes no ``device_ids`` to DDP when ``--device=cpu`` (the file on disk is not changed);
  with ``--one-gpu`` every rank uses ``cuda:0`` instead (two ranks sharing one GPU over gloo);
* rescales ``GPT.estimate_mfu`` from the A100 peak (312 TFLOP/s) to ``--peak-flops`` (the
  achieved FLOP/s of the model is nanoGPT's own estimate; only the denominator changes, so on
  CPU the ``mfu`` column reads like a GPU run instead of 0.00%; the default leaves it as is);
* wraps ``GPT.forward`` so that, in training mode, ``slowrank.Injector`` (SLOW_RANK / SLOW_FROM
  / SLOW_S / PAUSES) runs once per iteration (with one micro-step per rank per iteration).

Everything else (the ``iter N: loss X, time Yms, mfu Z%`` lines, evals, checkpoint saves) is
nanoGPT's own output. Run::

    SLOW_RANK=1 SLOW_FROM=100 SLOW_S=0.1 torchrun --nproc-per-node 2 \\
        tests/corpus/tools/stragglers/nanogpt_run.py --nanogpt /tmp/nanogpt --workdir /tmp/ng \\
        --device=cpu --backend=gloo --compile=False --dataset=synth ...
"""

from __future__ import annotations

import argparse
import os
import pickle
import shutil
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def write_data(root: str, vocab: int, n_train: int, n_val: int) -> None:
    os.makedirs(root, exist_ok=True)
    rng = np.random.default_rng(1234)
    nxt = rng.integers(0, vocab, size=(vocab, 4))  # each token has 4 likely successors
    for name, n in (("train", n_train), ("val", n_val)):
        out = np.empty(n, dtype=np.uint16)
        t = 0
        for i in range(n):
            t = int(rng.integers(0, vocab)) if rng.random() < 0.1 else int(nxt[t, rng.integers(4)])
            out[i] = t
        out.tofile(os.path.join(root, f"{name}.bin"))
    with open(os.path.join(root, "meta.pkl"), "wb") as f:
        pickle.dump({"vocab_size": vocab}, f)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nanogpt", required=True, help="checkout with train.py, model.py")
    p.add_argument("--workdir", required=True)
    p.add_argument("--vocab", type=int, default=256)
    p.add_argument("--peak-flops", type=float, default=312e12)
    p.add_argument("--one-gpu", action="store_true", help="all ranks share cuda:0 (gloo)")
    a, rest = p.parse_known_args()
    rank = int(os.environ.get("RANK", "0"))
    dataset = next((x.split("=", 1)[1] for x in rest if x.startswith("--dataset=")), "synth")
    data_dir = os.path.join(a.workdir, "data", dataset)
    if rank == 0 and not os.path.exists(os.path.join(data_dir, "meta.pkl")):
        os.makedirs(a.workdir, exist_ok=True)
        shutil.copy(os.path.join(a.nanogpt, "configurator.py"), a.workdir)
        write_data(data_dir, a.vocab, 400_000, 40_000)  # meta.pkl last: the others wait for it
    while not os.path.exists(os.path.join(data_dir, "meta.pkl")):  # other ranks: wait for rank 0
        import time

        time.sleep(0.2)
    os.chdir(a.workdir)
    sys.path.insert(0, a.nanogpt)
    sys.path.insert(0, HERE)
    import model  # nanoGPT's model.py
    from slowrank import Injector

    inj = Injector(rank)
    counter = [0]
    orig_forward = model.GPT.forward
    orig_mfu = model.GPT.estimate_mfu

    def forward(self, idx, targets=None):  # type: ignore[no-untyped-def]
        if self.training:
            inj.at_step(counter[0])
            counter[0] += 1
        return orig_forward(self, idx, targets)

    def estimate_mfu(self, fwdbwd_per_iter, dt):  # type: ignore[no-untyped-def]
        return orig_mfu(self, fwdbwd_per_iter, dt) * 312e12 / a.peak_flops

    model.GPT.forward = forward
    model.GPT.estimate_mfu = estimate_mfu

    path = os.path.join(a.nanogpt, "train.py")
    with open(path, encoding="utf-8") as f:
        src = f.read()
    if "--device=cpu" in rest:
        src = src.replace("    device = f'cuda:{ddp_local_rank}'\n", "")
        src = src.replace("    torch.cuda.set_device(device)\n", "")
        src = src.replace("DDP(model, device_ids=[ddp_local_rank])", "DDP(model)")
    elif a.one_gpu:  # every rank on cuda:0 (gloo allows that, NCCL does not)
        src = src.replace("f'cuda:{ddp_local_rank}'", "'cuda:0'")
        src = src.replace("DDP(model, device_ids=[ddp_local_rank])", "DDP(model, device_ids=[0])")
    sys.argv = [path, *rest]
    exec(compile(src, path, "exec"), {"__name__": "__main__", "__file__": path})


if __name__ == "__main__":
    main()
