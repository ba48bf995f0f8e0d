package dev.modelplane.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/monitoring: the PrometheusRule's groups pass {@code promtool check rules} (Prometheus's own parser and
 * checker, built by hack/promtool/build.sh) and its unit tests ({@code promtool test rules}), and the Grafana dashboards are importable anywhere: schema version 39,
 * every panel and query on the {@code ${datasource}} variable (no data source uid of one Grafana), every query with a
 * PromQL expression and a unique panel id. promtool is {@code $MODELPLANE_PROMTOOL_BIN} (hack/test sets it), else
 * what the build script prints. That every query returns data is MonitoringUpIT's job (cli module).
 */
class MonitoringFilesTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  @Test
  void alertGroupsPassPromtoolCheckRules() throws Exception {
    JsonNode rule = YAML.readTree(root().resolve("deploy/monitoring/prometheusrule.yaml").toFile());
    assertThat(rule.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
    assertThat(rule.path("kind").asText()).isEqualTo("PrometheusRule");
    Path rules = dir.resolve("rules.yml");
    YAML.writeValue(rules.toFile(), rule.path("spec"));
    Process check = new ProcessBuilder(promtool(), "check", "rules", rules.toString()).redirectErrorStream(true)
        .start();
    String report = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(check.exitValue()).as(report).isZero();
    int alerts = 0;
    for (JsonNode group : rule.at("/spec/groups")) {
      alerts += group.path("rules").size();
    }
    assertThat(report).contains("SUCCESS: " + alerts + " rules found");
  }

  /**
   * {@code promtool test rules} with src/test/resources/monitoring/alerts-test.yml: alerts fire on the series that
   * should fire them, with their labels and annotations, and not on healthy neighbours.
   */
  @Test
  void alertsFireOnSyntheticSeriesUnderPromtoolTestRules() throws Exception {
    JsonNode rule = YAML.readTree(root().resolve("deploy/monitoring/prometheusrule.yaml").toFile());
    YAML.writeValue(dir.resolve("rules.yml").toFile(), rule.path("spec"));
    Path tests = dir.resolve("alerts-test.yml");
    try (var in = MonitoringFilesTest.class.getResourceAsStream("/monitoring/alerts-test.yml")) {
      Files.copy(in, tests);
    }
    Process test = new ProcessBuilder(promtool(), "test", "rules", tests.toString()).redirectErrorStream(true)
        .start();
    String report = new String(test.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(test.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(test.exitValue()).as(report).isZero();
    assertThat(report).contains("SUCCESS");
  }

  @Test
  void aBrokenRuleFailsPromtool() throws Exception {
    Path rules = Files.writeString(dir.resolve("bad.yml"), """
        groups:
        - name: broken
          rules:
          - alert: Broken
            expr: sum by (le (rate(x[5m]))
        """);
    Process check = new ProcessBuilder(promtool(), "check", "rules", rules.toString()).redirectErrorStream(true)
        .start();
    String report = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(check.exitValue()).as(report).isNotZero();
  }

  @Test
  void dashboardsUseTheDatasourceVariableEverywhere() throws Exception {
    List<Path> files;
    try (var list = Files.list(root().resolve("deploy/monitoring/dashboards"))) {
      files = list.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    }
    assertThat(files).extracting(f -> f.getFileName().toString())
        .contains("modelplane-router.json", "modelplane-operator.json", "modelplane-model-servers.json");
    for (Path file : files) {
      JsonNode d = JSON.readTree(file.toFile());
      String name = file.getFileName().toString();
      assertThat(d.path("schemaVersion").asInt()).as(name).isEqualTo(39);
      assertThat(d.path("uid").asText()).as(name).isNotBlank();
      JsonNode variable = d.at("/templating/list/0");
      assertThat(variable.path("name").asText() + " " + variable.path("type").asText() + " "
          + variable.path("query").asText()).as(name).isEqualTo("datasource datasource prometheus");
      Set<Integer> ids = new HashSet<>();
      List<String> exprs = new ArrayList<>();
      for (JsonNode panel : d.path("panels")) {
        assertThat(ids.add(panel.path("id").asInt())).as(name + " panel id " + panel.path("id")).isTrue();
        if ("row".equals(panel.path("type").asText())) {
          continue;
        }
        String title = name + " / " + panel.path("title").asText();
        assertThat(panel.at("/datasource/uid").asText()).as(title).isEqualTo("${datasource}");
        assertThat(panel.path("targets")).as(title).isNotEmpty();
        for (JsonNode target : panel.path("targets")) {
          assertThat(target.at("/datasource/uid").asText()).as(title).isEqualTo("${datasource}");
          assertThat(target.path("expr").asText()).as(title).isNotBlank();
          exprs.add(target.path("expr").asText());
        }
      }
      assertThat(exprs).as(name).hasSizeGreaterThan(5);
      // A uid other than the variable would tie the dashboard to one Grafana's data source.
      assertThat(d.findValuesAsText("uid").stream().filter(u -> !u.equals(d.path("uid").asText())))
          .as(name).allMatch("${datasource}"::equals);
    }
  }

  private static String promtool() throws Exception {
    String configured = System.getenv("MODELPLANE_PROMTOOL_BIN");
    if (configured != null && Files.isExecutable(Path.of(configured))) {
      return configured;
    }
    Path script = root().resolve("hack/promtool/build.sh");
    Path log = Files.createTempFile("modelplane-promtool", ".log");
    Process p = new ProcessBuilder(script.toString()).redirectError(log.toFile()).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    boolean done = p.waitFor(20, TimeUnit.MINUTES);
    String why = Files.readString(log);
    Files.deleteIfExists(log);
    if (done && p.exitValue() == 0 && !out.isEmpty()) {
      return out.substring(out.lastIndexOf('\n') + 1);
    }
    if ("true".equals(System.getenv("CI"))) {
      Assertions.fail("CI=true needs promtool; hack/promtool/build.sh failed: " + why);
    }
    Assumptions.abort("promtool could not be built (hack/promtool/build.sh needs Go): " + why);
    return null;
  }

  private static Path root() {
    String root = System.getProperty("modelplane.repo.root");
    return root != null ? Path.of(root) : Path.of("..").toAbsolutePath().normalize();
  }
}
