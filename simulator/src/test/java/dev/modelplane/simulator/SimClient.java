package dev.modelplane.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A small loopback client for the simulator tests. */
final class SimClient {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;

  SimClient(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  record Response(int status, String body) {
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (java.io.IOException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }
  }

  /** One SSE stream: the data payloads, the nanoTime each arrived, and when the request was sent. */
  record Stream(int status, List<String> data, List<Long> arrivals, long sentNanos) {
    double ttftSeconds() {
      return (arrivals.get(0) - sentNanos) / 1e9;
    }
  }

  Response get(String path) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
        .GET().build(), HttpResponse.BodyHandlers.ofString());
    return new Response(r.statusCode(), r.body());
  }

  Response post(String path, String body) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
            .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    return new Response(r.statusCode(), r.body());
  }

  Stream stream(String path, String body) throws Exception {
    long sent = System.nanoTime();
    HttpResponse<java.io.InputStream> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(60)).header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofInputStream());
    List<String> data = new ArrayList<>();
    List<Long> arrivals = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        if (line.startsWith("data: ")) {
          arrivals.add(System.nanoTime());
          data.add(line.substring(6));
        }
      }
    }
    return new Stream(r.statusCode(), data, arrivals, sent);
  }

  String metrics() throws Exception {
    return get("/metrics").body();
  }

  /** The value of the first sample of {@code name} whose label text contains {@code labelFragment}. */
  static double sample(String metrics, String name, String labelFragment) {
    Pattern p = Pattern.compile("^" + Pattern.quote(name) + "(\\{[^}]*\\})? (\\S+)$", Pattern.MULTILINE);
    Matcher m = p.matcher(metrics);
    while (m.find()) {
      String labels = m.group(1) == null ? "" : m.group(1);
      if (labels.contains(labelFragment)) {
        return Double.parseDouble(m.group(2));
      }
    }
    throw new AssertionError("no sample " + name + " with " + labelFragment + " in:\n" + metrics);
  }

  static double sample(String metrics, String name) {
    return sample(metrics, name, "");
  }

  static String completion(String model, String prompt, int maxTokens, boolean stream) {
    return JSON.createObjectNode().put("model", model).put("prompt", prompt).put("max_tokens", maxTokens)
        .put("stream", stream).put("ignore_eos", true).toString();
  }
}
