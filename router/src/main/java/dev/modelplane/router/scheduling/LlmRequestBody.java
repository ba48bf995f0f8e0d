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

  /** The OpenAI APIs GIE's {@code openai-parser} recognises, chosen by the suffix of the request path. */
  public enum Api {
    CONVERSATIONS("conversations"),
    RESPONSES("responses"),
    CHAT_COMPLETIONS("chat/completions"),
    COMPLETIONS("completions"),
    EMBEDDINGS("embeddings");

    private final String pathSuffix;

    Api(String pathSuffix) {
      this.pathSuffix = pathSuffix;
    }

    /** The API for a request path; anything unrecognised is treated as completions, as GIE does. */
    public static Api fromPath(String path) {
      String p = path == null ? "" : path;
      int query = p.indexOf('?');
      if (query >= 0) {
        p = p.substring(0, query);
      }
      for (Api api : values()) {
        if (p.endsWith("/" + api.pathSuffix)) {
          return api;
        }
      }
      return COMPLETIONS;
    }

    public String pathSuffix() {
      return pathSuffix;
    }
  }

  private final Api api;
  private final byte[] raw;
  private final RequestJson.Fields fields;
  private volatile byte[] userInput;

  /**
   * A body {@link RequestJson#scan} accepted: the raw bytes (kept to forward, and re-read on demand) and the fields
   * extracted from them. No JSON tree is kept.
   */
  public LlmRequestBody(Api api, byte[] raw, RequestJson.Fields fields) {
    this.api = api;
    this.raw = raw;
    this.fields = fields;
  }

  /** A body from a JSON object (tests, benchmarks): serialised, then read as a received body would be. */
  public LlmRequestBody(Api api, ObjectNode json) {
    this.api = api;
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

  /** A completions prompt given as token ids, which need no tokenizer; null for any other prompt or API. */
  public int[] promptTokenIds() {
    return api == Api.COMPLETIONS ? AcceptedJson.promptTokenIds(raw) : null;
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

  private byte[] computeUserInput() {
    try {
      return switch (api) {
        case CONVERSATIONS -> AcceptedJson.member(raw, "items");
        case RESPONSES -> responsesInput();
        case CHAT_COMPLETIONS -> AcceptedJson.member(raw, "messages");
        case COMPLETIONS -> AcceptedJson.promptText(raw).getBytes(StandardCharsets.UTF_8);
        case EMBEDDINGS -> AcceptedJson.member(raw, "input");
      };
    } catch (IllegalStateException e) {
      return new byte[0];
    }
  }

  /** {@code [{"instructions":…},{"tools":…},{"input":…}]}, the first two only when present and not null. */
  private byte[] responsesInput() {
    byte[][] m = AcceptedJson.members(raw, "instructions", "tools", "input");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write('[');
    String[] names = {"instructions", "tools", "input"};
    boolean first = true;
    for (int i = 0; i < 3; i++) {
      boolean absent = m[i] == null || Arrays.equals(m[i], NULL);
      if (i < 2 && absent) {
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
