"""A tiny GPT (pre-LayerNorm decoder blocks) and its FLOP count, as Megatron-LM counts them."""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass(frozen=True)
class GPTShape:
    num_layers: int
    hidden_size: int
    num_attention_heads: int
    seq_length: int
    vocab_size: int


class Block(nn.Module):
    """One decoder block: causal self-attention and a 4h MLP, each behind a LayerNorm."""

    def __init__(self, shape: GPTShape) -> None:
        super().__init__()
        self.heads = shape.num_attention_heads
        self.ln1 = nn.LayerNorm(shape.hidden_size)
        self.qkv = nn.Linear(shape.hidden_size, 3 * shape.hidden_size)
        self.proj = nn.Linear(shape.hidden_size, shape.hidden_size)
        self.ln2 = nn.LayerNorm(shape.hidden_size)
        self.fc1 = nn.Linear(shape.hidden_size, 4 * shape.hidden_size)
        self.fc2 = nn.Linear(4 * shape.hidden_size, shape.hidden_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, seq, hidden = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(hidden, dim=2)
        q, k, v = (t.view(batch, seq, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        attn = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(attn.transpose(1, 2).reshape(batch, seq, hidden))
        out: torch.Tensor = x + self.fc2(F.gelu(self.fc1(self.ln2(x))))
        return out


class TinyGPT(nn.Module):
    """Token + position embeddings, decoder blocks, tied output layer; returns the LM loss."""

    def __init__(self, shape: GPTShape) -> None:
        super().__init__()
        self.shape = shape
        self.tok = nn.Embedding(shape.vocab_size, shape.hidden_size)
        self.pos = nn.Embedding(shape.seq_length, shape.hidden_size)
        self.blocks = nn.ModuleList(Block(shape) for _ in range(shape.num_layers))
        self.ln_f = nn.LayerNorm(shape.hidden_size)
        self.apply(_init_weights)

    def forward(self, tokens: torch.Tensor, poison: float | None = None) -> torch.Tensor:
        """LM loss of predicting tokens[:, 1:] from tokens[:, :-1].

        `poison` multiplies the hidden states after the first block (fault injection: NaN
        makes every later op, and its backward, produce NaN, as a real overflow would).
        """
        inputs, targets = tokens[:, :-1], tokens[:, 1:]
        positions = torch.arange(inputs.shape[1], device=tokens.device)
        x = self.tok(inputs) + self.pos(positions)
        for index, block in enumerate(self.blocks):
            x = block(x)
            if index == 0 and poison is not None:
                x = x * poison
        logits = self.ln_f(x) @ self.tok.weight.t()
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


def _init_weights(module: nn.Module) -> None:
    # GPT-2's initialisation (N(0, 0.02)): with PyTorch's default N(0, 1) embeddings the tied
    # output layer starts with huge logits and a loss far above ln(vocab).
    if isinstance(module, nn.Linear | nn.Embedding):
        nn.init.normal_(module.weight, mean=0.0, std=0.02)
    if isinstance(module, nn.Linear) and module.bias is not None:
        nn.init.zeros_(module.bias)


def flops_per_iteration(shape: GPTShape, global_batch_size: int) -> float:
    """Training FLOPs of one global batch (forward + backward, no recomputation).

    Megatron-LM's classic formula (Narayanan et al. 2021, without activation recomputation):
    72 * B * s * l * h^2 * (1 + s / (6h) + V / (12 l h)).
    """
    b, s = global_batch_size, shape.seq_length
    layers, h, vocab = shape.num_layers, shape.hidden_size, shape.vocab_size
    return 72.0 * b * s * layers * h * h * (1 + s / (6 * h) + vocab / (12 * layers * h))


def parameter_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
