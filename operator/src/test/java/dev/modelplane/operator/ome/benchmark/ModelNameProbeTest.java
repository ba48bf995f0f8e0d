package dev.modelplane.operator.ome.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ModelNameProbeTest {
  @Test
  void theFirstModelThatIsNotAnAdapterIsTheName() {
    assertThat(ModelNameProbe.firstModel("""
        {"object": "list", "data": [
          {"id": "sql-lora", "object": "model", "parent": "meta-llama/Llama-3.1-8B-Instruct"},
          {"id": "meta-llama/Llama-3.1-8B-Instruct", "object": "model", "parent": null}]}
        """)).contains("meta-llama/Llama-3.1-8B-Instruct");
    assertThat(ModelNameProbe.firstModel("{\"data\": []}")).isEmpty();
    assertThat(ModelNameProbe.firstModel("<html>")).isEmpty();
  }

  @Test
  void basesAreAskedInOrderUntilOneNamesAModel() throws IOException {
    HttpServer refusing = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    refusing.createContext("/v1/models", x -> {
      x.sendResponseHeaders(503, -1);
      x.close();
    });
    HttpServer serving = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    serving.createContext("/v1/models", x -> {
      byte[] body = "{\"data\":[{\"id\":\"tiny\"}]}".getBytes(StandardCharsets.UTF_8);
      x.sendResponseHeaders(200, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    refusing.start();
    serving.start();
    try {
      String a = "http://127.0.0.1:" + refusing.getAddress().getPort();
      String b = "http://127.0.0.1:" + serving.getAddress().getPort();
      assertThat(new ModelNameProbe().find(List.of(a, b))).isEqualTo(Optional.of("tiny"));
      assertThat(new ModelNameProbe().find(List.of(a))).isEmpty();
    } finally {
      refusing.stop(0);
      serving.stop(0);
    }
  }
}
