#!/usr/bin/env python3
"""t23: tiny next-token LM trained with DDP on gloo (CPU), three log styles:
  mega  - Megatron-LM-like: '> ...' setup lines, ' [time] iteration N/ M | consumed samples: ... | elapsed time per
          iteration (ms): ... | lm loss: ... |' from the last rank, 'saving checkpoint at iteration ...'
  hf    - HF-Trainer-like: '***** Running training *****' header, python-dict metric lines
          {'loss': .., 'grad_norm': .., 'learning_rate': .., 'epoch': ..}, 'Saving model checkpoint to ...'
  fseq  - fairseq-like: 'YYYY-mm-dd HH:MM:SS | INFO | fairseq.trainer | ...', train_inner lines
          'epoch 001:    50 / 200 loss=.., ppl=.., wps=.., ups=.., wpb=.., bsz=.., num_updates=.., lr=.., gnorm=..,
          train_wall=.., wall=..'
Data: uint16 token file read with os.pread in contiguous per-rank chunks (token 0 = pad, masked out of the loss).
"""
import argparse, datetime, json, math, os, socket, sys, time
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument('--fmt', default='mega', choices=['mega', 'hf', 'fseq'])
p.add_argument('--data', required=True)
p.add_argument('--steps', type=int, default=1000)
p.add_argument('--epoch-steps', type=int, default=250)
p.add_argument('--log-every', type=int, default=20)
p.add_argument('--batch', type=int, default=32)
p.add_argument('--ctx', type=int, default=16)
p.add_argument('--vocab', type=int, default=4096)
p.add_argument('--hidden', type=int, default=384)
p.add_argument('--lr', type=float, default=3e-4)
p.add_argument('--warmup', type=int, default=50)
p.add_argument('--ckpt-dir', default='')
p.add_argument('--ckpt-every', type=int, default=0)
p.add_argument('--resume', action='store_true')
p.add_argument('--eval-every', type=int, default=0)
p.add_argument('--eval-batches', type=int, default=50)
p.add_argument('--master', default='')
p.add_argument('--pg-timeout', type=int, default=1800)
p.add_argument('--cache-dir', default='', help='write a per-rank preprocessed window cache every epoch')
p.add_argument('--cache-mb', type=int, default=40)
p.add_argument('--barrier-timeout', type=int, default=0, help='monitored_barrier (s) before every evaluation')
p.add_argument('--eval-manifest', default='', help='rank 1 (eval shard owner) waits for this manifest file')
p.add_argument('--nan-check', action='store_true')
a = p.parse_args()

if 'RANK' in os.environ:
    rank, world = int(os.environ['RANK']), int(os.environ['WORLD_SIZE'])
else:
    rank, world = int(os.environ.get('SLURM_PROCID', 0)), int(os.environ.get('SLURM_NTASKS', 1))
    host, port = a.master.split(':')
    os.environ.setdefault('MASTER_ADDR', host); os.environ.setdefault('MASTER_PORT', port)
    os.environ['RANK'], os.environ['WORLD_SIZE'] = str(rank), str(world)
node = os.environ.get('SLURMD_NODENAME') or socket.gethostname()
last = rank == world - 1
torch.manual_seed(1234)
torch.set_num_threads(1)


def now():
    return datetime.datetime.now().strftime('%Y-%m-%d %H:%M:%S')


def out(msg, r0only=True, who=None):
    if r0only and rank != (who if who is not None else 0):
        return
    print(msg, flush=True)


def flog(mod, msg, level='INFO', r0only=True):
    out(f'{now()} | {level} | {mod} | {msg}', r0only)


t_start = time.time()
if a.fmt == 'mega':
    out('using world size: %d, data-parallel size: %d, tensor-model-parallel size: 1, pipeline-model-parallel size: 1' % (world, world))
    out('> initializing torch distributed ...')
elif a.fmt == 'fseq':
    flog('fairseq.distributed.utils', f'distributed init (rank {rank}): env://', r0only=False)
dist.init_process_group('gloo', timeout=datetime.timedelta(seconds=a.pg_timeout))
if a.fmt == 'fseq':
    flog('fairseq.distributed.utils', f'initialized host {node} as rank {rank}', r0only=False)
elif a.fmt == 'hf':
    out(f'[INFO|training_args.py] Process rank: {rank}, device: cpu, n_gpu: 0, distributed training: True, 16-bits training: False, host: {node}', r0only=False)


class LM(nn.Module):
    def __init__(s):
        super().__init__()
        s.emb = nn.Embedding(a.vocab, 64)
        s.fc1 = nn.Linear(64 * a.ctx, a.hidden)
        s.fc2 = nn.Linear(a.hidden, a.hidden)
        s.head = nn.Linear(a.hidden, a.vocab)

    def forward(s, x):
        h = s.emb(x).flatten(1)
        h = F.gelu(s.fc1(h))
        h = F.gelu(s.fc2(h))
        return s.head(h)


model = LM()
nparams = sum(p.numel() for p in model.parameters())
ddp = DDP(model)
opt = torch.optim.AdamW(ddp.parameters(), lr=a.lr, weight_decay=0.01)
fd = os.open(a.data, os.O_RDONLY)
ntok = os.fstat(fd).st_size // 2
W = a.ctx + 1
chunk = a.batch * W


def batch_at(i):
    off = ((i * world + rank) * chunk) % (ntok - chunk)
    buf = os.pread(fd, chunk * 2, off * 2)
    t = torch.from_numpy(np.frombuffer(buf, dtype=np.uint16).astype(np.int64)).view(a.batch, W)
    return t[:, :-1] % a.vocab, t[:, -1] % a.vocab


def lossf(logits, y):
    ce = F.cross_entropy(logits, y, reduction='none')
    m = (y != 0).float()
    return (ce * m).sum() / m.sum()


def lr_at(it):
    if it < a.warmup:
        return a.lr * (it + 1) / a.warmup
    return a.lr * 0.5 * (1 + math.cos(math.pi * min(1.0, (it - a.warmup) / max(1, a.steps - a.warmup))))


start = 0
if a.ckpt_dir:
    os.makedirs(a.ckpt_dir, exist_ok=True)
    if a.resume:
        tr = os.path.join(a.ckpt_dir, 'latest_checkpointed_iteration.txt')
        if os.path.exists(tr):
            it = int(open(tr).read().strip())
            path = os.path.join(a.ckpt_dir, f'iter_{it:07d}', 'model_optim_rng.pt')
            if a.fmt == 'mega':
                out(f' loading checkpoint from {a.ckpt_dir} at iteration {it}')
            elif a.fmt == 'hf':
                out(f'[INFO|trainer.py] Loading model from {path}.')
            else:
                flog('fairseq.trainer', f'Preparing to load checkpoint {path}')
            sd = torch.load(path, map_location='cpu', weights_only=False)
            model.load_state_dict(sd['model'])
            opt.load_state_dict(sd['optimizer'])
            start = sd['iteration']
            if a.fmt == 'mega':
                out(f'  successfully loaded checkpoint from {a.ckpt_dir} [ t 1/1, p 1/1 ] at iteration {start}')
            elif a.fmt == 'fseq':
                flog('fairseq.trainer', f'Loaded checkpoint {path} (epoch {start // a.epoch_steps + 1} @ {start} updates)')
        else:
            if a.fmt == 'mega':
                out(f'WARNING: could not find the metadata file {tr} ')
                out('    will not load any checkpoints and will start from random')
            elif a.fmt == 'fseq':
                flog('fairseq.trainer', f'No existing checkpoint found {a.ckpt_dir}/checkpoint_last.pt')


def save(it):
    t0 = time.time()
    if a.fmt == 'mega':
        out(f'saving checkpoint at iteration {it:7d} to {a.ckpt_dir}')
    elif a.fmt == 'hf':
        out(f'[INFO|trainer.py] Saving model checkpoint to {a.ckpt_dir}/checkpoint-{it}')
    if rank == 0:
        d = os.path.join(a.ckpt_dir, f'iter_{it:07d}')
        os.makedirs(d, exist_ok=True)
        torch.save({'model': model.state_dict(), 'optimizer': opt.state_dict(), 'iteration': it,
                    'args': vars(a)}, os.path.join(d, 'model_optim_rng.pt'))
        with open(os.path.join(a.ckpt_dir, 'latest_checkpointed_iteration.txt'), 'w') as f:
            f.write(str(it))
    dist.barrier()
    if a.fmt == 'mega':
        out(f'  successfully saved checkpoint at iteration {it:7d} to {a.ckpt_dir}')
    elif a.fmt == 'hf':
        out(f'[INFO|configuration_utils.py] Configuration saved in {a.ckpt_dir}/checkpoint-{it}/config.json')
        out(f'[INFO|modeling_utils.py] Model weights saved in {a.ckpt_dir}/checkpoint-{it}/model_optim_rng.pt')
    else:
        flog('fairseq.checkpoint_utils', f'Saved checkpoint {a.ckpt_dir}/checkpoint{it // a.epoch_steps + 1}_{it}.pt '
             f'(epoch {it // a.epoch_steps + 1} @ {it} updates, score None) (writing took {time.time() - t0:.4f} seconds)')


def write_cache(ep):
    # the window cache a preprocessing step writes to node-local scratch (per rank, per epoch)
    d = os.path.join(a.cache_dir, f'rank{rank}')
    os.makedirs(d, exist_ok=True)
    n = a.cache_mb * (1 << 20) // 2
    m = min(n, ntok)
    off = (ep * world + rank) * 4099 % max(1, ntok - m)
    arr = np.resize(np.frombuffer(os.pread(fd, m * 2, off * 2), dtype=np.uint16), n)
    with open(os.path.join(d, f'windows_ep{ep:03d}.npy'), 'wb') as f:
        np.save(f, arr)


def evaluate(it):
    if a.barrier_timeout:
        if rank == 1 and a.eval_manifest:
            while not os.path.exists(a.eval_manifest):
                time.sleep(0.5)
        dist.monitored_barrier(timeout=datetime.timedelta(seconds=a.barrier_timeout))
    ddp.eval()
    tot, n = torch.zeros(2), 0
    with torch.no_grad():
        for j in range(a.eval_batches):
            x, y = batch_at(10_000_000 + it * a.eval_batches + j)
            l = lossf(model(x), y)
            tot += torch.tensor([l.item(), 1.0])
    dist.all_reduce(tot)
    ddp.train()
    return (tot[0] / tot[1]).item()


if a.fmt == 'mega':
    out(f'> number of parameters on (tensor, pipeline) model parallel rank (0, 0): {nparams}')
    out(f'time to initialize megatron (seconds): {time.time() - t_start:.3f}')
    out(f'[after model, optimizer, and learning rate scheduler are built] datetime: {now()} ')
    out('training ...')
elif a.fmt == 'hf':
    out('***** Running training *****')
    out(f'  Num examples = {ntok // W:,}')
    out(f'  Num Epochs = {math.ceil(a.steps / a.epoch_steps)}')
    out(f'  Instantaneous batch size per device = {a.batch}')
    out(f'  Total train batch size (w. parallel, distributed & accumulation) = {a.batch * world}')
    out(f'  Total optimization steps = {a.steps}')
    out(f'  Number of trainable parameters = {nparams:,}')
else:
    flog('fairseq_cli.train', f'model transformer_lm_tiny, criterion CrossEntropyCriterion')
    flog('fairseq_cli.train', f'num. shared model params: {nparams:,} (num. trained: {nparams:,})')
    flog('fairseq_cli.train', f'training on {world} devices (GPUs/TPUs)')
    flog('fairseq_cli.train', f'max tokens per device = {a.batch * a.ctx} and max sentences per device = {a.batch}')

wall0 = time.time()
tw = time.time()
acc_loss, acc_n, acc_gn = 0.0, 0, 0.0
it = start
while it < a.steps:
    ep = it // a.epoch_steps
    if it % a.epoch_steps == 0:
        if a.fmt == 'fseq':
            flog('fairseq.trainer', f'begin training epoch {ep + 1}')
        if a.cache_dir:
            write_cache(ep)
    x, y = batch_at(it)
    for g in opt.param_groups:
        g['lr'] = lr_at(it)
    logits = ddp(x)
    loss = lossf(logits, y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0)
    if a.nan_check and not torch.isfinite(loss):
        raise FloatingPointError(f'Loss is {loss.item()}, stopping training (rank {rank}, iteration {it + 1})')
    opt.step()
    it += 1
    acc_loss += loss.item(); acc_n += 1; acc_gn += gn.item()
    if it % a.log_every == 0:
        lt = torch.tensor([acc_loss / acc_n])
        dist.all_reduce(lt); lt /= world
        el = time.time() - tw
        if a.fmt == 'mega':
            out(f' [{now()}] iteration {it:8d}/{a.steps:8d} | consumed samples: {it * a.batch * world:12d} | '
                f'elapsed time per iteration (ms): {el * 1000 / acc_n:.1f} | learning rate: {lr_at(it - 1):.6E} | '
                f'global batch size: {a.batch * world:5d} | lm loss: {lt.item():.6E} | loss scale: 1.0 | '
                f'grad norm: {acc_gn / acc_n:.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |',
                who=world - 1)
        elif a.fmt == 'hf':
            out(str({'loss': round(lt.item(), 4), 'grad_norm': round(acc_gn / acc_n, 4),
                     'learning_rate': float(f'{lr_at(it - 1):.4e}'), 'epoch': round(it / a.epoch_steps, 2)}))
        else:
            wpb = a.batch * a.ctx * world
            flog('train_inner', f'epoch {ep + 1:03d}:  {it - ep * a.epoch_steps:4d} / {a.epoch_steps} '
                 f'loss={lt.item() / math.log(2):.3f}, ppl={2 ** (lt.item() / math.log(2)):.2f}, '
                 f'wps={wpb * acc_n / el:.0f}, ups={acc_n / el:.2f}, wpb={wpb}, bsz={a.batch * world}, '
                 f'num_updates={it}, lr={lr_at(it - 1):.5g}, gnorm={acc_gn / acc_n:.3f}, '
                 f'train_wall={el:.0f}, gb_free=None, wall={time.time() - wall0:.0f}')
        acc_loss, acc_n, acc_gn = 0.0, 0, 0.0
        tw = time.time()
    if a.eval_every and it % a.eval_every == 0:
        te = time.time()
        if a.fmt == 'mega':
            pass
        elif a.fmt == 'hf':
            out('***** Running Evaluation *****')
            out(f'  Num examples = {a.eval_batches * a.batch * world}')
            out(f'  Batch size = {a.batch}')
        vl = evaluate(it)
        if a.fmt == 'mega':
            out('-' * 100)
            out(f' validation loss at iteration {it} | lm loss value: {vl:.6E} | lm loss PPL: {math.exp(vl):.6E} | ')
            out('-' * 100)
        elif a.fmt == 'hf':
            out(str({'eval_loss': round(vl, 4), 'eval_runtime': round(time.time() - te, 4),
                     'eval_samples_per_second': round(a.eval_batches * a.batch * world / (time.time() - te), 3),
                     'epoch': round(it / a.epoch_steps, 2)}))
        else:
            flog('valid', f'epoch {ep + 1:03d} | valid on \'valid\' subset | loss {vl / math.log(2):.3f} | '
                 f'ppl {2 ** (vl / math.log(2)):.2f} | wps 0 | wpb {a.batch * a.ctx * world} | '
                 f'bsz {a.batch * world} | num_updates {it}')
        tw = time.time()
    if a.ckpt_dir and a.ckpt_every and it % a.ckpt_every == 0:
        save(it)
        tw = time.time()

if a.fmt == 'mega':
    out(f'[after training is done] datetime: {now()} ')
elif a.fmt == 'hf':
    rt = time.time() - wall0
    out('\n\nTraining completed. Do not forget to share your model on huggingface.co/models =)\n\n')
    out(str({'train_runtime': round(rt, 4), 'train_samples_per_second': round((a.steps - start) * a.batch * world / rt, 3),
             'train_steps_per_second': round((a.steps - start) / rt, 3), 'train_loss': round(acc_loss / max(1, acc_n) if acc_n else lt.item(), 4),
             'epoch': round(a.steps / a.epoch_steps, 2)}))
else:
    flog('fairseq_cli.train', f'done training in {time.time() - wall0:.1f} seconds')
dist.barrier()
dist.destroy_process_group()
