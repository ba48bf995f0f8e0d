// Drives the modelplane gateway with the official openai npm package, unmodified, in front of simulators in echo
// mode. Usage: node router_e2e.mjs BASE_URL
import assert from 'node:assert/strict';
import OpenAI from 'openai';

const [baseURL] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey: 'not-needed', maxRetries: 0, timeout: 30000 });

const chat = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi there' }] });
assert.equal(chat.choices[0].message.content, 'hi there');

const stream = await client.chat.completions.create({
  model: 'm', messages: [{ role: 'user', content: 'stream this back to me' }], stream: true,
  stream_options: { include_usage: true },
});
let text = '';
let chunks = 0;
let usage = null;
for await (const chunk of stream) {
  chunks += 1;
  for (const choice of chunk.choices) text += choice.delta?.content ?? '';
  if (chunk.usage) usage = chunk.usage;
}
assert.ok(chunks >= 5, `chunks: ${chunks}`);
assert.equal(text, 'stream this back to me');
assert.equal(usage?.completion_tokens, 5);

const { data, response } = await client.completions.create({ model: 'm', prompt: 'plain' }).withResponse();
assert.ok(response.headers.get('x-gateway-destination-endpoint-served'));
assert.equal(data.choices[0].text, 'plain');

const bad = await fetch(`${baseURL}/chat/completions`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model": "m", "messages": [',
});
assert.equal(bad.status, 400);
assert.equal((await bad.json()).error.type, 'invalid_request_error');

await assert.rejects(
  client.completions.create({ model: 'm', prompt: 'x'.repeat(2 * 1024 * 1024) }),
  (e) => e.status === 413,
);
console.log('OK');
