package dev.modelplane.router.scheduling;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads an OpenAI request body as a stream of JSON tokens, never as a tree: one pass checks the whole document
 * against {@link Limits} (nesting depth, string length, number of elements) and keeps only the top-level fields
 * scheduling needs; the prefix-cache input and a model rewrite are made by streaming the raw bytes again
 * ({@link AcceptedJson}). Memory is bounded by the body itself plus what is extracted, whatever the shape of the JSON.
 */
public final class RequestJson {
  /**
   * What a request body's JSON may contain.
   *
   * @param maxDepth deepest nesting of arrays and objects
   * @param maxElements array elements plus object members, counted over the whole document
   * @param maxStringLength longest string (in chars), keys included
   */
  public record Limits(int maxDepth, long maxElements, int maxStringLength) {
    /**
     * 128 levels (tool schemas nest a few dozen at most); 4 Mi elements (8 MiB of {@code 0,} cannot hold more, so
     * any body within the default size limit of a plausible shape fits, e.g. an embeddings batch of 2,048 × 512
     * token ids); strings up to 8 Mi chars (an inline image as base64 in a default-sized body).
     */
    public static final Limits DEFAULT = new Limits(128, 4 * 1024 * 1024, 8 * 1024 * 1024);

    public Limits {
      if (maxDepth < 1 || maxElements < 1 || maxStringLength < 1) {
        throw new IllegalArgumentException("JSON limits must be positive: " + maxDepth + ", " + maxElements + ", "
            + maxStringLength);
      }
    }
  }

  /** The body is not JSON, or exceeds a limit; the message is safe to show the client. */
  public static final class Refused extends Exception {
    public Refused(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The top-level fields of a body. A field given twice counts as its last value, as with a tree.
   *
   * @param object whether the document is a JSON object (nothing else is extracted otherwise)
   * @param model {@code model} when it is a string, else {@code null}
   * @param stream {@code stream} is {@code true}
   * @param cacheSalt {@code cache_salt} when a string, else ""
   * @param maxCompletionTokens {@code max_completion_tokens} when an integer (its int value), else {@code null}
   * @param maxTokens {@code max_tokens} likewise
   * @param maxOutputTokens {@code max_output_tokens} likewise
   * @param messagesNonEmpty {@code messages} is a non-empty array
   * @param itemsNonEmpty {@code items} is a non-empty array
   * @param promptNonEmpty {@code prompt} is a non-empty string or a non-empty array
   * @param inputPresent {@code input} is present and not null
   * @param present which of the other members some API requires ({@link #TRACKED}) are present and not null
   */
  public record Fields(boolean object, String model, boolean stream, String cacheSalt, Integer maxCompletionTokens,
      Integer maxTokens, Integer maxOutputTokens, boolean messagesNonEmpty, boolean itemsNonEmpty,
      boolean promptNonEmpty, boolean inputPresent, Set<String> present) {
    /** What is known of a body that is not read as JSON (a form, or anything passed through): its model at most. */
    public static Fields opaque(String model) {
      return new Fields(false, model, false, "", null, null, null, false, false, false, false, Set.of());
    }

    /** Whether top-level member {@code name}, one of {@link #TRACKED}, is present and not null. */
    public boolean has(String name) {
      return present.contains(name);
    }
  }

  /**
   * The top-level members whose presence {@link Fields#has} reports: what the rerank, score, tokenize and detokenize
   * APIs require (score takes any of four pairs: {@code queries} with {@code documents} or {@code items},
   * {@code data_1} with {@code data_2}, {@code text_1} with {@code text_2}).
   */
  public static final Set<String> TRACKED = Set.of("query", "documents", "text_1", "text_2", "queries", "items",
      "data_1", "data_2", "prompt", "messages", "tokens");

  /**
   * Longest number, in chars, anywhere in a body (Jackson allows 1,000): token ids, floats in any notation and the
   * largest integers real requests carry are far shorter; longer ones would cost big-number arithmetic to parse.
   */
  public static final int MAX_NUMBER_LENGTH = 100;
  /**
   * Longest {@code model}, in chars. Model names become metric labels, log fields and the {@code model} of every
   * rewritten response chunk; real ones (a Hugging Face repo id, a LoRA adapter name) are far shorter.
   */
  public static final int MAX_MODEL_LENGTH = 1024;

  private static final RequestJson DEFAULT = new RequestJson(Limits.DEFAULT);
  private final Limits limits;
  private final JsonFactory factory;

  public RequestJson(Limits limits) {
    this.limits = limits;
    this.factory = JsonFactory.builder()
        .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(limits.maxDepth())
            .maxStringLength(limits.maxStringLength()).maxNameLength(limits.maxStringLength())
            .maxNumberLength(MAX_NUMBER_LENGTH).build())
        .build();
  }

  /** The default limits' reader. */
  public static RequestJson defaults() {
    return DEFAULT;
  }

  public Limits limits() {
    return limits;
  }

  /**
   * Reads a whole body once, checking every limit, and returns its top-level fields. Content after the first JSON
   * value is ignored, as Jackson's {@code readTree} does.
   */
  public Fields scan(byte[] body) throws Refused {
    try (JsonParser p = factory.createParser(body)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        throw new Refused("empty body");
      }
      if (t != JsonToken.START_OBJECT) {
        skipValue(p, t, 0);
        throw new Refused("expected a JSON object");
      }
      Extracted x = new Extracted();
      long values = 0;
      while ((t = p.nextToken()) != JsonToken.END_OBJECT) {
        if (t == null) {
          throw new Refused("Unexpected end-of-input: expected close marker for Object");
        }
        String name = p.currentName();
        t = p.nextToken();
        if (++values > limits.maxElements()) { // the member itself
          throw tooManyElements();
        }
        long before = values;
        values = skipValue(p, t, values); // and what it holds
        x.top(name, p, t, values > before);
      }
      return x.fields();
    } catch (Refused e) {
      throw e;
    } catch (IOException e) {
      String message = e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage()
          : e.getMessage();
      throw new Refused(message);
    }
  }

  private Refused tooManyElements() {
    return new Refused("request body has more than " + limits.maxElements() + " JSON elements (array elements "
        + "and object members)");
  }

  /** What the top-level members said so far; the last of duplicate names wins. */
  private static final class Extracted {
    String model;
    boolean stream;
    String cacheSalt = "";
    Integer maxCompletionTokens;
    Integer maxTokens;
    Integer maxOutputTokens;
    boolean messages;
    boolean items;
    boolean prompt;
    boolean input;
    final Set<String> present = new HashSet<>();

    /**
     * Records top-level member {@code name}; {@code p} is at the end of its value, {@code first} the value's first
     * token, {@code nonEmpty} whether a container value held anything.
     */
    void top(String name, JsonParser p, JsonToken first, boolean nonEmpty) throws IOException, Refused {
      if (TRACKED.contains(name)) {
        if (first == JsonToken.VALUE_NULL) {
          present.remove(name);
        } else {
          present.add(name);
        }
      }
      switch (name) {
        case "model" -> model = first == JsonToken.VALUE_STRING ? model(p) : null;
        case "stream" -> stream = first == JsonToken.VALUE_TRUE;
        case "cache_salt" -> cacheSalt = first == JsonToken.VALUE_STRING ? p.getText() : "";
        case "max_completion_tokens" -> maxCompletionTokens = intValue(p, first);
        case "max_tokens" -> maxTokens = intValue(p, first);
        case "max_output_tokens" -> maxOutputTokens = intValue(p, first);
        case "messages" -> messages = first == JsonToken.START_ARRAY && nonEmpty;
        case "items" -> items = first == JsonToken.START_ARRAY && nonEmpty;
        case "prompt" -> prompt = first == JsonToken.VALUE_STRING ? !p.getText().isEmpty()
            : first == JsonToken.START_ARRAY && nonEmpty;
        case "input" -> input = first != JsonToken.VALUE_NULL;
        default -> { }
      }
    }

    Fields fields() {
      return new Fields(true, model, stream, cacheSalt, maxCompletionTokens, maxTokens, maxOutputTokens, messages,
          items, prompt, input, Set.copyOf(present));
    }

    private static String model(JsonParser p) throws IOException, Refused {
      if (p.getTextLength() > MAX_MODEL_LENGTH) {
        throw new Refused("'model' is longer than " + MAX_MODEL_LENGTH + " characters");
      }
      return p.getText();
    }

    private static Integer intValue(JsonParser p, JsonToken t) throws IOException {
      return t == JsonToken.VALUE_NUMBER_INT ? p.getNumberValue().intValue() : null;
    }
  }

  /**
   * Skips the value starting at {@code t}, counting the elements inside it on top of {@code values}; returns the new
   * count. Every string is decoded (Jackson skips an unread string without checking its length; the body may be read
   * again in full later). Iterative: depth costs no stack (the parser itself refuses what is too deep).
   */
  private long skipValue(JsonParser p, JsonToken t, long values) throws IOException, Refused {
    if (!t.isStructStart()) {
      checkScalar(p, t);
      return values;
    }
    int depth = 1;
    while (depth > 0) {
      JsonToken n = p.nextToken();
      if (n == null) {
        throw new Refused("Unexpected end-of-input: expected close marker");
      }
      if (n.isStructEnd()) {
        depth--;
        continue;
      }
      if (n == JsonToken.FIELD_NAME) {
        continue;
      }
      if (++values > limits.maxElements()) {
        throw tooManyElements();
      }
      if (n.isStructStart()) {
        depth++;
      } else {
        checkScalar(p, n);
      }
    }
    return values;
  }

  /**
   * Applies the string limit to a string token, read or not, and the number limit to a number token (Jackson counts
   * only digits; this counts sign, point and exponent too).
   */
  private void checkScalar(JsonParser p, JsonToken t) throws IOException, Refused {
    if (t.isNumeric() && p.getTextLength() > MAX_NUMBER_LENGTH) {
      throw new Refused("Number value length (" + p.getTextLength() + ") exceeds the maximum allowed ("
          + MAX_NUMBER_LENGTH + ")");
    }
    if (t == JsonToken.VALUE_STRING) {
      int length = p.getTextLength(); // decodes it: Jackson's own check applies past its first buffer
      if (length > limits.maxStringLength()) {
        throw new Refused("String value length (" + length + ") exceeds the maximum allowed ("
            + limits.maxStringLength() + ")");
      }
    }
  }
}
