"""Trains the tiny byte-level BPE tokenizer the tests use and records what Python's libraries make of it.

Writes, into the directory given as the only argument:
  tokenizer.json         a Llama-3-like tokenizer (byte-level BPE, a split regex, BOS added by the post-processor)
  tokenizer_config.json  its special tokens and a Llama-3-style chat template
  vectors.json           token ids of a few texts (Hugging Face `tokenizers`) and chat prompts rendered the way
                         `transformers`' apply_chat_template renders them (Jinja2), for the Java parity tests

Everything is derived from a fixed seed, so running it again gives the same bytes.
"""
import json
import random
import sys
from pathlib import Path

import jinja2
import jinja2.ext
from jinja2.sandbox import ImmutableSandboxedEnvironment
from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, pre_tokenizers, processors, trainers

SEED = 20261127
VOCAB_SIZE = 1280
BOS = "<|begin_of_text|>"
EOS = "<|end_of_text|>"
EOT = "<|eot_id|>"
HEADER_START = "<|start_header_id|>"
HEADER_END = "<|end_header_id|>"
SPECIALS = [BOS, EOS, HEADER_START, HEADER_END, EOT]
# The pre-tokenizer split of Llama 3: contractions, letter runs with one leading non-letter, numbers of up to three
# digits, punctuation runs, newlines, other whitespace.
SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
         r"|\s*[\r\n]+|\s+(?!\S)|\s+")

SUBJECTS = ["the router", "a model server", "the scheduler", "every replica", "the prefix cache", "our operator",
            "the simulator", "a tokenizer", "the gateway", "each request", "the control plane", "a small batch"]
VERBS = ["sends", "counts", "keeps", "routes", "hashes", "evicts", "prefills", "decodes", "measures", "stores",
         "renders", "splits", "schedules", "forwards", "reuses"]
OBJECTS = ["the longest shared prefix", "sixteen tokens per block", "warm blocks", "the chat template",
           "prompt tokens", "a queue of waiting requests", "its metrics", "the same ids", "cached blocks",
           "the least recently used block", "another pod", "the latency budget"]
TAILS = ["before the next step", "when the load grows", "so routing matters", "while the batch runs",
         "without a second copy", "as the model server does", "in under a millisecond", "for every prompt"]
EXTRAS = ["Café au lait, naïve façade, Zürich and São Paulo.", "Prices: 12 €, 7.50 £ and 1,234.56 $.",
          "東京 and 大阪 are cities; 한국어 and русский are languages.", "Emoji: 🙂 🚀 ✨ are bytes too.",
          "It's what we'll do; they're sure you've seen I'm right and he'd agree.",
          "Tabs\tand  double  spaces\nand\n\nblank lines   end here.", "def f(x):\n    return x * 2  # code\n"]


COMMON = ("hello world time year people way day man thing woman life child school state family student group "
          "country problem hand part place case week company system program question work government number "
          "night point home water room mother area money story fact month lot right study book eye job word "
          "business issue side kind head house service friend father power hour game line end member law car "
          "city community name president team minute idea kid body information back parent face others level "
          "office door health person art war history party result change morning reason research girl guy moment "
          "air teacher force education foot boy age policy music market sense nation plan college interest death "
          "experience effect use class control care field development role effort rate heart drug show leader "
          "light voice wife police mind price report decision son view relationship town road arm difference "
          "be have do say get make go know take see come think look want give find tell ask seem feel try leave "
          "call good new first last long great little own other old big high different small large next early "
          "young important few public bad same able quickly slowly always never often today together again").split()


def corpus():
    rnd = random.Random(SEED)
    lines = []
    for i in range(300):
        words = [rnd.choice(COMMON) for _ in range(rnd.randint(6, 16))]
        lines.append(" ".join(words).capitalize() + rnd.choice([".", ",", "!", "?"]))
    for i in range(700):
        sentence = f"{rnd.choice(SUBJECTS)} {rnd.choice(VERBS)} {rnd.choice(OBJECTS)} {rnd.choice(TAILS)}"
        sentence = sentence[0].upper() + sentence[1:] + rnd.choice([".", ".", ".", "!", "?", ";"])
        if i % 9 == 0:
            sentence += f" Step {rnd.randint(1, 4096)} took {rnd.randint(1, 999)} ms."
        if i % 25 == 0:
            sentence += " " + rnd.choice(EXTRAS)
        lines.append(sentence)
    return "\n".join(lines)


def train():
    tok = Tokenizer(models.BPE(ignore_merges=True))
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(SPLIT), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=VOCAB_SIZE, min_frequency=2, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=[])
    text = corpus()
    tok.train_from_iterator([text[i:i + 2000] for i in range(0, len(text), 2000)], trainer=trainer)
    # As in Llama 3, the special tokens come after the learned vocabulary.
    tok.add_special_tokens([AddedToken(s, special=True, normalized=False) for s in SPECIALS])
    bos_id = tok.token_to_id(BOS)
    tok.post_processor = processors.Sequence([
        processors.ByteLevel(trim_offsets=False),
        processors.TemplateProcessing(single=f"{BOS}:0 $A:0", pair=f"{BOS}:0 $A:0 {BOS}:1 $B:1",
                                      special_tokens=[(BOS, bos_id)]),
    ])
    return tok


# A Llama-3-style chat template: an optional system message first, then strictly alternating user and assistant
# turns, each as header + trimmed content + end-of-turn; tools, when given, are listed as JSON in the system turn.
CHAT_TEMPLATE = (
    "{%- if messages[0]['role'] == 'system' -%}\n"
    "    {%- set system_message = messages[0]['content'] | trim -%}\n"
    "    {%- set turns = messages[1:] -%}\n"
    "{%- else -%}\n"
    "    {%- set system_message = '' -%}\n"
    "    {%- set turns = messages -%}\n"
    "{%- endif -%}\n"
    "{{- bos_token -}}\n"
    "{%- if system_message or tools is defined and tools -%}\n"
    "    {{- '<|start_header_id|>system<|end_header_id|>\\n\\n' + system_message -}}\n"
    "    {%- if tools is defined and tools -%}\n"
    "        {{- '\\n\\nYou may call these functions:\\n' -}}\n"
    "        {%- for tool in tools -%}\n"
    "            {{- tool | tojson(indent=4) + '\\n' -}}\n"
    "        {%- endfor -%}\n"
    "    {%- endif -%}\n"
    "    {{- '<|eot_id|>' -}}\n"
    "{%- endif -%}\n"
    "{%- for message in turns -%}\n"
    "    {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}\n"
    "        {{- raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') -}}\n"
    "    {%- endif -%}\n"
    "    {{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n' + message['content'] | trim"
    " + '<|eot_id|>' -}}\n"
    "    {%- if loop.last and message['role'] == 'assistant' -%}{{- eos_token -}}{%- endif -%}\n"
    "{%- endfor -%}\n"
    "{%- if add_generation_prompt -%}\n"
    "    {{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' -}}\n"
    "{%- endif -%}\n"
)

# Templates written against the idioms real chat templates use, rendered with the variables beside them. They are
# rendered only (not tokenized): the Java side must produce the same text.
IDIOMS = (
    "{#- a comment that eats the whitespace around it -#}\n"
    "{%- set ns = namespace(users=0, last_user='') %}\n"
    "{% for m in messages %}\n"
    "    {% if m.role == 'user' %}\n"
    "        {% set ns.users = ns.users + 1 %}\n"
    "        {% set ns.last_user = m.content %}\n"
    "    {% endif %}\n"
    "{% endfor %}\n"
    "users={{ ns.users }} last={{ ns.last_user | trim }}|\n"
    "{% for m in messages %}\n"
    "[{{ loop.index }}/{{ messages | length }}{{ ' first' if loop.first }}{{ ' last' if loop.last }}]"
    " {{ m['role'].upper() }}: {{ m.content.strip() }}"
    "{{ ' (greeting)' if m.content.strip().startswith('Hello') }}"
    "{{ ' (question)' if m.content.strip().endswith('?') }}\n"
    "{% endfor %}\n"
    "words={{ messages[-1]['content'].split() | length }} csv={{ 'a,b,,c'.split(',') | tojson }}\n"
    "first={{ messages[0]['content'] | trim }}|lstrip={{ messages[0]['content'].lstrip() }}|"
    "rstrip={{ messages[0]['content'].rstrip() }}|\n"
    "{{ tools | tojson }}\n"
    "{{ tools[0] | tojson(indent=2) }}\n"
    "{% for key, value in tools[0]['function'].items() %}{{ key ~ '=' ~ (value | tojson) }};{% endfor %}\n"
    "{% for key in tools[0] %}<{{ key }}>{% endfor %}\n"
    "{{ missing | default('fallback') }} {{ 'defined' if tools is defined else 'undefined' }}"
    " {{ 'none' if nothing is none else 'something' }}\n"
    "{% if add_generation_prompt %}\n"
    "    <assistant>\n"
    "{% endif %}\n"
)

CHATML = (
    "{%- for message in messages %}\n"
    "    {%- if loop.first and message.role != 'system' %}\n"
    "        {{- '<|im_start|>system\\nYou are helpful.<|im_end|>\\n' }}\n"
    "    {%- endif %}\n"
    "    {{- '<|im_start|>' + message.role + '\\n' + message.content.strip() + '<|im_end|>' + '\\n' }}\n"
    "{%- endfor %}\n"
    "{%- if add_generation_prompt %}\n"
    "    {{- '<|im_start|>assistant\\n' }}\n"
    "{%- endif %}\n"
)

# Whitespace control: trim_blocks, lstrip_blocks (at the start of a line only), "+" and "-" markers, comments.
WHITESPACE = (
    "a {% if true %}b{% endif %} c\n"
    "  {% if true %}\n"
    "  indented line in a block\n"
    "  {% endif %}\n"
    "  {%+ if true %}kept{% endif %}\n"
    "x {# mid-line comment #} y\n"
    "  {# own-line comment #}\n"
    "  {{ 'indented expression' }}\n"
    "{%- if true -%}\n"
    "  trimmed both  \n"
    "{%- endif -%}\n"
    "  {{- 'left-trimmed' }}  {{ 'spaced' -}}  \n"
    "{% for i in range(3) %}\n"
    "  {{ i }}{% if not loop.last %},{% endif %}\n"
    "{% endfor %}\n"
    "{% raw %}{{ not rendered }}{% endraw %}\n"
    "\ttab {% if true %}\tin{% endif %}\n"
    "tail\n"
)

TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "Weather for a city — \"now\", in °C.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer",
                   "minimum": 1, "maximum": 16}, "ratio": {"type": "number", "default": 0.5},
                   "tiny": {"default": 1e-05}, "big": {"default": 1e+16}, "flags": {"default": [True, False, None]},
                   "empty": {"properties": {}}, "tab": {"default": "a\tb\nc\\d\u0001"}},
                   "required": ["city"]}}}]

TEXTS = [
    ("Hello world", True),
    ("Hello world", False),
    ("The router counts the same prompt tokens as the model server, so prefix hashes match.", True),
    ("Café naïve — Zürich 東京 🙂 ñ and ß; emoji 🚀✨ too.", True),
    ("  leading spaces, a  double  gap,\ttabs\t\tand\n\n\nnewlines   \n  trailing   ", False),
    (f"{BOS}You said {EOT} and then {HEADER_START}user{HEADER_END} again.", True),
    (f"{BOS}already there", True),
    ("Numbers 12345 3.14159 2026-11-27 and 1,234,567.", False),
    ("It's what we'll do; THEY'RE sure you've seen it.", True),
    ("", True),
    ("", False),
    ("\u00a0non-breaking\u3000ideographic\u2028line separator", False),
    (" ".join(["Every replica keeps warm blocks before the next step."] * 60), True),
]

CHATS = [
    ({"messages": [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Hello!"}],
      "add_generation_prompt": True}),
    ({"messages": [{"role": "user", "content": "\u00a0 Spaces\taround, unicode\u3000 "}],
      "add_generation_prompt": True}),
    ({"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello, how can I help?"},
                   {"role": "user", "content": "Route me: 東京 🙂"}], "add_generation_prompt": True}),
    ({"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Bye."}],
      "add_generation_prompt": False}),
    ({"messages": [{"role": "system", "content": "  "}, {"role": "user", "content": "Weather in Zürich?"}],
      "add_generation_prompt": True, "tools": TOOLS}),
]

FAILING_CHATS = [
    {"messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}], "add_generation_prompt": True},
]


def environment():
    """The Jinja2 environment transformers renders chat templates in."""
    def tojson(value, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators,
                          sort_keys=sort_keys)

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    return env


def main(out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tok = train()
    tok.save(str(out / "tokenizer.json"), pretty=False)
    config = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "bos_token": BOS,
        "eos_token": EOT,
        "clean_up_tokenization_spaces": True,
        "model_max_length": 8192,
        "chat_template": CHAT_TEMPLATE,
    }
    (out / "tokenizer_config.json").write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", "utf-8")

    tok = Tokenizer.from_file(str(out / "tokenizer.json"))
    env = environment()
    special = {"bos_token": BOS, "eos_token": EOT}
    vectors = {"texts": [], "chats": [], "failing_chats": [], "templates": []}
    for text, add_special in TEXTS:
        enc = tok.encode(text, add_special_tokens=add_special)
        vectors["texts"].append({"text": text, "add_special_tokens": add_special, "ids": enc.ids,
                                 "tokens": enc.tokens})
    template = env.from_string(CHAT_TEMPLATE)
    for variables in CHATS:
        prompt = template.render(**special, **variables)
        vectors["chats"].append({**variables, "prompt": prompt,
                                 "ids": tok.encode(prompt, add_special_tokens=False).ids})
    for variables in FAILING_CHATS:
        try:
            template.render(**special, **variables)
            raise SystemExit("a failing chat rendered")
        except jinja2.exceptions.TemplateError as e:
            vectors["failing_chats"].append({**variables, "error": str(e)})
    idiom_variables = {"messages": CHATS[2]["messages"] + [{"role": "user", "content": "\u00a0 Hello there?\u3000"}],
                       "tools": TOOLS, "nothing": None, "add_generation_prompt": True}
    idiom_variables["messages"].insert(0, {"role": "system", "content": "\u2003 Be brief. \u00a0"})
    for name, source in [("idioms", IDIOMS), ("chatml", CHATML), ("whitespace", WHITESPACE)]:
        vectors["templates"].append({"name": name, "template": source, "variables": idiom_variables,
                                     "output": env.from_string(source).render(**idiom_variables)})
    (out / "vectors.json").write_text(json.dumps(vectors, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"vocabulary {tok.get_vocab_size()} tokens; wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1])
