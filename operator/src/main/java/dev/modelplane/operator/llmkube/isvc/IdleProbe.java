package dev.modelplane.operator.llmkube.isvc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.common.metrics.PrometheusSample;
import dev.modelplane.common.metrics.PrometheusTextParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Asks a model server whether it is serving requests right now, for {@code rolloutPolicy.waitForIdle} and for
 * recycling with {@code maxPodLifetimeIdleTimeoutSeconds}:
 * <ul>
 *   <li>llama.cpp: {@code GET /slots}; busy while a slot reports {@code is_processing} (or a non-zero {@code state}
 *       on older servers);</li>
 *   <li>vLLM, TGI, SGLang: {@code GET /metrics}; busy while {@code vllm:num_requests_running},
 *       {@code tgi_batch_current_size} or {@code sglang:num_running_reqs} is above 0 in any series;</li>
 *   <li>generic: {@code GET} of the path in the InferenceService annotation {@value #IDLE_ENDPOINT}; idle on 200,
 *       busy on anything else;</li>
 *   <li>other runtimes (llama.cpp router, PersonaPlex) and generic without the annotation: no check.</li>
 * </ul>
 * A server that cannot be asked counts as busy, so a rollout never cuts requests it could not see; the idle timeout
 * bounds the wait.
 */
public class IdleProbe {
  /** InferenceService annotation naming a generic server's idle endpoint, e.g. {@code /idle}. */
  public static final String IDLE_ENDPOINT = "inference.llmkube.dev/idle-endpoint";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What a probe found. */
  public enum State { IDLE, BUSY, UNREACHABLE }

  /**
   * How to ask one runtime.
   *
   * @param path the request path
   * @param busy whether a 200 response body says the server is busy; null when any 200 means idle
   */
  public record Check(String path, Predicate<String> busy) {
  }

  private final HttpClient client;
  private final Duration timeout;

  public IdleProbe(Duration timeout) {
    this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
    this.timeout = timeout;
  }

  /** The check for a runtime, or null when it has none. */
  public static Check checkFor(String runtime, Map<String, String> annotations) {
    return switch (runtime) {
      case "llamacpp" -> new Check("/slots", IdleProbe::slotsBusy);
      case "vllm" -> new Check("/metrics", body -> gaugeAboveZero(body, "vllm:num_requests_running"));
      case "tgi" -> new Check("/metrics", body -> gaugeAboveZero(body, "tgi_batch_current_size"));
      case "sglang" -> new Check("/metrics", body -> gaugeAboveZero(body, "sglang:num_running_reqs"));
      case "generic" -> {
        String path = annotations == null ? null : annotations.get(IDLE_ENDPOINT);
        yield path == null || path.isBlank() ? null : new Check(path.startsWith("/") ? path : "/" + path, null);
      }
      default -> null;
    };
  }

  /** Asks the server at {@code host:port}. */
  public State probe(String host, int port, Check check) {
    String authority = host.contains(":") ? "[" + host + "]" : host;
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + authority + ":" + port + check.path()))
        .timeout(timeout).GET().build();
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        return check.busy() == null ? State.BUSY : State.UNREACHABLE;
      }
      return check.busy() != null && check.busy().test(response.body()) ? State.BUSY : State.IDLE;
    } catch (IOException | RuntimeException e) {
      return State.UNREACHABLE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return State.UNREACHABLE;
    }
  }

  /** llama.cpp's {@code /slots}: an array of slots, busy when any is processing. */
  static boolean slotsBusy(String body) {
    try {
      JsonNode slots = JSON.readTree(body);
      if (!slots.isArray()) {
        return true;
      }
      for (JsonNode slot : slots) {
        if (slot.path("is_processing").asBoolean(false) || slot.path("state").asInt(0) != 0) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  /**
   * Whether any sample of the gauge {@code name} in a Prometheus text exposition is above 0 (NaN is not). A server
   * that does not export the gauge, or one of whose lines of it does not parse, cannot say it is idle: the unread
   * line might be the busy one.
   */
  static boolean gaugeAboveZero(String body, String name) {
    List<PrometheusSample> samples = PrometheusTextParser.parse(body, Set.of(name)).get(name);
    if (samples == null) {
      return true;
    }
    long lines = body.lines().filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{")).count();
    return samples.size() < lines || samples.stream().anyMatch(s -> s.value() > 0);
  }
}
