"""Drives the simulator with the official anthropic Python SDK, unmodified. Usage: anthropic_client.py BASE_URL MODEL"""
import sys

import anthropic

base_url, model = sys.argv[1], sys.argv[2]
client = anthropic.Anthropic(base_url=base_url, api_key="not-needed", max_retries=0, timeout=30)
conversation = [{"role": "user", "content": "one two three four"}]

message = client.messages.create(model=model, max_tokens=3, system="be brief", messages=conversation)
assert message.content[0].type == "text" and message.content[0].text == "one two three ", message
assert message.stop_reason == "max_tokens", message
assert message.usage.output_tokens == 3, message.usage

blocks = [{"type": "text", "text": "alpha beta gamma"}]
with client.messages.stream(model=model, max_tokens=2, messages=[{"role": "user", "content": blocks}]) as s:
    text = "".join(s.text_stream)
    final = s.get_final_message()
assert text == "alpha beta ", text
assert final.content[0].text == text and final.stop_reason == "max_tokens", final
assert final.usage.output_tokens == 2, final.usage

stopped = client.messages.create(model=model, max_tokens=10, messages=conversation, stop_sequences=["three"])
assert stopped.stop_reason == "stop_sequence" and stopped.stop_sequence == "three", stopped
assert stopped.content[0].text == "one two ", stopped

count = client.messages.count_tokens(model=model, system="be brief", messages=conversation)
assert count.input_tokens == message.usage.input_tokens + (message.usage.cache_read_input_tokens or 0), count

try:
    client.messages.create(model="no-such-model", max_tokens=3, messages=conversation)
    raise AssertionError("expected NotFoundError")
except anthropic.NotFoundError as e:
    assert e.status_code == 404
    assert e.body["error"]["type"] == "not_found_error", e.body

print("python anthropic", anthropic.__version__, "OK")
