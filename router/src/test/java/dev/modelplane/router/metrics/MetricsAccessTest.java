package dev.modelplane.router.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.gateway.GatewayOptions;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GIE's {@code --metrics-endpoint-auth} against the real apiserver: a ServiceAccount token whose identity a
 * ClusterRole grants {@code get} on {@code /metrics} reads the metrics on both the metrics port and the gateway's;
 * no token or a token the apiserver does not know gets 401, a valid token without that grant 403. The live view
 * ({@code /ui}, {@code /ui/state} on the metrics port) takes the same check.
 */
@WithControlPlane
class MetricsAccessTest {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void onlyTokensAuthorizedForGetMetricsReadThem(KubeTest test) throws Exception {
    KubernetesClient admin = test.controlPlane().client();
    String ns = test.namespace();
    String grant = test.uniqueName("metrics-reader");
    admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName(grant).endMetadata()
        .addNewRule().withNonResourceURLs("/metrics").withVerbs("get").endRule().build()).create();
    admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata().withName(grant)
        .endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", grant)
        .addNewSubject().withKind("ServiceAccount").withName("scraper").withNamespace(ns).endSubject().build())
        .create();
    try {
      String scraper = token(admin, ns, "scraper");
      String nobody = token(admin, ns, "nobody");
      MetricsAccess access = MetricsAccess.kubernetes(admin, Duration.ofMinutes(1));
      assertThat(access.check(null)).isEqualTo(MetricsAccess.Verdict.UNAUTHENTICATED);
      assertThat(access.check("Basic dXNlcjpwdw==")).isEqualTo(MetricsAccess.Verdict.UNAUTHENTICATED);
      assertThat(access.check("Bearer not-a-token")).isEqualTo(MetricsAccess.Verdict.UNAUTHENTICATED);
      assertThat(access.check("Bearer " + nobody)).isEqualTo(MetricsAccess.Verdict.FORBIDDEN);
      assertThat(access.check("Bearer " + scraper)).isEqualTo(MetricsAccess.Verdict.ALLOWED);
      assertThat(access.check("bearer " + scraper)).isEqualTo(MetricsAccess.Verdict.ALLOWED);

      GatewayOptions gateway = GatewayOptions.defaults().withPort(0).withEventLoops(1).withAccessLog(false);
      try (Router router = new Router(new RouterOptions("127.0.0.1", gateway, 0, -1, 0, "127.0.0.1:1", List.of(),
          null, null, MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false))) {
        router.protectMetrics(access);
        router.start();
        for (int port : List.of(router.metricsPort(), router.gatewayPort())) {
          assertThat(get(port, null).statusCode()).isEqualTo(401);
          assertThat(get(port, "not-a-token").statusCode()).isEqualTo(401);
          HttpResponse<String> forbidden = get(port, nobody);
          assertThat(forbidden.statusCode()).isEqualTo(403);
          assertThat(forbidden.body()).doesNotContain("modelplane_");
          HttpResponse<String> allowed = get(port, scraper);
          assertThat(allowed.statusCode()).isEqualTo(200);
          assertThat(allowed.body()).contains("modelplane_");
        }
        for (String path : List.of("/ui", "/ui/state")) {
          assertThat(get(router.metricsPort(), path, null).statusCode()).as(path).isEqualTo(401);
          HttpResponse<String> forbidden = get(router.metricsPort(), path, nobody);
          assertThat(forbidden.statusCode()).as(path).isEqualTo(403);
          assertThat(forbidden.body()).as(path).doesNotContain("decisions").doesNotContain("<html");
          assertThat(get(router.metricsPort(), path, scraper).statusCode()).as(path).isEqualTo(200);
        }
      }
    } finally {
      admin.rbac().clusterRoleBindings().withName(grant).delete();
      admin.rbac().clusterRoles().withName(grant).delete();
    }
  }

  private static String token(KubernetesClient admin, String ns, String account) {
    admin.serviceAccounts().inNamespace(ns).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName(account).endMetadata().build()).create();
    return admin.serviceAccounts().inNamespace(ns).withName(account).tokenRequest(new TokenRequestBuilder()
        .withNewSpec().withExpirationSeconds(3600L).endSpec().build()).getStatus().getToken();
  }

  private static HttpResponse<String> get(int port, String token) throws Exception {
    return get(port, "/metrics", token);
  }

  private static HttpResponse<String> get(int port, String path, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10));
    if (token != null) {
      request.header("authorization", "Bearer " + token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
