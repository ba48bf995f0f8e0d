package dev.modelplane.cli;

import dev.modelplane.cli.devcluster.DevClusterProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code modelplane down}: stops what {@code modelplane up} started (Prometheus, router, operator, dev cluster). */
@Command(name = "down", mixinStandardHelpOptions = true,
    description = "Stops the router, the operator and the dev cluster that 'modelplane up' started.")
final class DownCommand implements Callable<Integer> {
  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--state-dir", paramLabel = "DIR",
      description = "State directory given to up (default: ~/.cache/modelplane/dev-cluster).")
  Path stateDirOption;

  @Override
  public Integer call() throws Exception {
    Path dir = DevClusterProcess.stateDir(stateDirOption);
    Monitoring.stop(dir, spec.commandLine().getOut());
    Optional<PlatformState> platform = PlatformState.read(dir);
    if (platform.isPresent()) {
      platform.get().stop();
      Files.deleteIfExists(dir.resolve(PlatformState.FILE));
      spec.commandLine().getOut().println("modelplane router and operator stopped");
    }
    return DevClusterProcess.stop(dir, spec.commandLine().getOut());
  }
}
