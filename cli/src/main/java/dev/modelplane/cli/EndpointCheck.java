package dev.modelplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Proves the platform answers: one chat completion through the router to a pool that was just applied. */
final class EndpointCheck {
  static final String POOL_HEADER = "x-modelplane-inference-pool";
  private static final String POOL_API = "inference.networking.k8s.io/v1";
  private static final String LLMKUBE_API = "inference.llmkube.dev/v1alpha1";

  private final String host;
  private final int port;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /**
   * A successful answer: which pool and model, and the reply. The request named only the model, as an OpenAI client
   * does: the gateway finds the pool serving it.
   */
  record Answer(String pool, String model, String text) {
    String curl(String base) {
      return "curl " + base + "/chat/completions -H 'Content-Type: application/json' \\\n"
          + "  -d '{\"model\": \"" + model + "\", \"messages\": [{\"role\": \"user\", \"content\": \"Hello!\"}]}'";
    }
  }

  EndpointCheck(String host, int port) {
    this.host = UpCommand.hostForUrl(host);
    this.port = port;
  }

  /**
   * The pools that serve what was applied: applied InferencePools, and those an applied object owns (the one an
   * OME InferenceService's default router gets), in that order.
   */
  static List<HasMetadata> poolsOf(KubernetesClient client, List<HasMetadata> applied) {
    List<HasMetadata> out = new java.util.ArrayList<>(applied.stream()
        .filter(o -> POOL_API.equals(o.getApiVersion()) && "InferencePool".equals(o.getKind())).toList());
    java.util.Set<String> uids = applied.stream().map(o -> o.getMetadata().getUid())
        .filter(java.util.Objects::nonNull).collect(java.util.stream.Collectors.toSet());
    for (GenericKubernetesResource pool : client.genericKubernetesResources(POOL_API, "InferencePool")
        .inAnyNamespace().list().getItems()) {
      if (pool.getMetadata().getOwnerReferences() != null && pool.getMetadata().getOwnerReferences().stream()
          .anyMatch(r -> uids.contains(r.getUid()))) {
        out.add(pool);
      }
    }
    return out;
  }

  /** Asks the first pool of {@link #poolsOf} (else any pool) until it answers or {@code limit} passes. */
  Optional<Answer> firstAnswer(KubernetesClient client, List<HasMetadata> applied, Duration limit)
      throws InterruptedException {
    List<GenericKubernetesResource> pools = client.genericKubernetesResources(POOL_API, "InferencePool")
        .inAnyNamespace().list().getItems();
    Optional<HasMetadata> target = poolsOf(client, applied).stream().findFirst()
        .or(() -> pools.stream().map(p -> (HasMetadata) p).findFirst());
    if (target.isEmpty()) {
      return Optional.empty();
    }
    String pool = target.get().getMetadata().getNamespace() + "/" + target.get().getMetadata().getName();
    Instant deadline = Instant.now().plus(limit);
    while (Instant.now().isBefore(deadline)) {
      Optional<String> model = modelOf(client, applied, target.get(), pool);
      if (model.isPresent()) {
        Optional<String> text = chat(model.get());
        if (text.isPresent()) {
          return Optional.of(new Answer(pool, model.get(), text.get()));
        }
      }
      Thread.sleep(1000);
    }
    return Optional.empty();
  }

  /** The model to ask for: an applied LLMKube service's Model when it feeds the pool, else the pool's first model. */
  private Optional<String> modelOf(KubernetesClient client, List<HasMetadata> applied, HasMetadata pool,
      String poolKey) throws InterruptedException {
    JsonNode spec = DevClusterCommand.JSON.valueToTree(pool).path("spec");
    String app = spec.path("selector").path("matchLabels").path("app").asText("");
    for (HasMetadata o : applied) {
      if (LLMKUBE_API.equals(o.getApiVersion()) && "InferenceService".equals(o.getKind())
          && o.getMetadata().getName().equals(app)) {
        JsonNode ref = DevClusterCommand.JSON.valueToTree(o).path("spec").path("modelRef");
        if (ref.isTextual()) {
          return Optional.of(ref.asText());
        }
      }
    }
    try {
      HttpResponse<String> r = http.send(request("/v1/models", poolKey).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      JsonNode body = r.statusCode() == 200 ? UpCommand.json(r.body()) : null;
      return body == null ? Optional.empty() : Optional.of(body.path("data").path(0).path("id").asText())
          .filter(s -> !s.isEmpty());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** One chat completion naming only the model, exactly as the printed curl line does. */
  private Optional<String> chat(String model) throws InterruptedException {
    String body = "{\"model\":" + DevClusterCommand.JSON.valueToTree(model) + ",\"max_tokens\":12,"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"Hello!\"}]}";
    try {
      HttpResponse<String> r = http.send(request("/v1/chat/completions", null)
          .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
          HttpResponse.BodyHandlers.ofString());
      JsonNode json = r.statusCode() == 200 ? UpCommand.json(r.body()) : null;
      return json == null ? Optional.empty()
          : Optional.of(json.path("choices").path(0).path("message").path("content").asText().strip());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private HttpRequest.Builder request(String path, String pool) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + path))
        .timeout(Duration.ofSeconds(30));
    return pool == null ? b : b.header(POOL_HEADER, pool);
  }
}
