package dev.modelplane.operator.bench;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.controlplane.ControlPlane;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark, not a test: N InferenceServices against a real kube-apiserver (etcd + apiserver on loopback), reconciled
 * by {@code modelplane operator} running as its own process. Reports the time until every Deployment exists, the
 * create→Deployment latency distribution (client-side: the create call's start to the Deployment's arrival in a watch)
 * and the operator's heap after a full GC and its RSS. Run with {@code hack/bench-operator}.
 */
public final class OperatorBenchmark {
  private OperatorBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int count = intArg(args, "--count", 1000);
    int namespaces = intArg(args, "--namespaces", 10);
    int writers = intArg(args, "--writers", 8);
    String jar = stringArg(args, "--jar", "cli/target/modelplane.jar");
    Path out = Path.of(stringArg(args, "--out", "operator/target/bench-operator.txt"));
    int port = intArg(args, "--http-port", 18099);
    int warmup = intArg(args, "--warmup", 0);
    boolean sequential = List.of(args).contains("--sequential");

    try (ControlPlane cp = ControlPlane.start()) {
      cp.installCrds();
      KubernetesClient client = cp.newClient();
      Process operator = startOperator(cp, jar, port, out.resolveSibling("bench-operator.log"));
      try {
        waitReady(port);
        long baseHeap = heapAfterGc(operator.pid(), port);
        for (int n = 0; n < namespaces; n++) {
          String ns = "bench-" + n;
          client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
              .create();
          client.resource(Serialization.unmarshal(MODEL.formatted(ns), Model.class)).create();
        }
        Map<String, Long> created = new ConcurrentHashMap<>();
        Map<String, Long> deployed = new ConcurrentHashMap<>();
        SharedIndexInformer<Deployment> informer = client.apps().deployments().inAnyNamespace()
            .withLabel("app.kubernetes.io/managed-by", "modelplane").inform(new ResourceEventHandler<>() {
              @Override
              public void onAdd(Deployment d) {
                deployed.putIfAbsent(d.getMetadata().getNamespace() + "/" + d.getMetadata().getName(),
                    System.nanoTime());
              }

              @Override
              public void onUpdate(Deployment o, Deployment n) {
              }

              @Override
              public void onDelete(Deployment d, boolean unknown) {
              }
            });
        if (warmup > 0) {
          // Unmeasured services first, so that the measured ones meet a JVM that has run the reconcile path.
          client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("bench-warmup").endMetadata()
              .build()).create();
          client.resource(Serialization.unmarshal(MODEL.formatted("bench-warmup"), Model.class)).create();
          for (int i = 0; i < warmup; i++) {
            client.resource(service("warmup-" + i, "bench-warmup")).create();
          }
          long warmDeadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
          while (deployed.keySet().stream().filter(k -> k.startsWith("bench-warmup/")).count() < warmup
              && System.nanoTime() < warmDeadline) {
            Thread.sleep(100);
          }
          Thread.sleep(2000);
          deployed.clear();
        }
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        for (int i = 0; i < count; i++) {
          String ns = "bench-" + (i % namespaces);
          String name = "isvc-" + i;
          Runnable create = () -> {
            created.put(ns + "/" + name, System.nanoTime());
            client.resource(service(name, ns)).create();
          };
          if (sequential) {
            // One service at a time: the next create waits for this one's Deployment (no queue in the operator).
            create.run();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!deployed.containsKey(ns + "/" + name) && System.nanoTime() < until) {
              Thread.sleep(1);
            }
          } else {
            pool.submit(create);
          }
        }
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.MINUTES);
        long createdAll = System.nanoTime();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
        while (deployed.size() < count && System.nanoTime() < deadline) {
          Thread.sleep(200);
        }
        long allDeployed = System.nanoTime();
        int statuses = 0;
        long statusDeadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < statusDeadline) {
          statuses = (int) client.resources(InferenceService.class).inAnyNamespace().list().getItems().stream()
              .filter(i -> !"bench-warmup".equals(i.getMetadata().getNamespace()))
              .filter(i -> i.getStatus() != null && i.getStatus().phase() != null).count();
          if (statuses >= count) {
            break;
          }
          Thread.sleep(500);
        }
        long allStatus = System.nanoTime();
        Thread.sleep(3000);
        long heap = heapAfterGc(operator.pid(), port);
        long rss = rssKiB(operator.pid());
        informer.close();
        List<Long> latencies = new ArrayList<>();
        created.forEach((k, t0) -> {
          Long t1 = deployed.get(k);
          if (t1 != null) {
            latencies.add(t1 - t0);
          }
        });
        Collections.sort(latencies);
        String report = String.format(Locale.ROOT, """
            InferenceServices: %d in %d namespaces, %s; control plane: etcd + kube-apiserver %s
            Deployments observed: %d/%d; statuses written: %d/%d
            creates issued in: %.1f s
            time until every Deployment existed (first create → last Deployment): %.1f s
            time until every status was written: %.1f s
            create→Deployment latency: p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, max %.0f ms
            operator heap after full GC: %.1f MiB idle, %.1f MiB with %d services; RSS %.0f MiB
            """, count, namespaces, (sequential ? "one at a time (each create waits for the previous Deployment)"
                : writers + " concurrent writers") + (warmup > 0 ? ", after " + warmup + " unmeasured services" : ""),
            "(loopback)", deployed.size(), count, statuses, count,
            secs(createdAll - start), secs(allDeployed - start), secs(allStatus - start),
            ms(pct(latencies, 50)), ms(pct(latencies, 90)), ms(pct(latencies, 99)),
            ms(latencies.isEmpty() ? 0 : latencies.getLast()), baseHeap / 1048576.0, heap / 1048576.0, count,
            rss / 1024.0);
        System.out.print(report);
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
      } finally {
        operator.destroy();
        if (!operator.waitFor(30, TimeUnit.SECONDS)) {
          operator.destroyForcibly();
        }
        client.close();
      }
    }
  }

  private static final String MODEL = """
      apiVersion: inference.llmkube.dev/v1alpha1
      kind: Model
      metadata: {name: llama, namespace: %s}
      spec: {source: "bench-org/llama-gguf"}
      """;

  private static InferenceService service(String name, String ns) {
    return Serialization.unmarshal("""
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: %s, namespace: %s}
        spec: {modelRef: llama, contextSize: 4096, resources: {cpu: 100m, memory: 1Gi}}
        """.formatted(name, ns), InferenceService.class);
  }

  private static Process startOperator(ControlPlane cp, String jar, int port, Path log) throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = List.of(java, "-Xmx512m", "-jar", jar, "operator", "--kubeconfig=" + cp.kubeconfig(),
        "--bind-address=127.0.0.1", "--http-port=" + port, "--no-leader-elect", "--model-cache=none",
        "--no-model-inspection", "--create-priority-classes", "--log-level=WARN");
    Files.createDirectories(log.getParent());
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  private static void waitReady(int port) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    for (int i = 0; i < 240; i++) {
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz"))
            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("operator not ready after 120 s");
  }

  /** Heap used after a full GC requested with jcmd, read from the operator's Prometheus metrics. */
  private static long heapAfterGc(long pid, int port) throws Exception {
    String jcmd = ProcessHandle.current().info().command().map(c -> Path.of(c).resolveSibling("jcmd").toString())
        .orElse("jcmd");
    new ProcessBuilder(jcmd, Long.toString(pid), "GC.run").redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(60, TimeUnit.SECONDS);
    Thread.sleep(1000);
    String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    double sum = 0;
    for (String line : metrics.split("\n")) {
      if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
        sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return (long) sum;
  }

  private static long rssKiB(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return 0;
  }

  private static long pct(List<Long> sorted, int p) {
    if (sorted.isEmpty()) {
      return 0;
    }
    int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(i, sorted.size() - 1)));
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }

  private static double secs(long nanos) {
    return nanos / 1e9;
  }

  private static int intArg(String[] args, String name, int fallback) {
    String v = stringArg(args, name, null);
    return v == null ? fallback : Integer.parseInt(v);
  }

  private static String stringArg(String[] args, String name, String fallback) {
    for (String a : args) {
      if (a.startsWith(name + "=")) {
        return a.substring(name.length() + 1);
      }
    }
    return fallback;
  }
}
