"""Writes the prompt files of the routing benchmark (hack/bench/routing.sh), one prompt per line, from a seed.

  shared-prefix  GROUPS groups of PER_GROUP prompts; every prompt of a group starts with the group's system prompt
                 of PREFIX tokens and ends with a question of QUESTION tokens of its own (llm-d's shared-prefix
                 shape, scaled to the simulators' KV caches)
  mixed          short chats (40-200 tokens), long-context requests (3,000-6,000 tokens) one in ten, no sharing
  chat           short chats only (40-200 tokens), no sharing (the open-loop workloads)

Tokens are counted as the simulator counts them (a word is one token). Words are pseudo-words built from syllables,
so prompts are unique unless they share a prefix on purpose.

usage: python dataset.py shared-prefix OUT SEED GROUPS PER_GROUP PREFIX QUESTION
       python dataset.py mixed OUT SEED COUNT
       python dataset.py chat OUT SEED COUNT
"""
import random
import sys

SYLLABLES = ["ka", "lo", "mi", "ra", "tu", "ne", "so", "vi", "da", "pe", "zu", "ho", "ri", "ma", "te", "ga"]


def text_of(rng, tokens):
    """tokens pseudo-words (one simulator token each), separated by spaces."""
    return " ".join("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))) for _ in range(tokens))


def shared_prefix(out, seed, groups, per_group, prefix, question):
    rng = random.Random(seed)
    with open(out, "w") as f:
        for g in range(groups):
            system = f"group{g} " + text_of(rng, prefix - 1)
            for q in range(per_group):
                f.write(system + " question " + text_of(rng, question - 1) + "\n")


def mixed(out, seed, n, long_every=10):
    rng = random.Random(seed)
    with open(out, "w") as f:
        for i in range(n):
            long_context = long_every and i % long_every == long_every - 1
            tokens = rng.randint(3000, 6000) if long_context else rng.randint(40, 200)
            f.write(f"request{i} " + text_of(rng, tokens - 1) + "\n")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    kind, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if kind == "shared-prefix" and len(sys.argv) == 8:
        shared_prefix(out, seed, *map(int, sys.argv[4:8]))
    elif kind == "mixed" and len(sys.argv) == 5:
        mixed(out, seed, int(sys.argv[4]))
    elif kind == "chat" and len(sys.argv) == 5:
        mixed(out, seed, int(sys.argv[4]), long_every=0)
    else:
        sys.exit(__doc__)
