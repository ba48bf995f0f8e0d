package dev.modelplane.router.request;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.config.PluginRegistry;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.RequestJson;
import dev.modelplane.testsupport.Hostile;
import dev.modelplane.testsupport.Mutations;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * The request parsers ({@link RequestParsers}: OpenAI, Anthropic, rerank/score, tokenizer, audio, passthrough) and
 * the whole request path behind them ({@link RequestDirector#route}) on generated requests, mutations of them and
 * random bytes: a routing decision, or a {@link RouterException} whose status is a 4xx and whose body is an error in
 * the shape of the path's API; never another exception, a 5xx or a hang. A path no parser claims is never refused.
 */
class OpenAiRequestFuzzTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> PATHS = List.of("/v1/chat/completions", "/v1/completions", "/v1/embeddings",
      "/v1/responses", "/v1/conversations", "/v1/chat/completions?x=1", "/", "", "/v1/unknown", "/\u00e9/completions",
      "/v1/messages", "/v1/messages/count_tokens", "/v1/threads/t/messages", "/v1/rerank", "/rerank", "/v2/rerank/",
      "/score", "/v1/score", "/tokenize", "/detokenize", "/v1/audio/transcriptions", "/v1/chat/completions/render");
  private static final Mutations MUTATIONS = new Mutations(List.of("{", "}", "[", "]", "\"", ":", ",", "null",
      "true", "-0", "1e999999", "9".repeat(2000), "\"model\":", "\"messages\":", "\"prompt\":", "\"stream\":",
      "\\u0000", "\\ud800", "[[[[[[[[", "{\"a\":{\"a\":", "\"query\":", "\"documents\":", "\"text_1\":",
      "\"tokens\":"), 1 << 20);
  /** The tree parser's limits (depth 256, no element or string cap), so that both accept the same inputs. */
  private static final RequestJson SAME_LIMITS_AS_TREE = new RequestJson(new RequestJson.Limits(256, Long.MAX_VALUE,
      Integer.MAX_VALUE));
  private static final ScheduledExecutorService FLOW = Executors.newSingleThreadScheduledExecutor();
  private static PoolRegistry pools;
  private static EndpointPool pool;
  private static RequestDirector director;

  @BeforeContainer
  static void start() {
    pools = new PoolRegistry();
    pool = pools.getOrCreate(PoolKey.STATIC);
    pool.setEndpoints(List.of(Endpoint.ofStatic("10.0.0.1", 8000), Endpoint.ofStatic("10.0.0.2", 8000)));
    SchedulingSetup setup = new ConfigLoader(PluginRegistry.builtIn(), PluginEnvironment.direct(), null)
        .load(ConfigLoader.DEFAULT_CONFIG);
    RouterMetrics metrics = new RouterMetrics(pools, System::nanoTime, 2_000_000_000L);
    director = new RequestDirector(setup, metrics, System::nanoTime, FLOW);
  }

  @AfterContainer
  static void stop() {
    FLOW.shutdownNow();
  }

  @Property(tries = 4000, seed = "7331", shrinking = ShrinkingMode.OFF)
  void parserAnswersAValueOrA400(@ForAll("paths") String path, @ForAll("bodies") byte[] valid,
      @ForAll("bodies") byte[] donor, @ForAll("randoms") Random random, @ForAll("modes") String mode) {
    byte[] body = input(mode, valid, donor, random);
    Statistics.label("outcome").collect(Hostile.outcome(() -> {
      TreeReference.Result expected = TreeReference.parse(path, body);
      try {
        RequestParser parser = RequestParsers.defaults().forPath(path);
        LlmRequestBody parsed = parser.parse(body, null, SAME_LIMITS_AS_TREE);
        String model = RequestParsers.model(parser, parsed);
        // Whatever the tree-based parser accepted is accepted, and reads the same.
        assertThat(expected.error()).as("the tree parser refused it").isNull();
        assertThat(parsed.api()).isEqualTo(TreeReference.api(path));
        assertThat(model).isEqualTo(expected.model());
        assertThat(parsed.stream()).isEqualTo(expected.stream());
        assertThat(parsed.cacheSalt()).isEqualTo(expected.cacheSalt());
        assertThat(parsed.maxOutputTokens()).isEqualTo(expected.maxOutputTokens());
        if (!TreeReference.hasDuplicateKeys(body)) {
          assertThat(parsed.userInputBytes()).isEqualTo(expected.userInput());
        }
        // A model is replaced, never added.
        if (parsed.fields().object() && expected.json() != null && expected.json().has("model")) {
          byte[] rewritten = OpenAiRequestParser.withModel(parsed, "rewritten");
          assertThat(JSON.readTree(rewritten)).isEqualTo(expected.rewritten("rewritten"));
        }
        return model;
      } catch (RouterException e) {
        assertThat(expected.error()).as("the tree parser accepted what this one refused: " + e.getMessage())
            .isNotNull();
        assertThat(e.code()).isEqualTo(ErrorCode.BAD_REQUEST);
        assertErrorShape(path, e);
        throw e;
      }
    }, RouterException.class));
  }

  @Property(tries = 2000, seed = "7332", shrinking = ShrinkingMode.OFF)
  void requestPathAnswersADecisionOrA4xx(@ForAll("paths") String path, @ForAll("bodies") byte[] valid,
      @ForAll("bodies") byte[] donor, @ForAll("randoms") Random random, @ForAll("modes") String mode,
      @ForAll("headers") Map<String, String> headers) {
    byte[] body = input(mode, valid, donor, random);
    Statistics.label("outcome").collect(Hostile.outcome(() -> {
      RequestDirector.PendingDecision pending = director.route(new RequestInput(pool, path, new HashMap<>(headers),
          body, null, System.nanoTime()));
      try {
        RoutingDecision d = pending.decision().get(5, TimeUnit.SECONDS);
        director.started(d);
        director.finished(d);
        return d;
      } catch (java.util.concurrent.ExecutionException | CompletionException e) {
        if (!(e.getCause() instanceof RouterException re)) {
          throw new AssertionError("the request path failed with " + e.getCause(), e.getCause());
        }
        assertThat(re.code().httpStatus()).as(re.getMessage()).isBetween(400, 499);
        if (re.code() == ErrorCode.BAD_REQUEST) {
          assertThat(TreeReference.api(path)).as("a path no parser claims is never refused for its body")
              .isNotIn(LlmRequestBody.Api.PASSTHROUGH, LlmRequestBody.Api.AUDIO);
        }
        assertErrorShape(path, re);
        throw re;
      }
    }, RouterException.class));
  }

  /**
   * A parser that refused everything would pass the properties above; this one fails it. Every body built to suit
   * its API parses, whatever its size (up to a few MiB: thousands of messages, megabyte strings, token-id arrays),
   * and reads back what was put in.
   */
  @Property(tries = 60, seed = "7333", shrinking = ShrinkingMode.OFF)
  void validRequestsOfEveryApiParseWhateverTheirSize(@ForAll("randoms") Random r,
      @ForAll("apis") LlmRequestBody.Api api) throws Exception {
    var node = JSON.createObjectNode();
    String model = "model-" + r.nextInt(100) + (r.nextBoolean() ? "-\u00e9" : "");
    node.put("model", model);
    boolean stream = r.nextBoolean();
    node.put("stream", stream);
    int size = switch (r.nextInt(4)) {
      case 0 -> 1;
      case 1 -> 1 + r.nextInt(100);
      case 2 -> 1000 + r.nextInt(10_000);
      default -> 20_000 + r.nextInt(60_000);
    };
    String big = "lorem ipsum \u00e9 ".repeat(r.nextInt(4) == 0 ? 1 + r.nextInt(200_000) : 1 + r.nextInt(10));
    var items = JSON.createArrayNode();
    for (int i = 0; i < size; i++) {
      items.addObject().put("role", i % 2 == 0 ? "user" : "assistant").put("content", i == size - 1 ? big : "m" + i);
    }
    switch (api) {
      case CHAT_COMPLETIONS -> node.set("messages", items);
      case CONVERSATIONS -> node.set("items", items);
      case RESPONSES, EMBEDDINGS -> node.set("input", items);
      case COMPLETIONS, TOKENIZE -> {
        if (r.nextBoolean()) {
          node.put("prompt", big);
        } else {
          var ids = node.putArray("prompt");
          for (int i = 0; i < size; i++) {
            ids.add(r.nextInt(150_000));
          }
        }
      }
      case MESSAGES -> {
        node.set("messages", items);
        node.put("system", "be brief");
      }
      case RERANK -> {
        node.put("query", big);
        var documents = node.putArray("documents");
        items.forEach(m -> documents.add(m.get("content")));
      }
      case SCORE -> {
        String[][] pairs = {{"text_1", "text_2"}, {"queries", "documents"}, {"queries", "items"},
            {"data_1", "data_2"}};
        String[] pair = pairs[r.nextInt(pairs.length)];
        node.put(pair[0], big);
        var texts = node.putArray(pair[1]);
        items.forEach(m -> texts.add(m.get("content")));
      }
      case DETOKENIZE -> {
        var ids = node.putArray("tokens");
        for (int i = 0; i < size; i++) {
          ids.add(r.nextInt(150_000));
        }
      }
      case AUDIO, PASSTHROUGH -> node.set("input", items);
    }
    byte[] body = JSON.writeValueAsBytes(node);
    RequestParser parser = RequestParsers.defaults().forPath(path(api));
    LlmRequestBody parsed = parser.parse(body, "application/json", RequestJson.defaults());
    assertThat(RequestParsers.model(parser, parsed)).isEqualTo(model);
    assertThat(parsed.api()).isEqualTo(api);
    assertThat(parsed.stream()).isEqualTo(stream);
    assertThat(parsed.userInputBytes()).isEqualTo(TreeReference.parse(path(api), body).userInput());
    assertThat(JSON.readTree(OpenAiRequestParser.withModel(parsed, "t")).get("model").asText()).isEqualTo("t");
    Statistics.label("size").collect(body.length < 1 << 16 ? "<64KiB" : body.length < 1 << 20 ? "<1MiB" : ">=1MiB");
  }

  /** A path whose parser reads {@code api}'s bodies. */
  private static String path(LlmRequestBody.Api api) {
    return switch (api) {
      case CONVERSATIONS -> "/v1/conversations";
      case RESPONSES -> "/v1/responses";
      case CHAT_COMPLETIONS -> "/v1/chat/completions";
      case COMPLETIONS -> "/v1/completions";
      case EMBEDDINGS -> "/v1/embeddings";
      case MESSAGES -> "/v1/messages";
      case RERANK -> "/v1/rerank";
      case SCORE -> "/v1/score";
      case TOKENIZE -> "/tokenize";
      case DETOKENIZE -> "/detokenize";
      case AUDIO -> "/v1/audio/transcriptions";
      case PASSTHROUGH -> "/v1/files";
    };
  }

  @Provide
  Arbitrary<LlmRequestBody.Api> apis() {
    return Arbitraries.of(LlmRequestBody.Api.class);
  }

  private static byte[] input(String mode, byte[] valid, byte[] donor, Random random) {
    return switch (mode) {
      case "valid" -> valid;
      case "random" -> {
        byte[] b = new byte[random.nextInt(300)];
        random.nextBytes(b);
        yield b;
      }
      case "nested" -> {
        int depth = 1 + random.nextInt(20_000);
        String open = random.nextBoolean() ? "[" : "{\"a\":";
        yield ("{\"model\":\"m\",\"prompt\":" + open.repeat(depth)).getBytes(StandardCharsets.UTF_8);
      }
      default -> MUTATIONS.mutate(valid, donor, random);
    };
  }

  /** The error body of the path's API: Anthropic's for its Messages API, OpenAI's for any other. */
  private static void assertErrorShape(String path, RouterException e) {
    try {
      JsonNode body = JSON.readTree(RequestParsers.defaults().errorShape(path).body(e.code(), e.getMessage()));
      JsonNode error = body.path("error");
      assertThat(error.path("message").asText()).isNotBlank();
      if (path.contains("/v1/messages")) {
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(error.path("type").asText()).isEqualTo(e.code().anthropicType());
      } else {
        assertThat(error.path("type").asText()).isEqualTo(e.code().openAiType());
      }
    } catch (java.io.IOException io) {
      throw new AssertionError("error body is not JSON", io);
    }
  }

  @Provide
  Arbitrary<String> modes() {
    return Arbitraries.of("valid", "valid", "mutated", "mutated", "mutated", "random", "nested");
  }

  @Provide
  Arbitrary<String> paths() {
    return Arbitraries.of(PATHS);
  }

  @Provide
  Arbitrary<Random> randoms() {
    return Arbitraries.randoms();
  }

  @Provide
  Arbitrary<Map<String, String>> headers() {
    Arbitrary<String> names = Arbitraries.of(RequestDirector.REQUEST_ID, RequestDirector.MODEL_REWRITE,
        RequestDirector.OBJECTIVE, RequestDirector.FAIRNESS_ID, "content-type", "x-other");
    Arbitrary<String> values = Arbitraries.oneOf(Arbitraries.of("", "m", "m2", " ", "\u00e9\u202e", "a".repeat(9000)),
        Arbitraries.strings().ofMaxLength(40));
    return Arbitraries.maps(names, values).ofMaxSize(4);
  }

  @Provide
  Arbitrary<byte[]> bodies() {
    return Arbitraries.randoms().map(OpenAiRequestFuzzTest::body);
  }

  /** A plausible request of any API: chat, completions, embeddings, responses, conversations, messages, rerank, …. */
  private static byte[] body(Random r) {
    var node = JSON.createObjectNode();
    if (r.nextInt(5) > 0) {
      node.put("model", r.nextBoolean() ? "m" : "model-\u00e9\ud83d\ude00");
    }
    if (r.nextBoolean()) {
      node.put("stream", r.nextBoolean());
    }
    if (r.nextInt(4) == 0) {
      node.put("cache_salt", "salt" + r.nextInt(3));
    }
    String text = "hello ".repeat(r.nextInt(20)) + "\u00e9";
    // Each API's field most of the time, so that most valid bodies suit whichever path they are sent to.
    if (r.nextInt(4) > 0) {
      node.putArray("messages").addObject().put("role", "user").put("content", text);
    }
    if (r.nextInt(4) > 0) {
      if (r.nextBoolean()) {
        node.put("prompt", text);
      } else {
        node.putArray("prompt").add(text).add(r.nextInt(1000));
      }
    }
    if (r.nextInt(4) > 0) {
      if (r.nextBoolean()) {
        node.put("input", text);
      } else {
        node.putArray("input").addObject().put("role", "user").put("content", text);
        node.put("instructions", "be brief");
      }
    }
    if (r.nextInt(4) > 0) {
      node.putArray("items").addObject().put("type", "message").put("content", text);
    }
    if (r.nextInt(3) == 0) {
      node.put("query", text);
      node.putArray("documents").add(text).add("other");
    }
    if (r.nextInt(3) == 0) {
      node.put("text_1", text);
      node.put("text_2", r.nextBoolean() ? text : null);
    }
    if (r.nextInt(3) == 0) {
      node.putArray("tokens").add(r.nextInt(1000)).add(1);
    }
    if (r.nextInt(4) == 0) {
      node.put("system", "be brief");
    }
    if (r.nextInt(4) == 0) {
      node.put("max_tokens", r.nextInt());
    }
    return node.toString().getBytes(StandardCharsets.UTF_8);
  }
}
