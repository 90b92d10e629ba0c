"""Stub for the compiled equity kernels (rules C3-C6, S3)."""

import numpy as np
import numpy.typing as npt

MAX_PLAYERS: int
CHUNK: int

def exact_counts(
    combos: bytes, n_players: int, n_hole: int, board: bytes, dead: bytes, holdem: bool,
    hilo: bool
) -> tuple[npt.NDArray[np.int64], int]: ...
def sample_counts(
    entries: list[bytes] | tuple[bytes, ...], n_hole: int, board: bytes, dead: bytes,
    holdem: bool, hilo: bool, seed: int, samples: int, chunk_begin: int, chunk_end: int
) -> tuple[npt.NDArray[np.int64], int, int]: ...
