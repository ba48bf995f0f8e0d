package dev.modelplane.simulator;

import dev.modelplane.common.tracing.Tracing;
import dev.modelplane.common.tracing.TracingSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A running simulator: {@code data-parallel-size} ranks, rank i serving on {@code port + i}. Embeddable: tests and
 * other modules start one in-process with {@link #start(SimulatorConfig)} and close it when done.
 */
public final class Simulator implements AutoCloseable {
  private static final int EPHEMERAL_ATTEMPTS = 20;
  private final Vertx vertx;
  private final List<Rank> ranks = new ArrayList<>();
  private final List<HttpFrontend> frontends = new ArrayList<>();
  private SequenceSpans spans = SequenceSpans.OFF;

  private Simulator(Vertx vertx) {
    this.vertx = vertx;
  }

  /**
   * Validates {@code config}, starts every rank and returns once all listen. With port 0 and several ranks, rank 0
   * takes an ephemeral port and the others the ports after it; when one of those is taken, all ranks are closed and
   * started again on a new ephemeral port (a bounded number of times).
   */
  public static Simulator start(SimulatorConfig config) {
    return start(config, Tracing.start(tracingSettings(config, System.getenv())));
  }

  /**
   * The tracing {@code --otlp-traces-endpoint} and the environment ask for: on when the flag or
   * {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} is given, as in vLLM, with the SDK's default sampler.
   *
   * @throws IllegalArgumentException naming the variable when a setting is wrong
   */
  static TracingSettings tracingSettings(SimulatorConfig config, java.util.Map<String, String> env) {
    boolean on = config.otlpTracesEndpoint != null || env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != null;
    return TracingSettings.fromEnv(env, on, SequenceSpans.SERVICE_NAME, config.otlpTracesEndpoint,
        "parentbased_always_on", 1.0);
  }

  /** A simulator whose requests are traced by {@code tracing} (closed with the simulator). */
  static Simulator start(SimulatorConfig config, Tracing tracing) {
    List<String> problems = config.problems();
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    long seed = config.seedOrTime();
    int attempts = config.port() == 0 && config.dataParallelSize() > 1 ? EPHEMERAL_ATTEMPTS : 1;
    for (int attempt = 1; ; attempt++) {
      try {
        Simulator sim;
        try {
          sim = startRanks(config, seed);
        } catch (RuntimeException e) {
          if (attempt >= attempts || !(e instanceof RankPortTaken)) {
            tracing.close();
          }
          throw e;
        }
        sim.spans = new SequenceSpans(tracing);
        for (Rank r : sim.ranks) {
          r.engine.spans = sim.spans;
        }
        return sim;
      } catch (RankPortTaken e) {
        if (attempt >= attempts) {
          throw new IllegalStateException(e.getMessage(), e.getCause());
        }
      }
    }
  }

  private static Simulator startRanks(SimulatorConfig config, long seed) {
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(false));
    Simulator sim = new Simulator(vertx);
    try {
      int base = config.port();
      for (int i = 0; i < config.dataParallelSize(); i++) {
        Rank rank = new Rank(i, config, seed);
        HttpFrontend fe = new HttpFrontend(vertx, rank);
        int port = i == 0 ? base : sim.frontends.get(0).actualPort() + i;
        try {
          await(fe.listen(config.host(), port, Math.max(1, Runtime.getRuntime().availableProcessors())));
        } catch (IllegalStateException e) {
          if (i > 0) {
            throw new RankPortTaken("rank " + i + " cannot listen on port " + port + ": " + e.getMessage(), e);
          }
          throw e;
        }
        rank.start();
        sim.ranks.add(rank);
        sim.frontends.add(fe);
      }
    } catch (RuntimeException e) {
      sim.close();
      throw e;
    }
    return sim;
  }

  /** A rank after the first could not take its port (the one after rank 0's ephemeral port was in use). */
  private static final class RankPortTaken extends RuntimeException {
    RankPortTaken(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The port of each rank (rank 0 first). */
  public List<Integer> ports() {
    return frontends.stream().map(HttpFrontend::actualPort).toList();
  }

  /** Rank 0's port. */
  public int port() {
    return frontends.get(0).actualPort();
  }

  @Override
  public void close() {
    for (Rank r : ranks) {
      r.stop();
    }
    try {
      vertx.close().await(10, TimeUnit.SECONDS);
    } catch (Exception ignored) {
      // best effort
    }
    spans.close();
  }

  private static <T> T await(Future<T> f) {
    try {
      return f.await(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }
}
