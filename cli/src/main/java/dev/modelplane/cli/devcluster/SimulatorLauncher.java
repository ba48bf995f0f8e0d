package dev.modelplane.cli.devcluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts the simulator process that serves one live container. */
@FunctionalInterface
public interface SimulatorLauncher {
  /** Starts a simulator for {@code plan} bound to {@code host}, appending its output to {@code log}. */
  Process start(SimulatorPlan plan, String host, Path log) throws IOException;

  /** The marker in a simulator's command line by which a later pod runner recognises one left behind. */
  String MARKER = "-Dmodelplane.live-pod=";

  /** Stops simulators an earlier run of the same pod runner left behind (killed before it could stop them). */
  default int stopLeftovers() {
    return 0;
  }

  /**
   * Simulators as JVMs of this distribution ({@code modelplane simulator}), sized small: many run on one machine.
   *
   * @param tag identifies this pod runner's processes (recorded in their command line)
   * @param mainClass the distribution's main class, whose {@code simulator} subcommand runs a simulator
   */
  static SimulatorLauncher javaProcesses(String tag, String mainClass) {
    return new SimulatorLauncher() {
      @Override
      public Process start(SimulatorPlan plan, String host, Path log) throws IOException {
        return startJava(tag, mainClass, plan, host, log);
      }

      @Override
      public int stopLeftovers() {
        List<ProcessHandle> left = ProcessHandle.allProcesses()
            .filter(p -> p.info().arguments().map(a -> List.of(a).contains(MARKER + tag)).orElse(false)).toList();
        left.forEach(ProcessHandle::destroy);
        return left.size();
      }
    };
  }

  /**
   * The command that runs {@code mainClass} of this distribution in a small JVM marked with {@code tag} (its
   * arguments follow): simulators, and the {@code bench} containers of job pods.
   */
  static List<String> javaCommand(String tag, String mainClass) {
    return List.of(ProcessHandle.current().info().command().orElse("java"), MARKER + tag, "-XX:+UseSerialGC",
        "-Xms16m", "-Xmx256m", "-Xss512k", "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError", "-cp",
        System.getProperty("java.class.path"), mainClass);
  }

  private static Process startJava(String tag, String mainClass, SimulatorPlan plan, String host, Path log)
      throws IOException {
    List<String> command = new ArrayList<>(javaCommand(tag, mainClass));
    command.addAll(List.of("simulator", "--host", host, "--port", Integer.toString(plan.port())));
    command.addAll(plan.args());
    Files.createDirectories(log.getParent());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    builder.environment().putAll(plan.env()); // the pod's OTEL_* settings over the dev cluster's own
    return builder.start();
  }
}
