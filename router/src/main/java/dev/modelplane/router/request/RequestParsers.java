package dev.modelplane.router.request;

import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.LlmRequestBody.Api;
import dev.modelplane.router.scheduling.RequestJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Which parser reads a request, as llm-d's parser registry decides: the parser claiming the longest suffix of the
 * path (whole segments; the query and a trailing slash ignored), else the passthrough fallback, which also takes
 * every method but POST. The default registry holds:
 * <ul>
 *   <li>OpenAI ({@link OpenAiRequestParser}): chat/completions, completions (and their {@code /render}), responses,
 *       conversations, embeddings;</li>
 *   <li>Anthropic: {@code v1/messages} (non-empty {@code messages} and a model; errors in Anthropic's shape), and
 *       {@code v1/messages/count_tokens}, passed through (claimed with their version, unlike llm-d, so that another
 *       API's {@code …/messages} is not taken for Anthropic's);</li>
 *   <li>vLLM's {@code rerank} (a {@code query} and {@code documents}), {@code score} (any of its four pairs:
 *       {@code queries} and {@code documents}, {@code queries} and {@code items}, {@code data_1} and {@code data_2},
 *       {@code text_1} and {@code text_2}), {@code tokenize} (a {@code prompt}, even empty, or {@code messages})
 *       and {@code detokenize} ({@code tokens}), whose model is optional as vLLM's is;</li>
 *   <li>audio transcriptions and translations ({@link AudioRequestParser}).</li>
 * </ul>
 */
public final class RequestParsers {
  private static final RequestParsers DEFAULT = new RequestParsers(defaultParsers(), PassthroughParser.FALLBACK);

  private final Map<String, RequestParser> bySuffix = new LinkedHashMap<>();
  private final RequestParser fallback;

  /**
   * A registry of {@code parsers}; a suffix claimed twice goes to the first claimant.
   *
   * @param fallback reads what no parser claims
   */
  RequestParsers(List<RequestParser> parsers, RequestParser fallback) {
    for (RequestParser p : parsers) {
      for (String suffix : p.paths()) {
        bySuffix.putIfAbsent(suffix, p);
      }
    }
    this.fallback = fallback;
  }

  /** The router's registry. */
  public static RequestParsers defaults() {
    return DEFAULT;
  }

  private static List<RequestParser> defaultParsers() {
    List<RequestParser> parsers = new ArrayList<>(OpenAiRequestParser.PARSERS);
    parsers.add(new JsonApiParser(Api.MESSAGES, List.of("v1/messages"), f -> f.messagesNonEmpty(),
        "invalid messages request: must have at least one message", true, ErrorShape.ANTHROPIC, true));
    parsers.add(new PassthroughParser(List.of("v1/messages/count_tokens"), ErrorShape.ANTHROPIC));
    parsers.add(optionalModel(Api.RERANK, "rerank", f -> f.has("query") && f.has("documents"),
        "invalid rerank request: must have query and documents fields"));
    parsers.add(optionalModel(Api.SCORE, "score", f -> LlmRequestBody.scorePair(f) != null,
        "invalid score request: must have queries and documents, queries and items, data_1 and data_2, or text_1 "
            + "and text_2 fields"));
    parsers.add(optionalModel(Api.TOKENIZE, "tokenize", f -> f.has("prompt") || f.has("messages"),
        "invalid tokenize request: must have prompt or messages field"));
    parsers.add(optionalModel(Api.DETOKENIZE, "detokenize", f -> f.has("tokens"),
        "invalid detokenize request: must have tokens field"));
    parsers.add(new AudioRequestParser());
    return List.copyOf(parsers);
  }

  private static RequestParser optionalModel(Api api, String path,
      Predicate<RequestJson.Fields> valid, String invalid) {
    return new JsonApiParser(api, List.of(path), valid, invalid, false, ErrorShape.OPENAI,
        api != Api.TOKENIZE && api != Api.DETOKENIZE);
  }

  /** The parser claiming the longest suffix of {@code path}; the fallback when none does. */
  public RequestParser forPath(String path) {
    String p = path == null ? "" : path;
    int query = p.indexOf('?');
    if (query >= 0) {
      p = p.substring(0, query);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    RequestParser best = fallback;
    int longest = -1;
    for (Map.Entry<String, RequestParser> e : bySuffix.entrySet()) {
      String suffix = e.getKey();
      if (suffix.length() > longest && p.endsWith("/" + suffix)) {
        best = e.getValue();
        longest = suffix.length();
      }
    }
    return best;
  }

  /** The parser of a request: {@link #forPath} for a POST (or no method given), the fallback for any other. */
  public RequestParser forRequest(String method, String path) {
    return method == null || method.isEmpty() || method.equals("POST") ? forPath(path) : fallback;
  }

  /**
   * The shape of the errors answered to a request for {@code path}, whatever its method: Anthropic's for any path at
   * or under {@code /v1/messages} (as normalized by {@link PathPolicy#normalize}, the raw path when it cannot be),
   * else that of the path's parser.
   */
  public ErrorShape errorShape(String path) {
    String p = path == null ? "" : path;
    int query = p.indexOf('?');
    if (query >= 0) {
      p = p.substring(0, query);
    }
    try {
      p = PathPolicy.normalize(p);
    } catch (RouterException e) {
      // a path refused as malformed still gets an answer, in the shape its raw form suggests
    }
    if (p.endsWith("/v1/messages") || p.endsWith("/v1/messages/") || p.contains("/v1/messages/")) {
      return ErrorShape.ANTHROPIC;
    }
    return forPath(p).errorShape();
  }

  /**
   * The {@code model} field of a {@code multipart/form-data} body (an audio upload), or {@code null}: another content
   * type, or no such field.
   */
  public static String multipartModel(String contentType, byte[] body) {
    return AudioRequestParser.multipartModel(contentType, body);
  }

  /**
   * The model a parsed request names: a 400 when its parser requires one and it is missing, else "" for none.
   */
  public static String model(RequestParser parser, LlmRequestBody body) {
    if (parser.requiresModel()) {
      return OpenAiRequestParser.model(body);
    }
    String model = body.fields().model();
    return model == null ? "" : model;
  }
}
