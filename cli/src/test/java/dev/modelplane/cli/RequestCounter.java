package dev.modelplane.cli;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * Counts the API requests of one client, in all and per request shape ({@code GET /apis/apps/v1/namespaces/{ns}/
 * deployments watch}), so a test can say which requests an idle operator still sends.
 */
final class RequestCounter implements Interceptor {
  private final AtomicLong total = new AtomicLong();
  private final Map<String, LongAdder> byShape = new ConcurrentHashMap<>();

  @Override
  public void before(BasicBuilder builder, HttpRequest request, Interceptor.RequestTags tags) {
    total.incrementAndGet();
    byShape.computeIfAbsent(shape(request), k -> new LongAdder()).increment();
  }

  long total() {
    return total.get();
  }

  Map<String, Long> snapshot() {
    Map<String, Long> copy = new HashMap<>();
    byShape.forEach((k, v) -> copy.put(k, v.sum()));
    return copy;
  }

  /** The request shapes sent since {@code before}, most frequent first, at most {@code limit}. */
  String since(Map<String, Long> before, int limit) {
    Map<String, Long> now = snapshot();
    List<Map.Entry<String, Long>> diff = now.entrySet().stream()
        .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
        .filter(e -> e.getValue() > 0).sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
        .limit(limit).toList();
    return diff.stream().map(e -> e.getValue() + "x " + e.getKey()).collect(Collectors.joining(", ", "[", "]"));
  }

  /** The method and path with namespace and object names replaced by placeholders, plus {@code watch}. */
  static String shape(HttpRequest request) {
    String[] parts = request.uri().getPath().split("/");
    StringBuilder out = new StringBuilder(request.method()).append(' ');
    int prefix = parts.length > 1 && "api".equals(parts[1]) ? 3 : 4;
    int resourceAt = -1;
    for (int i = 1; i < parts.length; i++) {
      String part = parts[i];
      if (i >= prefix && i > 0 && "namespaces".equals(parts[i - 1]) && resourceAt < 0) {
        part = "{ns}";
      } else if (i >= prefix && resourceAt < 0 && !"namespaces".equals(part)) {
        resourceAt = i;
      } else if (resourceAt > 0 && i == resourceAt + 1) {
        part = "{name}";
      }
      out.append('/').append(part);
    }
    String query = request.uri().getQuery();
    if (query != null && query.contains("watch=true")) {
      out.append(" watch");
    }
    return out.toString();
  }
}
