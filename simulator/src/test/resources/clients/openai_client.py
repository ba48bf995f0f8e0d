"""Drives the simulator with the official openai Python SDK, unmodified. Usage: openai_client.py BASE_URL MODEL"""
import sys

import openai

base_url, model = sys.argv[1], sys.argv[2]
client = openai.OpenAI(base_url=base_url, api_key="not-needed", max_retries=0, timeout=30)

models = [m.id for m in client.models.list().data]
assert model in models, models

chat = client.chat.completions.create(model=model, messages=[{"role": "user", "content": "one two three"}])
assert chat.choices[0].message.content == "one two three", chat
assert chat.choices[0].finish_reason == "stop", chat
assert chat.usage.completion_tokens == 3, chat.usage

stream = client.chat.completions.create(model=model, messages=[{"role": "user", "content": "alpha beta gamma delta"}],
                                        stream=True, stream_options={"include_usage": True}, max_tokens=3)
parts, usage, finish = [], None, None
for chunk in stream:
    if chunk.usage is not None:
        usage = chunk.usage
    for choice in chunk.choices:
        if choice.delta.content:
            parts.append(choice.delta.content)
        if choice.finish_reason:
            finish = choice.finish_reason
assert "".join(parts) == "alpha beta gamma ", parts
assert finish == "length", finish
assert usage is not None and usage.completion_tokens == 3, usage

text = "".join(c.choices[0].text for c in client.completions.create(model=model, prompt="red green blue", stream=True))
assert text == "red green blue", text

response = client.responses.create(model=model, input="one two three", instructions="be brief")
assert response.output_text == "one two three", response
assert response.status == "completed" and response.usage.output_tokens == 3, response

events = list(client.responses.create(model=model, input="alpha beta gamma", max_output_tokens=2, stream=True))
assert events[0].type == "response.created" and events[-1].type == "response.incomplete", [e.type for e in events]
deltas = "".join(e.delta for e in events if e.type == "response.output_text.delta")
assert deltas == "alpha beta " == events[-1].response.output_text, deltas
assert events[-1].response.status == "incomplete", events[-1].response
assert events[-1].response.incomplete_details.reason == "max_output_tokens", events[-1].response

emb = client.embeddings.create(model=model, input=["a cat", "a dog"])
assert len(emb.data) == 2 and len(emb.data[0].embedding) == 384, emb

try:
    client.chat.completions.create(model="no-such-model", messages=[{"role": "user", "content": "x"}])
    raise AssertionError("expected NotFoundError")
except openai.NotFoundError as e:
    assert e.status_code == 404

print("python openai", openai.__version__, "OK")
