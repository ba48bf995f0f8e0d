"""Writes a local Hugging Face tokenizer for genai-bench that counts tokens as modelplane's simulator does.

The simulator's token is a run of letters, digits and underscores, or one other non-space character
(docs/simulator.md). This builds a word-level tokenizer with exactly that split, whose vocabulary is every such
token of the given text files (genai-bench's own prompt source and the benchmark's datasets), so prompts genai-bench
composes from token ids decode back to text the simulator counts the same way, with no hub access.

usage: python tokenizer.py OUT_DIR CORPUS_FILE...
"""
import json
import sys

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers


def main(out_dir, corpus):
    tokenizer = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    # Whitespace ends a token and is dropped; within a word, punctuation stands alone.
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(),
                                                       pre_tokenizers.Split(Regex(r"\w+|[^\w\s]"), "isolated")])
    tokenizer.decoder = decoders.WordPiece(prefix="##", cleanup=False)
    trainer = trainers.WordLevelTrainer(vocab_size=10_000_000, special_tokens=["[UNK]"], min_frequency=1)
    tokenizer.train(corpus, trainer)
    tokenizer.save(f"{out_dir}/tokenizer.json")
    with open(f"{out_dir}/tokenizer_config.json", "w") as f:
        json.dump({"tokenizer_class": "PreTrainedTokenizerFast", "unk_token": "[UNK]",
                   "model_max_length": 131072}, f)
    print(f"{out_dir}: {tokenizer.get_vocab_size()} tokens", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
