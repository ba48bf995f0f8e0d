"""Runs genai-bench with Python's global random generator seeded, so the prompts it draws from a dataset come in the
same order in every run (genai-bench picks dataset prompts with the unseeded global generator).

usage: python seeded_genai_bench.py SEED genai-bench-arguments...
"""
import random
import sys

if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    random.seed(int(sys.argv[1]))
    sys.argv = ["genai-bench"] + sys.argv[2:]
    from genai_bench.cli.cli import cli

    sys.exit(cli())
