package dev.modelplane.testsupport;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.function.Function;

/**
 * ListObjects of {@link OciObjectStorageServer}: names in order from {@code start} (inclusive) that begin with
 * {@code prefix}, at most {@code limit} (1 to 1000, default 1000) a page, {@code nextStartWith} naming the first name
 * of the next page; each summary holds {@code name} plus the {@code fields} asked for ({@code size}, {@code md5},
 * {@code etag}; others are accepted and left out).
 */
final class OciObjectListing {
  private static final Set<String> FIELDS = Set.of("name", "size", "md5", "etag", "timeCreated", "timeModified",
      "storageTier", "archivalState");

  /** What a summary may show of an object. */
  record Summary(long size, String md5, String etag) {
  }

  private OciObjectListing() {
  }

  static void answer(HttpExchange exchange, NavigableSet<String> names, Function<String, Summary> summaries)
      throws IOException {
    Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
    String prefix = query.getOrDefault("prefix", "");
    int limit;
    try {
      limit = Integer.parseInt(query.getOrDefault("limit", "1000"));
    } catch (NumberFormatException e) {
      limit = -1;
    }
    if (limit < 1 || limit > 1000) {
      OciObjectStorageServer.error(exchange, 400, "InvalidParameter", "limit must be between 1 and 1000");
      return;
    }
    List<String> fields = List.of(query.getOrDefault("fields", "name").split(","));
    if (!FIELDS.containsAll(fields)) {
      OciObjectStorageServer.error(exchange, 400, "InvalidParameter", "Unknown field in fields: " + fields);
      return;
    }
    String start = query.getOrDefault("start", prefix);
    List<String> entries = new ArrayList<>();
    String next = null;
    for (String name : names.tailSet(start, true)) {
      if (!name.startsWith(prefix)) {
        if (name.compareTo(prefix) > 0) {
          break;
        }
        continue;
      }
      Summary summary = summaries.apply(name);
      if (summary == null) {
        continue; // deleted since
      }
      if (entries.size() == limit) {
        next = name;
        break;
      }
      StringBuilder entry = new StringBuilder("{\"name\":").append(json(name));
      if (fields.contains("size")) {
        entry.append(",\"size\":").append(summary.size());
      }
      if (fields.contains("md5")) {
        entry.append(",\"md5\":").append(json(summary.md5()));
      }
      if (fields.contains("etag")) {
        entry.append(",\"etag\":").append(json(summary.etag()));
      }
      entries.add(entry.append('}').toString());
    }
    String body = "{\"objects\":[" + String.join(",", entries) + "],\"prefixes\":[]"
        + (next == null ? "" : ",\"nextStartWith\":" + json(next)) + "}";
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  /** A JSON string literal. */
  static String json(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> params = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return params;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      params.put(URLDecoder.decode(key, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return params;
  }
}
