package dev.modelplane.common.kvevents;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMsg;

/**
 * Publishes a server's KV-cache events as vLLM does: a PUB socket sends {@code [topic, seq, batch]} for each batch,
 * {@code seq} counting from 0; an optional ROUTER socket answers a request carrying a start sequence number with
 * every kept batch from there on, one {@code [seq, batch]} message each, then {@code [ff×8, ""]}.
 *
 * <p>The engine calls {@link #publish} from its own thread and never waits: batches go through a queue of
 * {@code max_queue_size} to the publishing thread, which owns both sockets; when the queue is full the batch is
 * dropped and counted, as vLLM drops and logs. Subscribers see the gap in the sequence numbers.
 */
public final class KvEventPublisher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KvEventPublisher.class);
  private static final long POLL_MILLIS = 20;

  private final KvEventsConfig config;
  private final EventLayout layout;
  private final DoubleSupplier clock;
  private final Integer rank;
  private final BlockingQueue<KvEventBatch> queue;
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong published = new AtomicLong();
  private final ZContext context = new ZContext(1);
  private final ZMQ.Socket pub;
  private final ZMQ.Socket replay;
  private final Thread thread;
  private volatile boolean closing;

  /**
   * Opens the sockets (binding or connecting by vLLM's rule) and starts the publishing thread.
   *
   * @param config the settings of this rank (see {@link KvEventsConfig#forRank})
   * @param rank the data-parallel rank stamped on every batch
   * @param clock seconds since the epoch, stamped on every batch
   * @param host the one address the server listens on, which a wildcard endpoint is narrowed to (see
   *     {@link ZmqEndpoint#onHost}), or null
   * @throws org.zeromq.ZMQException when a socket cannot bind (the address is in use, for example)
   */
  public KvEventPublisher(KvEventsConfig config, EventLayout layout, int rank, DoubleSupplier clock, String host) {
    this.config = config;
    this.layout = layout;
    this.rank = rank;
    this.clock = clock;
    this.queue = new ArrayBlockingQueue<>(config.maxQueueSize());
    try {
      pub = context.createSocket(SocketType.PUB);
      pub.setSndHWM(config.hwm());
      pub.setLinger(500);
      pub.setHandshakeIvl(KvEventSubscriber.HANDSHAKE_MILLIS);
      if (ZmqEndpoint.binds(config.endpoint())) {
        pub.bind(ZmqEndpoint.onHost(config.endpoint(), host));
      } else {
        pub.connect(config.endpoint());
      }
      if (config.replayEndpoint() != null) {
        replay = context.createSocket(SocketType.ROUTER);
        replay.setLinger(0);
        replay.setSndHWM(0); // a replay answer is up to buffer_steps messages at once: none may be dropped
        replay.bind(ZmqEndpoint.onHost(config.replayEndpoint(), host));
      } else {
        replay = null;
      }
    } catch (RuntimeException e) {
      context.close(); // the PUB socket may already hold its port
      throw e;
    }
    thread = Thread.ofPlatform().daemon().name("kv-events-publisher").start(this::run);
  }

  /** A publisher whose wildcard endpoints bind every address. */
  public KvEventPublisher(KvEventsConfig config, EventLayout layout, int rank, DoubleSupplier clock) {
    this(config, layout, rank, clock, null);
  }

  /** Queues the events of one engine step as a batch; never blocks. Returns false when the batch was dropped. */
  public boolean publish(List<KvEvent> events) {
    if (events.isEmpty() || closing) {
      return false;
    }
    if (!queue.offer(new KvEventBatch(clock.getAsDouble(), events, rank))) {
      if (dropped.incrementAndGet() % 1_000 == 1) {
        LOG.warn("kv events dropped: the publishing queue of {} batches is full (dropped so far: {})",
            config.maxQueueSize(), dropped.get());
      }
      return false;
    }
    return true;
  }

  /** Batches dropped because the queue was full. */
  public long dropped() {
    return dropped.get();
  }

  /** Batches sent on the PUB socket. */
  public long published() {
    return published.get();
  }

  private void run() {
    ArrayDeque<byte[][]> kept = new ArrayDeque<>();
    byte[] topic = config.topic().getBytes(StandardCharsets.UTF_8);
    long seq = 0;
    try {
      while (!closing || !queue.isEmpty()) {
        if (replay != null) {
          answerReplays(kept);
        }
        KvEventBatch batch = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
        if (batch == null) {
          continue;
        }
        byte[] payload;
        try {
          payload = KvEventCodec.encode(batch, layout);
        } catch (RuntimeException e) {
          dropped.incrementAndGet();
          LOG.warn("kv events: a batch could not be encoded and was dropped: {}", e.getMessage());
          continue;
        }
        byte[] seqFrame = KvTopic.sequenceFrame(seq++);
        pub.sendMore(topic);
        pub.sendMore(seqFrame);
        pub.send(payload);
        published.incrementAndGet();
        if (replay != null) {
          kept.addLast(new byte[][] {seqFrame, payload});
          if (kept.size() > config.bufferSteps()) {
            kept.removeFirst();
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      if (!closing) {
        LOG.error("kv events publisher stopped: {}", e.toString(), e);
      }
    }
  }

  /** Answers every waiting replay request: vLLM's ROUTER protocol, from a REQ ({@code ["", seq]}) or DEALER peer. */
  private void answerReplays(ArrayDeque<byte[][]> kept) {
    ZMsg request;
    while ((request = ZMsg.recvMsg(replay, false)) != null) {
      byte[] identity = request.pop().getData();
      boolean delimited = request.size() == 2 && request.peekFirst().size() == 0;
      if (delimited) {
        request.pop();
      }
      if (request.size() != 1 || request.peekFirst().size() != 8) {
        LOG.warn("kv events replay: ignoring a request that is not one 8-byte start sequence number");
        request.destroy();
        continue;
      }
      long start = ByteBuffer.wrap(request.pop().getData()).getLong();
      request.destroy();
      for (byte[][] batch : kept) {
        if (ByteBuffer.wrap(batch[0]).getLong() >= start) {
          reply(identity, delimited, batch[0], batch[1]);
        }
      }
      reply(identity, delimited, KvTopic.sequenceFrame(KvTopic.END_OF_REPLAY), new byte[0]);
    }
  }

  private void reply(byte[] identity, boolean delimited, byte[] seq, byte[] payload) {
    replay.sendMore(identity);
    if (delimited) {
      replay.sendMore(new byte[0]);
    }
    replay.sendMore(seq);
    replay.send(payload);
  }

  /** Sends what is queued (for up to two seconds), then closes the sockets. */
  @Override
  public void close() {
    closing = true;
    try {
      thread.join(2_000); // the thread polls every 20 ms; an interrupt would close JeroMQ's channels under it
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    context.close();
  }
}
