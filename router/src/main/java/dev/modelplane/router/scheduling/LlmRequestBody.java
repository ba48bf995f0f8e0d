package dev.modelplane.router.scheduling;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A parsed OpenAI-style request body: which API it targets, the bytes received and the few top-level fields
 * scheduling reads. The bytes the prefix cache hashes are derived lazily, per API as GIE does.
 */
public final class LlmRequestBody {

  /**
   * The APIs a request body can belong to, told apart by the request path (see the router's request parsers). The
   * OpenAI ones are those GIE's {@code openai-parser} recognises; the others are Anthropic's Messages API, vLLM's
   * pooling and tokenizer endpoints, audio, and {@link #PASSTHROUGH} for a request no parser claims.
   */
  public enum Api {
    CONVERSATIONS,
    RESPONSES,
    CHAT_COMPLETIONS,
    COMPLETIONS,
    EMBEDDINGS,
    /** Anthropic's Messages API. */
    MESSAGES,
    /** Cohere/Jina-style rerank, as vLLM serves it: a {@code query} and its {@code documents}. */
    RERANK,
    /**
     * vLLM's score: one side against the other, in any of its four request forms
     * ({@link LlmRequestBody#scorePair}).
     */
    SCORE,
    TOKENIZE,
    DETOKENIZE,
    /** Audio transcriptions and translations: a multipart form, of which only {@code model} is read. */
    AUDIO,
    /** A request no parser claims (or a method other than POST): forwarded as received, scheduled by load. */
    PASSTHROUGH
  }

  private final Api api;
  private final byte[] raw;
  private final RequestJson.Fields fields;
  private final boolean runsModel;
  private volatile byte[] userInput;

  /**
   * A body {@link RequestJson#scan} accepted: the raw bytes (kept to forward, and re-read on demand) and the fields
   * extracted from them. No JSON tree is kept.
   */
  public LlmRequestBody(Api api, byte[] raw, RequestJson.Fields fields) {
    this(api, raw, fields, true);
  }

  /**
   * A body of {@code api}'s shape sent to an endpoint that does not run the model on it ({@code runsModel} false: a
   * chat or completions {@code /render}, which only applies the template): it has no prompt for the prefix scorers
   * and the load they track, since it neither reads nor fills the server's KV cache.
   */
  public LlmRequestBody(Api api, byte[] raw, RequestJson.Fields fields, boolean runsModel) {
    this.api = api;
    this.raw = raw;
    this.fields = fields;
    this.runsModel = runsModel;
  }

  /** A body from a JSON object (tests, benchmarks): serialised, then read as a received body would be. */
  public LlmRequestBody(Api api, ObjectNode json) {
    this.api = api;
    this.runsModel = true;
    this.raw = json.toString().getBytes(StandardCharsets.UTF_8);
    try {
      this.fields = RequestJson.defaults().scan(raw);
    } catch (RequestJson.Refused e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  public Api api() {
    return api;
  }

  /** The body as received. */
  public byte[] raw() {
    return raw;
  }

  /** The top-level fields read from it. */
  public RequestJson.Fields fields() {
    return fields;
  }

  public boolean stream() {
    return fields.stream();
  }

  /**
   * A completions prompt given as token ids, which need no tokenizer; null for any other prompt or API, and for a
   * request that does not run the model.
   */
  public int[] promptTokenIds() {
    return api == Api.COMPLETIONS && runsModel ? AcceptedJson.promptTokenIds(raw) : null;
  }

  /** {@code cache_salt}, isolating prefix caches between tenants; empty when absent. */
  public String cacheSalt() {
    return fields.cacheSalt();
  }

  /**
   * The first of {@code max_completion_tokens}, {@code max_tokens}, {@code max_output_tokens} that is a positive
   * integer, else 0.
   */
  public int maxOutputTokens() {
    for (Integer v : new Integer[] {fields.maxCompletionTokens(), fields.maxTokens(), fields.maxOutputTokens()}) {
      if (v != null && v > 0) {
        return v;
      }
    }
    return 0;
  }

  /**
   * The bytes whose prefix identifies the cached KV blocks (the prompt text or the JSON of the messages), computed
   * once by streaming the raw body; {@link #dropUserInput} lets them go.
   */
  public byte[] userInputBytes() {
    byte[] u = userInput;
    if (u == null) {
      u = computeUserInput();
      userInput = u;
    }
    return u;
  }

  /** Forgets {@link #userInputBytes()} (computed again if asked): a scheduled request need not hold a copy. */
  public void dropUserInput() {
    userInput = null;
  }

  /**
   * The two members a score request compares, in the order vLLM tries its request forms: {@code queries} with
   * {@code documents}, {@code queries} with {@code items}, {@code data_1} with {@code data_2}, {@code text_1} with
   * {@code text_2}; {@code null} when the body has none of them.
   */
  public static String[] scorePair(RequestJson.Fields f) {
    for (String[] pair : SCORE_PAIRS) {
      if (f.has(pair[0]) && f.has(pair[1])) {
        return pair;
      }
    }
    return null;
  }

  private static final String[][] SCORE_PAIRS = {{"queries", "documents"}, {"queries", "items"},
      {"data_1", "data_2"}, {"text_1", "text_2"}};

  /**
   * What each API sends the model, in the order it reaches it: a rerank's query before its documents, a score's
   * first side before its second, the system prompt and tools before an Anthropic conversation. Nothing for a body
   * that is not read (audio, passthrough) or that does not run the model (tokenize, detokenize, render): prefix
   * scorers then see an empty prompt, index nothing, and the load producers charge no prompt tokens.
   */
  private byte[] computeUserInput() {
    if (!fields.object() || !runsModel) {
      return new byte[0];
    }
    try {
      return switch (api) {
        case CONVERSATIONS -> AcceptedJson.member(raw, "items");
        case RESPONSES -> combined(2, "instructions", "tools", "input");
        case CHAT_COMPLETIONS -> AcceptedJson.member(raw, "messages");
        case COMPLETIONS -> AcceptedJson.promptText(raw).getBytes(StandardCharsets.UTF_8);
        case EMBEDDINGS -> AcceptedJson.member(raw, "input");
        case MESSAGES -> combined(2, "system", "tools", "messages");
        case RERANK -> combined(0, "query", "documents");
        case SCORE -> combined(0, scorePair(fields));
        case TOKENIZE, DETOKENIZE, AUDIO, PASSTHROUGH -> new byte[0];
      };
    } catch (IllegalStateException e) {
      return new byte[0];
    }
  }

  /**
   * {@code [{"<name>":…},…]} of the named top-level members, in order; the first {@code optional} of them only when
   * present and not null (e.g. {@code [{"instructions":…},{"tools":…},{"input":…}]} for responses).
   */
  private byte[] combined(int optional, String... names) {
    byte[][] m = AcceptedJson.members(raw, names);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write('[');
    boolean first = true;
    for (int i = 0; i < names.length; i++) {
      boolean absent = m[i] == null || Arrays.equals(m[i], NULL);
      if (i < optional && absent) {
        continue;
      }
      if (!first) {
        out.write(',');
      }
      first = false;
      out.writeBytes(("{\"" + names[i] + "\":").getBytes(StandardCharsets.UTF_8));
      out.writeBytes(m[i] == null ? NULL : m[i]);
      out.write('}');
    }
    out.write(']');
    return out.toByteArray();
  }

  private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
}
