package dev.modelplane.router.prefix.precise;

import dev.modelplane.common.kvevents.ZmqEndpoint;
import dev.modelplane.router.plugin.PluginParameters;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Parameters of {@code precise-prefix-cache-scorer}, with llm-d's names.
 *
 * @param blockSize tokens per KV block; must equal the servers' {@code --block-size} ({@code tokenProcessorConfig.
 *     blockSize}, alias {@code blockSizeTokens}; 16, vLLM's default)
 * @param hashSeed the servers' {@code PYTHONHASHSEED} ({@code tokenProcessorConfig.hashSeed}; "")
 * @param zmqEndpoint the address to bind when servers connect to the router ({@code kvEventsConfig.zmqEndpoint};
 *     {@code tcp://*:5557})
 * @param topicFilter the topic prefix read ({@code kvEventsConfig.topicFilter}; {@code kv@})
 * @param discoverPods read each endpoint's own publisher (true, the default) rather than binding {@code zmqEndpoint}
 *     ({@code kvEventsConfig.discoverPods})
 * @param socketPort the port of each endpoint's publisher ({@code kvEventsConfig.podDiscoveryConfig.socketPort};
 *     5557, vLLM's default)
 * @param replayPort the port of each endpoint's replay socket, 0 for none ({@code kvEventsConfig.podDiscoveryConfig.
 *     replayPort}; 0)
 * @param indexSize block keys kept per pool ({@code indexerConfig.kvBlockIndexConfig.inMemoryConfig.size}; 500,000)
 * @param podCacheSize endpoints kept per block key ({@code inMemoryConfig.podCacheSize}; 10)
 * @param speculativeIndexing count a picked endpoint as holding the request's blocks until its events arrive
 *     ({@code speculativeIndexing}; false)
 * @param speculativeTtl how long such a guess lasts ({@code speculativeTTL}; 2s)
 */
public record PrecisePrefixConfig(int blockSize, String hashSeed, String zmqEndpoint, String topicFilter,
    boolean discoverPods, int socketPort, int replayPort, int indexSize, int podCacheSize,
    boolean speculativeIndexing, Duration speculativeTtl) {

  /** Block keys per pool: about 330 bytes of heap each with one endpoint, so some 165 MB when full. */
  public static final int DEFAULT_INDEX_SIZE = 500_000;

  public static final PrecisePrefixConfig DEFAULT = new PrecisePrefixConfig(16, "", "tcp://*:5557", "kv@", true,
      5557, 0, DEFAULT_INDEX_SIZE, 10, false, Duration.ofSeconds(2));

  private static final Pattern TCP = Pattern.compile("tcp://(\\*|\\[[0-9A-Fa-f:.]+]|[^:/\\s\\[\\]]+):(\\d{1,5})");
  private static final List<String> OTHER_INDEXES = List.of("redisConfig", "valkeyConfig", "costAwareMemoryConfig");

  /** Reads the plugin's parameters; anything out of range is an error naming the parameter. */
  public static PrecisePrefixConfig from(PluginParameters p) {
    PrecisePrefixConfig d = DEFAULT;
    PluginParameters tokens = p.object("tokenProcessorConfig");
    int blockSize = within("tokenProcessorConfig", () -> blockSize(tokens, d.blockSize()));
    String hashSeed = within("tokenProcessorConfig", () -> tokens.text("hashSeed", d.hashSeed()));

    PluginParameters events = p.object("kvEventsConfig");
    PluginParameters discovery = within("kvEventsConfig", () -> events.object("podDiscoveryConfig"));
    Settings e = within("kvEventsConfig", () -> new Settings(events.text("zmqEndpoint", d.zmqEndpoint()),
        string(events, "topicFilter", d.topicFilter()), events.boolValue("discoverPods", d.discoverPods()),
        atLeast(events, "concurrency", 4, 1), events.text("engineType", "vllm")));
    if (!e.engineType().equals("vllm")) {
      throw new IllegalArgumentException("kvEventsConfig: engineType \"" + e.engineType()
          + "\" is not supported; the router reads vLLM's events (engineType: vllm)");
    }
    checkEndpoint(e.zmqEndpoint(), e.discoverPods());
    int[] ports = within("kvEventsConfig.podDiscoveryConfig", () -> {
      // The pool's endpoints are the pods to read; a selector and namespace of their own are accepted, not used.
      string(discovery, "podLabelSelector", "");
      string(discovery, "podNamespace", "");
      return new int[] {port(discovery, "socketPort", d.socketPort(), 1),
          port(discovery, "replayPort", d.replayPort(), 0)};
    });
    if (ports[1] == ports[0]) {
      throw new IllegalArgumentException("kvEventsConfig.podDiscoveryConfig: replayPort must differ from socketPort ("
          + ports[0] + "): a server's replay socket has its own port");
    }

    PluginParameters index = within("indexerConfig", () -> p.object("indexerConfig").object("kvBlockIndexConfig"));
    for (String other : OTHER_INDEXES) {
      if (index.has(other)) {
        throw new IllegalArgumentException("indexerConfig.kvBlockIndexConfig: " + other
            + " is not supported; the index is kept in the router's memory (inMemoryConfig)");
      }
    }
    PluginParameters memory = within("indexerConfig.kvBlockIndexConfig", () -> index.object("inMemoryConfig"));
    int[] bounds = within("indexerConfig.kvBlockIndexConfig.inMemoryConfig", () -> new int[] {
        atLeast(memory, "size", d.indexSize(), 1), atLeast(memory, "podCacheSize", d.podCacheSize(), 1)});

    boolean speculative = p.boolValue("speculativeIndexing", d.speculativeIndexing());
    Duration ttl = p.duration("speculativeTTL", d.speculativeTtl());
    if (ttl.isZero()) {
      throw new IllegalArgumentException("parameter 'speculativeTTL' must be longer than 0s");
    }
    return new PrecisePrefixConfig(blockSize, hashSeed, e.zmqEndpoint(), e.topicFilter(), e.discoverPods(), ports[0],
        ports[1], bounds[0], bounds[1], speculative, ttl);
  }

  /** {@code kvEventsConfig}'s scalar settings; {@code concurrency} is checked and then not needed (one reader). */
  private record Settings(String zmqEndpoint, String topicFilter, boolean discoverPods, int concurrency,
      String engineType) {
  }

  /** {@code blockSize}, or its newer name {@code blockSizeTokens}; both must agree when both are given. */
  private static int blockSize(PluginParameters tokens, int fallback) {
    int size = atLeast(tokens, "blockSize", fallback, 1);
    int tokensName = atLeast(tokens, "blockSizeTokens", size, 1);
    if (tokens.has("blockSize") && tokens.has("blockSizeTokens") && size != tokensName) {
      throw new IllegalArgumentException("blockSize (" + size + ") and blockSizeTokens (" + tokensName
          + ") name the same setting and must agree");
    }
    return tokensName;
  }

  private static void checkEndpoint(String endpoint, boolean discover) {
    boolean local = endpoint.startsWith("ipc://") || endpoint.startsWith("inproc://");
    var m = TCP.matcher(endpoint);
    if (!local && (!m.matches() || Integer.parseInt(m.group(2)) > 65_535)) {
      throw new IllegalArgumentException("kvEventsConfig: zmqEndpoint \"" + endpoint
          + "\" is not a ZeroMQ address like tcp://*:5557 or ipc:///path");
    }
    if (!discover && !ZmqEndpoint.binds(endpoint)) {
      throw new IllegalArgumentException("kvEventsConfig: with discoverPods false the router binds zmqEndpoint and "
          + "the servers connect to it, so it must be an address to bind such as tcp://*:5557, not \"" + endpoint
          + "\"");
    }
  }

  private static int port(PluginParameters p, String field, int fallback, int min) {
    int port = p.intValue(field, fallback);
    if (port < min || port > 65_535) {
      throw new IllegalArgumentException("parameter '" + field + "' must be a port from " + min + " to 65535, got "
          + port);
    }
    return port;
  }

  private static int atLeast(PluginParameters p, String field, int fallback, int min) {
    int value = p.intValue(field, fallback);
    if (value < min) {
      throw new IllegalArgumentException("parameter '" + field + "' must be at least " + min + ", got " + value);
    }
    return value;
  }

  /** A string that may be empty; numbers and booleans are taken as their text. */
  private static String string(PluginParameters p, String field, String fallback) {
    if (!p.has(field)) {
      return fallback;
    }
    var v = p.json().get(field);
    if (!v.isValueNode()) {
      throw new IllegalArgumentException("parameter '" + field + "' must be a string, got " + v);
    }
    return v.asText();
  }

  /** Runs a read of a nested section, naming the section in its error. */
  private static <T> T within(String section, java.util.function.Supplier<T> read) {
    try {
      return read.get();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(section + ": " + e.getMessage(), e);
    }
  }
}
