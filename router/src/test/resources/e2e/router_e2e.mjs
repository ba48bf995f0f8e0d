// Drives the modelplane gateway with the official openai npm package, unmodified. Usage: node router_e2e.mjs BASE_URL
import assert from 'node:assert/strict';
import OpenAI from 'openai';

const [baseURL] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey: 'not-needed', maxRetries: 0, timeout: 30000 });

const chat = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
assert.match(chat.choices[0].message.content, /^hello from/);

const stream = await client.chat.completions.create({
  model: 'm', messages: [{ role: 'user', content: 'stream please' }], stream: true,
});
let text = '';
let chunks = 0;
for await (const chunk of stream) {
  chunks += 1;
  for (const choice of chunk.choices) text += choice.delta?.content ?? '';
}
assert.ok(chunks >= 3, `chunks: ${chunks}`);
assert.match(text, /^tok0 /);

const { response } = await client.completions.create({ model: 'm', prompt: 'plain' }).withResponse();
assert.ok(response.headers.get('x-gateway-destination-endpoint-served'));

await assert.rejects(
  client.completions.create({ model: 'm', prompt: 'x'.repeat(2 * 1024 * 1024) }),
  (e) => e.status === 413,
);
console.log('OK');
