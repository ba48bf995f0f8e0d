package dev.modelplane.cli.user;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code modelplane chat NAME "prompt"}: one streamed chat completion through the router to the pool NAME. */
@Command(name = "chat", mixinStandardHelpOptions = true,
    description = "Sends one chat message through the router to the InferencePool NAME and prints the answer as it "
        + "streams. The model is the InferenceService NAME's Model (else NAME).")
public final class ChatCommand extends UserCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "InferencePool (and InferenceService) name.")
  String name;

  @Parameters(index = "1", paramLabel = "PROMPT", description = "The user message.")
  String prompt;

  @Option(names = "--url", paramLabel = "URL",
      description = "The router's base URL (default: the one 'modelplane up' started, else http://127.0.0.1:8080).")
  String url;

  @Option(names = "--model", paramLabel = "MODEL", description = "The request's model (default: see above).")
  String model;

  @Option(names = "--max-tokens", paramLabel = "N", description = "Longest answer in tokens.")
  Integer maxTokens;

  @Override
  public Integer call() throws Exception {
    String ns;
    String requestModel = model;
    try (KubernetesClient client = cluster.client()) {
      ns = cluster.namespace(client);
      if (get(client, ModelplaneKind.ALL.get(ModelplaneKind.ALL.size() - 2), ns, name).isEmpty()) {
        err().println("error: chat: no InferencePool " + name + " in namespace " + ns);
        return NOT_FOUND;
      }
      if (requestModel == null) {
        requestModel = get(client, ModelplaneKind.ALL.get(0), ns, name).map(o -> o.at("/spec/modelRef").asText(name))
            .orElse(name);
      }
    }
    ObjectNode body = OutputFormat.JSON_MAPPER.createObjectNode().put("model", requestModel).put("stream", true);
    body.putArray("messages").addObject().put("role", "user").put("content", prompt);
    if (maxTokens != null) {
      body.put("max_tokens", maxTokens);
    }
    String base = (url != null ? url : routerUrl()).replaceAll("/+$", "").replaceAll("/v1$", "");
    HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
        .timeout(Duration.ofMinutes(5)).header("Content-Type", "application/json")
        .header("x-modelplane-inference-pool", ns + "/" + name)
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<Stream<String>> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofLines());
    } catch (ConnectException e) {
      err().println("error: chat: no router at " + base + " (start one with 'modelplane up', or pass --url)");
      return 1;
    }
    try (Stream<String> lines = response.body()) {
      if (response.statusCode() != 200) {
        String text = String.join("\n", lines.toList());
        JsonNode error = parse(text);
        err().println("error: chat: " + response.statusCode() + " from the router: "
            + (error == null ? text : error.at("/error/message").asText(text)));
        return 1;
      }
      for (Iterator<String> it = lines.iterator(); it.hasNext(); ) {
        String line = it.next();
        if (line.startsWith("data:") && !line.contains("[DONE]")) {
          JsonNode chunk = parse(line.substring(5).trim());
          String delta = chunk == null ? "" : chunk.at("/choices/0/delta/content").asText("");
          out().print(delta);
          out().flush();
        }
      }
      out().println();
      return 0;
    }
  }

  private static JsonNode parse(String text) {
    try {
      return OutputFormat.JSON_MAPPER.readTree(text);
    } catch (IOException e) {
      return null;
    }
  }

  /** The router {@code modelplane up} started (its platform.json), else the default port on loopback. */
  static String routerUrl() {
    Path kubeconfig = ClusterOptions.devClusterKubeconfig();
    if (kubeconfig != null) {
      Path platform = kubeconfig.resolveSibling("platform.json");
      try {
        JsonNode state = Files.exists(platform) ? OutputFormat.JSON_MAPPER.readTree(platform.toFile()) : null;
        if (state != null && state.path("port").asInt(0) > 0) {
          String host = state.path("host").asText("127.0.0.1");
          host = "0.0.0.0".equals(host) || "::".equals(host) ? "127.0.0.1" : host;
          return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + state.get("port").asInt();
        }
      } catch (IOException e) {
        // fall through to the default
      }
    }
    return "http://127.0.0.1:8080";
  }
}
