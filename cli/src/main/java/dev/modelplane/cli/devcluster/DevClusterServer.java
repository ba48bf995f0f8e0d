package dev.modelplane.cli.devcluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.common.io.PathTrees;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.ControlPlaneBinaries;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.PrivateFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dev cluster itself, run in the foreground until the process is stopped: a control plane (with the
 * controller-manager, the scheduler and kwok) in {@code <state-dir>/work}, the modelplane and upstream CRDs, fake CPU
 * and GPU nodes, a directory provisioner for volumes, and unless live pods are off, simulators behind model-server
 * pods and a model agent per node. Once all that is up it writes the state file {@link DevClusterProcess} waits for.
 */
public final class DevClusterServer {
  private static final Logger LOG = LoggerFactory.getLogger(DevClusterServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  /** GPU products the fake GPU nodes get in turn, so manifests pinning a common one can schedule. */
  static final List<String> GPU_PRODUCTS = List.of("NVIDIA-L4", "NVIDIA-H100-80GB-HBM3", "NVIDIA-L40S");

  private DevClusterServer() {
  }

  /**
   * Runs the cluster of {@code stateDir} shaped as {@code shape} until this JVM shuts down; {@code mainClass} runs
   * the distribution's commands in the simulators and job pods it starts.
   */
  public static void run(Path stateDir, DevClusterProcess.Shape shape, String mainClass) throws Exception {
    Path dir = PrivateFiles.directory(stateDir);
    Path work = dir.resolve("work");
    PathTrees.deleteRecursively(work);
    PrivateFiles.directory(work);
    UnaryOperator<String> stages = shape.livePods() ? LiveStages::rewrite : UnaryOperator.identity();
    String tag = dir.toAbsolutePath().toString();
    try (ControlPlane cp = ControlPlane.start(ControlPlaneBinaries.findOrBuild(), work, true, stages,
        ControlPlane.Component.CONTROLLER_MANAGER, ControlPlane.Component.SCHEDULER, ControlPlane.Component.KWOK);
        DirectoryProvisioner volumes = new DirectoryProvisioner(cp.client(), work.resolve("volumes"));
        PodRunner runner = new PodRunner(cp.client(), work.resolve("pods"),
            SimulatorLauncher.javaProcesses(tag, mainClass), work.resolve("models"),
            SimulatorLauncher.javaCommand(tag, mainClass));
        ModelAgents agents = new ModelAgents(cp.client(), work.resolve("models"))) {
      cp.installCrds();
      ClusterAddons.install(cp.client());
      ClusterAddons.installUpstreamCrds(cp);
      volumes.start();
      List<FakeNode> nodes = nodes(shape.cpuNodes(), shape.gpuNodes(), shape.gpusPerNode());
      cp.addNodes(nodes.toArray(FakeNode[]::new));
      if (shape.livePods()) {
        runner.start();
        agents.start(nodes.stream().map(FakeNode::name).toList());
      }
      // The admin's client key is in it: the owner's only, like the directory it is in.
      Path kubeconfig = PrivateFiles.copy(cp.kubeconfig(), dir.resolve("kubeconfig"));
      Map<String, Long> memory = cp.memoryMiB();
      Files.writeString(dir.resolve("memory.json"), JSON.writeValueAsString(memory));
      DevClusterProcess.writeState(dir, new DevClusterProcess.State(ProcessHandle.current().pid(), cp.server(),
          kubeconfig.toString(), work.toString(), Instant.now().toString(), cp.startupTime().toMillis()));
      LOG.atInfo().addKeyValue("server", cp.server()).addKeyValue("pids", cp.pids()).log("dev-cluster ready");
      CountDownLatch stop = new CountDownLatch(1);
      Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
      stop.await();
    }
  }

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
}
