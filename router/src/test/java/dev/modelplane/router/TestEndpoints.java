package dev.modelplane.router;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.LlmRequestBody;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builders for endpoints, candidates and requests in unit tests. */
public final class TestEndpoints {
  private static final ObjectMapper JSON = new ObjectMapper();

  private TestEndpoints() {
  }

  public static EndpointState state(String name, MetricsSnapshot metrics) {
    return state(name, metrics, Map.of());
  }

  public static EndpointState state(String name, MetricsSnapshot metrics, Map<String, String> labels) {
    int n = Math.abs(name.hashCode() % 250) + 1;
    EndpointState s = new EndpointState(new Endpoint(new EndpointId("ns", name), "10.0.0." + n, 8000, labels));
    s.updateMetrics(metrics);
    return s;
  }

  public static Candidate candidate(String name, int waiting, double kv) {
    return new Candidate(state(name, MetricsSnapshot.of(waiting, kv, 0)));
  }

  public static List<Candidate> candidates(int... waiting) {
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < waiting.length; i++) {
      out.add(candidate("pod-" + i, waiting[i], 0));
    }
    return out;
  }

  public static InferenceRequest completion(String model, String prompt) {
    ObjectNode body = JSON.createObjectNode().put("model", model).put("prompt", prompt);
    return new InferenceRequest("req-1", model, model, new LlmRequestBody(LlmRequestBody.Api.COMPLETIONS, body),
        Map.of(), 0, "default-flow", 0);
  }
}
