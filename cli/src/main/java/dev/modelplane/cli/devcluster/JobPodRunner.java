package dev.modelplane.cli.devcluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs job pods ({@link JobPods}) for real, as a kubelet with {@code restartPolicy: Never} would: the init containers
 * one after another, then the containers together, each as a local process ({@link JobCommand}) whose output goes
 * to {@code <pods dir>/<namespace>/<pod>/<container>.log}; the pod's status follows ({@link JobPodStatus}) so the
 * Job controller completes or fails the Job. Deleting the pod stops its processes. Used on the pod runner's thread.
 */
final class JobPodRunner {
  private static final Logger LOG = LoggerFactory.getLogger(JobPodRunner.class);

  private final KubernetesClient client;
  private final ClusterView cluster;
  private final Executor loop;
  private final Path podsDir;
  private final Path nodesDir;
  private final GenaiBench bench;
  private final List<String> java;
  private final ExecutorService installer = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "genai-bench-install");
    t.setDaemon(true);
    return t;
  });
  private final Map<String, Run> runs = new HashMap<>();
  private CompletableFuture<Void> prepared;

  /** One job pod: its containers in order and what was last reported. */
  private static final class Run {
    Pod pod;
    final List<JobContainer> init = new ArrayList<>();
    final List<JobContainer> main = new ArrayList<>();
    final Map<String, JobPodStatus.Transition> since = new HashMap<>();
    Map<String, Path> volumes;
    String reported;

    Run(Pod pod) {
      this.pod = pod;
      if (pod.getSpec().getInitContainers() != null) {
        pod.getSpec().getInitContainers().forEach(c -> init.add(new JobContainer(c, true)));
      }
      pod.getSpec().getContainers().forEach(c -> main.add(new JobContainer(c, false)));
    }

    String key() {
      return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    Path dir(Path podsDir) {
      return podsDir.resolve(pod.getMetadata().getNamespace()).resolve(pod.getMetadata().getName());
    }
  }

  /**
   * @param podsDir where each pod's logs, volumes and scratch directories go
   * @param nodesDir each node's directory (hostPath volumes)
   * @param java the command that runs this distribution's main class (its arguments follow)
   */
  JobPodRunner(KubernetesClient client, ClusterView cluster, Executor loop, Path podsDir, Path nodesDir,
      GenaiBench bench, List<String> java) {
    this.client = client;
    this.cluster = cluster;
    this.loop = loop;
    this.podsDir = podsDir;
    this.nodesDir = nodesDir;
    this.bench = bench;
    this.java = List.copyOf(java);
  }

  /** A job pod was added or changed. */
  void observe(Pod pod) {
    String uid = pod.getMetadata().getUid();
    Run known = runs.get(uid);
    if (known != null) {
      known.pod = pod;
      return;
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if (!"Pending".equals(phase) || pod.getStatus().getPodIP() == null || pod.getSpec().getNodeName() == null) {
      return;
    }
    Run run = new Run(pod);
    runs.put(uid, run);
    LOG.atInfo().addKeyValue("event", "job_pod").addKeyValue("pod", run.key())
        .addKeyValue("containers", JobPods.allContainers(pod).stream()
            .map(c -> c.getName() + "=" + JobPods.Program.of(c)).toList())
        .log("running a job pod");
    advance(run);
  }

  /** The pod is gone or going: its processes stop. */
  CompletableFuture<Void> forget(String uid) {
    Run run = runs.remove(uid);
    if (run == null) {
      return CompletableFuture.completedFuture(null);
    }
    LOG.atInfo().addKeyValue("event", "job_pod_stopped").addKeyValue("pod", run.key()).log("job pod gone");
    return stop(run);
  }

  /** Moves every pod on (after an install, a missing volume or ConfigMap) and reports. */
  void tick() {
    for (Run run : new ArrayList<>(runs.values())) {
      advance(run);
      if (run.reported == null) {
        report(run);
      }
    }
  }

  /** Stops every process. */
  CompletableFuture<Void> stopAll() {
    List<CompletableFuture<Void>> all = new ArrayList<>();
    runs.values().forEach(r -> all.add(stop(r)));
    runs.clear();
    installer.shutdownNow();
    return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
  }

  private void advance(Run run) {
    if (!"Pending".equals(JobPodStatus.phase(run.init, run.main))
        && !"Running".equals(JobPodStatus.phase(run.init, run.main))) {
      report(run);
      return;
    }
    if (run.volumes == null) {
      try {
        run.volumes = JobVolumes.directories(run.pod, run.dir(podsDir), nodesDir, cluster);
      } catch (JobVolumes.NotReady | IOException | RuntimeException e) {
        JobContainer next = run.init.isEmpty() ? run.main.get(0) : run.init.get(0);
        next.waiting(run.init.isEmpty() ? "ContainerCreating" : "PodInitializing", "MountVolume: " + e.getMessage());
        report(run);
        return;
      }
    }
    for (JobContainer c : run.init) {
      if (c.phase == JobContainer.Phase.WAITING) {
        start(run, c);
      }
      if (!c.succeeded()) {
        report(run);
        return;
      }
    }
    for (JobContainer c : run.main) {
      if (c.phase == JobContainer.Phase.WAITING) {
        start(run, c);
      }
    }
    report(run);
  }

  private void start(Run run, JobContainer c) {
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    if (c.program == JobPods.Program.OTHER) {
      c.terminated(0, null, null, now);
      return;
    }
    if (c.program == JobPods.Program.GENAI_BENCH && !prepare(c)) {
      return;
    }
    Container spec = c.spec;
    Path dir = run.dir(podsDir);
    try {
      Map<String, String> env = JobEnv.of(run.pod, spec, cluster);
      Path scratch = Files.createDirectories(dir.resolve("scratch").resolve(c.name()));
      Path termination = dir.resolve("termination").resolve(c.name());
      Files.createDirectories(termination.getParent());
      Files.deleteIfExists(termination);
      Files.createFile(termination);
      LocalMounts mounts = LocalMounts.of(spec, run.volumes, env, termination);
      JobCommand command = JobCommand.of(spec, c.program, env, mounts,
          new ServiceUrls(run.pod.getMetadata().getNamespace(), cluster), scratch,
          new JobCommand.Tools(bench.bin(), bench.tokenizer(), java, System.getenv().getOrDefault("PATH",
              "/usr/local/bin:/usr/bin:/bin")), run.pod.getMetadata().getName());
      c.log = dir.resolve(c.name() + ".log");
      ProcessBuilder pb = new ProcessBuilder(command.command()).directory(command.workDir().toFile())
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(c.log.toFile()))
          .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      pb.environment().clear();
      pb.environment().putAll(command.env());
      Process p = pb.start();
      c.running(p, now);
      LOG.atInfo().addKeyValue("event", "job_container_started").addKeyValue("pod", run.key())
          .addKeyValue("container", c.name()).addKeyValue("pid", p.pid()).addKeyValue("command", command.redacted())
          .addKeyValue("log", c.log).log("job container started");
      String uid = run.pod.getMetadata().getUid();
      Path terminationFile = termination;
      p.onExit().thenAccept(done -> loop.execute(() -> exited(uid, c, done, terminationFile)));
    } catch (JobEnv.ConfigError e) {
      c.waiting("CreateContainerConfigError", e.getMessage());
    } catch (IOException | RuntimeException e) {
      c.terminated(128, "StartError", "failed to start the container process: " + e.getMessage(), now);
    }
  }

  /** Whether genai-bench and the tokenizer are ready; starts preparing them, or fails {@code c} if that failed. */
  private boolean prepare(JobContainer c) {
    if (prepared == null) {
      prepared = CompletableFuture.runAsync(() -> {
        try {
          bench.install();
          bench.buildTokenizer();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted", e);
        }
      }, installer);
      prepared.whenComplete((ok, error) -> loop.execute(this::tick));
    }
    if (!prepared.isDone()) {
      c.waiting("ContainerCreating", "installing genai-bench " + GenaiBench.VERSION
          + " from PyPI into " + bench.home() + " (once; a few minutes)");
      return false;
    }
    if (prepared.isCompletedExceptionally()) {
      String why = prepared.handle((ok, e) -> rootMessage(e)).join();
      c.terminated(128, "StartError", "genai-bench " + GenaiBench.VERSION + " could not be installed: " + why,
          Instant.now().truncatedTo(ChronoUnit.SECONDS));
      prepared = null;
      return false;
    }
    return true;
  }

  private void exited(String uid, JobContainer c, Process p, Path terminationFile) {
    Run run = runs.get(uid);
    if (run == null || c.stopping || c.process != p) {
      return;
    }
    int code = p.exitValue();
    String message = TerminationMessage.read(terminationFile, c.spec.getTerminationMessagePolicy(), code, c.log);
    c.terminated(code, null, message, Instant.now().truncatedTo(ChronoUnit.SECONDS));
    LOG.atInfo().addKeyValue("event", "job_container_exited").addKeyValue("pod", run.key())
        .addKeyValue("container", c.name()).addKeyValue("exit_code", code).log("job container exited");
    advance(run);
  }

  private void report(Run run) {
    String patch = JobPodStatus.patch(run.init, run.main, run.since, Instant.now().truncatedTo(ChronoUnit.SECONDS));
    if (patch.equals(run.reported)) {
      return;
    }
    try {
      client.pods().inNamespace(run.pod.getMetadata().getNamespace()).withName(run.pod.getMetadata().getName())
          .subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
      run.reported = patch;
    } catch (KubernetesClientException e) {
      LOG.atDebug().addKeyValue("event", "job_pod_status_failed").addKeyValue("pod", run.key())
          .addKeyValue("code", e.getCode()).log("status patch failed; retried on the next tick");
      run.reported = null;
    }
  }

  /** SIGTERM to each running process and its descendants, SIGKILL after 5 s. */
  private static CompletableFuture<Void> stop(Run run) {
    List<CompletableFuture<?>> exits = new ArrayList<>();
    for (JobContainer c : all(run)) {
      c.stopping = true;
      Process p = c.process;
      if (p == null) {
        continue;
      }
      List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
      tree.add(p.toHandle());
      tree.forEach(ProcessHandle::destroy);
      for (ProcessHandle h : tree) {
        exits.add(h.onExit().orTimeout(Duration.ofSeconds(5).toMillis(), TimeUnit.MILLISECONDS)
            .exceptionally(timeout -> {
              h.destroyForcibly();
              return h;
            }));
      }
    }
    return CompletableFuture.allOf(exits.toArray(CompletableFuture[]::new));
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage();
  }

  private static List<JobContainer> all(Run run) {
    List<JobContainer> all = new ArrayList<>(run.init);
    all.addAll(run.main);
    return all;
  }
}
