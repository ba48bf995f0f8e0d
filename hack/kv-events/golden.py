"""Writes golden KV-event payloads with msgspec, declared the way vLLM declares its event structs.

Two declarations: the positional one (array_like events, vLLM up to the 0.2x releases) and the keyed one (events as
tagged maps with omit_defaults, newer vLLM). The batch stays positional in both. Output: one line per case,
"name hex", read by KvEventCodecGoldenTest.
"""
import sys
from typing import Any, Optional, Union

import msgspec

H1 = 5988051177307384287          # below 2**63
H2 = 11214766589215907092         # above 2**63: must be written as uint64
TOKENS = list(range(1, 9)) + [300, 70000]


def declare(array_like):
    class Ev(msgspec.Struct, array_like=array_like, omit_defaults=True, gc=False, tag=True):
        pass

    class BlockStored(Ev):
        block_hashes: list[Union[int, bytes]]
        parent_block_hash: Optional[Union[int, bytes]]
        token_ids: list[int]
        block_size: int
        lora_id: Optional[int]
        medium: Optional[str]
        lora_name: Optional[str]
        extra_keys: Optional[list[Optional[tuple[Any, ...]]]] = None
        group_idx: Optional[int] = None
        kv_cache_spec_kind: Optional[str] = None
        kv_cache_spec_sliding_window: Optional[int] = None

    class BlockRemoved(Ev):
        block_hashes: list[Union[int, bytes]]
        medium: Optional[str]
        group_idx: Optional[int] = None

    class AllBlocksCleared(Ev):
        pass

    class Batch(msgspec.Struct, array_like=True, omit_defaults=True, gc=False):
        ts: float
        events: list[Union[BlockStored, BlockRemoved, AllBlocksCleared]]
        data_parallel_rank: Optional[int] = None

    return BlockStored, BlockRemoved, AllBlocksCleared, Batch


enc = msgspec.msgpack.Encoder()
for layout, array_like in (("array", True), ("map", False)):
    Stored, Removed, Cleared, Batch = declare(array_like)
    cases = {
        "stored-root": Batch(1700000000.5, [Stored([H1, H2], None, TOKENS[:8], 4, None, "GPU", None,
                                                   [None, None], 0, "full_attention")], 0),
        "stored-child-lora": Batch(1700000001.25, [Stored([H2], H1, TOKENS[:4], 4, 7, "GPU", "my-lora",
                                                          [("my-lora",)], 0, "full_attention")], 0),
        "stored-large-tokens": Batch(1.0, [Stored([1], None, [0, 127, 128, 255, 256, 65535, 65536, 128255], 8,
                                                  None, "GPU", None, None, None, None)], 3),
        "removed": Batch(2.0, [Removed([H1, H2], "GPU", 0)], 0),
        "cleared": Batch(3.0, [Cleared()], 0),
        "mixed": Batch(4.5, [Stored([H1], None, TOKENS[:4], 4, None, "GPU", None, [None], 0, "full_attention"),
                             Removed([H1], "GPU", 0), Cleared()], 1),
    }
    for name, batch in cases.items():
        sys.stdout.write(f"{layout}/{name} {enc.encode(batch).hex()}\n")
