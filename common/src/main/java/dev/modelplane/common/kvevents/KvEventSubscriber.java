package dev.modelplane.common.kvevents;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMsg;

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
 * <p>The listener is called on the subscriber's thread, in order per source; it must not block.
 */
public final class KvEventSubscriber implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KvEventSubscriber.class);
  private static final int POLL_MILLIS = 50;
  private static final int REPLAY_TIMEOUT_MILLIS = 2_000;
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

  private final String topicFilter;
  private final Listener listener;
  private final ZContext context = new ZContext(1);
  private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
  private final Map<String, Subscription> subscriptions = new LinkedHashMap<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Thread thread;

  /**
   * @param topicFilter the topic prefix to receive ({@code ""} for all; llm-d uses {@code "kv@"})
   */
  public KvEventSubscriber(String name, String topicFilter, Listener listener) {
    this.topicFilter = topicFilter;
    this.listener = listener;
    thread = Thread.ofPlatform().daemon().name("kv-events-" + name).start(this::run);
  }

  /** Starts reading {@code source}; a source with the same id is replaced. */
  public void add(Source source) {
    commands.add(() -> {
      remove(source.id(), "replaced");
      subscriptions.put(source.id(), new Subscription(source));
    });
  }

  /** Stops reading the source with this id; its listener hears a reset at once. */
  public void remove(String id) {
    commands.add(() -> remove(id, "source removed"));
  }

  /** The ids of the sources being read (for tests and status pages). */
  public List<String> sources() {
    return List.copyOf(subscriptions.keySet());
  }

  private void remove(String id, String reason) {
    Subscription s = subscriptions.remove(id);
    if (s != null) {
      s.socket.close();
      listener.onReset(s.source, reason);
    }
  }

  private void run() {
    ZMQ.Poller poller = null;
    List<Subscription> polled = new ArrayList<>();
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
      if (changed || poller == null) {
        if (poller != null) {
          poller.close();
        }
        poller = context.createPoller(Math.max(1, subscriptions.size()));
        polled = new ArrayList<>(subscriptions.values());
        polled.forEach(s -> s.index = 0);
        for (Subscription s : polled) {
          s.index = poller.register(s.socket, ZMQ.Poller.POLLIN);
        }
      }
      if (polled.isEmpty()) {
        sleep();
        continue;
      }
      if (poller.poll(POLL_MILLIS) <= 0) {
        continue;
      }
      for (Subscription s : polled) {
        if (subscriptions.get(s.source.id()) == s && poller.pollin(s.index)) {
          s.drain();
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

  /** One source's socket and where each of its topics stands. */
  private final class Subscription {
    final Source source;
    final ZMQ.Socket socket;
    final Map<String, Long> lastSeq = new HashMap<>();
    final boolean bound;
    final String replayEndpoint;
    int index;
    boolean afterReplay;
    Long lastLive;
    boolean replayedFirst;

    Subscription(Source source) {
      this.source = source;
      socket = context.createSocket(SocketType.SUB);
      socket.setLinger(0);
      socket.setRcvHWM(100_000);
      socket.setHandshakeIvl(HANDSHAKE_MILLIS);
      socket.subscribe(topicFilter.getBytes(StandardCharsets.UTF_8));
      bound = ZmqEndpoint.binds(source.endpoint());
      // A bound socket hears many servers; there is no one replay address for them.
      replayEndpoint = bound ? null : source.replayEndpoint();
      if (bound) {
        socket.bind(source.endpoint());
      } else {
        socket.connect(source.endpoint());
      }
      if (replayEndpoint != null) {
        // Everything the server still keeps, before the first live message: a new reader knows the server's cache.
        afterReplay = replay(0, Long.MAX_VALUE) > 0;
      }
    }

    void drain() {
      ZMsg msg;
      while ((msg = ZMsg.recvMsg(socket, false)) != null) {
        if (msg.size() != 3) {
          listener.onMalformed(source, "a message of " + msg.size() + " frames instead of [topic, seq, batch]");
          msg.destroy();
          continue;
        }
        String topic = msg.popString();
        byte[] seqFrame = msg.pop().getData();
        byte[] payload = msg.pop().getData();
        try {
          accept(topic, KvTopic.sequence(seqFrame), payload);
        } catch (MalformedEventException e) {
          listener.onMalformed(source, e.getMessage());
        } catch (RuntimeException e) {
          // One batch the listener cannot take must not stop the thread that reads every server.
          LOG.warn("kv events: a batch from {} was not applied: {}", source.id(), e.toString());
          listener.onMalformed(source, "not applied: " + e.getMessage());
        }
      }
    }

    private void accept(String topic, long seq, byte[] payload) throws MalformedEventException {
      KvEventBatch batch = KvEventCodec.decode(payload); // a malformed batch changes nothing, not even the numbering
      String key = key(topic);
      Long last = lastSeq.get(key);
      if (last != null && seq <= last) {
        // After a join replay, live batches queued before it arrive once more, in increasing order; a number that
        // goes back among live batches is a restart.
        boolean replayedAlready = afterReplay && (lastLive == null || seq > lastLive);
        lastLive = seq;
        if (replayedAlready) {
          return;
        }
        // Numbering started again: the server restarted, and a restarted server's cache is empty.
        lastSeq.remove(key);
        replayedFirst = false;
        listener.onReset(source, "sequence went back from " + last + " to " + seq + " (server restarted)");
        last = null;
      }
      afterReplay = false;
      lastLive = null;
      if (last == null && seq > 0 && replayEndpoint != null && !replayedFirst) {
        // The first live batch is not the server's first: ask for what came before (published between connecting
        // and subscribing, or before a join replay that found nothing).
        replayedFirst = true;
        replay(0, seq - 1);
        last = lastSeq.get(key);
      }
      if (last != null && seq > last + 1) {
        long recovered = replayEndpoint == null ? 0 : replay(last + 1, seq - 1);
        long missing = (seq - last - 1) - recovered;
        if (missing > 0) {
          listener.onGap(source, missing);
        }
      }
      apply(topic, seq, batch);
    }

    /**
     * A connected source is one server: one sequence, whatever its topic. A bound socket hears many servers, each
     * with its own topic and numbering.
     */
    private String key(String topic) {
      return bound ? topic : "";
    }

    private void apply(String topic, long seq, KvEventBatch batch) {
      lastSeq.put(key(topic), seq);
      listener.onBatch(source, KvTopic.parse(topic), batch);
    }

    /** Asks the server's replay socket for the batches from {@code from} to {@code to}; returns how many applied. */
    private long replay(long from, long to) {
      try (ZMQ.Socket dealer = context.createSocket(SocketType.DEALER)) {
        dealer.setLinger(0);
        dealer.setHandshakeIvl(HANDSHAKE_MILLIS);
        dealer.setReceiveTimeOut(REPLAY_TIMEOUT_MILLIS);
        dealer.connect(replayEndpoint);
        dealer.sendMore(new byte[0]);
        dealer.send(KvTopic.sequenceFrame(from));
        long applied = 0;
        long deadline = System.nanoTime() + REPLAY_TIMEOUT_MILLIS * 1_000_000L;
        while (System.nanoTime() < deadline) {
          ZMsg reply = ZMsg.recvMsg(dealer);
          if (reply == null) {
            LOG.debug("kv events replay from {}: no answer", replayEndpoint);
            return applied;
          }
          if (reply.size() > 0 && reply.peekFirst().size() == 0) {
            reply.pop();
          }
          // vLLM answers [seq, batch]; llm-d-inference-sim puts the topic first.
          String topic = reply.size() == 3 ? reply.popString() : "";
          if (reply.size() != 2) {
            listener.onMalformed(source, "a replay answer of " + reply.size() + " frames instead of [seq, batch]");
            return applied;
          }
          long seq = KvTopic.sequence(reply.pop().getData());
          byte[] payload = reply.pop().getData();
          if (seq == KvTopic.END_OF_REPLAY) {
            return applied;
          }
          Long last = lastSeq.get(key(topic));
          if (seq >= from && seq <= to && (last == null || seq > last)) {
            long expected = last == null ? from : last + 1;
            if (seq > expected) {
              listener.onGap(source, seq - expected); // dropped by the server (its send high-water mark) or gone
            }
            apply(topic, seq, KvEventCodec.decode(payload));
            applied++;
          }
        }
        return applied;
      } catch (MalformedEventException e) {
        listener.onMalformed(source, "replay: " + e.getMessage());
        return 0;
      } catch (RuntimeException e) {
        LOG.debug("kv events replay from {} failed: {}", replayEndpoint, e.toString());
        return 0;
      }
    }
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      try {
        thread.join(2_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      context.close();
    }
  }
}
