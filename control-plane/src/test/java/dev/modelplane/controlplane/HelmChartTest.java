package dev.modelplane.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Helm chart deploy/helm/modelplane: lint, its values schema, its output accepted by the real API server
 * (server-side dry run), and the same operator as the kustomize manifests in deploy/operator (RBAC rule for rule,
 * container for container, the same PriorityClasses).
 */
@WithControlPlane
class HelmChartTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static Path helm;

  @BeforeAll
  static void buildHelm() throws Exception {
    Run built = run(List.of("bash", root().resolve("hack/helm/build.sh").toString()), 1800);
    if (built.exit() != 0) {
      if ("true".equals(System.getenv("CI"))) {
        Assertions.fail("hack/helm/build.sh failed (CI=true needs Helm): " + built.output());
      }
      Assumptions.abort("Helm could not be built: " + built.output());
    }
    helm = Path.of(built.output().strip().lines().reduce((a, b) -> b).orElseThrow());
  }

  @Test
  void chartLintsCleanly() throws Exception {
    Run lint = helm("lint", "--strict", chart().toString());
    assertThat(lint.exit()).as(lint.output()).isZero();
    assertThat(lint.output()).contains("1 chart(s) linted, 0 chart(s) failed");
  }

  @Test
  void defaultsMatchTheKustomizeOperatorAndTheApiServerAcceptsThem(KubeTest test) throws Exception {
    List<JsonNode> chart = template(test.namespace());
    List<JsonNode> kustomize = new ArrayList<>();
    for (String f : List.of("rbac.yaml", "picker-rbac.yaml", "admission.yaml", "deployment.yaml",
        "priority-classes.yaml")) {
      kustomize.addAll(documents(Files.readString(root().resolve("deploy/operator").resolve(f))));
    }
    Set<String> kustomizeRules = new TreeSet<>(rules(find(kustomize, "ClusterRole", "modelplane-operator")));
    kustomizeRules.addAll(rules(find(kustomize, "ClusterRole", "modelplane-operator-namespaced")));
    assertThat(rules(find(chart, "ClusterRole", "mp-operator"))).isEqualTo(kustomizeRules);
    assertThat(rules(find(chart, "ClusterRole", "mp-operator-picker-bindings")))
        .isEqualTo(rules(find(kustomize, "ClusterRole", "modelplane-operator-picker-bindings")))
        .contains("rbac.authorization.k8s.io clusterroles bind [modelplane-endpoint-picker]");
    assertThat(rules(find(chart, "ClusterRole", "modelplane-endpoint-picker")))
        .isEqualTo(rules(find(kustomize, "ClusterRole", "modelplane-endpoint-picker")));
    for (String role : List.of("modelplane-operator-leader-election", "modelplane-operator-model-reports",
        "modelplane-operator-events")) {
      assertThat(rules(find(chart, "Role", role))).isEqualTo(rules(find(kustomize, "Role", role)));
    }
    // The operator holds no Secret right and no ClusterRole write, whatever binds it.
    for (JsonNode role : chart.stream().filter(d -> d.path("kind").asText().endsWith("Role")).toList()) {
      assertThat(rules(role)).as(role.at("/metadata/name").asText())
          .noneMatch(r -> r.contains(" secrets ") || r.startsWith("rbac.authorization.k8s.io clusterroles ")
              && !r.contains(" bind ") || r.contains(" * ") || r.startsWith("* "));
    }
    for (String policy : List.of("cluster-role-bindings", "configmaps", "system-namespaces")) {
      JsonNode ourPolicy = find(chart, "ValidatingAdmissionPolicy", "mp-operator-" + policy);
      JsonNode theirPolicy = find(kustomize, "ValidatingAdmissionPolicy", "modelplane-operator-" + policy);
      assertThat(ourPolicy.at("/spec").toString()).isEqualTo(theirPolicy.at("/spec").toString()
          .replace("system:serviceaccount:modelplane-system:", "system:serviceaccount:" + test.namespace() + ":"));
      assertThat(find(chart, "ValidatingAdmissionPolicyBinding", "mp-operator-" + policy).at("/spec/policyName")
          .asText()).isEqualTo("mp-operator-" + policy);
    }
    JsonNode ours = find(chart, "Deployment", "modelplane-operator").at("/spec/template/spec");
    JsonNode theirs = find(kustomize, "Deployment", "modelplane-operator").at("/spec/template/spec");
    for (String field : List.of("/securityContext", "/volumes", "/serviceAccountName")) {
      assertThat(ours.at(field)).as(field).isEqualTo(theirs.at(field));
    }
    for (String field : List.of("/ports", "/livenessProbe", "/readinessProbe", "/resources", "/securityContext",
        "/volumeMounts", "/env")) {
      assertThat(ours.at("/containers/0" + field)).as(field).isEqualTo(theirs.at("/containers/0" + field));
    }
    assertThat(ours.at("/containers/0/args").toString())
        .isEqualTo(theirs.at("/containers/0/args").toString().replace("modelplane-system", test.namespace()));
    for (JsonNode pc : kustomize.stream().filter(d -> "PriorityClass".equals(d.path("kind").asText())).toList()) {
      JsonNode mine = find(chart, "PriorityClass", pc.at("/metadata/name").asText());
      for (String field : List.of("/value", "/preemptionPolicy", "/globalDefault", "/description")) {
        assertThat(mine.at(field)).as(field).isEqualTo(pc.at(field));
      }
    }
    assertThat(find(chart, "Deployment", "modelplane-router").at("/spec/template/spec/containers/0/args").toString())
        .contains("\"--all-pools\"", "\"--pool-namespace=" + test.namespace() + "\"");
    dryRun(test, chart);
  }

  @Test
  void watchedNamespacesGetRolesAndTheUnionIsTheClusterWideRole(KubeTest test) throws Exception {
    List<JsonNode> chart = template(test.namespace(), "--set", "operator.watchNamespaces={" + test.namespace() + "}",
        "--set", "router.pools={chat,embed}");
    JsonNode role = find(chart, "Role", "mp-operator");
    assertThat(role.at("/metadata/namespace").asText()).isEqualTo(test.namespace());
    List<JsonNode> kustomize = documents(Files.readString(root().resolve("deploy/operator/rbac.yaml")));
    assertThat(rules(find(chart, "ClusterRole", "mp-operator")))
        .isEqualTo(rules(find(kustomize, "ClusterRole", "modelplane-operator")));
    assertThat(rules(role)).isEqualTo(rules(find(kustomize, "ClusterRole", "modelplane-operator-namespaced")));
    assertThat(rules(find(chart, "ClusterRole", "mp-operator"))).noneMatch(r -> r.contains("deployments"));
    assertNoClusterWideWrites(chart);
    assertThat(find(chart, "Deployment", "modelplane-operator").at("/spec/template/spec/containers/0/args")
        .toString()).contains("\"--namespaces=" + test.namespace() + "\"", "\"--no-modelservice-metrics-auth\"");
    assertThat(find(chart, "Deployment", "modelplane-router").at("/spec/template/spec/containers/0/args").toString())
        .contains("\"--pool=chat\",\"--pool=embed\"").doesNotContain("--all-pools");
    dryRun(test, chart);
  }

  @Test
  void theGatewayApiRouterGetsItsFlagListenerPortsClusterRoleAndGatewayClass(KubeTest test) throws Exception {
    test.installUpstreamCrds(UpstreamCrds.GATEWAY_API);
    List<JsonNode> chart = template(test.namespace(), "--set", "router.gatewayAPI.enabled=true",
        "--set", "router.gatewayAPI.listenerPorts={8081,8082}");
    assertThat(find(chart, "Deployment", "modelplane-router").at("/spec/template/spec/containers/0/args").toString())
        .contains("\"--gateway-controller-name=modelplane.dev/gateway-controller\"");
    assertThat(find(chart, "Deployment", "modelplane-router").at("/spec/template/spec/containers/0/ports").toString())
        .contains("\"containerPort\":8081", "\"containerPort\":8082");
    assertThat(find(chart, "Service", "modelplane-router").at("/spec/ports").toString())
        .contains("\"port\":8081", "\"port\":8082");
    assertThat(rules(find(chart, "ClusterRole", "mp-modelplane-router-gateway-api"))).contains(
        "gateway.networking.k8s.io httproutes watch", "gateway.networking.k8s.io gateways/status patch",
        "inference.networking.k8s.io inferencepools/status patch", " namespaces list")
        .noneMatch(r -> r.endsWith(" create") || r.endsWith(" update") || r.endsWith(" delete"));
    assertThat(find(chart, "GatewayClass", "modelplane").at("/spec/controllerName").asText())
        .isEqualTo("modelplane.dev/gateway-controller");
    dryRun(test, chart);
    // Off by default: no cluster-wide reads, no class.
    List<JsonNode> plain = template(test.namespace());
    assertThat(plain).noneMatch(d -> "GatewayClass".equals(d.path("kind").asText()));
    assertThat(find(plain, "Deployment", "modelplane-router").at("/spec/template/spec/containers/0/args").toString())
        .doesNotContain("--gateway-controller-name");
  }

  @Test
  void theNamespacedKustomizeLayoutBindsNamespacedRulesOnlyInTheWatchedNamespaces() throws Exception {
    Path kubectl = ControlPlaneBinaries.find().orElseThrow().resolve("kubectl");
    Run built = run(List.of(kubectl.toString(), "kustomize", root().resolve("deploy/operator-namespaced").toString()),
        120);
    assertThat(built.exit()).as(built.output()).isZero();
    List<JsonNode> docs = documents(built.output());
    assertThat(docs).noneMatch(d -> "ClusterRoleBinding".equals(d.path("kind").asText())
        && "modelplane-operator-namespaced".equals(d.at("/roleRef/name").asText()));
    Set<String> bound = new TreeSet<>();
    docs.stream().filter(d -> "RoleBinding".equals(d.path("kind").asText())
            && "modelplane-operator-namespaced".equals(d.at("/roleRef/name").asText()))
        .forEach(d -> {
          assertThat(d.at("/roleRef/kind").asText()).isEqualTo("ClusterRole");
          bound.add(d.at("/metadata/namespace").asText());
        });
    String args = find(docs, "Deployment", "modelplane-operator").at("/spec/template/spec/containers/0/args")
        .toString();
    String watched = args.replaceAll(".*\"--namespaces=([^\"]*)\".*", "$1");
    assertThat(new TreeSet<>(List.of(watched.split(",")))).isEqualTo(bound).isNotEmpty();
    assertThat(rules(find(docs, "ClusterRole", "modelplane-operator"))).noneMatch(r -> r.contains("deployments"));
    assertNoClusterWideWrites(docs);
    assertThat(args).contains("\"--no-modelservice-metrics-auth\"");
  }

  /**
   * Namespaced mode: every ClusterRoleBinding binds a ClusterRole that only reads (get, list, watch) — apart from the
   * cluster-scoped OME kinds the operator reconciles (ome.io: status, finalizers, filled-in metadata) — and no
   * ClusterRole grants {@code bind}, {@code escalate} or {@code impersonate}: no RBAC, Secret or workload writes.
   */
  private static void assertNoClusterWideWrites(List<JsonNode> docs) {
    List<JsonNode> bindings = docs.stream().filter(d -> "ClusterRoleBinding".equals(d.path("kind").asText()))
        .toList();
    assertThat(bindings).isNotEmpty();
    for (JsonNode binding : bindings) {
      JsonNode role = find(docs, "ClusterRole", binding.at("/roleRef/name").asText());
      assertThat(rules(role)).as(binding.at("/metadata/name").asText())
          .allMatch(r -> r.split(" ")[2].matches("get|list|watch") || r.startsWith("ome.io cluster")
              || r.startsWith("ome.io finetunedweights"));
    }
    assertThat(docs).noneMatch(d -> "ClusterRole".equals(d.path("kind").asText())
        && rules(d).stream().anyMatch(r -> r.split(" ")[2].matches("bind|escalate|impersonate")));
  }

  @Test
  void invalidValuesAreRefusedNamingTheField() throws Exception {
    Run negative = helm("template", "mp", chart().toString(), "--set", "operator.replicas=-1");
    assertThat(negative.exit()).isNotZero();
    assertThat(negative.output()).contains("replicas").contains("minimum");
    Run port = helm("template", "mp", chart().toString(), "--set", "router.ports.http=70000");
    assertThat(port.exit()).isNotZero();
    assertThat(port.output()).contains("http");
    Run unknown = helm("template", "mp", chart().toString(), "--set", "operator.replica=2");
    assertThat(unknown.exit()).isNotZero();
    assertThat(unknown.output()).contains("replica");
    Run monitoring = helm("template", "mp", chart().toString(), "--set", "monitoring.dashboards.enable=true");
    assertThat(monitoring.exit()).isNotZero();
    assertThat(monitoring.output()).contains("enable");
    Run badFlag = helm("template", "mp", chart().toString(), "--set", "operator.extraArgs={verbose}");
    assertThat(badFlag.exit()).isNotZero();
    assertThat(badFlag.output()).contains("extraArgs");
  }

  @Test
  void monitoringSwitchesRenderTheDashboardAndAlertFilesAndTheApiServerTakesTheConfigMaps(KubeTest test)
      throws Exception {
    assertThat(template(test.namespace())).as("off by default")
        .noneMatch(d -> d.at("/metadata/labels/grafana_dashboard").isTextual())
        .noneMatch(d -> "PrometheusRule".equals(d.path("kind").asText()));
    List<JsonNode> chart = template(test.namespace(), "--set", "monitoring.dashboards.enabled=true",
        "--set", "monitoring.alerts.enabled=true", "--set", "monitoring.alerts.labels.release=kube-prometheus",
        "--set", "monitoring.dashboards.annotations.grafana_folder=modelplane");
    List<JsonNode> dashboards = chart.stream().filter(d -> d.at("/metadata/labels/grafana_dashboard").isTextual())
        .toList();
    Path files = root().resolve("deploy/monitoring/dashboards");
    List<Path> json;
    try (var list = Files.list(files)) {
      json = list.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    }
    assertThat(json).hasSizeGreaterThanOrEqualTo(3);
    assertThat(dashboards).hasSameSizeAs(json);
    ObjectMapper mapper = new ObjectMapper();
    for (Path file : json) {
      String key = file.getFileName().toString();
      JsonNode map = dashboards.stream().filter(d -> d.path("data").has(key)).findFirst()
          .orElseThrow(() -> new AssertionError("no ConfigMap holds " + key));
      assertThat(map.at("/metadata/labels/grafana_dashboard").asText()).isEqualTo("1");
      assertThat(map.at("/metadata/annotations/grafana_folder").asText()).isEqualTo("modelplane");
      assertThat(mapper.readTree(map.path("data").path(key).asText())).as(key).isEqualTo(mapper.readTree(file.toFile()));
    }
    JsonNode rule = find(chart, "PrometheusRule", "mp-alerts");
    assertThat(rule.at("/metadata/labels/release").asText()).isEqualTo("kube-prometheus");
    assertThat(rule.path("spec")).isEqualTo(
        documents(Files.readString(root().resolve("deploy/monitoring/prometheusrule.yaml"))).get(0).path("spec"));
    // The API server has no PrometheusRule kind without the Prometheus Operator; the rest must apply.
    dryRun(test, chart.stream().filter(d -> !"PrometheusRule".equals(d.path("kind").asText())).toList());
  }

  private static void dryRun(KubeTest test, List<JsonNode> objects) throws Exception {
    Path file = Files.createTempFile("chart", ".yaml");
    StringBuilder all = new StringBuilder();
    for (JsonNode o : objects) {
      if (!"CustomResourceDefinition".equals(o.path("kind").asText())) {
        all.append("---\n").append(YAML.writeValueAsString(o));
      }
    }
    Files.writeString(file, all);
    Path kubectl = ControlPlaneBinaries.find().orElseThrow().resolve("kubectl");
    Run apply = run(List.of(kubectl.toString(), "--kubeconfig", test.controlPlane().kubeconfig().toString(),
        "apply", "--server-side", "--dry-run=server", "--field-manager=helm-test", "-f", file.toString()), 120);
    Files.deleteIfExists(file);
    assertThat(apply.exit()).as(apply.output()).isZero();
    assertThat(apply.output()).contains("deployment.apps/modelplane-operator serverside-applied (server dry run)");
  }

  private List<JsonNode> template(String namespace, String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("template", "mp", chart().toString(), "--namespace", namespace,
        "--include-crds"));
    args.addAll(List.of(extra));
    Run r = helm(args.toArray(String[]::new));
    assertThat(r.exit()).as(r.output()).isZero();
    return documents(r.output());
  }

  /**
   * A role's rules as one "group resource verb" line per permission (followed by {@code [names]} when the rule has
   * resourceNames; non-resource URLs as "- URL verb"), so groupings do not matter.
   */
  private static Set<String> rules(JsonNode role) {
    Set<String> out = new TreeSet<>();
    for (JsonNode rule : role.path("rules")) {
      List<String> names = new ArrayList<>();
      rule.path("resourceNames").forEach(n -> names.add(n.asText()));
      String suffix = names.isEmpty() ? "" : " " + names.toString().replace(", ", ",");
      for (JsonNode g : rule.path("apiGroups")) {
        for (JsonNode r : rule.path("resources")) {
          for (JsonNode v : rule.path("verbs")) {
            out.add(g.asText() + " " + r.asText() + " " + v.asText() + suffix);
          }
        }
      }
      for (JsonNode u : rule.path("nonResourceURLs")) {
        for (JsonNode v : rule.path("verbs")) {
          out.add("- " + u.asText() + " " + v.asText());
        }
      }
    }
    return out;
  }

  private static JsonNode find(List<JsonNode> docs, String kind, String name) {
    return docs.stream().filter(d -> kind.equals(d.path("kind").asText())
        && name.equals(d.at("/metadata/name").asText())).findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
  }

  private static List<JsonNode> documents(String yaml) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml)) {
      while (it.hasNext()) {
        JsonNode d = it.next();
        if (d != null && d.isObject()) {
          out.add(d);
        }
      }
    }
    return out;
  }

  private static Run helm(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(helm.toString()));
    command.addAll(List.of(args));
    return run(command, 120);
  }

  record Run(int exit, String output) {
  }

  private static Run run(List<String> command, long seconds) throws Exception {
    Path log = Files.createTempFile("helm-test", ".log");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean done = p.waitFor(seconds, TimeUnit.SECONDS);
    if (!done) {
      p.destroyForcibly();
    }
    String out = Files.readString(log, StandardCharsets.UTF_8);
    Files.deleteIfExists(log);
    return new Run(done ? p.exitValue() : -1, out);
  }

  private static Path chart() {
    return root().resolve("deploy/helm/modelplane");
  }

  private static Path root() {
    String root = System.getProperty("modelplane.repo.root");
    return root != null ? Path.of(root) : Path.of("..").toAbsolutePath().normalize();
  }
}
