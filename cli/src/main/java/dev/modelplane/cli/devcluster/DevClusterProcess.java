package dev.modelplane.cli.devcluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.common.text.GoDuration;
import dev.modelplane.controlplane.ControlPlaneBinaries;
import dev.modelplane.controlplane.PrivateFiles;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The dev cluster as a background process ({@code modelplane dev-cluster serve}, which runs {@link DevClusterServer}):
 * started in its own session so closing the terminal does not stop it, waited for until it writes
 * {@code <state-dir>/state.json} once the cluster is ready, found again through that file (its pid says whether it
 * still runs) and stopped by that pid. {@code dev-cluster up|down|status}, {@code up} and {@code down} all go through
 * here.
 */
public final class DevClusterProcess {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String STATE_FILE = "state.json";
  private static final Duration STOP_GRACE = Duration.ofSeconds(60);

  /** What the background process writes once the cluster is ready. */
  public record State(long pid, String server, String kubeconfig, String workDir, String startedAt,
      long startupMillis) {
  }

  /** Nodes and live pods of a cluster to start. */
  public record Shape(int cpuNodes, int gpuNodes, int gpusPerNode, boolean livePods) {
  }

  private DevClusterProcess() {
  }

  /** {@code configured}, else {@code $XDG_CACHE_HOME/modelplane/dev-cluster} (or {@code ~/.cache/...}). */
  public static Path stateDir(Path configured) {
    if (configured != null) {
      return configured;
    }
    String cache = System.getenv("XDG_CACHE_HOME");
    Path base = cache != null && !cache.isBlank() ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("modelplane/dev-cluster");
  }

  /** The state of the cluster of {@code dir} while its process runs; empty when there is none or it ended. */
  public static Optional<State> readState(Path dir) {
    Path file = dir.resolve(STATE_FILE);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      State state = JSON.readValue(file.toFile(), State.class);
      return ProcessHandle.of(state.pid()).filter(ProcessHandle::isAlive).map(p -> state);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Writes {@code state} into {@code dir} at once (readers never see half a file): the cluster is ready. */
  static void writeState(Path dir, State state) throws IOException {
    Path tmp = dir.resolve(STATE_FILE + ".tmp");
    JSON.writeValue(tmp.toFile(), state);
    Files.move(tmp, dir.resolve(STATE_FILE), StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * The cluster of {@code dir}: the running one, or a new one started in the background (building the binaries
   * first when needed) as {@code mainClass dev-cluster serve}. Empty, with the reason on {@code err}, when it did not
   * come up within {@code timeout}.
   */
  public static Optional<State> startOrReuse(Path dir, Shape shape, Duration timeout, String mainClass,
      PrintWriter out, PrintWriter err) throws IOException, InterruptedException {
    return startOrReuse(dir, shape, timeout, mainClass, out, err, Map.of());
  }

  /**
   * As {@link #startOrReuse(Path, Shape, Duration, String, PrintWriter, PrintWriter)}, a new cluster's process (and
   * so the simulators it starts) getting {@code env} too; a running cluster keeps its own.
   */
  public static Optional<State> startOrReuse(Path dir, Shape shape, Duration timeout, String mainClass,
      PrintWriter out, PrintWriter err, Map<String, String> env) throws IOException, InterruptedException {
    Optional<State> running = readState(dir);
    if (running.isPresent()) {
      out.println("modelplane dev-cluster is already running (pid " + running.get().pid() + ", "
          + running.get().server() + ")");
      return running;
    }
    Path bin = ControlPlaneBinaries.find().orElse(null);
    if (bin == null) {
      bin = BuildStage.run("building the control plane (first run, ~12 min on 2 cores)", err,
          stage -> ControlPlaneBinaries.findOrBuild(dir.resolve("control-plane-build.log"), stage));
    }
    PrivateFiles.directory(dir);
    Files.deleteIfExists(dir.resolve(STATE_FILE));
    List<String> command = new ArrayList<>(javaCommand());
    command.addAll(List.of("-Dmodelplane.control-plane.bin=" + bin, mainClass, "dev-cluster", "serve",
        "--state-dir", dir.toString(), "--cpu-nodes", Integer.toString(shape.cpuNodes()),
        "--gpu-nodes", Integer.toString(shape.gpuNodes()), "--gpus-per-node", Integer.toString(shape.gpusPerNode())));
    if (!shape.livePods()) {
      command.add("--no-live-pods");
    }
    Path log = dir.resolve("dev-cluster.log");
    Process process = startDetached(command, log, env);
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      Optional<State> state = readState(dir);
      if (state.isPresent()) {
        out.println("modelplane dev-cluster is up: " + state.get().server() + " (control plane ready in "
            + state.get().startupMillis() + " ms; logs in " + dir.resolve("work/logs") + ")");
        return state;
      }
      if (!process.isAlive()) {
        err.println("dev-cluster: the background process exited with " + process.exitValue() + "; see " + log);
        err.println(String.join("\n", tail(log, 20)));
        return Optional.empty();
      }
      Thread.sleep(200);
    }
    process.destroy();
    err.println("dev-cluster: not ready after " + GoDuration.format(timeout) + "; see " + log);
    return Optional.empty();
  }

  /**
   * Stops the cluster of {@code dir} (and with it its live pods' simulators): SIGTERM, SIGKILL after a minute; then
   * removes its state file.
   */
  public static int stop(Path dir, PrintWriter out) throws IOException, InterruptedException {
    Optional<State> state = readState(dir);
    if (state.isEmpty()) {
      out.println("modelplane dev-cluster is not running");
      Files.deleteIfExists(dir.resolve(STATE_FILE));
      return 0;
    }
    ProcessHandle handle = ProcessHandle.of(state.get().pid()).orElseThrow();
    handle.destroy();
    try {
      handle.onExit().get(STOP_GRACE.toSeconds(), TimeUnit.SECONDS);
    } catch (TimeoutException | ExecutionException e) {
      handle.destroyForcibly();
    }
    Files.deleteIfExists(dir.resolve(STATE_FILE));
    out.println("modelplane dev-cluster stopped");
    return 0;
  }

  /** This JVM and its class path, to start another command of this distribution. */
  public static List<String> javaCommand() {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    String root = System.getProperty("modelplane.repo.root");
    if (root != null) {
      command.add("-Dmodelplane.repo.root=" + root);
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    return command;
  }

  /** Starts {@code command} in its own session (closing the terminal does not stop it), output to {@code log}. */
  public static Process startDetached(List<String> command, Path log, Map<String, String> env) throws IOException {
    List<String> full = new ArrayList<>(command);
    if (new File("/usr/bin/setsid").canExecute()) {
      full.add(0, "/usr/bin/setsid");
    }
    ProcessBuilder builder = new ProcessBuilder(full).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().putAll(env);
    return builder.start();
  }

  private static List<String> tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file);
      return all.subList(Math.max(0, all.size() - lines), all.size());
    } catch (IOException e) {
      return List.of();
    }
  }
}
