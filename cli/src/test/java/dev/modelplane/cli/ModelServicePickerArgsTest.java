package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.operator.ModelServiceSettings;
import dev.modelplane.operator.otterscale.modelservice.ModelServicePlanner;
import dev.modelplane.router.RouterCommand;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** The endpoint picker the operator generates for each ModelService sample is a command line the router accepts. */
class ModelServicePickerArgsTest {
  @ParameterizedTest
  @ValueSource(strings = {"modelservice-aggregated.yaml", "modelservice-pd.yaml", "modelservice-monitoring.yaml",
      "modelservice-local.yaml"})
  void theRouterParsesThePickerArgumentsOfEverySample(String sample) throws Exception {
    Path root = Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();
    ModelService ms = Serialization.unmarshal(Files.readString(root.resolve("deploy/samples/otterscale/" + sample)),
        ModelService.class);
    if (ms.getMetadata().getNamespace() == null) {
      ms.getMetadata().setNamespace("default");
    }
    // With the operator's default (modelplane's image) and with upstream flags alone, as for any image.
    ModelServiceSettings settings = new ModelServiceSettings(null, null, null, null, null, null, null, false, null);
    Deployment picker = ModelServicePlanner.plan(ms, settings).owned().stream()
        .filter(o -> o instanceof Deployment d && d.getMetadata().getName().endsWith("-epp")).map(Deployment.class::cast)
        .findFirst().orElseThrow();
    List<String> args = picker.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
    List<String> routerArgs = args.getFirst().equals("router") ? args.subList(1, args.size()) : args;
    assertThat(routerArgs).anyMatch(a -> a.startsWith("--pool-name="));
    assertThatCode(() -> new CommandLine(new RouterCommand()).parseArgs(routerArgs.toArray(String[]::new)))
        .doesNotThrowAnyException();
  }
}
