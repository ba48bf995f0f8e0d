package dev.modelplane.cli.devcluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Service URLs pointed at a ready endpoint, as kube-proxy and cluster DNS would. */
class ServiceUrlsTest {
  private final FakeClusterView cluster = new FakeClusterView();
  private final ServiceUrls urls = new ServiceUrls("bench", cluster);

  {
    cluster.endpoints.put("llm/llama:8080", "127.1.0.5:8000");
    cluster.endpoints.put("bench/sim:80", "127.1.0.6:8000");
    cluster.endpoints.put("llm/tls:443", "127.1.0.7:8443");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "http://llama.llm.svc.cluster.local:8080, http://127.1.0.5:8000",
      "http://llama.llm.svc.cluster.local.:8080/v1, http://127.1.0.5:8000/v1",
      "http://llama.llm.svc:8080/v1/models?x=1, http://127.1.0.5:8000/v1/models?x=1",
      "http://llama.llm:8080, http://127.1.0.5:8000",
      "http://sim, http://127.1.0.6:8000",
      "http://sim/v1, http://127.1.0.6:8000/v1",
      "https://tls.llm.svc.cluster.local, https://127.1.0.7:8443",
      "--api-base=http://llama.llm:8080, --api-base=http://127.1.0.5:8000"})
  void aServiceHostBecomesAReadyEndpointsAddressAndTargetPort(String url, String expected) {
    assertThat(urls.rewrite(url)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "http://llama.llm:9999",
      "http://missing.llm:8080",
      "http://127.0.0.1:8080",
      "http://localhost:8080",
      "http://example.com.au/v1",
      "s3://bucket/prefix",
      "/benchmark-results",
      "llama.llm:8080"})
  void whatNamesNoServiceWithAReadyEndpointIsLeftAsItIs(String word) {
    assertThat(urls.rewrite(word)).isEqualTo(word);
  }

  @Test
  void serviceNamesTakeThePodsNamespaceWhenBare() {
    assertThat(ServiceUrls.service("sim", "bench")).contains(new ServiceUrls.ServiceName("sim", "bench"));
    assertThat(ServiceUrls.service("Sim.Other.SVC.cluster.local", "bench"))
        .contains(new ServiceUrls.ServiceName("sim", "other"));
    assertThat(ServiceUrls.service("a.b.c", "bench")).isEmpty();
    assertThat(ServiceUrls.service("10.0.0.1", "bench")).isEmpty();
  }
}
