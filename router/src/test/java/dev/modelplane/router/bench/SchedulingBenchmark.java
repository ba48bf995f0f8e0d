package dev.modelplane.router.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.config.PluginRegistry;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.plugin.PluginObserver;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.PreRequestPlugin;
import dev.modelplane.router.scheduling.PrepareDataPlugin;
import dev.modelplane.router.scheduling.SchedulingException;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One routing decision with GIE's default configuration (queue 2, kv-cache 2, prefix-cache 3, max-score): build the
 * candidates from live metrics snapshots, hash the prompt and match it in the prefix index (PrepareData), filter,
 * score, pick, and learn the pick in the index (PreRequest, inline here; the router does it off the request path).
 * Prompts: 2 KiB chat requests over 200 shared system prompts, so the index holds real entries.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SchedulingBenchmark {
  @Param({"10", "100", "1000"})
  public int endpoints;

  private static final ObjectMapper JSON = new ObjectMapper();
  private SchedulingSetup setup;
  private List<EndpointState> states;
  private LlmRequestBody[] bodies;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    PluginEnvironment env = new PluginEnvironment(System::nanoTime, () -> new SplittableRandom(7), Runnable::run,
        PluginObserver.NONE);
    setup = new ConfigLoader(PluginRegistry.builtIn(), env, null).load(ConfigLoader.DEFAULT_CONFIG);
    SplittableRandom rnd = new SplittableRandom(42);
    long now = System.nanoTime();
    states = new ArrayList<>();
    for (int i = 0; i < endpoints; i++) {
      EndpointState s = new EndpointState(new Endpoint(new EndpointId("bench", "pod-" + i + "-rank-0"),
          "10." + (i / 250) + "." + (i % 250) + ".1", 8000, Map.of()));
      s.updateMetrics(MetricsSnapshot.of(rnd.nextInt(8), rnd.nextDouble(0.9), now).withCache(16, 20_000));
      states.add(s);
    }
    bodies = new LlmRequestBody[4096];
    for (int i = 0; i < bodies.length; i++) {
      ObjectNode body = JSON.createObjectNode().put("model", "llama");
      var messages = body.putArray("messages");
      messages.addObject().put("role", "system").put("content",
          ("System prompt number " + rnd.nextInt(200) + " with a long preamble. ").repeat(40));
      messages.addObject().put("role", "user").put("content", "Question " + i + ": what is " + rnd.nextInt());
      bodies[i] = new LlmRequestBody(LlmRequestBody.Api.CHAT_COMPLETIONS, body);
    }
    for (int i = 0; i < 2000; i++) {
      decide();
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public SchedulingResult decisionsPerSecond() {
    return decide();
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public SchedulingResult decisionLatency() {
    return decide();
  }

  private SchedulingResult decide() {
    LlmRequestBody body = bodies[next++ & (bodies.length - 1)];
    // A fresh body object per decision: hashing must not be served from the previous run's cached bytes.
    LlmRequestBody fresh = new LlmRequestBody(body.api(), body.raw(), body.fields());
    InferenceRequest request = new InferenceRequest("r", "llama", "llama", fresh, Map.of(), 0, "default-flow", 0);
    List<Candidate> candidates = new ArrayList<>(states.size());
    for (EndpointState s : states) {
      candidates.add(new Candidate(s));
    }
    for (PrepareDataPlugin p : setup.lifecycle().prepareData()) {
      p.prepareRequestData(request, candidates);
    }
    try {
      SchedulingResult result = setup.scheduler().schedule(request, candidates);
      for (PreRequestPlugin p : setup.lifecycle().preRequest()) {
        p.preRequest(request, result);
      }
      return result;
    } catch (SchedulingException e) {
      throw new IllegalStateException(e);
    }
  }
}
