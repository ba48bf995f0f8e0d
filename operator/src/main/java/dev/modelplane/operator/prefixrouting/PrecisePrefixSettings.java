package dev.modelplane.operator.prefixrouting;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.modelplane.common.kvevents.ZmqEndpoint;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the model servers of a pool must agree on with the pool's {@code precise-prefix-cache-scorer}, read from the
 * picker's EndpointPickerConfig under llm-d's parameter names. The defaults are the router's (its
 * {@code PrecisePrefixConfig}): vLLM's block size 16, no hash seed, each server's own socket on 5557. Only what the
 * servers' flags depend on is read; the router checks the rest of the parameters when it starts.
 *
 * @param blockSize {@code tokenProcessorConfig.blockSize} (or {@code blockSizeTokens}): the servers'
 *     {@code --block-size}
 * @param hashSeed {@code tokenProcessorConfig.hashSeed}: the servers' {@code PYTHONHASHSEED}
 * @param discoverPods {@code kvEventsConfig.discoverPods}: the picker reads each server's socket (true) or binds
 *     {@code zmqEndpoint} for the servers to connect to (false)
 * @param socketPort {@code kvEventsConfig.podDiscoveryConfig.socketPort}: the port each server binds (discovery)
 * @param replayPort {@code kvEventsConfig.podDiscoveryConfig.replayPort}: each server's replay socket, 0 for none
 * @param zmqEndpoint {@code kvEventsConfig.zmqEndpoint}: the address the picker binds (central)
 */
public record PrecisePrefixSettings(int blockSize, String hashSeed, boolean discoverPods, int socketPort,
    int replayPort, String zmqEndpoint) {
  /** The scorer's plugin type. */
  public static final String SCORER = "precise-prefix-cache-scorer";
  static final PrecisePrefixSettings DEFAULT = new PrecisePrefixSettings(16, "", true, 5557, 0, "tcp://*:5557");
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Pattern TCP = Pattern.compile("tcp://(\\*|\\[[0-9A-Fa-f:.]+]|[^:/\\s\\[\\]]+):(\\d{1,5})");

  /**
   * The settings of the first {@value #SCORER} among the config's plugins, or empty when it declares none.
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
      if (SCORER.equals(plugin.path("type").asText())) {
        return Optional.of(read(plugin.path("parameters")));
      }
    }
    return Optional.empty();
  }

  private static PrecisePrefixSettings read(JsonNode p) {
    PrecisePrefixSettings d = DEFAULT;
    JsonNode tokens = p.path("tokenProcessorConfig");
    int blockSize = number(tokens, "blockSizeTokens", number(tokens, "blockSize", d.blockSize(), 1, Integer.MAX_VALUE),
        1, Integer.MAX_VALUE);
    JsonNode seedNode = tokens.path("hashSeed");
    String seed = seedNode.isValueNode() && !seedNode.isNull() ? seedNode.asText() : d.hashSeed();
    JsonNode events = p.path("kvEventsConfig");
    boolean discover = events.path("discoverPods").isBoolean() ? events.path("discoverPods").asBoolean()
        : d.discoverPods();
    if (events.has("discoverPods") && !events.path("discoverPods").isBoolean()) {
      throw new IllegalArgumentException(SCORER + ": kvEventsConfig.discoverPods must be true or false, got "
          + events.path("discoverPods"));
    }
    JsonNode discovery = events.path("podDiscoveryConfig");
    int socket = number(discovery, "socketPort", d.socketPort(), 1, 65_535);
    int replay = number(discovery, "replayPort", d.replayPort(), 0, 65_535);
    String endpoint = events.path("zmqEndpoint").isTextual() ? events.path("zmqEndpoint").asText() : d.zmqEndpoint();
    return new PrecisePrefixSettings(blockSize, seed, discover, socket, replay, endpoint);
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

  private static int number(JsonNode section, String field, int fallback, int min, int max) {
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
      throw new IllegalArgumentException(SCORER + ": parameter '" + field + "' must be a whole number, got " + v);
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException(SCORER + ": parameter '" + field + "' must be from " + min + " to " + max
          + ", got " + value);
    }
    return value;
  }
}
