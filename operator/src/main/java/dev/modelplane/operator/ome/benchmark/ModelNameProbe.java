package dev.modelplane.operator.ome.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.operator.modelsource.Cidr;
import dev.modelplane.operator.modelsource.InspectionHttp;
import dev.modelplane.operator.modelsource.InspectionPolicy;
import dev.modelplane.operator.modelsource.InspectionRefusedException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks an endpoint which model it serves: {@code GET <base>/v1/models}, the first entry without a {@code parent}
 * (LoRA adapters name their base model there). Each request is one GET (a redirect is not followed) whose answer is
 * read up to {@link #MAX_BODY} bytes within a short time, so that a reconcile neither waits on a silent endpoint nor
 * reads an endless one.
 *
 * <p>A base taken from the spec ({@link BenchmarkTarget#baseFromSpec()}: a URL endpoint, an InferencePool's
 * {@code routerUrl}) is asked under the operator's model inspection policy, as a Model's source is read, so that a
 * BenchmarkJob cannot make the operator's pod reach internal services or the cloud metadata endpoint; pods and
 * service URLs the operator found on the cluster itself are asked at whatever address they have.
 */
class ModelNameProbe {
  /** Most bytes of a model list read. */
  static final int MAX_BODY = 1024 * 1024;
  private static final Logger LOG = LoggerFactory.getLogger(ModelNameProbe.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration REQUEST = Duration.ofSeconds(2);
  /** What the operator found on the cluster: any address, plain http too. */
  private static final InspectionPolicy CLUSTER = new InspectionPolicy(true, List.of(), List.of(),
      List.of(Cidr.parse("0.0.0.0/0"), Cidr.parse("::/0")));

  private final InspectionHttp cluster;
  private final InspectionHttp policed;

  /** A probe asking the spec's bases under {@code policy}. */
  ModelNameProbe(InspectionPolicy policy) {
    this(new InspectionHttp(CLUSTER, REQUEST), new InspectionHttp(policy, REQUEST));
  }

  ModelNameProbe(InspectionHttp cluster, InspectionHttp policed) {
    this.cluster = cluster;
    this.policed = policed;
  }

  /**
   * What the probes found.
   *
   * @param model the model name the first answering base reported, or null when none did
   * @param refused why the operator may not ask the spec's base (the host, the reason and the flag that would allow
   *     it), or null when it was not refused
   */
  record Outcome(String model, String refused) {
  }

  /** Asks the target's bases in order until one names a model. */
  Outcome find(BenchmarkTarget target) {
    String refused = null;
    for (String base : target.modelProbes()) {
      boolean fromSpec = target.baseFromSpec() && base.equals(target.apiBase());
      try {
        Optional<String> name = ask(fromSpec ? policed : cluster, base);
        if (name.isPresent()) {
          return new Outcome(name.get(), null);
        }
      } catch (InspectionRefusedException e) {
        LOG.atInfo().addKeyValue("host", e.host()).addKeyValue("reason", e.reason())
            .log("model list refused by policy");
        refused = e.host() + ": " + e.reason();
      }
    }
    return new Outcome(null, refused);
  }

  /** The model {@code base} lists, or empty when it does not answer with one. */
  private static Optional<String> ask(InspectionHttp http, String base) throws InspectionRefusedException {
    long deadline = System.nanoTime() + REQUEST.toNanos();
    try (InspectionHttp.Response response = http.getOnce(URI.create(base + "/v1/models"),
        Map.of("Accept", "application/json"))) {
      if (response.status() != 200) {
        LOG.atDebug().addKeyValue("base", base).addKeyValue("status", response.status()).log("model list refused");
        return Optional.empty();
      }
      byte[] body = read(response.body(), deadline);
      if (body == null) {
        LOG.atDebug().addKeyValue("base", base).log("model list larger than " + MAX_BODY + " bytes");
        return Optional.empty();
      }
      return firstModel(new String(body, StandardCharsets.UTF_8));
    } catch (InspectionRefusedException e) {
      throw e;
    } catch (IOException | IllegalArgumentException e) {
      LOG.atDebug().addKeyValue("base", base).addKeyValue("error", e.toString()).log("model list unreachable");
      return Optional.empty();
    }
  }

  /** The body, or null when it is longer than {@link #MAX_BODY}; an IOException once past {@code deadline}. */
  private static byte[] read(InputStream in, long deadline) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      out.write(buffer, 0, n);
      if (out.size() > MAX_BODY) {
        return null;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IOException("the model list took longer than " + REQUEST.toMillis() + "ms");
      }
    }
    return out.toByteArray();
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
