package dev.modelplane.operator.ome.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks an endpoint which model it serves: {@code GET <base>/v1/models}, the first entry without a {@code parent}
 * (LoRA adapters name their base model there). Short timeouts keep a reconcile from waiting on a silent endpoint.
 */
class ModelNameProbe {
  private static final Logger LOG = LoggerFactory.getLogger(ModelNameProbe.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration CONNECT = Duration.ofSeconds(1);
  private static final Duration REQUEST = Duration.ofSeconds(2);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT)
      .followRedirects(HttpClient.Redirect.NORMAL).build();

  /** The model name the first answering base reports, or empty when none answers with one. */
  Optional<String> find(List<String> bases) {
    for (String base : bases) {
      Optional<String> name = ask(base);
      if (name.isPresent()) {
        return name;
      }
    }
    return Optional.empty();
  }

  Optional<String> ask(String base) {
    try {
      HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/models"))
          .timeout(REQUEST).header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        LOG.atDebug().addKeyValue("base", base).addKeyValue("status", response.statusCode()).log("model list refused");
        return Optional.empty();
      }
      return firstModel(response.body());
    } catch (IOException | IllegalArgumentException e) {
      LOG.atDebug().addKeyValue("base", base).addKeyValue("error", e.toString()).log("model list unreachable");
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** The first model of an OpenAI model list that is not an adapter. */
  static Optional<String> firstModel(String body) {
    try {
      JsonNode data = JSON.readTree(body).path("data");
      for (JsonNode m : data) {
        JsonNode parent = m.get("parent");
        if ((parent == null || parent.isNull()) && m.path("id").isTextual() && !m.path("id").asText().isBlank()) {
          return Optional.of(m.path("id").asText());
        }
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }
}
