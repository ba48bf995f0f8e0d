package dev.modelplane.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.common.kvevents.KvEvent;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import picocli.CommandLine;

/**
 * One simulated model server run in virtual time: the same request handling (validation, tokenization, the output
 * decision) and the same engine steps as {@code modelplane simulator}, with model time set by a driver instead of
 * read from a clock, and no sockets and no threads. The driver submits requests at their arrival time and calls
 * {@link #advanceTo} with {@link #nextEventNanos()}; everything the engine does in between — admission, chunked
 * prefill, preemption, prefix-cache hits, LoRA slots — happens exactly as on the engine thread of a live server, so a
 * live simulator and a virtual one given the same requests at the same model times take the same steps.
 *
 * <p>Not thread-safe: one driver thread owns it.
 */
public final class VirtualServer {
  /** What the driver hears of one request; times are model nanoseconds since the run began. */
  public interface Client {
    /** Output token {@code index} (0 for the first) was produced at {@code nanos}. */
    void token(long nanos, int index);

    /**
     * The request ended at {@code nanos}: {@code stop}, {@code length} or {@code abort}; {@code cachedTokens} of its
     * {@code promptTokens} were found in the prefix cache when it was admitted.
     */
    void finished(long nanos, String reason, int promptTokens, int cachedTokens);
  }

  /** A request the server refused at once, with the status and message its HTTP API would answer. */
  public record Refusal(int status, String message) {
  }

  /**
   * What a scrape of the server's metrics would read now.
   *
   * @param waiting requests waiting ({@code vllm:num_requests_waiting})
   * @param running requests running ({@code vllm:num_requests_running})
   * @param kvUsage KV-cache usage, 0..1 ({@code vllm:kv_cache_usage_perc})
   * @param runningAdapters adapters of running requests ({@code vllm:lora_requests_info})
   * @param waitingAdapters adapters of waiting requests
   * @param maxLoras adapter slots
   * @param blockSize tokens per KV block
   * @param numBlocks KV blocks on the device
   */
  public record Load(int waiting, int running, double kvUsage, Set<String> runningAdapters,
      Set<String> waitingAdapters, int maxLoras, int blockSize, int numBlocks) {
  }

  private final SimulatorConfig config;
  private final VirtualClock clock = new VirtualClock();
  private final Rank rank;
  private final StepEngine engine;
  private long stepEnd = -1;
  /** When an idle engine starts its next step; -1 while it is busy or has nothing to do. */
  private long wake = -1;
  private long submitted;

  private VirtualServer(SimulatorConfig config, long seed) {
    this.config = config;
    config.fastBlockHashes = true;
    this.rank = new Rank(0, config, seed, clock);
    if (!(rank.engine instanceof StepEngine step)) {
      throw new IllegalArgumentException("a virtual run needs the engine-step model: give --preset or --model-config");
    }
    this.engine = step;
  }

  /**
   * A server configured by {@code args}, the flags of {@code modelplane simulator} (its address and port are
   * ignored); {@code seed} fixes its random choices. Invalid flags are an {@link IllegalArgumentException} naming them.
   */
  public static VirtualServer create(List<String> args, long seed) {
    SimulatorCommand command = new SimulatorCommand();
    try {
      new CommandLine(command).parseArgs(args.toArray(String[]::new));
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException("simulator flags: " + e.getMessage(), e);
    }
    List<String> problems = command.config.problems();
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("simulator flags: " + String.join("; ", problems));
    }
    return new VirtualServer(command.config, seed);
  }

  /** The name the server answers to (its first served model name). */
  public String servedModel() {
    return config.servedNames().get(0);
  }

  /** Tokens per KV block. */
  public int blockSize() {
    return engine.blockSize();
  }

  /** Hands the KV cache's events (vLLM's BlockStored/BlockRemoved) to {@code sink} after each scheduling. */
  public void kvEvents(Consumer<List<KvEvent>> sink) {
    engine.kvEvents(sink);
  }

  /**
   * Submits a (chat) completion request body at model time {@code nowNanos}; null when it was queued, else the
   * refusal (a 400 for a bad body or a prompt over the context, a 429 when the waiting queue is full).
   */
  public Refusal submit(boolean chat, byte[] body, long nowNanos, Client client) {
    clock.set(Math.max(clock.now(), nowNanos));
    Rank.Prepared p;
    try {
      JsonNode json = Rank.JSON.readTree(body);
      p = rank.prepare(CompletionRequest.parse(json, chat, rank.tokenizer));
    } catch (IOException e) {
      return new Refusal(400, "the request body is not JSON: " + e.getMessage());
    } catch (CompletionRequest.RequestException e) {
      return new Refusal(e.error.status(), e.error.message());
    }
    Sequence seq = new Sequence("cmpl-virtual-" + submitted++, p.promptIds(), p.output().tokens(), p.output().ids(),
        p.output().finishReason(), p.maxTokens(), p.adapter(), new Sequence.Listener() {
          @Override
          public void onToken(Sequence s, int index) {
            client.token(s.lastTokenNanos, index);
          }

          @Override
          public void onFinish(Sequence s, String reason) {
            client.finished(clock.now(), reason, s.promptLen, s.cachedTokens);
          }
        });
    ApiError refused = engine.submit(seq);
    if (refused != null) {
      return new Refusal(refused.status(), refused.message());
    }
    if (stepEnd < 0 && wake < 0) {
      // An idle engine wakes for the arrival: its step starts once every arrival of this instant is in.
      wake = clock.now();
    }
    return null;
  }

  /**
   * The server's next event, or {@link Long#MAX_VALUE} while it is idle with nothing queued: when the step in flight
   * ends, or when an idle engine wakes for an arrival (at the arrival's time).
   */
  public long nextEventNanos() {
    return stepEnd >= 0 ? stepEnd : wake >= 0 ? wake : Long.MAX_VALUE;
  }

  /**
   * Moves model time to {@code nanos}, which must be {@link #nextEventNanos()}: the step in flight ends and the next
   * begins (or the idle engine wakes and begins one). A driver submits every arrival at or before {@code nanos} first,
   * as arrivals during a live step are taken in before the next one is scheduled.
   */
  public void advanceTo(long nanos) {
    if (nanos != nextEventNanos()) {
      throw new IllegalStateException("the next event is at " + nextEventNanos() + ", not " + nanos);
    }
    clock.set(nanos);
    engine.drainInbox();
    if (stepEnd >= 0) {
      engine.endStep(nanos);
      engine.drainInbox();
    }
    wake = -1;
    stepEnd = engine.beginStep(nanos);
  }

  /** What a scrape would read now. */
  public Load load() {
    Set<String> waitingAdapters = new TreeSet<>();
    for (Sequence s : engine.waiting) {
      if (s.adapter != null) {
        waitingAdapters.add(s.adapter);
      }
    }
    return new Load(engine.waitingCount.get(), engine.publishedRunning(), engine.publishedKvUsage(),
        engine.lora.running(), waitingAdapters, engine.lora.maxLoras(), engine.blockSize(), engine.kv.numBlocks());
  }

  /** Reports every step to {@code log} (tests comparing virtual and live engines). */
  void stepLog(StepEngine.StepLog log) {
    engine.stepLog = log;
  }
}
