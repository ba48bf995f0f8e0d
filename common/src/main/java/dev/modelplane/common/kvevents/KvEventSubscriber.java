package dev.modelplane.common.kvevents;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Reads the KV-cache events of many servers on one thread: a SUB socket per source, connected to a server's PUB
 * socket (or bound, for servers that connect to a central subscriber), filtered on a topic prefix.
 *
 * <p>Sequence numbers are followed per source and topic. When a source has a replay endpoint, what the subscriber
 * missed is fetched from it: everything the server still keeps when the source is added (so a router that starts, or
 * restarts, next to running servers knows what they already cache), and the missing range when a number is skipped.
 * A number lower than the last one means the server restarted with an empty cache: the listener hears
 * {@link Listener#onReset} before the new batches. Removing a source also resets it, at once.
 *
 * <p>A source cannot take the reader down or starve the others ({@link Limits}): a message larger than
 * {@code maxMessageBytes} closes its connection, each socket queues at most
 * {@code queuedMessages} messages, a bound socket follows at most {@code maxTopics} topics (the least recently heard is
 * forgotten), the replays of one source may keep the reader's thread waiting at most {@code replayBudget} in every
 * {@code replayWindow} (holes found once it is spent count as gaps), and a replay answer under a topic the filter
 * refuses is ignored. A connection that closes (ZeroMQ does not reconnect one it closed over a message too large) is
 * opened again a second later, on a new socket that keeps the source's numbering, so a hole is replayed or counted.
 *
 * <p>The listener is called on the subscriber's thread, in order per source; it must not block.
 */
public final class KvEventSubscriber implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KvEventSubscriber.class);
  private static final int POLL_MILLIS = 50;
  static final int REPLAY_TIMEOUT_MILLIS = 2_000;
  private static final long REOPEN_RETRY_NANOS = 1_000_000_000L;
  /**
   * How long a connecting socket waits for the ZeroMQ handshake before it reconnects. JeroMQ's default (30 s) lets a
   * connection whose handshake stalled (a few in a hundred fresh ones) stay dead that long.
   */
  static final int HANDSHAKE_MILLIS = 1_000;

  /**
   * Where events come from.
   *
   * @param id the caller's name for the source (an endpoint's name, say); unique per subscriber
   * @param endpoint the server's PUB address to connect to, or an address to bind for servers that connect
   * @param replayEndpoint the server's replay address, or null when it keeps no history
   */
  public record Source(String id, String endpoint, String replayEndpoint) {
  }

  /**
   * What one source may cost the reader.
   *
   * @param maxMessageBytes the largest message read; a larger one closes the connection it came on
   * @param queuedMessages messages a socket queues before it drops more (a hole the replay may fill)
   * @param maxTopics topics a bound socket follows the numbering of
   * @param replayWindow the window over which a source's replay time is counted
   * @param replayBudget how long a source's replays may take in one window (a server on the network answers in
   *     milliseconds; one that answers slowly or not at all must not hold up every other source's events)
   */
  public record Limits(int maxMessageBytes, int queuedMessages, int maxTopics, Duration replayWindow,
      Duration replayBudget) {
    /**
     * A server publishes one batch per engine step, so a batch holds at most a step's tokens: 8,192 of them in
     * blocks of 16 are about 70 KB, and 4 MiB leaves room for steps of 256k tokens. 64 queued batches cover a
     * second or more of a busy server's steps, and bound what one connection can make the reader hold to 256 MiB.
     * Replays: at most a tenth of the time.
     */
    public static final Limits DEFAULT = new Limits(4 << 20, 64, 4_096, Duration.ofSeconds(10),
        Duration.ofSeconds(1));
  }

  /** What the subscriber tells its owner. */
  public interface Listener {
    /** A batch, in sequence order for its source and topic. */
    void onBatch(Source source, KvTopic topic, KvEventBatch batch);

    /** Forget what {@code source} said: it restarted or was removed. */
    void onReset(Source source, String reason);

    /** Batches that are lost for good (no replay, or the replay no longer had them). */
    default void onGap(Source source, long missing) {
    }

    /** A message that was not an event batch; it was skipped. */
    default void onMalformed(Source source, String reason) {
    }
  }

  private final Listener listener;
  private final ZContext context = new ZContext(1);
  private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
  /** Read and written on the subscriber's thread only; {@link #sourceIds} is its snapshot for other threads. */
  private final Map<String, SourceReader> subscriptions = new LinkedHashMap<>();
  private volatile List<String> sourceIds = List.of();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Thread thread;
  private final SourceReader.Owner owner;

  /**
   * @param topicFilter the topic prefix to receive ({@code ""} for all; llm-d uses {@code "kv@"})
   */
  public KvEventSubscriber(String name, String topicFilter, Listener listener) {
    this(name, topicFilter, listener, Limits.DEFAULT);
  }

  /**
   * @param topicFilter the topic prefix to receive ({@code ""} for all; llm-d uses {@code "kv@"})
   * @param limits what one source may cost the reader
   */
  public KvEventSubscriber(String name, String topicFilter, Listener listener, Limits limits) {
    this.listener = listener;
    this.owner = new SourceReader.Owner(context, topicFilter, listener, limits, closed);
    thread = Thread.ofPlatform().daemon().name("kv-events-" + name).start(this::run);
  }

  /** Starts reading {@code source}; a source with the same id is replaced. */
  public void add(Source source) {
    commands.add(() -> {
      remove(source.id(), "replaced");
      subscriptions.put(source.id(), new SourceReader(owner, source, null));
    });
  }

  /** Stops reading the source with this id; its listener hears a reset at once. */
  public void remove(String id) {
    commands.add(() -> remove(id, "source removed"));
  }

  /** The ids of the sources being read (for tests and status pages). */
  public List<String> sources() {
    return sourceIds;
  }

  private void remove(String id, String reason) {
    SourceReader s = subscriptions.remove(id);
    if (s != null) {
      s.close();
      listener.onReset(s.source, reason);
    }
  }

  /** Sources whose connection closed a second ago get a new socket; true when one did. */
  private boolean reopen() {
    long now = System.nanoTime();
    boolean any = false;
    for (SourceReader s : List.copyOf(subscriptions.values())) {
      if (s.reopenAt != 0 && now - s.reopenAt >= 0) {
        SourceReader fresh;
        try {
          fresh = new SourceReader(owner, s.source, s);
        } catch (RuntimeException e) {
          LOG.warn("kv events: cannot reopen {} (again in a second): {}", s.source.id(), e.toString());
          s.reopenAt = now + REOPEN_RETRY_NANOS;
          continue;
        }
        s.close();
        subscriptions.put(s.source.id(), fresh);
        any = true;
      }
    }
    return any;
  }

  private void run() {
    ZMQ.Poller poller = null;
    List<SourceReader> polled = new ArrayList<>();
    while (!closed.get()) {
      boolean changed = false;
      for (Runnable c; (c = commands.poll()) != null; ) {
        try {
          c.run();
        } catch (RuntimeException e) {
          LOG.warn("kv events: {}", e.toString());
        }
        changed = true;
      }
      changed |= reopen();
      if (changed) {
        sourceIds = List.copyOf(subscriptions.keySet());
      }
      if (changed || poller == null) {
        if (poller != null) {
          poller.close();
        }
        poller = context.createPoller(Math.max(1, 2 * subscriptions.size()));
        polled = new ArrayList<>(subscriptions.values());
        for (SourceReader s : polled) {
          s.index = poller.register(s.socket, ZMQ.Poller.POLLIN);
          s.monitorIndex = s.monitor == null ? -1 : poller.register(s.monitor, ZMQ.Poller.POLLIN);
        }
      }
      if (polled.isEmpty()) {
        sleep();
        continue;
      }
      if (poller.poll(POLL_MILLIS) <= 0) {
        continue;
      }
      for (SourceReader s : polled) {
        if (subscriptions.get(s.source.id()) == s && poller.pollin(s.index)) {
          s.drain();
        }
        if (s.monitorIndex >= 0 && poller.pollin(s.monitorIndex)) {
          s.watch();
        }
      }
    }
    if (poller != null) {
      poller.close();
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }


  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      try {
        thread.join(REPLAY_TIMEOUT_MILLIS + 2L * POLL_MILLIS + 500); // a replay in progress ends within its timeout
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      context.close();
    }
  }
}
