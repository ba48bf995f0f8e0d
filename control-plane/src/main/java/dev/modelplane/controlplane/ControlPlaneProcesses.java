package dev.modelplane.controlplane;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * The binaries of a {@link ControlPlane} as processes: the command line of each (etcd, kube-apiserver,
 * kube-controller-manager, kube-scheduler, kwok), every listener on 127.0.0.1, started with its output in
 * {@code <workDir>/logs}, kept by name so that one can be stopped and started again with the same command, waited on
 * (failing at once when one of them exits) and stopped in reverse start order. How the cluster is wired (certificates,
 * kubeconfigs, ports, which components run) is the control plane's; it calls this under its own lock.
 */
final class ControlPlaneProcesses {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  private final Path binDir;
  private final Path workDir;
  private final Map<String, ManagedProcess> processes = new LinkedHashMap<>();
  private final Map<String, List<String>> commands = new LinkedHashMap<>();

  ControlPlaneProcesses(Path binDir, Path workDir) {
    this.binDir = binDir;
    this.workDir = workDir;
  }

  void startEtcd(int clientPort, int peerPort) throws IOException {
    launch("etcd", List.of(bin("etcd"), "--name=modelplane", "--data-dir=" + workDir.resolve("etcd"),
        "--listen-client-urls=http://127.0.0.1:" + clientPort, "--advertise-client-urls=http://127.0.0.1:" + clientPort,
        "--listen-peer-urls=http://127.0.0.1:" + peerPort,
        "--initial-advertise-peer-urls=http://127.0.0.1:" + peerPort,
        "--initial-cluster=modelplane=http://127.0.0.1:" + peerPort,
        "--unsafe-no-fsync", "--log-level=warn", "--quota-backend-bytes=4294967296"));
  }

  void startApiServer(int etcdPort, int apiPort, Pki pki, String serviceCidr) throws IOException {
    launch("kube-apiserver", List.of(bin("kube-apiserver"), "--etcd-servers=http://127.0.0.1:" + etcdPort,
        "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", "--secure-port=" + apiPort,
        "--tls-cert-file=" + pki.cert("apiserver"), "--tls-private-key-file=" + pki.key("apiserver"),
        "--client-ca-file=" + pki.cert("ca"), "--authorization-mode=Node,RBAC", "--allow-privileged=true",
        "--service-cluster-ip-range=" + serviceCidr,
        "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
        "--service-account-key-file=" + pki.dir.resolve("sa.pub"),
        "--service-account-signing-key-file=" + pki.key("sa"),
        "--requestheader-client-ca-file=" + pki.cert("front-proxy-ca"),
        "--requestheader-allowed-names=front-proxy-client", "--requestheader-username-headers=X-Remote-User",
        "--requestheader-group-headers=X-Remote-Group", "--requestheader-extra-headers-prefix=X-Remote-Extra-",
        "--proxy-client-cert-file=" + pki.cert("front-proxy-client"),
        "--proxy-client-key-file=" + pki.key("front-proxy-client"),
        // The endpoint reconciler refuses loopback addresses; nothing outside this machine needs the endpoints.
        "--endpoint-reconciler-type=none", "--enable-aggregator-routing=true",
        "--cert-dir=" + workDir.resolve("apiserver-certs"),
        "--profiling=false", "--v=1"));
  }

  /**
   * The endpoint controllers stay off: the API server refuses the fake nodes' loopback pod IPs in Endpoints and
   * EndpointSlices, so they would only fill the event list with "may not be in the loopback range" warnings (and
   * {@code modelplane status} with them). What needs a Service's endpoints in the dev cluster reads the Service's
   * ready pods instead (the CLI's ApiClusterView).
   */
  static final String ENDPOINT_CONTROLLERS_OFF =
      "--controllers=*,-endpoints-controller,-endpointslice-controller,-endpointslice-mirroring-controller";

  void startControllerManager(Path kubeconfig, Pki pki, int port) throws IOException {
    launch("kube-controller-manager", List.of(bin("kube-controller-manager"), "--kubeconfig=" + kubeconfig,
        "--authentication-kubeconfig=" + kubeconfig, "--authorization-kubeconfig=" + kubeconfig,
        "--bind-address=127.0.0.1", "--secure-port=" + port, "--leader-elect=false",
        "--use-service-account-credentials=true", "--service-account-private-key-file=" + pki.key("sa"),
        "--root-ca-file=" + pki.cert("ca"), "--cluster-signing-cert-file=" + pki.cert("ca"),
        "--cluster-signing-key-file=" + pki.key("ca"), "--cert-dir=" + workDir.resolve("kcm-certs"),
        // Fast enough for tests: the defaults wait minutes before evicting or collecting.
        "--concurrent-gc-syncs=5", "--node-monitor-grace-period=60s", ENDPOINT_CONTROLLERS_OFF, "--v=1"));
  }

  void startScheduler(Path kubeconfig, int port) throws IOException {
    launch("kube-scheduler", List.of(bin("kube-scheduler"), "--kubeconfig=" + kubeconfig,
        "--authentication-kubeconfig=" + kubeconfig, "--authorization-kubeconfig=" + kubeconfig,
        "--bind-address=127.0.0.1", "--secure-port=" + port, "--leader-elect=false",
        "--cert-dir=" + workDir.resolve("scheduler-certs"), "--v=1"));
  }

  /**
   * kwok, managing the nodes annotated {@code annotation}, with its default stages (shipped beside the binaries)
   * rewritten by {@code stages}.
   */
  void startKwok(Path kubeconfig, String annotation, UnaryOperator<String> stages) throws IOException {
    Path config = Files.writeString(workDir.resolve("kwok-stages.yaml"),
        stages.apply(Files.readString(binDir.resolve("../etc/kwok-stages.yaml").normalize())));
    launch("kwok", List.of(bin("kwok"), "--kubeconfig=" + kubeconfig, "--config=" + config,
        "--manage-all-nodes=false", "--manage-nodes-with-annotation-selector=" + annotation,
        // Nodes without an InternalIP or pod CIDR get loopback ones, never kwok's 10.x defaults.
        "--node-ip=127.0.0.1", "--cidr=127.1.0.0/16", "--node-lease-duration-seconds=40", "--v=1"));
  }

  /** Whether the process {@code name} was started and still runs. */
  boolean isAlive(String name) {
    ManagedProcess process = processes.get(name);
    return process != null && process.isAlive();
  }

  /** Stops the process {@code name}: SIGTERM, SIGKILL after {@code grace} (at once when zero). */
  void stop(String name, Duration grace) {
    processes.get(name).stop(grace);
  }

  /** Starts the process {@code name} again with the command it was first started with. */
  void restart(String name) throws IOException {
    launch(name, commands.get(name));
  }

  /** Stops every process, the last started first. */
  void stopAll(Duration grace) {
    List<ManagedProcess> reverse = new ArrayList<>(processes.values());
    Collections.reverse(reverse);
    for (ManagedProcess process : reverse) {
      process.stop(grace);
    }
  }

  /** Resident memory of each process, in MiB. */
  Map<String, Long> memoryMiB() {
    Map<String, Long> rss = new LinkedHashMap<>();
    processes.forEach((name, p) -> rss.put(name, p.rssMiB()));
    return rss;
  }

  /** The PID of each process. */
  Map<String, Long> pids() {
    Map<String, Long> pids = new LinkedHashMap<>();
    processes.forEach((name, p) -> pids.put(name, p.pid()));
    return pids;
  }

  /**
   * Waits up to two minutes until {@code condition} holds (a RuntimeException from it counts as not yet).
   *
   * @throws IOException when a process exits meanwhile or time runs out, with the last lines of the logs
   */
  void waitFor(String what, BooleanSupplier condition) throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (true) {
      try {
        if (condition.getAsBoolean()) {
          return;
        }
      } catch (RuntimeException e) {
        // Not up yet.
      }
      for (ManagedProcess process : processes.values()) {
        if (!process.isAlive()) {
          throw new IOException(process.name() + " exited while waiting for " + what + "; last log lines:\n"
              + process.tail(20));
        }
      }
      if (System.nanoTime() > deadline) {
        StringBuilder logs = new StringBuilder();
        processes.values().forEach(p -> logs.append("\n--- ").append(p.name()).append(":\n").append(p.tail(10)));
        throw new IOException("timed out after " + START_TIMEOUT.toSeconds() + "s waiting for " + what + logs);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for " + what, e);
      }
    }
  }

  private void launch(String name, List<String> command) throws IOException {
    commands.put(name, List.copyOf(command));
    processes.put(name, ManagedProcess.start(name, command, workDir.resolve("logs")));
  }

  private String bin(String name) {
    return binDir.resolve(name).toString();
  }
}
