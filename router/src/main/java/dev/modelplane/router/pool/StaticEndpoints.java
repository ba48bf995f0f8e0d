package dev.modelplane.router.pool;

import dev.modelplane.common.net.HostPort;
import java.util.ArrayList;
import java.util.List;

/** Parses {@code --endpoints host:port,host:port,…} ({@code [v6]:port} for IPv6) for static mode. */
public final class StaticEndpoints {
  private StaticEndpoints() {
  }

  public static List<Endpoint> parse(String spec) {
    List<Endpoint> out = new ArrayList<>();
    if (spec == null || spec.isBlank()) {
      return out;
    }
    for (String raw : spec.split(",")) {
      String s = raw.trim();
      if (s.isEmpty()) {
        continue;
      }
      HostPort address = HostPort.parse(s);
      out.add(Endpoint.ofStatic(address.host(), address.port()));
    }
    return out;
  }
}
