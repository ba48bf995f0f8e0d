package dev.modelplane.controlplane;

import dev.modelplane.api.ApiResources;
import dev.modelplane.common.io.PathTrees;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kubernetes control plane on loopback: etcd and kube-apiserver (RBAC, default admission, service-account
 * tokens), optionally kube-controller-manager, kube-scheduler and kwok with fake nodes whose pod IPs are 127.x
 * addresses. Every listener binds 127.0.0.1 and every address handed out is loopback. {@link #close()} (also run at
 * JVM exit) stops every process it started, by PID, and removes its working directory. This class wires the cluster
 * (certificates, kubeconfigs, ports, components, nodes, CRDs, clients); the binaries' command lines and processes are
 * {@link ControlPlaneProcesses}'.
 */
public final class ControlPlane implements AutoCloseable {
  /** The first address of the service range, which the apiserver takes for the {@code kubernetes} Service. */
  static final String KUBERNETES_SERVICE_IP = "127.96.0.1";
  static final String SERVICE_CIDR = "127.96.0.0/16";
  private static final Logger LOG = LoggerFactory.getLogger(ControlPlane.class);
  private static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";

  /** Components beyond etcd and kube-apiserver. */
  public enum Component { CONTROLLER_MANAGER, SCHEDULER, KWOK }

  /** The two processes every control plane runs, which fault tests stop and start again. */
  public enum Core {
    ETCD("etcd"), KUBE_APISERVER("kube-apiserver");

    private final String process;

    Core(String process) {
      this.process = process;
    }
  }

  private final Path workDir;
  private final boolean ownsWorkDir;
  private final Pki pki;
  private final int apiPort;
  private final Path kubeconfig;
  private final ControlPlaneProcesses processes;
  private final Set<Component> running = EnumSet.noneOf(Component.class);
  private final Thread shutdownHook = new Thread(this::close, "control-plane-shutdown");
  private final Duration startupTime;
  private final UnaryOperator<String> kwokStages;
  private KubernetesClient client;
  private int nextNodeIndex;
  private boolean closed;

  private ControlPlane(Path binDir, Path workDir, boolean ownsWorkDir, UnaryOperator<String> kwokStages)
      throws IOException {
    this.kwokStages = kwokStages;
    this.workDir = workDir;
    this.ownsWorkDir = ownsWorkDir;
    this.processes = new ControlPlaneProcesses(binDir, workDir);
    long t0 = System.nanoTime();
    PrivateFiles.directory(workDir);
    Files.createDirectories(workDir.resolve("logs"));
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    this.pki = Pki.create(workDir.resolve("pki"));
    int etcdPort = freePort();
    int etcdPeerPort = freePort();
    this.apiPort = freePort();
    this.kubeconfig = Kubeconfig.write(workDir.resolve("kubeconfig"), server(), pki, "admin");
    Kubeconfig.write(workDir.resolve("controller-manager.kubeconfig"), server(), pki, "controller-manager");
    Kubeconfig.write(workDir.resolve("scheduler.kubeconfig"), server(), pki, "scheduler");
    processes.startEtcd(etcdPort, etcdPeerPort);
    processes.startApiServer(etcdPort, apiPort, pki, SERVICE_CIDR);
    try {
      processes.waitFor("kube-apiserver /readyz", () -> "ok".equals(rawQuietly("/readyz")));
    } catch (IOException e) {
      close();
      throw e;
    }
    this.startupTime = Duration.ofNanos(System.nanoTime() - t0);
    LOG.info("event=control_plane_ready server={} startup_ms={}", server(), startupTime.toMillis());
  }

  /** Starts etcd and kube-apiserver (in a fresh temp directory) and then the given components. */
  public static ControlPlane start(Component... components) throws IOException {
    return start(ControlPlaneBinaries.findOrBuild(), Files.createTempDirectory("modelplane-cp-"), true, components);
  }

  /** Starts a control plane from the binaries in {@code binDir}, keeping its files in {@code workDir}. */
  public static ControlPlane start(Path binDir, Path workDir, boolean removeWorkDirOnClose, Component... components)
      throws IOException {
    return start(binDir, workDir, removeWorkDirOnClose, UnaryOperator.identity(), components);
  }

  /**
   * As {@link #start(Path, Path, boolean, Component...)}, with kwok's stages (the YAML of kwok's default node and
   * pod stages) rewritten by {@code kwokStages} — e.g. to leave some pods' readiness to another process.
   */
  public static ControlPlane start(Path binDir, Path workDir, boolean removeWorkDirOnClose,
      UnaryOperator<String> kwokStages, Component... components) throws IOException {
    ControlPlane cp = startEtcdAndApiServer(binDir, workDir, removeWorkDirOnClose, kwokStages);
    try {
      cp.enable(components);
    } catch (IOException | RuntimeException e) {
      cp.close();
      throw e;
    }
    return cp;
  }

  /**
   * etcd and kube-apiserver, tried again on fresh ports (up to three times) when a port picked free was taken by
   * another process before ours bound it.
   */
  private static ControlPlane startEtcdAndApiServer(Path binDir, Path workDir, boolean removeWorkDirOnClose,
      UnaryOperator<String> kwokStages) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return new ControlPlane(binDir, workDir, removeWorkDirOnClose, kwokStages);
      } catch (IOException e) {
        if (attempt >= 3 || !String.valueOf(e.getMessage()).contains("address already in use")) {
          throw e;
        }
        LOG.warn("event=control_plane_port_taken attempt={} retrying with other ports", attempt);
        deleteRecursively(workDir.resolve("etcd"));
      }
    }
  }

  /** Starts the given components unless they already run. */
  public synchronized void enable(Component... components) throws IOException {
    for (Component component : components) {
      if (running.contains(component)) {
        continue;
      }
      switch (component) {
        case CONTROLLER_MANAGER -> startControllerManager();
        case SCHEDULER -> startScheduler();
        case KWOK -> startKwok();
      }
      running.add(component);
    }
  }

  /** Whether a component runs. */
  public synchronized boolean isRunning(Component component) {
    return running.contains(component);
  }

  private void startControllerManager() throws IOException {
    processes.startControllerManager(workDir.resolve("controller-manager.kubeconfig"), pki, freePort());
    // The ServiceAccount controller is part of the controller-manager: its first effect marks it as working.
    processes.waitFor("kube-controller-manager (default ServiceAccount)",
        () -> client().serviceAccounts().inNamespace("default").withName("default").get() != null);
  }

  private void startScheduler() throws IOException {
    processes.startScheduler(workDir.resolve("scheduler.kubeconfig"), freePort());
  }

  private void startKwok() throws IOException {
    processes.startKwok(kubeconfig, FakeNode.KWOK_ANNOTATION + "=fake", kwokStages);
  }

  /**
   * Creates fake nodes and waits until kwok reports them Ready. Each node gets its own /24 pod CIDR inside
   * 127.0.0.0/8, starting at 127.2.0.0/24, and its own loopback InternalIP from 127.254.0.1 (what host-network pods
   * get as pod IP).
   */
  public synchronized List<Node> addNodes(FakeNode... nodes) throws IOException {
    if (!running.contains(Component.KWOK)) {
      enable(Component.KWOK);
    }
    List<Node> created = new ArrayList<>();
    for (FakeNode fake : nodes) {
      String cidr = "127." + (2 + nextNodeIndex / 256) + "." + (nextNodeIndex % 256) + ".0/24";
      String nodeIp = "127.254." + (nextNodeIndex / 250) + "." + (1 + nextNodeIndex % 250);
      nextNodeIndex++;
      Node node = fake.toNode(cidr, nodeIp);
      created.add(client().nodes().resource(node).create());
    }
    for (FakeNode fake : nodes) {
      // The apiserver taints a new node not-ready; the controller-manager lifts the taint once kwok reports Ready.
      // Until then the scheduler rejects every pod for the taint, so wait for both.
      boolean taintLifted = running.contains(Component.CONTROLLER_MANAGER);
      processes.waitFor("node " + fake.name() + " Ready", () -> {
        Node n = client().nodes().withName(fake.name()).get();
        return n != null && n.getStatus() != null && n.getStatus().getConditions() != null
            && n.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))
            && (!taintLifted || n.getSpec().getTaints() == null || n.getSpec().getTaints().stream()
                .noneMatch(t -> NOT_READY_TAINT.equals(t.getKey())));
      });
    }
    return created;
  }

  /** Applies every modelplane CRD and waits until the apiserver reports each one Established. */
  public void installCrds() {
    KubernetesClient c = client();
    List<CustomResourceDefinition> crds = new ArrayList<>();
    for (Class<? extends HasMetadata> type : ApiResources.resourceClasses()) {
      crds.add(c.getKubernetesSerialization().unmarshal(ApiResources.crdYaml(type), CustomResourceDefinition.class));
    }
    CrdInstaller.apply(c, crds);
  }

  /**
   * Applies every CustomResourceDefinition in {@code files} (other documents are skipped) and waits until each is
   * Established; returns their names.
   */
  public List<String> installCrdFiles(List<Path> files) throws IOException {
    return CrdInstaller.apply(client(), CrdInstaller.read(client(), files));
  }

  /** Deletes the named CRDs (with their objects) and waits until they are gone. */
  public void removeCrds(List<String> names) {
    CrdInstaller.remove(client(), names);
  }

  /** The apiserver URL, {@code https://127.0.0.1:<port>}. */
  public String server() {
    return "https://127.0.0.1:" + apiPort;
  }

  /** A kubeconfig for a cluster admin (group system:masters) with embedded certificates. */
  public Path kubeconfig() {
    return kubeconfig;
  }

  /** The directory holding certificates, kubeconfigs, etcd data and logs. */
  public Path workDir() {
    return workDir;
  }

  /** How long etcd + kube-apiserver took from start until /readyz answered ok. */
  public Duration startupTime() {
    return startupTime;
  }

  /** A shared admin client; closed with the control plane. */
  public synchronized KubernetesClient client() {
    if (client == null) {
      client = newClient();
    }
    return client;
  }

  /** A new admin client, which the caller closes. */
  public KubernetesClient newClient() {
    try {
      Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
      config.setRequestTimeout(30_000);
      return new KubernetesClientBuilder().withConfig(config).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Resident memory of each running process, in MiB. */
  public synchronized Map<String, Long> memoryMiB() {
    return processes.memoryMiB();
  }

  /** PIDs of the processes this control plane started. */
  public synchronized Map<String, Long> pids() {
    return processes.pids();
  }

  /** Stops every process (reverse start order) and removes the working directory if this control plane made it. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (client != null) {
      client.close();
    }
    processes.stopAll(Duration.ofSeconds(10));
    if (ownsWorkDir) {
      deleteRecursively(workDir);
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // Already shutting down: this call is the hook.
    }
  }

  private String rawQuietly(String path) {
    try {
      return client().raw(path);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * Stops one of the core processes: {@code kill} sends SIGKILL (a crash), otherwise SIGTERM with a grace period.
   * Clients see connection failures until {@link #startCore(Core)}; the working directory and ports are kept.
   */
  public synchronized void stopCore(Core core, boolean kill) {
    if (!processes.isAlive(core.process)) {
      return;
    }
    processes.stop(core.process, kill ? Duration.ZERO : Duration.ofSeconds(10));
    LOG.info("event=control_plane_process_stopped process={} kill={}", core.process, kill);
  }

  /** Starts a stopped core process again with its original command and waits until the apiserver is ready. */
  public synchronized void startCore(Core core) throws IOException {
    if (processes.isAlive(core.process)) {
      return;
    }
    processes.restart(core.process);
    processes.waitFor("kube-apiserver /readyz after restarting " + core.process,
        () -> "ok".equals(rawQuietly("/readyz")));
    LOG.info("event=control_plane_process_started process={}", core.process);
  }

  /** Whether a core process is running. */
  public synchronized boolean isRunning(Core core) {
    return processes.isAlive(core.process);
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }

  private static void deleteRecursively(Path dir) {
    try {
      PathTrees.deleteRecursively(dir);
    } catch (IOException e) {
      LOG.warn("event=cleanup_failed dir={} error={}", dir, e.toString());
    }
  }
}
