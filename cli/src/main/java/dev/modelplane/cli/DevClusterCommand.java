package dev.modelplane.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.cli.devcluster.DevClusterProcess;
import dev.modelplane.cli.devcluster.DevClusterServer;
import dev.modelplane.common.logging.LogOptions;
import dev.modelplane.common.text.GoDuration;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code modelplane dev-cluster up|down|status}: a real control plane on loopback for local use and demos. The
 * commands parse their options; {@link DevClusterProcess} starts, finds and stops the background process, and
 * {@link DevClusterServer} is what that process runs ({@code serve}).
 */
@Command(
    name = "dev-cluster",
    mixinStandardHelpOptions = true,
    description = {"Runs a local Kubernetes control plane (etcd, kube-apiserver, controller-manager, scheduler and "
        + "kwok fake nodes) on 127.0.0.1, in the background, with the modelplane CRDs installed.",
        "Nothing leaves loopback: pod IPs are 127.x addresses."},
    subcommands = {DevClusterCommand.Up.class, DevClusterCommand.Down.class, DevClusterCommand.Status.class,
        DevClusterCommand.Serve.class})
final class DevClusterCommand implements Runnable {
  static final ObjectMapper JSON = new ObjectMapper();

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  abstract static class Base implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--state-dir", paramLabel = "DIR",
        description = "Where the cluster keeps its state, kubeconfig and logs "
            + "(default: ~/.cache/modelplane/dev-cluster).")
    Path stateDirOption;

    Path stateDir() {
      return DevClusterProcess.stateDir(stateDirOption);
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
      Optional<DevClusterProcess.State> state = DevClusterProcess.startOrReuse(stateDir(),
          new DevClusterProcess.Shape(cpuNodes, gpuNodes, gpusPerNode, !noLivePods), timeout,
          Main.class.getName(), out(), err());
      if (state.isEmpty()) {
        return 1;
      }
      out().println("Stop it with: modelplane dev-cluster down");
      out().println("KUBECONFIG=" + state.get().kubeconfig());
      return 0;
    }
  }

  @Command(name = "down", mixinStandardHelpOptions = true, description = "Stops the cluster and removes its state.")
  static final class Down extends Base {
    @Override
    public Integer call() throws Exception {
      return DevClusterProcess.stop(stateDir(), out());
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true,
      description = "Says whether the cluster runs, where, and how much memory it uses.")
  static final class Status extends Base {
    @Override
    public Integer call() throws Exception {
      Optional<DevClusterProcess.State> state = DevClusterProcess.readState(stateDir());
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
      DevClusterServer.run(stateDir(), new DevClusterProcess.Shape(cpuNodes, gpuNodes, gpusPerNode, !noLivePods),
          Main.class.getName());
      return 0;
    }
  }
}
