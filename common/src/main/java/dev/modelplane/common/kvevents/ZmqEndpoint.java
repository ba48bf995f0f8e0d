package dev.modelplane.common.kvevents;

import java.util.regex.Pattern;

/** ZeroMQ endpoint addresses as vLLM's KV-event publisher treats them. */
public final class ZmqEndpoint {
  private static final Pattern TCP = Pattern.compile("tcp://(\\*|\\[[0-9A-Fa-f:.]+\\]|[^:/\\s]+):(\\d{1,5})");

  private ZmqEndpoint() {
  }

  /**
   * Whether a publisher binds {@code endpoint} (an address with a wildcard or a local transport) rather than
   * connecting to it: vLLM's rule, so the same flag means the same thing here.
   */
  public static boolean binds(String endpoint) {
    return endpoint.contains("*") || endpoint.contains("::") || endpoint.startsWith("ipc://")
        || endpoint.startsWith("inproc://");
  }

  /** {@code endpoint} for data-parallel rank {@code rank}: a TCP port plus the rank, a local name with a suffix. */
  public static String offsetPort(String endpoint, int rank) {
    if (rank == 0) {
      return endpoint;
    }
    if (endpoint.startsWith("tcp://")) {
      int colon = endpoint.lastIndexOf(':');
      return endpoint.substring(0, colon + 1) + (Integer.parseInt(endpoint.substring(colon + 1)) + rank);
    }
    return endpoint + "_dp" + rank;
  }

  /**
   * {@code endpoint} with its wildcard host narrowed to {@code host} when that is one address: a server told to listen
   * on one address binds its event sockets there too, so servers sharing a machine on different loopback addresses
   * can all use the same port. Anything else is returned unchanged.
   */
  public static String onHost(String endpoint, String host) {
    if (host == null || host.equals("0.0.0.0") || host.equals("::") || !endpoint.startsWith("tcp://*:")) {
      return endpoint;
    }
    return "tcp://" + (host.contains(":") ? "[" + host + "]" : host) + endpoint.substring("tcp://*".length());
  }

  /** Rejects an endpoint ZeroMQ would not take, naming the setting. */
  static void check(String setting, String endpoint) {
    if (endpoint.startsWith("ipc://") || endpoint.startsWith("inproc://")) {
      return;
    }
    var m = TCP.matcher(endpoint);
    if (!m.matches() || Integer.parseInt(m.group(2)) > 65_535) {
      throw new IllegalArgumentException("--kv-events-config: " + setting + " \"" + endpoint
          + "\" is not a ZeroMQ address like tcp://*:5557, tcp://127.0.0.1:5557 or ipc:///path");
    }
  }
}
