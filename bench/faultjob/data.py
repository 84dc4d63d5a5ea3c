"""Synthetic token data made in-process: a seeded Markov chain the model can learn.

Sample i is a pure function of (seed, i), so any rank, worker or resumed job produces the same
sample for the same index, and a requeued job continues exactly where its checkpoint left off.
"""

from __future__ import annotations

from collections.abc import Iterator

import torch
from torch.utils.data import DataLoader, Dataset, Sampler

STICKINESS = 0.85  # probability that the next token follows the chain (the rest is noise)


class MarkovTokens(Dataset[torch.Tensor]):
    def __init__(self, vocab_size: int, seq_length: int, seed: int) -> None:
        self.vocab_size = vocab_size
        self.length = seq_length + 1  # inputs and shifted targets
        self.seed = seed
        chain = torch.Generator().manual_seed(seed)
        self.next_token = torch.randint(0, vocab_size, (vocab_size,), generator=chain)

    def __len__(self) -> int:
        return 2**62  # effectively endless; samples are made on demand

    def __getitem__(self, index: int) -> torch.Tensor:
        gen = torch.Generator().manual_seed(self.seed * 1_000_003 + index)
        noise = torch.randint(0, self.vocab_size, (self.length,), generator=gen)
        follow = torch.rand(self.length, generator=gen) < STICKINESS
        tokens = torch.empty(self.length, dtype=torch.long)
        tokens[0] = noise[0]
        for pos in range(1, self.length):
            chained = self.next_token[tokens[pos - 1]]
            tokens[pos] = chained if follow[pos] else noise[pos]
        return tokens


class ResumableBatchSampler(Sampler[list[int]]):
    """This rank's micro-batch of each global batch, from a given iteration on, forever."""

    def __init__(self, start_iteration: int, micro_batch_size: int, rank: int, world: int) -> None:
        self.start_iteration = start_iteration
        self.micro_batch_size = micro_batch_size
        self.rank = rank
        self.world = world

    def __iter__(self) -> Iterator[list[int]]:
        global_batch = self.micro_batch_size * self.world
        iteration = self.start_iteration
        while True:
            first = iteration * global_batch + self.rank * self.micro_batch_size
            yield list(range(first, first + self.micro_batch_size))
            iteration += 1


def make_loader(
    dataset: MarkovTokens,
    start_iteration: int,
    micro_batch_size: int,
    rank: int,
    world: int,
    num_workers: int,
) -> DataLoader[torch.Tensor]:
    sampler = ResumableBatchSampler(start_iteration, micro_batch_size, rank, world)
    return DataLoader(dataset, batch_sampler=sampler, num_workers=num_workers)
