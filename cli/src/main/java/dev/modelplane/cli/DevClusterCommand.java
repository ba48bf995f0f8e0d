package dev.modelplane.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.cli.devcluster.ClusterAddons;
import dev.modelplane.cli.devcluster.DirectoryProvisioner;
import dev.modelplane.cli.devcluster.LiveStages;
import dev.modelplane.cli.devcluster.ModelAgents;
import dev.modelplane.cli.devcluster.PodRunner;
import dev.modelplane.cli.devcluster.SimulatorLauncher;
import dev.modelplane.common.io.PathTrees;
import dev.modelplane.common.logging.LogOptions;
import dev.modelplane.common.text.GoDuration;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.ControlPlaneBinaries;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.PrivateFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code modelplane dev-cluster up|down|status}: a real control plane on loopback for local use and demos. */
@Command(
    name = "dev-cluster",
    mixinStandardHelpOptions = true,
    description = {"Runs a local Kubernetes control plane (etcd, kube-apiserver, controller-manager, scheduler and "
        + "kwok fake nodes) on 127.0.0.1, in the background, with the modelplane CRDs installed.",
        "Nothing leaves loopback: pod IPs are 127.x addresses."},
    subcommands = {DevClusterCommand.Up.class, DevClusterCommand.Down.class, DevClusterCommand.Status.class,
        DevClusterCommand.Serve.class})
final class DevClusterCommand implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(DevClusterCommand.class);
  static final ObjectMapper JSON = new ObjectMapper();

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** What the background process writes once the cluster is ready. */
  record State(long pid, String server, String kubeconfig, String workDir, String startedAt, long startupMillis) {
  }

  static Path stateDir(Path configured) {
    if (configured != null) {
      return configured;
    }
    String cache = System.getenv("XDG_CACHE_HOME");
    Path base = cache != null && !cache.isBlank() ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("modelplane/dev-cluster");
  }

  static Optional<State> readState(Path dir) {
    Path file = dir.resolve("state.json");
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

  abstract static class Base implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--state-dir", paramLabel = "DIR",
        description = "Where the cluster keeps its state, kubeconfig and logs "
            + "(default: ~/.cache/modelplane/dev-cluster).")
    Path stateDirOption;

    Path stateDir() {
      return DevClusterCommand.stateDir(stateDirOption);
    }

    PrintWriter out() {
      return spec.commandLine().getOut();
    }

    PrintWriter err() {
      return spec.commandLine().getErr();
    }
  }

  @Command(name = "up", mixinStandardHelpOptions = true, description = "Starts the cluster in the background "
      + "(builds the binaries first if needed) and prints KUBECONFIG=<path> as its last line.")
  static final class Up extends Base {
    @Option(names = "--cpu-nodes", defaultValue = "1", description = "Fake CPU-only nodes (default: ${DEFAULT-VALUE}).")
    int cpuNodes;

    @Option(names = "--gpu-nodes", defaultValue = "4", description = "Fake GPU nodes (default: ${DEFAULT-VALUE}).")
    int gpuNodes;

    @Option(names = "--gpus-per-node", defaultValue = "8",
        description = "nvidia.com/gpu capacity of each GPU node (default: ${DEFAULT-VALUE}).")
    int gpusPerNode;

    @Option(names = "--no-live-pods",
        description = "Leave every pod to kwok: no simulator behind model-server pods, no genai-bench job pods run.")
    boolean noLivePods;

    @Option(names = "--timeout", defaultValue = "10m", converter = GoDuration.NonNegativeOrIso8601Converter.class,
        description = "How long to wait for the cluster, a Go duration such as 90s or 1h (default: ${DEFAULT-VALUE}; "
            + "a first run builds the binaries, which takes much longer: that build runs before the wait starts; "
            + "ISO-8601 such as PT10M is still read but deprecated).")
    Duration timeout;

    @Override
    public Integer call() throws Exception {
      Optional<State> state = startOrReuse(stateDir(), new Shape(cpuNodes, gpuNodes, gpusPerNode, !noLivePods),
          timeout, out(), err());
      if (state.isEmpty()) {
        return 1;
      }
      out().println("Stop it with: modelplane dev-cluster down");
      out().println("KUBECONFIG=" + state.get().kubeconfig());
      return 0;
    }
  }

  /** Nodes and live pods of a cluster to start. */
  record Shape(int cpuNodes, int gpuNodes, int gpusPerNode, boolean livePods) {
  }

  /**
   * The cluster of {@code dir}: the running one, or a new one started in the background (building the binaries
   * first when needed). Empty, with the reason on {@code err}, when it did not come up within {@code timeout}.
   */
  static Optional<State> startOrReuse(Path dir, Shape shape, Duration timeout, PrintWriter out, PrintWriter err)
      throws IOException, InterruptedException {
    Optional<State> running = readState(dir);
    if (running.isPresent()) {
      out.println("modelplane dev-cluster is already running (pid " + running.get().pid() + ", "
          + running.get().server() + ")");
      return running;
    }
    err.println("dev-cluster: locating the control-plane binaries (the first run builds them from Go modules, "
        + "about 12 minutes on 2 cores)...");
    err.flush();
    Path bin = ControlPlaneBinaries.findOrBuild();
    PrivateFiles.directory(dir);
    Files.deleteIfExists(dir.resolve("state.json"));
    List<String> command = new ArrayList<>(javaCommand());
    command.addAll(List.of("-Dmodelplane.control-plane.bin=" + bin, Main.class.getName(), "dev-cluster", "serve",
        "--state-dir", dir.toString(), "--cpu-nodes", Integer.toString(shape.cpuNodes()),
        "--gpu-nodes", Integer.toString(shape.gpuNodes()), "--gpus-per-node", Integer.toString(shape.gpusPerNode())));
    if (!shape.livePods()) {
      command.add("--no-live-pods");
    }
    Path log = dir.resolve("dev-cluster.log");
    Process process = startDetached(command, log, Map.of());
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

  /** This JVM and its class path, to start another command of this distribution. */
  static List<String> javaCommand() {
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
  static Process startDetached(List<String> command, Path log, Map<String, String> env) throws IOException {
    List<String> full = new ArrayList<>(command);
    if (new java.io.File("/usr/bin/setsid").canExecute()) {
      full.add(0, "/usr/bin/setsid");
    }
    ProcessBuilder builder = new ProcessBuilder(full).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    builder.environment().putAll(env);
    return builder.start();
  }

  @Command(name = "down", mixinStandardHelpOptions = true, description = "Stops the cluster and removes its state.")
  static final class Down extends Base {
    @Override
    public Integer call() throws Exception {
      return stop(stateDir(), out());
    }
  }

  /** Stops the cluster of {@code dir} (and with it its live pods' simulators) and removes its state file. */
  static int stop(Path dir, PrintWriter out) throws IOException, InterruptedException {
    Optional<State> state = readState(dir);
    if (state.isEmpty()) {
      out.println("modelplane dev-cluster is not running");
      Files.deleteIfExists(dir.resolve("state.json"));
      return 0;
    }
    ProcessHandle handle = ProcessHandle.of(state.get().pid()).orElseThrow();
    handle.destroy();
    try {
      handle.onExit().get(60, java.util.concurrent.TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
      handle.destroyForcibly();
    }
    Files.deleteIfExists(dir.resolve("state.json"));
    out.println("modelplane dev-cluster stopped");
    return 0;
  }

  @Command(name = "status", mixinStandardHelpOptions = true,
      description = "Says whether the cluster runs, where, and how much memory it uses.")
  static final class Status extends Base {
    @Override
    public Integer call() throws Exception {
      Optional<State> state = readState(stateDir());
      if (state.isEmpty()) {
        out().println("modelplane dev-cluster is not running");
        return 3;
      }
      Path memory = stateDir().resolve("memory.json");
      out().println("modelplane dev-cluster is running: " + state.get().server() + " (pid " + state.get().pid()
          + ", since " + state.get().startedAt() + ")");
      if (Files.exists(memory)) {
        out().println("memory (RSS MiB) at start: " + Files.readString(memory).strip());
      }
      out().println("KUBECONFIG=" + state.get().kubeconfig());
      return 0;
    }
  }

  @Command(name = "serve", hidden = true,
      description = "Runs the cluster in the foreground until stopped (used by up).")
  static final class Serve extends Base {
    @Option(names = "--cpu-nodes", defaultValue = "1")
    int cpuNodes;

    @Option(names = "--gpu-nodes", defaultValue = "4")
    int gpuNodes;

    @Option(names = "--gpus-per-node", defaultValue = "8")
    int gpusPerNode;

    @Option(names = "--no-live-pods")
    boolean noLivePods;

    @Mixin
    LogOptions logging = new LogOptions();

    @Override
    public Integer call() throws Exception {
      logging.apply();
      Path dir = PrivateFiles.directory(stateDir());
      Path work = dir.resolve("work");
      PathTrees.deleteRecursively(work);
      PrivateFiles.directory(work);
      UnaryOperator<String> stages = noLivePods ? UnaryOperator.identity() : LiveStages::rewrite;
      try (ControlPlane cp = ControlPlane.start(ControlPlaneBinaries.findOrBuild(), work, true, stages,
          ControlPlane.Component.CONTROLLER_MANAGER, ControlPlane.Component.SCHEDULER, ControlPlane.Component.KWOK);
          DirectoryProvisioner volumes = new DirectoryProvisioner(cp.client(), work.resolve("volumes"));
          PodRunner runner = new PodRunner(cp.client(), work.resolve("pods"),
              SimulatorLauncher.javaProcesses(dir.toAbsolutePath().toString(), Main.class.getName()),
              work.resolve("models"), SimulatorLauncher.javaCommand(dir.toAbsolutePath().toString(),
                  Main.class.getName()));
          ModelAgents agents = new ModelAgents(cp.client(), work.resolve("models"))) {
        cp.installCrds();
        ClusterAddons.install(cp.client());
        ClusterAddons.installUpstreamCrds(cp);
        volumes.start();
        List<FakeNode> nodes = nodes(cpuNodes, gpuNodes, gpusPerNode);
        cp.addNodes(nodes.toArray(FakeNode[]::new));
        if (!noLivePods) {
          runner.start();
          agents.start(nodes.stream().map(FakeNode::name).toList());
        }
        // The admin's client key is in it: the owner's only, like the directory it is in.
        Path kubeconfig = PrivateFiles.copy(cp.kubeconfig(), dir.resolve("kubeconfig"));
        Map<String, Long> memory = cp.memoryMiB();
        Files.writeString(dir.resolve("memory.json"), JSON.writeValueAsString(memory));
        State state = new State(ProcessHandle.current().pid(), cp.server(), kubeconfig.toString(), work.toString(),
            Instant.now().toString(), cp.startupTime().toMillis());
        Path tmp = dir.resolve("state.json.tmp");
        JSON.writeValue(tmp.toFile(), state);
        Files.move(tmp, dir.resolve("state.json"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        LOG.atInfo().addKeyValue("server", cp.server()).addKeyValue("pids", cp.pids()).log("dev-cluster ready");
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
        stop.await();
      }
      return 0;
    }
  }

  /** GPU products the fake GPU nodes get in turn, so manifests pinning a common one can schedule. */
  static final List<String> GPU_PRODUCTS = List.of("NVIDIA-L4", "NVIDIA-H100-80GB-HBM3", "NVIDIA-L40S");

  static List<FakeNode> nodes(int cpuNodes, int gpuNodes, int gpusPerNode) {
    List<FakeNode> nodes = new ArrayList<>();
    for (int i = 0; i < cpuNodes; i++) {
      nodes.add(FakeNode.cpu("cpu-node-" + i));
    }
    for (int i = 0; i < gpuNodes; i++) {
      // The GPUs also show as render devices (the generic device plugin's devic.es/dri-render), which Vulkan
      // builds of llama.cpp ask for.
      nodes.add(FakeNode.nvidia("gpu-node-" + i, gpusPerNode)
          .withLabel("nvidia.com/gpu.product", GPU_PRODUCTS.get(i % GPU_PRODUCTS.size()))
          .withCapacity("devic.es/dri-render", Integer.toString(gpusPerNode)));
    }
    return nodes;
  }

  static List<String> tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file);
      return all.subList(Math.max(0, all.size() - lines), all.size());
    } catch (IOException e) {
      return List.of();
    }
  }
}
