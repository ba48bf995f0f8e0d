package dev.modelplane.common.kvevents;

import dev.modelplane.common.kvevents.KvEventSubscriber.Limits;
import dev.modelplane.common.kvevents.KvEventSubscriber.Listener;
import dev.modelplane.common.kvevents.KvEventSubscriber.Source;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMsg;

/**
 * One source of a {@link KvEventSubscriber}: its socket, where each of its topics stands, its replays and their
 * budget. Used on the subscriber's thread only.
 */
final class SourceReader {
  private static final Logger LOG = LoggerFactory.getLogger(SourceReader.class);
  private static final long REOPEN_NANOS = 1_000_000_000L;
  private static final int DRAIN_MESSAGES = 256;
  private static final AtomicLong MONITORS = new AtomicLong();

  /** What every source of one subscriber shares. */
  record Owner(ZContext context, String topicFilter, Listener listener, Limits limits, AtomicBoolean closed) {
  }

  private final ZContext context;
  private final String topicFilter;
  private final Listener listener;
  private final Limits limits;
  private final AtomicBoolean closed;
  final Source source;
  final ZMQ.Socket socket;
  /** Per topic (one entry for a connected source), least recently heard first; at most {@code maxTopics}. */
  final Map<String, Long> lastSeq = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
      return size() > limits.maxTopics();
    }
  };
  long replayWindowStart;
  long replayNanosInWindow;
  boolean replayed;
  final boolean bound;
  final String replayEndpoint;
  /** Hears the socket's connection close (connecting sockets only), else null. */
  final ZMQ.Socket monitor;
  int index;
  int monitorIndex = -1;
  /** When to open a new socket (its connection closed), or 0. */
  long reopenAt;
  boolean afterReplay;
  Long lastLive;
  boolean replayedFirst;

  /**
   * A new socket for {@code source}; {@code previous}'s numbering and replay budget carry over.
   *
   * @throws RuntimeException when the socket cannot bind or connect (its sockets are closed)
   */
  SourceReader(Owner owner, Source source, SourceReader previous) {
    this.context = owner.context();
    this.topicFilter = owner.topicFilter();
    this.listener = owner.listener();
    this.limits = owner.limits();
    this.closed = owner.closed();
    this.source = source;
    if (previous != null) {
      lastSeq.putAll(previous.lastSeq);
      replayed = previous.replayed;
      replayWindowStart = previous.replayWindowStart;
      replayNanosInWindow = previous.replayNanosInWindow;
      replayedFirst = previous.replayedFirst;
    }
    bound = ZmqEndpoint.binds(source.endpoint());
    // A bound socket hears many servers; there is no one replay address for them.
    replayEndpoint = bound ? null : source.replayEndpoint();
    ZMQ.Socket sub = context.createSocket(SocketType.SUB);
    ZMQ.Socket watcher = null;
    try {
      sub.setLinger(0);
      sub.setRcvHWM(limits.queuedMessages());
      sub.setMaxMsgSize(limits.maxMessageBytes());
      sub.setHandshakeIvl(KvEventSubscriber.HANDSHAKE_MILLIS);
      sub.subscribe(topicFilter.getBytes(StandardCharsets.UTF_8));
      if (bound) {
        sub.bind(source.endpoint());
      } else {
        String address = "inproc://kv-events-monitor-" + MONITORS.incrementAndGet();
        sub.monitor(address, ZMQ.EVENT_DISCONNECTED);
        watcher = context.createSocket(SocketType.PAIR);
        watcher.setLinger(0);
        watcher.connect(address);
        sub.connect(source.endpoint());
      }
    } catch (RuntimeException e) {
      sub.close();
      if (watcher != null) {
        watcher.close();
      }
      throw e;
    }
    socket = sub;
    monitor = watcher;
    if (replayEndpoint != null) {
      // Everything the server still keeps, before the first live message: a new reader knows the server's cache.
      afterReplay = replay(0, Long.MAX_VALUE) > 0;
    }
  }

  /** A closed connection: a new socket in a second (ZeroMQ itself reconnects only some closed connections). */
  void watch() {
    for (ZMQ.Event e; (e = ZMQ.Event.recv(monitor, ZMQ.DONTWAIT)) != null; ) {
      if (e.getEvent() == ZMQ.EVENT_DISCONNECTED && reopenAt == 0) {
        LOG.debug("kv events: the connection to {} closed; a new socket in a second", source.endpoint());
        reopenAt = System.nanoTime() + REOPEN_NANOS;
        if (reopenAt == 0) {
          reopenAt = 1;
        }
      }
    }
  }

  void close() {
    socket.close();
    if (monitor != null) {
      monitor.close();
    }
  }

  /**
   * Reads what the socket holds, at most {@value #DRAIN_MESSAGES} messages, so a server that publishes faster than
   * its batches are applied cannot keep the thread from the other sources (the poll comes back to it).
   */
  void drain() {
    ZMsg msg;
    for (int n = 0; n < DRAIN_MESSAGES && !closed.get() && (msg = ZMsg.recvMsg(socket, false)) != null; n++) {
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
      if (replayEndpoint != null) {
        replay(last + 1, seq - 1); // reports the holes inside what it answers itself
        last = lastSeq.get(key);
      }
      long missing = seq - 1 - last; // what neither the live socket nor the replay brought
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
    long start = System.nanoTime();
    if (!replayed || start - replayWindowStart >= limits.replayWindow().toNanos()) {
      replayed = true;
      replayWindowStart = start;
      replayNanosInWindow = 0;
    }
    long budget = Math.min(limits.replayBudget().toNanos() - replayNanosInWindow,
        KvEventSubscriber.REPLAY_TIMEOUT_MILLIS * 1_000_000L);
    if (budget <= 0) {
      return 0; // the holes count as gaps: a source that keeps skipping numbers cannot keep this thread waiting
    }
    try {
      return replay(from, to, start + budget);
    } finally {
      replayNanosInWindow += System.nanoTime() - start;
    }
  }

  private long replay(long from, long to, long deadline) {
    long applied = 0;
    try (ZMQ.Socket dealer = context.createSocket(SocketType.DEALER)) {
      dealer.setLinger(0);
      dealer.setMaxMsgSize(limits.maxMessageBytes());
      dealer.setHandshakeIvl(KvEventSubscriber.HANDSHAKE_MILLIS);
      dealer.connect(replayEndpoint);
      dealer.sendMore(new byte[0]);
      dealer.send(KvTopic.sequenceFrame(from));
      for (long left; (left = deadline - System.nanoTime()) > 0 && !closed.get(); ) {
        dealer.setReceiveTimeOut((int) Math.max(1, left / 1_000_000L));
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
        if (!topic.isEmpty() && !topic.startsWith(topicFilter)) {
          continue; // what the live socket would not have received
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
      return applied;
    } catch (RuntimeException e) {
      LOG.debug("kv events replay from {} failed: {}", replayEndpoint, e.toString());
      return applied;
    }
  }
}
