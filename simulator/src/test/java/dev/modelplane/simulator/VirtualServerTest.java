package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A virtual server takes the steps a live one takes: the same requests, prepared the same way with the same seed,
 * give the same sequence of engine steps (what each step runs and how long it lasts) on the engine thread with a
 * real clock and in virtual time.
 */
class VirtualServerTest {
  /** Small budgets, so the run chunks prefills, fills the sequence limit, hits the prefix cache and preempts. */
  private static final List<String> ARGS = List.of("--model-config", "llama-3.1-8b", "--gpu", "h100",
      "--model", "m", "--enable-kvcache", "--max-num-seqs", "6", "--max-num-batched-tokens", "256",
      "--kv-cache-size", "36", "--block-size", "16", "--hash-seed", "");
  private static final long SEED = 42;

  /** One step as a comparable line: its duration and what each scheduled sequence computes in it. */
  record Step(long durationNanos, List<String> work) {
  }

  static final class StepRecorder implements StepEngine.StepLog {
    final List<Step> steps = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void step(long start, long end, List<Sequence> scheduled, int[] newTokens) {
      List<String> work = new ArrayList<>();
      for (int i = 0; i < scheduled.size(); i++) {
        work.add(scheduled.get(i).requestId.replaceAll(".*-", "") + ":" + newTokens[i]);
      }
      steps.add(new Step(end - start, work));
    }
  }

  /** 24 requests: three shared prefixes, distinct tails, outputs of 5–40 tokens. */
  static List<byte[]> bodies() {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      StringBuilder prompt = new StringBuilder();
      for (int w = 0; w < 120; w++) {
        prompt.append("shared").append(i % 3).append('w').append(w).append(' ');
      }
      for (int w = 0; w < 20 + 7 * (i % 5); w++) {
        prompt.append("tail").append(i).append('w').append(w).append(' ');
      }
      ObjectNode body = Rank.JSON.createObjectNode().put("model", "m").put("prompt", prompt.toString())
          .put("max_tokens", 5 + (i * 11) % 36).put("ignore_eos", true);
      out.add(body.toString().getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  @Test
  void virtualStepsAreTheLiveEnginesSteps() throws Exception {
    // Live: the engine thread with a clock running 50 times faster than model time; every request is queued before
    // the thread starts, so steps follow back to back and the sequence cannot depend on when the thread wakes.
    SimulatorCommand command = new SimulatorCommand();
    List<String> liveArgs = new ArrayList<>(ARGS);
    liveArgs.addAll(List.of("--time-scale", "0.02"));
    new CommandLine(command).parseArgs(liveArgs.toArray(String[]::new));
    Rank rank = new Rank(0, command.config, SEED);
    StepRecorder live = new StepRecorder();
    ((StepEngine) rank.engine).stepLog = live;
    List<byte[]> bodies = bodies();
    CountDownLatch done = new CountDownLatch(bodies.size());
    for (int i = 0; i < bodies.size(); i++) {
      Rank.Prepared p = rank.prepare(CompletionRequest.parse(Rank.JSON.readTree(bodies.get(i)), false,
          rank.tokenizer));
      Sequence seq = new Sequence("cmpl-virtual-" + i, p.promptIds(), p.output().tokens(), p.output().ids(),
          p.output().finishReason(), p.maxTokens(), p.adapter(), new Sequence.Listener() {
            @Override
            public void onToken(Sequence s, int index) {
            }

            @Override
            public void onFinish(Sequence s, String reason) {
              done.countDown();
            }
          });
      assertThat(rank.engine.submit(seq)).isNull();
    }
    rank.start();
    try {
      assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
    } finally {
      rank.stop();
    }

    VirtualServer server = VirtualServer.create(ARGS, SEED);
    StepRecorder virtual = new StepRecorder();
    server.stepLog(virtual);
    int[] finished = new int[1];
    for (byte[] body : bodies) {
      assertThat(server.submit(false, body, 0, client(finished))).isNull();
    }
    for (int guard = 0; server.nextEventNanos() != Long.MAX_VALUE && guard < 100_000; guard++) {
      server.advanceTo(server.nextEventNanos());
    }

    assertThat(finished[0]).isEqualTo(bodies.size());
    assertThat(virtual.steps).hasSizeGreaterThan(100).isEqualTo(live.steps);
    // The run exercised what makes steps differ: chunked prefill (a step full to the budget) and preemption.
    assertThat(virtual.steps).anyMatch(s -> s.work().stream().mapToInt(w -> Integer.parseInt(w.split(":")[1])).sum()
        == 256);
    assertThat(rank.metrics.preemptions.metric().labelValues("m").get()).isPositive();
  }

  private static VirtualServer.Client client(int[] finished) {
    return new VirtualServer.Client() {
      @Override
      public void token(long nanos, int index) {
      }

      @Override
      public void finished(long nanos, String reason, int promptTokens, int cachedTokens) {
        finished[0]++;
      }
    };
  }

  @Test
  void reportsEveryTokenAtItsStepsEndAndTheCacheHit() {
    VirtualServer server = VirtualServer.create(ARGS, SEED);
    List<Long> times = new ArrayList<>();
    int[] cached = {-1, -1};
    String[] reason = new String[1];
    List<byte[]> bodies = bodies();
    VirtualServer.Client client = new VirtualServer.Client() {
      @Override
      public void token(long nanos, int index) {
        assertThat(index).isEqualTo(times.size());
        times.add(nanos);
      }

      @Override
      public void finished(long nanos, String r, int promptTokens, int cachedTokens) {
        reason[0] = r;
        cached[0] = cachedTokens;
        assertThat(nanos).isEqualTo(times.get(times.size() - 1));
      }
    };
    assertThat(server.submit(false, bodies.get(0), 1_000_000, client)).isNull();
    assertThat(server.nextEventNanos()).isEqualTo(1_000_000);
    assertThat(server.load().waiting()).isEqualTo(1);
    server.advanceTo(1_000_000);
    assertThat(server.load().running()).isEqualTo(1);
    while (server.nextEventNanos() != Long.MAX_VALUE) {
      server.advanceTo(server.nextEventNanos());
    }
    assertThat(times).hasSize(5).isSorted();
    assertThat(times.get(0)).isGreaterThan(1_000_000);
    assertThat(reason[0]).isEqualTo("length");
    assertThat(cached[0]).isZero();
    assertThat(server.load().running()).isZero();

    // The same shared prefix again, later: its whole blocks are found in the cache.
    times.clear();
    assertThat(server.submit(false, bodies.get(3), 2_000_000_000L, client)).isNull();
    while (server.nextEventNanos() != Long.MAX_VALUE) {
      server.advanceTo(server.nextEventNanos());
    }
    assertThat(cached[0]).isGreaterThanOrEqualTo(112);
  }

  @Test
  void refusesWhatTheHttpApiRefuses() {
    VirtualServer server = VirtualServer.create(ARGS, SEED);
    VirtualServer.Client none = client(new int[1]);
    assertThat(server.submit(false, "{".getBytes(StandardCharsets.UTF_8), 0, none).status()).isEqualTo(400);
    VirtualServer.Refusal tooLong = server.submit(false, ("{\"model\":\"m\",\"prompt\":\"hi\",\"max_tokens\":"
        + 1_000_000 + "}").getBytes(StandardCharsets.UTF_8), 0, none);
    assertThat(tooLong.status()).isEqualTo(400);
    assertThat(tooLong.message()).contains("maximum context length");
    assertThat(server.nextEventNanos()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void refusesInvalidFlagsByName() {
    assertThatThrownBy(() -> VirtualServer.create(List.of("--max-num-seqs", "x"), 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("simulator flags: ")
        .hasMessageContaining("--max-num-seqs");
    assertThatThrownBy(() -> VirtualServer.create(List.of("--model", "m"), 1))
        .hasMessage("a virtual run needs the engine-step model: give --preset or --model-config");
    assertThatThrownBy(() -> VirtualServer.create(List.of("--model", "m", "--model-config", "no-such-model"), 1))
        .hasMessageStartingWith("simulator flags: --model-config");
  }

  @Test
  void advancingAnywhereButTheNextEventIsRefused() {
    VirtualServer server = VirtualServer.create(ARGS, SEED);
    server.submit(false, bodies().get(0), 10, client(new int[1]));
    assertThatThrownBy(() -> server.advanceTo(11)).isInstanceOf(IllegalStateException.class)
        .hasMessage("the next event is at 10, not 11");
  }
}
