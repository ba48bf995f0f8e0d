// Drives the simulator with the official openai npm package, unmodified. Usage: node openai_client.mjs BASE_URL MODEL
import assert from 'node:assert/strict';
import OpenAI from 'openai';

const [baseURL, model] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey: 'not-needed', maxRetries: 0, timeout: 30000 });

const models = (await client.models.list()).data.map((m) => m.id);
assert.ok(models.includes(model), String(models));

const chat = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'one two three' }] });
assert.equal(chat.choices[0].message.content, 'one two three');
assert.equal(chat.usage.completion_tokens, 3);

const stream = await client.chat.completions.create({
  model, messages: [{ role: 'user', content: 'alpha beta gamma delta' }], stream: true,
  stream_options: { include_usage: true }, max_tokens: 3,
});
let text = '';
let usage = null;
let finish = null;
for await (const chunk of stream) {
  if (chunk.usage) usage = chunk.usage;
  for (const choice of chunk.choices) {
    text += choice.delta?.content ?? '';
    if (choice.finish_reason) finish = choice.finish_reason;
  }
}
assert.equal(text, 'alpha beta gamma ');
assert.equal(finish, 'length');
assert.equal(usage?.completion_tokens, 3);

let completion = '';
for await (const c of await client.completions.create({ model, prompt: 'red green blue', stream: true })) {
  completion += c.choices[0]?.text ?? '';
}
assert.equal(completion, 'red green blue');

const emb = await client.embeddings.create({ model, input: 'a cat' });
assert.equal(emb.data[0].embedding.length, 384);

await assert.rejects(
  client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }),
  (e) => e instanceof OpenAI.NotFoundError && e.status === 404,
);
console.log('node openai', OpenAI.VERSION ?? '', 'OK');
