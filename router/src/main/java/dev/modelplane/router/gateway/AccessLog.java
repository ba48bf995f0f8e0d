package dev.modelplane.router.gateway;

import dev.modelplane.common.request.RequestIds;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * One log event ({@code event=access}) per finished request, with the request id in the MDC, written by a background
 * thread so the event loop never blocks on output. When the queue is full, lines are dropped and counted rather than
 * slowing requests down.
 */
public final class AccessLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AccessLog.class);

  /** A finished request. */
  public record Entry(String method, String path, int status, long durationMicros, long ttfbMicros,
      long requestBytes, long responseBytes, String endpoint, String model, String targetModel, String requestId,
      int attempts, String pool, String error) {
  }

  /** Longest model name written as is; longer ones (client input) are cut. */
  static final int MAX_MODEL_CHARS = 256;

  private final BlockingQueue<Entry> queue = new ArrayBlockingQueue<>(65_536);
  private final Thread writer;
  private final AtomicLong dropped = new AtomicLong();
  private volatile boolean closed;

  public AccessLog() {
    this.writer = Thread.ofPlatform().daemon().name("access-log").start(this::run);
  }

  public void log(Entry e) {
    if (!queue.offer(e)) {
      dropped.incrementAndGet();
    }
  }

  public long dropped() {
    return dropped.get();
  }

  private void run() {
    while (!closed || !queue.isEmpty()) {
      Entry e;
      try {
        e = queue.poll(200, TimeUnit.MILLISECONDS);
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        return;
      }
      if (e == null) {
        continue;
      }
      write(e);
    }
  }

  private static void write(Entry e) {
    MDC.put(RequestIds.MDC_KEY, e.requestId() == null ? "-" : e.requestId());
    try {
      LoggingEventBuilder line = LOG.atInfo().addKeyValue("method", e.method()).addKeyValue("path", e.path())
          .addKeyValue("status", e.status()).addKeyValue("duration_ms", e.durationMicros() / 1000.0)
          .addKeyValue("ttfb_ms", e.ttfbMicros() < 0 ? "-" : e.ttfbMicros() / 1000.0)
          .addKeyValue("bytes_in", e.requestBytes()).addKeyValue("bytes_out", e.responseBytes())
          .addKeyValue("endpoint", e.endpoint() == null ? "-" : e.endpoint())
          .addKeyValue("model", clip(e.model()))
          .addKeyValue("target_model", clip(e.targetModel()))
          .addKeyValue("attempts", e.attempts()).addKeyValue("pool", e.pool() == null ? "-" : e.pool());
      if (e.error() != null) {
        line = line.addKeyValue("error", e.error());
      }
      line.log("access");
    } finally {
      MDC.remove(RequestIds.MDC_KEY);
    }
  }

  /** A model name for a log line: "-" for none, else at most {@link #MAX_MODEL_CHARS} chars and a length note. */
  static String clip(String model) {
    if (model == null) {
      return "-";
    }
    if (model.length() <= MAX_MODEL_CHARS) {
      return model;
    }
    int end = Character.isHighSurrogate(model.charAt(MAX_MODEL_CHARS - 1)) ? MAX_MODEL_CHARS - 1 : MAX_MODEL_CHARS;
    return model.substring(0, end) + "...(" + model.length() + " chars)";
  }

  @Override
  public void close() {
    closed = true;
    try {
      writer.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
