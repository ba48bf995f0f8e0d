package dev.modelplane.operator.prefixrouting;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.modelplane.common.kvevents.ZmqEndpoint;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the model servers of a pool must agree on with the pool's {@code precise-prefix-cache-scorer} (or llm-d's
 * current form of it, {@code precise-prefix-cache-producer}), read from the picker's EndpointPickerConfig under
 * llm-d's parameter names. The defaults are the router's (its {@code PrecisePrefixConfig}): vLLM's block size 16,
 * no hash seed, each server's own socket on 5557, topics {@code kv@...}. Only what the servers' flags depend on is
 * read; the router checks the rest of the parameters when it starts.
 *
 * @param blockSize {@code tokenProcessorConfig.blockSize} (or {@code blockSizeTokens}; both must agree): the
 *     servers' {@code --block-size}
 * @param hashSeed {@code tokenProcessorConfig.hashSeed}, "" or a whole number from 0 to 4294967295: the servers'
 *     {@code PYTHONHASHSEED}
 * @param discoverPods {@code kvEventsConfig.discoverPods}: the picker reads each server's socket (true) or binds
 *     {@code zmqEndpoint} for the servers to connect to (false)
 * @param socketPort {@code kvEventsConfig.podDiscoveryConfig.socketPort}: the port each server binds (discovery)
 * @param replayPort {@code kvEventsConfig.podDiscoveryConfig.replayPort}: each server's replay socket, 0 for none
 * @param zmqEndpoint {@code kvEventsConfig.zmqEndpoint}: the address the picker binds (central)
 * @param topicFilter {@code kvEventsConfig.topicFilter}: the topic prefix the picker receives ({@code kv@})
 */
public record PrecisePrefixSettings(int blockSize, String hashSeed, boolean discoverPods, int socketPort,
    int replayPort, String zmqEndpoint, String topicFilter) {
  /** The scorer's plugin type. */
  public static final String SCORER = "precise-prefix-cache-scorer";
  /** llm-d's current form: the index as a producer, scored by {@code prefix-cache-scorer}. */
  public static final String PRODUCER = "precise-prefix-cache-producer";
  static final PrecisePrefixSettings DEFAULT = new PrecisePrefixSettings(16, "", true, 5557, 0, "tcp://*:5557", "kv@");
  /** The largest {@code PYTHONHASHSEED} Python accepts. */
  static final long MAX_SEED = 4_294_967_295L;
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Pattern TCP = Pattern.compile("tcp://(\\*|\\[[0-9A-Fa-f:.]+]|[^:/\\s\\[\\]]+):(\\d{1,5})");

  /**
   * The settings of the first {@value #SCORER} or {@value #PRODUCER} among the config's plugins, or empty when it
   * declares neither.
   *
   * @throws IllegalArgumentException when the YAML cannot be read, or a parameter the servers' flags depend on has
   *     the wrong type or is out of range, naming the parameter
   */
  public static Optional<PrecisePrefixSettings> of(String pickerConfigYaml) {
    JsonNode root;
    try {
      root = YAML.readTree(pickerConfigYaml);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the EndpointPickerConfig is not YAML: " + e.getOriginalMessage());
    }
    if (root == null || !root.path("plugins").isArray()) {
      return Optional.empty();
    }
    for (JsonNode plugin : root.path("plugins")) {
      String type = plugin.path("type").asText();
      if (SCORER.equals(type) || PRODUCER.equals(type)) {
        return Optional.of(read(type, plugin.path("parameters")));
      }
    }
    return Optional.empty();
  }

  private static PrecisePrefixSettings read(String type, JsonNode p) {
    PrecisePrefixSettings d = DEFAULT;
    JsonNode tokens = p.path("tokenProcessorConfig");
    int blockSize = number(type, tokens, "blockSize", d.blockSize(), 1, Integer.MAX_VALUE);
    int blockSizeTokens = number(type, tokens, "blockSizeTokens", blockSize, 1, Integer.MAX_VALUE);
    if (present(tokens, "blockSize") && present(tokens, "blockSizeTokens") && blockSize != blockSizeTokens) {
      throw new IllegalArgumentException(type + ": tokenProcessorConfig.blockSize " + blockSize + " and its alias "
          + "blockSizeTokens " + blockSizeTokens + " differ, and the router refuses such a configuration; give one");
    }
    String seed = seed(type, tokens.path("hashSeed"));
    JsonNode events = p.path("kvEventsConfig");
    boolean discover = events.path("discoverPods").isBoolean() ? events.path("discoverPods").asBoolean()
        : d.discoverPods();
    if (events.has("discoverPods") && !events.path("discoverPods").isBoolean()) {
      throw new IllegalArgumentException(type + ": kvEventsConfig.discoverPods must be true or false, got "
          + events.path("discoverPods"));
    }
    JsonNode discovery = events.path("podDiscoveryConfig");
    int socket = number(type, discovery, "socketPort", d.socketPort(), 1, 65_535);
    int replay = number(type, discovery, "replayPort", d.replayPort(), 0, 65_535);
    String endpoint = events.path("zmqEndpoint").isTextual() ? events.path("zmqEndpoint").asText() : d.zmqEndpoint();
    String filter = events.path("topicFilter").isTextual() ? events.path("topicFilter").asText() : d.topicFilter();
    return new PrecisePrefixSettings(blockSizeTokens, seed, discover, socket, replay, endpoint, filter);
  }

  /** The ports each server binds in discovery mode: {@code socketPort}, and {@code replayPort} when set. */
  public List<Integer> serverPorts() {
    return replayPort > 0 ? List.of(socketPort, replayPort) : List.of(socketPort);
  }

  /**
   * The port the picker binds in central mode, or -1 when {@code zmqEndpoint} is not a TCP address a server in
   * another pod can reach ({@code ipc://}, {@code inproc://}, or one that does not bind).
   */
  public int centralPort() {
    Matcher m = TCP.matcher(zmqEndpoint);
    if (!m.matches() || !ZmqEndpoint.binds(zmqEndpoint)) {
      return -1;
    }
    int port = Integer.parseInt(m.group(2));
    return port >= 1 && port <= 65_535 ? port : -1;
  }

  private static boolean present(JsonNode section, String field) {
    return !section.path(field).isMissingNode() && !section.path(field).isNull();
  }

  /**
   * {@code hashSeed} as the servers' {@code PYTHONHASHSEED}: CPython refuses to start with anything but
   * {@code random} or a whole number from 0 to {@value #MAX_SEED}, and {@code random} gives each server process
   * hashes of its own, which the router's never equal.
   */
  private static String seed(String type, JsonNode v) {
    if (v.isMissingNode() || v.isNull()) {
      return DEFAULT.hashSeed();
    }
    String text = v.isValueNode() ? v.asText().strip() : v.toString();
    if (v.isValueNode() && (text.isEmpty() || text.matches("\\d{1,10}") && Long.parseLong(text) <= MAX_SEED)) {
      return text;
    }
    throw new IllegalArgumentException(type + ": parameter 'hashSeed' must be a whole number from 0 to " + MAX_SEED
        + " (the servers' PYTHONHASHSEED, which Python refuses otherwise" + (text.equals("random")
            ? "; random gives each server process hashes of its own" : "") + "), got " + v);
  }

  private static int number(String type, JsonNode section, String field, int fallback, int min, int max) {
    JsonNode v = section.path(field);
    if (v.isMissingNode() || v.isNull()) {
      return fallback;
    }
    int value;
    if (v.isIntegralNumber() && v.canConvertToInt()) {
      value = v.intValue();
    } else if (v.isTextual() && v.asText().strip().matches("-?\\d{1,9}")) {
      value = Integer.parseInt(v.asText().strip());
    } else {
      throw new IllegalArgumentException(type + ": parameter '" + field + "' must be a whole number, got " + v);
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException(type + ": parameter '" + field + "' must be from " + min + " to " + max
          + ", got " + value);
    }
    return value;
  }
}
