"""Checkpoint-save log patterns the seeds name as defaults (AJR tutorials, NVRx integration)."""

DEFAULT_CHECKPOINT_PATTERNS: tuple[str, ...] = (
    r"save-checkpoint",
    r"SAVE_CHECKPOINT: iteration:.*, ckpt saving takes .* seconds",
    r"Saved checkpoint to",
)
