package dev.modelplane.common.kvevents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * vLLM's {@code --kv-events-config}: a JSON object whose keys and defaults are vLLM's, so a server's flags carry over
 * unchanged.
 *
 * @param enabled {@code enable_kv_cache_events}; nothing is published unless true
 * @param publisher {@code publisher}: {@code zmq} (the default once enabled) or {@code null}
 * @param endpoint {@code endpoint}: where the PUB socket binds (an address with {@code *}, {@code ::}, {@code ipc://}
 *     or {@code inproc://}) or connects (any other, e.g. a central subscriber)
 * @param replayEndpoint {@code replay_endpoint}: where a ROUTER socket binds to resend past batches, or null for none
 * @param bufferSteps {@code buffer_steps}: how many past batches the replay socket keeps
 * @param hwm {@code hwm}: the PUB socket's send high-water mark, in messages
 * @param maxQueueSize {@code max_queue_size}: batches waiting for the publishing thread before new ones are dropped
 * @param topic {@code topic}: the first frame of every message; subscribers filter on its prefix
 */
public record KvEventsConfig(boolean enabled, String publisher, String endpoint, String replayEndpoint,
    int bufferSteps, int hwm, int maxQueueSize, String topic) {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> KEYS = Set.of("enable_kv_cache_events", "publisher", "endpoint",
      "replay_endpoint", "buffer_steps", "hwm", "max_queue_size", "topic");

  /** Publishing turned off: what a server without the flag does. */
  public static final KvEventsConfig DISABLED = new KvEventsConfig(false, "null", "tcp://*:5557", null, 10_000,
      100_000, 100_000, "");

  /** True when events are enabled and go to a ZeroMQ publisher. */
  public boolean publishes() {
    return enabled && publisher.equals("zmq");
  }

  /**
   * Reads the flag's JSON value.
   *
   * @throws IllegalArgumentException naming the key, when the JSON is not an object, a key is unknown, a value has
   *     the wrong type or is out of range
   */
  public static KvEventsConfig parse(String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("--kv-events-config is not JSON: " + e.getOriginalMessage());
    }
    if (!(root instanceof ObjectNode object)) {
      throw new IllegalArgumentException("--kv-events-config must be a JSON object, e.g. "
          + "{\"enable_kv_cache_events\": true, \"endpoint\": \"tcp://*:5557\"}");
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      String key = it.next().getKey();
      if (!KEYS.contains(key)) {
        throw new IllegalArgumentException("--kv-events-config: unknown key \"" + key + "\"; known: "
            + KEYS.stream().sorted().toList());
      }
    }
    boolean enabled = bool(object, "enable_kv_cache_events", false);
    String publisher = string(object, "publisher", enabled ? "zmq" : "null");
    if (!publisher.equals("zmq") && !publisher.equals("null")) {
      throw new IllegalArgumentException("--kv-events-config: publisher \"" + publisher
          + "\" is not supported; use \"zmq\" or \"null\"");
    }
    String endpoint = string(object, "endpoint", DISABLED.endpoint());
    ZmqEndpoint.check("endpoint", endpoint);
    String replay = string(object, "replay_endpoint", null);
    if (replay != null) {
      ZmqEndpoint.check("replay_endpoint", replay);
    }
    return new KvEventsConfig(enabled, publisher, endpoint, replay,
        positive(object, "buffer_steps", DISABLED.bufferSteps()), positive(object, "hwm", DISABLED.hwm()),
        positive(object, "max_queue_size", DISABLED.maxQueueSize()), string(object, "topic", ""));
  }

  /**
   * The settings of data-parallel rank {@code rank}: vLLM gives each rank its own ports (the port plus the rank) and
   * keeps the topic.
   */
  public KvEventsConfig forRank(int rank) {
    return new KvEventsConfig(enabled, publisher, ZmqEndpoint.offsetPort(endpoint, rank),
        replayEndpoint == null ? null : ZmqEndpoint.offsetPort(replayEndpoint, rank), bufferSteps, hwm, maxQueueSize,
        topic);
  }

  private static boolean bool(ObjectNode o, String key, boolean fallback) {
    JsonNode v = o.get(key);
    if (v == null || v.isNull()) {
      return fallback;
    }
    if (!v.isBoolean()) {
      throw new IllegalArgumentException("--kv-events-config: " + key + " must be true or false, not " + v);
    }
    return v.booleanValue();
  }

  private static String string(ObjectNode o, String key, String fallback) {
    JsonNode v = o.get(key);
    if (v == null || v.isNull()) {
      return fallback;
    }
    if (!v.isTextual()) {
      throw new IllegalArgumentException("--kv-events-config: " + key + " must be a string, not " + v);
    }
    return v.textValue();
  }

  private static int positive(ObjectNode o, String key, int fallback) {
    JsonNode v = o.get(key);
    if (v == null || v.isNull()) {
      return fallback;
    }
    if (!v.canConvertToInt() || !v.isIntegralNumber() || v.intValue() < 1) {
      throw new IllegalArgumentException("--kv-events-config: " + key + " must be a positive integer, not " + v);
    }
    return v.intValue();
  }
}
