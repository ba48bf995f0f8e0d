package dev.modelplane.cli.devcluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the model-server containers of the dev cluster's pods for real: for each pod that kwok has started on a fake
 * node with a container {@link ServerKind} knows, a simulator listens on the pod IP and the container's port. The pod's
 * readiness follows the simulator's {@code /health}; a simulator that exits is a container restart (with backoff);
 * deleting the pod stops it. Job pods (a genai-bench container) run for real through {@link JobPodRunner}. Every
 * other pod stays as kwok makes it.
 */
public final class PodRunner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PodRunner.class);
  private static final Duration TICK = Duration.ofSeconds(1);
  private static final Duration STOP_GRACE = Duration.ofSeconds(5);

  private final KubernetesClient client;
  private final Map<String, Optional<String>> gpuProducts = new java.util.concurrent.ConcurrentHashMap<>();
  private final Path logDir;
  private final SimulatorLauncher launcher;
  private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "pod-runner");
    t.setDaemon(true);
    return t;
  });
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
  private final Map<String, LivePod> pods = new HashMap<>();
  private final JobPodRunner jobs;
  private SharedIndexInformer<Pod> informer;

  /** A pod with live containers, by container name. */
  private static final class LivePod {
    Pod pod;
    final Map<String, LiveServer> servers = new LinkedHashMap<>();
    Boolean reportedReady;
    String reported;
    Instant readySince = Instant.now();

    LivePod(Pod pod) {
      this.pod = pod;
    }

    String key() {
      return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    String host() {
      return pod.getStatus().getPodIP();
    }
  }

  /**
   * @param logDir where each pod's container logs (and a job pod's volumes and scratch directories) go
   * @param launcher starts the simulators
   * @param nodesDir each fake node's directory (a job pod's hostPath volumes are under it)
   * @param java the command running this distribution's main class (a job pod's {@code bench} containers)
   */
  public PodRunner(KubernetesClient client, Path logDir, SimulatorLauncher launcher, Path nodesDir,
      List<String> java) {
    this.client = client;
    this.logDir = logDir;
    this.launcher = launcher;
    this.jobs = new JobPodRunner(client, new ApiClusterView(client), loop, logDir, nodesDir,
        GenaiBench.inCache(System.getenv(), System.getProperty("user.home")), java);
  }

  /** Starts watching pods; returns at once. */
  public void start() {
    int leftovers = launcher.stopLeftovers();
    if (leftovers > 0) {
      LOG.atInfo().addKeyValue("event", "live_leftovers_stopped").addKeyValue("count", leftovers)
          .log("stopped simulators an earlier run left behind");
    }
    informer = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {
        loop.execute(() -> observe(pod));
      }

      @Override
      public void onUpdate(Pod before, Pod pod) {
        loop.execute(() -> observe(pod));
      }

      @Override
      public void onDelete(Pod pod, boolean unknownFinalState) {
        loop.execute(() -> forget(pod.getMetadata().getUid()));
      }
    }, 0);
    loop.scheduleWithFixedDelay(this::tick, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void observe(Pod pod) {
    String uid = pod.getMetadata().getUid();
    if (pod.getMetadata().getDeletionTimestamp() != null) {
      forget(uid);
      return;
    }
    if (JobPods.isJobPod(pod)) {
      jobs.observe(pod);
      return;
    }
    LivePod known = pods.get(uid);
    if (known != null) {
      known.pod = pod;
      return;
    }
    if (pod.getStatus() == null || !"Running".equals(pod.getStatus().getPhase())
        || pod.getStatus().getPodIP() == null || pod.getSpec().getNodeName() == null) {
      return;
    }
    LivePod live = new LivePod(pod);
    for (Container c : pod.getSpec().getContainers()) {
      Optional<ServerKind> kind = ServerKind.of(c);
      kind.ifPresent(k -> live.servers.put(c.getName(),
          new LiveServer(SimulatorArgs.plan(pod, c, k, gpuProduct(pod.getSpec().getNodeName())))));
    }
    if (live.servers.isEmpty()) {
      return;
    }
    pods.put(uid, live);
    for (LiveServer server : live.servers.values()) {
      LOG.atInfo().addKeyValue("event", "live_container").addKeyValue("pod", live.key())
          .addKeyValue("container", server.plan.container()).addKeyValue("server", server.plan.kind())
          .addKeyValue("address", live.host() + ":" + server.plan.port())
          .addKeyValue("ignored_flags", server.plan.ignored())
          .log("serving a model-server container with a simulator");
      launch(live, server);
    }
  }

  /** The GPU model a node advertises (the NVIDIA device plugin's label), null when none or unreadable. */
  private String gpuProduct(String node) {
    return gpuProducts.computeIfAbsent(node, n -> {
      try {
        var found = client.nodes().withName(n).get();
        String label = found == null || found.getMetadata().getLabels() == null ? null
            : found.getMetadata().getLabels().get("nvidia.com/gpu.product");
        return Optional.ofNullable(label);
      } catch (KubernetesClientException e) {
        return Optional.empty();
      }
    }).orElse(null);
  }

  private void launch(LivePod live, LiveServer server) {
    Path log = logDir.resolve(live.pod.getMetadata().getNamespace()).resolve(live.pod.getMetadata().getName())
        .resolve(server.plan.container() + ".log");
    try {
      Process process = launcher.start(server.plan, live.host(), log);
      server.process = process;
      server.state = LiveServer.State.RUNNING;
      server.startedAt = Instant.now();
      server.ready = false;
      String uid = live.pod.getMetadata().getUid();
      process.onExit().thenAccept(p -> loop.execute(() -> exited(uid, server, p)));
    } catch (IOException e) {
      LOG.atWarn().addKeyValue("event", "live_container_start_failed").addKeyValue("pod", live.key())
          .addKeyValue("container", server.plan.container()).setCause(e).log("could not start the simulator");
      server.crashed(127, Instant.now());
    }
    report(live);
  }

  private void exited(String uid, LiveServer server, Process process) {
    LivePod live = pods.get(uid);
    if (live == null || server.stopping || server.process != process) {
      return;
    }
    server.crashed(process.exitValue(), Instant.now());
    LOG.atWarn().addKeyValue("event", "live_container_exited").addKeyValue("pod", live.key())
        .addKeyValue("container", server.plan.container()).addKeyValue("exit_code", process.exitValue())
        .addKeyValue("restarts", server.restarts).addKeyValue("next_start", server.nextStart)
        .log("the simulator exited; restarting it after a backoff");
    report(live);
  }

  private void forget(String uid) {
    jobs.forget(uid);
    LivePod live = pods.remove(uid);
    if (live == null) {
      return;
    }
    live.servers.values().forEach(s -> s.stop(STOP_GRACE));
    LOG.atInfo().addKeyValue("event", "live_pod_stopped").addKeyValue("pod", live.key())
        .log("pod gone; simulator stopped");
  }

  private void tick() {
    jobs.tick();
    Instant now = Instant.now();
    for (LivePod live : new ArrayList<>(pods.values())) {
      for (LiveServer server : live.servers.values()) {
        if (server.state == LiveServer.State.WAITING && !server.nextStart.isAfter(now)) {
          launch(live, server);
        } else if (server.state == LiveServer.State.RUNNING && server.process != null) {
          probe(live, server);
        }
      }
      if (live.reported == null) {
        report(live);
      }
    }
  }

  private void probe(LivePod live, LiveServer server) {
    Process probed = server.process;
    String host = live.host().contains(":") ? "[" + live.host() + "]" : live.host();
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + host + ":" + server.plan.port() + "/health"))
        .timeout(Duration.ofSeconds(1)).GET().build();
    http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).handle((response, error) -> {
      boolean healthy = error == null && response.statusCode() == 200;
      loop.execute(() -> {
        if (server.process == probed && server.ready != healthy && pods.containsValue(live)) {
          server.ready = healthy;
          report(live);
        }
      });
      return null;
    });
  }

  /** Patches the pod's status when what it would say changed. */
  private void report(LivePod live) {
    boolean ready = LivePodStatus.ready(live.servers);
    if (live.reportedReady == null || live.reportedReady != ready) {
      live.readySince = Instant.now();
    }
    String patch = LivePodStatus.patch(live.pod, live.servers, live.readySince);
    if (patch.equals(live.reported)) {
      return;
    }
    try {
      client.pods().inNamespace(live.pod.getMetadata().getNamespace()).withName(live.pod.getMetadata().getName())
          .subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
      live.reported = patch;
      live.reportedReady = ready;
    } catch (KubernetesClientException e) {
      LOG.atDebug().addKeyValue("event", "live_pod_status_failed").addKeyValue("pod", live.key())
          .addKeyValue("code", e.getCode()).log("status patch failed; retried on the next change or tick");
      live.reported = null;
    }
  }

  @Override
  public void close() {
    if (informer != null) {
      informer.stop();
    }
    try {
      List<CompletableFuture<Process>> exits = loop.submit(() -> {
        List<CompletableFuture<Process>> all = new ArrayList<>();
        pods.values().forEach(p -> p.servers.values().forEach(s -> all.add(s.stop(STOP_GRACE))));
        pods.clear();
        all.add(jobs.stopAll().thenApply(v -> (Process) null));
        return all;
      }).get(10, TimeUnit.SECONDS);
      CompletableFuture.allOf(exits.toArray(CompletableFuture[]::new)).get(STOP_GRACE.toSeconds() + 10,
          TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.atWarn().setCause(e).log("pod runner: stopping simulators took too long");
    }
    loop.shutdownNow();
  }

  /** Where each live container's output goes: {@code <dir>/<namespace>/<pod>/<container>.log}. */
  public Path logDir() {
    return logDir;
  }
}
