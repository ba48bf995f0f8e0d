package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** How MonitoringUpIT reads the dashboards and alerts, and the scrape configuration {@code up --monitoring} writes. */
class MonitoringQueriesTest {
  @Test
  void theSignalSideDropsTheTopLevelThresholdOnly() {
    assertThat(MonitoringQueries.signalSide("max by (name) (x) == 0")).isEqualTo("max by (name) (x)");
    assertThat(MonitoringQueries.signalSide("sum(rate(a{code=~\"5..\"}[5m])) / sum(rate(a[5m])) > 0.05"))
        .isEqualTo("sum(rate(a{code=~\"5..\"}[5m])) / sum(rate(a[5m]))");
    assertThat(MonitoringQueries.signalSide("(a or b * 0) > 0")).isEqualTo("(a or b * 0)");
    assertThat(MonitoringQueries.signalSide("0.9 < x")).isEqualTo("x");
    assertThat(MonitoringQueries.signalSide("x{l!=\"a>b\"} >= bool 2")).isEqualTo("x{l!=\"a>b\"}");
    assertThat(MonitoringQueries.signalSide("sum(x{a!=\"\"})")).as("no comparison: itself")
        .isEqualTo("sum(x{a!=\"\"})");
    assertThat(MonitoringQueries.signalSide("a > b")).as("no threshold: itself").isEqualTo("a > b");
  }

  @Test
  void grafanaVariablesAreReplacedAndAnUnknownOneIsRefused() {
    assertThat(MonitoringQueries.substitute("rate(x{name=~\"$pool\"}[$__rate_interval])"))
        .isEqualTo("rate(x{name=~\".*\"}[1m])");
    assertThatThrownBy(() -> MonitoringQueries.substitute("x{a=\"$unknown\"}"))
        .hasMessageContaining("$unknown");
  }

  @Test
  void theRepositorysDashboardsAndAlertsAreRead() throws Exception {
    Path root = OperatorFixtures.repoRoot();
    assertThat(MonitoringQueries.panels(root.resolve("deploy/monitoring/dashboards"))).hasSizeGreaterThan(30)
        .allSatisfy(q -> assertThat(q.expr()).doesNotContain("$"));
    assertThat(MonitoringQueries.alertSignals(root.resolve("deploy/monitoring/prometheusrule.yaml")))
        .containsKeys("ModelplanePoolNoReadyEndpoints", "ModelplaneKVCacheNearlyFull",
            "ModelplaneOperatorReconcileErrors")
        .containsEntry("ModelplanePoolNoReadyEndpoints", "max by (name) (inference_pool_ready_pods)");
  }

  @Test
  void theScrapeConfigKeepsLoopbackPodsOnlyAndNamesTheKubeconfig() throws Exception {
    String yaml = new PrometheusConfig(Path.of("/state dir/kubeconfig"), 9090, 8081,
        Optional.of(Path.of("/state dir/rules.yml"))).render();
    JsonNode config = new ObjectMapper(new YAMLFactory()).readTree(yaml);
    assertThat(config.at("/scrape_configs/0/static_configs/0/targets/0").asText()).isEqualTo("127.0.0.1:9090");
    assertThat(config.at("/scrape_configs/1/static_configs/0/targets/0").asText()).isEqualTo("127.0.0.1:8081");
    JsonNode pods = config.at("/scrape_configs/2");
    assertThat(pods.at("/kubernetes_sd_configs/0/role").asText()).isEqualTo("pod");
    assertThat(pods.at("/kubernetes_sd_configs/0/kubeconfig_file").asText()).isEqualTo("/state dir/kubeconfig");
    assertThat(config.at("/rule_files/0").asText()).isEqualTo("/state dir/rules.yml");
    String loopback = null;
    for (JsonNode relabel : pods.path("relabel_configs")) {
      if (relabel.at("/source_labels/0").asText().equals("__address__")) {
        loopback = relabel.path("regex").asText();
      }
    }
    // Prometheus anchors relabel regexes at both ends, as matches() does.
    Pattern keep = Pattern.compile(loopback);
    assertThat(keep.matcher("127.2.1.1:8080").matches()).isTrue();
    assertThat(keep.matcher("10.0.0.5:8080").matches()).isFalse();
    assertThat(keep.matcher("128.0.0.1:8000").matches()).isFalse();
    assertThat(keep.matcher("[::1]:8000").matches()).isFalse();
  }
}
