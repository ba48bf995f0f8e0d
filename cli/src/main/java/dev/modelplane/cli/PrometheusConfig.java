package dev.modelplane.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The {@code prometheus.yml} that {@code modelplane up --monitoring} writes: the router's and the operator's metrics
 * ports as static targets on loopback, and every running model-server pod found through the dev cluster's API server
 * ({@code kubernetes_sd_configs}, role pod, with the cluster's kubeconfig).
 *
 * <p>A pod is scraped when it asks for it with the usual {@code prometheus.io/scrape: "true"} annotation (then
 * {@code prometheus.io/port} and {@code prometheus.io/path} are honoured), when the operator manages it
 * ({@code app.kubernetes.io/managed-by: modelplane}) on a container port named {@code http} (the port vLLM, SGLang
 * and llama.cpp serve {@code /metrics} on), or when a container port is named {@code metrics}. Only addresses in
 * 127.0.0.0/8 are kept: the dev cluster's pods live there, and nothing else is to be dialled.
 *
 * @param kubeconfig the dev cluster's kubeconfig
 * @param routerMetricsPort the router's metrics port on 127.0.0.1
 * @param operatorPort the operator's health and metrics port on 127.0.0.1
 * @param rulesFile the alerting rules to evaluate, if any
 */
record PrometheusConfig(Path kubeconfig, int routerMetricsPort, int operatorPort, Optional<Path> rulesFile) {
  /** Scrape and rule evaluation interval: short, so a laptop's dashboards move while one watches. */
  static final String INTERVAL = "5s";
  /** The PrometheusRule whose groups {@code up} loads, relative to the repository root. */
  static final String RULES = "deploy/monitoring/prometheusrule.yaml";

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** The configuration file's text. */
  String render() {
    StringBuilder y = new StringBuilder();
    y.append("# Written by modelplane up --monitoring; rewritten on every up.\n");
    y.append("global:\n  scrape_interval: ").append(INTERVAL).append("\n  evaluation_interval: ").append(INTERVAL)
        .append('\n');
    rulesFile.ifPresent(r -> y.append("rule_files:\n- ").append(quote(r.toString())).append('\n'));
    y.append("scrape_configs:\n");
    staticJob(y, "modelplane-router", routerMetricsPort);
    staticJob(y, "modelplane-operator", operatorPort);
    y.append("""
        - job_name: model-servers
          kubernetes_sd_configs:
          - role: pod
            kubeconfig_file: %s
          relabel_configs:
          - source_labels: [__meta_kubernetes_pod_phase]
            regex: Running
            action: keep
          - source_labels: [__meta_kubernetes_pod_annotation_prometheus_io_scrape, \
        __meta_kubernetes_pod_label_app_kubernetes_io_managed_by, __meta_kubernetes_pod_container_port_name]
            regex: 'true;.*|[^;]*;modelplane;http|[^;]*;[^;]*;metrics'
            action: keep
          - source_labels: [__meta_kubernetes_pod_ip, __meta_kubernetes_pod_annotation_prometheus_io_port]
            regex: '([^;]+);([0-9]+)'
            replacement: '$1:$2'
            target_label: __address__
          - source_labels: [__meta_kubernetes_pod_annotation_prometheus_io_path]
            regex: '(.+)'
            target_label: __metrics_path__
          - source_labels: [__address__]
            regex: '127\\.[0-9]+\\.[0-9]+\\.[0-9]+:[0-9]+'
            action: keep
          - source_labels: [__meta_kubernetes_namespace]
            target_label: namespace
          - source_labels: [__meta_kubernetes_pod_name]
            target_label: pod
          - source_labels: [__meta_kubernetes_pod_label_app]
            target_label: app
        """.formatted(quote(kubeconfig.toString())));
    return y.toString();
  }

  private static void staticJob(StringBuilder y, String job, int port) {
    y.append("- job_name: ").append(job).append("\n  static_configs:\n  - targets: ['127.0.0.1:").append(port)
        .append("']\n");
  }

  /** A YAML double-quoted scalar (JSON's string syntax is valid YAML). */
  private static String quote(String s) {
    try {
      return new ObjectMapper().writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Writes the rule groups of the repository's PrometheusRule ({@value #RULES}) as a Prometheus rules file to
   * {@code target}, when the repository is at hand ({@code modelplane.repo.root}); else nothing.
   */
  static Optional<Path> writeRules(Path target) throws IOException {
    String root = System.getProperty("modelplane.repo.root");
    if (root == null || root.isBlank() || !Files.isRegularFile(Path.of(root, RULES))) {
      return Optional.empty();
    }
    JsonNode rule = YAML.readTree(Path.of(root, RULES).toFile());
    Files.writeString(target, YAML.writeValueAsString(rule.path("spec")));
    return Optional.of(target);
  }
}
