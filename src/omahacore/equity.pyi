"""Stub for the compiled equity kernels (rules C3-C6, S3)."""

import array

MAX_PLAYERS: int
CHUNK: int
VS_ANY_MIN: int

def exact_counts(
    combos: bytes, n_players: int, n_hole: int, board: bytes, dead: bytes, holdem: bool,
    hilo: bool
) -> tuple[array.array[int], int]: ...
def sample_counts(
    entries: list[bytes] | tuple[bytes, ...], n_hole: int, board: bytes, dead: bytes,
    holdem: bool, hilo: bool, seed: int, samples: int, chunk_begin: int, chunk_end: int
) -> tuple[array.array[int], int, int]: ...
def exact_text(
    entries: object, board: object, dead: object, n_hole: int, holdem: bool, hilo: bool,
    parsed: dict[str, tuple[bytes, int]]
) -> tuple[array.array[int], int] | None: ...
